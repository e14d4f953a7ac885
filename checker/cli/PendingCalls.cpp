#include "PendingCalls.h"

#include <algorithm>

namespace lockstep::cli {

namespace {

enum class Outcome { Resolved, Unknown, NoCollective };

/// The summaries of \p W's pending callees, or why not every one resolves.
Outcome summariesOf(const findings::Wording &W, const analysis::ExternalSummaries &Summaries,
                    std::vector<const analysis::ExternalFunction *> &Callees) {
  Outcome Result = Outcome::Resolved;
  for (const findings::Call &C : W.calls) {
    auto It = C.pending() ? Summaries.find(C.usr) : Summaries.end();
    Callees.push_back(It == Summaries.end() ? nullptr : &It->second);
    if (!C.pending())
      continue;
    if (It == Summaries.end())
      Result = Outcome::Unknown; // defined nowhere in the project: a library call
    else if (!It->second.performsCollectives())
      return Outcome::NoCollective;
  }
  return Result;
}

/// Names \p F's pending calls after \p Callees (one per call) and renders it.
void resolve(Finding &F, const std::vector<const analysis::ExternalFunction *> &Callees) {
  findings::Wording W = std::move(*F.pending);
  struct CalleeNote {
    unsigned index; // among the notes, where the checks place it for a local callee
    Note note;
    findings::Message text;
  };
  std::vector<CalleeNote> CalleeNotes;
  for (size_t I = 0; I < W.calls.size(); ++I) {
    findings::Call &C = W.calls[I];
    if (!C.pending())
      continue;
    const analysis::ExternalFunction::Collective &First = Callees[I]->collectives.front();
    C.collective.name = First.name;
    // The communicator the callee receives is the caller's argument.
    const std::optional<unsigned> Param = First.communicatorParam;
    C.collective.communicator =
        Param && *Param < C.arguments.size() ? C.arguments[*Param] : First.communicator;
    if (C.calleeNote) {
      F.collective = C.collective.name;
      F.communicator = C.collective.communicator;
      CalleeNotes.push_back({*C.calleeNote,
                             {{First.site.file, First.site.line, First.site.column}, ""},
                             findings::calleeNote(C.collective)});
    }
    C.usr.clear();
    C.arguments.clear();
  }
  std::sort(CalleeNotes.begin(), CalleeNotes.end(),
            [](const CalleeNote &A, const CalleeNote &B) { return A.index > B.index; });
  for (CalleeNote &N : CalleeNotes) {
    F.notes.insert(F.notes.begin() + N.index, std::move(N.note));
    W.notes.insert(W.notes.begin() + N.index, std::move(N.text));
  }
  findings::render(F, std::move(W));
}

} // namespace

std::vector<Finding> resolvePending(std::vector<Finding> Findings,
                                    const analysis::ExternalSummaries &Summaries,
                                    bool KeepUnresolved) {
  std::vector<Finding> Out;
  for (Finding &F : Findings) {
    std::vector<const analysis::ExternalFunction *> Callees;
    const Outcome O = F.pending ? summariesOf(*F.pending, Summaries, Callees) : Outcome::Resolved;
    if (O == Outcome::NoCollective || (O == Outcome::Unknown && !KeepUnresolved))
      continue;
    if (O == Outcome::Resolved && F.pending)
      resolve(F, Callees);
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace lockstep::cli
