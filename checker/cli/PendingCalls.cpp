#include "PendingCalls.h"

#include <algorithm>

namespace lockstep::cli {

namespace {

enum class Outcome { Resolved, Unknown, NoCollective };

/// The summaries of \p W's pending callees, or why not every one resolves.
Outcome summariesOf(const findings::Wording &W, const analysis::ExternalSummaries &Summaries,
                    std::vector<const analysis::ExternalFunction *> &Callees) {
  Outcome Result = Outcome::Resolved;
  for (const findings::Call &C : W.Calls) {
    auto It = C.pending() ? Summaries.find(C.Usr) : Summaries.end();
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
  findings::Wording W = std::move(*F.Pending);
  struct CalleeNote {
    unsigned Index; // among the notes, where the checks place it for a local callee
    findings::Note Note;
    findings::Message Text;
  };
  std::vector<CalleeNote> CalleeNotes;
  for (size_t I = 0; I < W.Calls.size(); ++I) {
    findings::Call &C = W.Calls[I];
    if (!C.pending())
      continue;
    const analysis::ExternalFunction::Collective &First = Callees[I]->Collectives.front();
    C.Collective.Name = First.Name;
    // The communicator the callee receives is the caller's argument.
    const std::optional<unsigned> Param = First.CommunicatorParam;
    C.Collective.Communicator =
        Param && *Param < C.Arguments.size() ? C.Arguments[*Param] : First.Communicator;
    if (C.CalleeNote) {
      F.Collective = C.Collective.Name;
      F.Communicator = C.Collective.Communicator;
      CalleeNotes.push_back({*C.CalleeNote,
                             {{First.Site.File, First.Site.Line, First.Site.Column}, ""},
                             findings::calleeNote(C.Collective)});
    }
    C.Usr.clear();
    C.Arguments.clear();
  }
  std::sort(CalleeNotes.begin(), CalleeNotes.end(),
            [](const CalleeNote &A, const CalleeNote &B) { return A.Index > B.Index; });
  for (CalleeNote &N : CalleeNotes) {
    F.Notes.insert(F.Notes.begin() + N.Index, std::move(N.Note));
    W.Notes.insert(W.Notes.begin() + N.Index, std::move(N.Text));
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
    const Outcome O = F.Pending ? summariesOf(*F.Pending, Summaries, Callees) : Outcome::Resolved;
    if (O == Outcome::NoCollective || (O == Outcome::Unknown && !KeepUnresolved))
      continue;
    if (O == Outcome::Resolved && F.Pending)
      resolve(F, Callees);
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace lockstep::cli
