#include "PendingFindings.h"

namespace lockstep::cli {

namespace {

enum class Outcome { Resolved, Unknown, Dropped };

/// A note the resolution adds, before the note at Index among the notes of
/// the finding as analysed (at the end when there is none).
struct AddedNote {
  unsigned Index;
  findings::Note Note;
  findings::Message Text;
};

} // namespace

/// The summaries of \p W's pending callees, or why not every one resolves.
static Outcome calleesOf(const findings::Wording &W, const analysis::ExternalSummaries &Summaries,
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
      return Outcome::Dropped;
  }
  return Result;
}

/// The first of \p W's pending reads that a summary says another file
/// writes (a field, a global) or returns (a function) with a per-rank value,
/// and that summary; Unknown when none is. A split's handle, or a rank in a
/// part of the job, is decided only with the summaries in the analysis
/// (`--summaries`): membership needs them.
static Outcome perRankOf(const findings::Wording &W, const analysis::ExternalSummaries &Summaries,
                         const findings::PendingRead *&Read,
                         const analysis::ExternalFunction *&Writer) {
  if (W.Reads.empty())
    return Outcome::Resolved;
  for (const findings::PendingRead &R : W.Reads)
    if (auto It = Summaries.find(R.Usr); It != Summaries.end() && It->second.ReturnsRank &&
                                         !It->second.ReturnsSplit && It->second.RankPart.empty()) {
      Read = &R;
      Writer = &It->second;
      return Outcome::Resolved;
    }
  return Outcome::Unknown;
}

/// Names \p F's pending calls after \p Callees (one per call), adds the note
/// at \p Writer's write of \p Read (when one), and renders it.
static void resolve(Finding &F, const std::vector<const analysis::ExternalFunction *> &Callees,
                    const findings::PendingRead *Read, const analysis::ExternalFunction *Writer) {
  findings::Wording W = std::move(*F.Pending);
  std::vector<AddedNote> Added;
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
      Added.push_back({*C.CalleeNote,
                       {{First.Site.File, First.Site.Line, First.Site.Column}, ""},
                       findings::calleeNote(C.Collective)});
    }
    C.Usr.clear();
    C.Arguments.clear();
  }
  if (Read) {
    const analysis::SourcePoint &Site = Writer->RankSite;
    Added.push_back({Read->Note,
                     {{Site.File, Site.Line, Site.Column}, ""},
                     findings::quoted(Read->Name) + " gets the rank here"});
  }
  W.Reads.clear();
  // Of two added at one place, the one added first comes first.
  std::vector<findings::Note> Notes;
  std::vector<findings::Message> Texts;
  for (size_t I = 0; I <= F.Notes.size(); ++I) {
    for (AddedNote &N : Added)
      if (N.Index == I) {
        Notes.push_back(std::move(N.Note));
        Texts.push_back(std::move(N.Text));
      }
    if (I < F.Notes.size()) {
      Notes.push_back(std::move(F.Notes[I]));
      Texts.push_back(std::move(W.Notes[I]));
    }
  }
  F.Notes = std::move(Notes);
  W.Notes = std::move(Texts);
  findings::render(F, std::move(W));
}

std::vector<Finding> resolvePending(std::vector<Finding> Findings,
                                    const analysis::ExternalSummaries &Summaries,
                                    bool KeepUnresolved) {
  std::vector<Finding> Out;
  for (Finding &F : Findings) {
    std::vector<const analysis::ExternalFunction *> Callees;
    const findings::PendingRead *Read = nullptr;
    const analysis::ExternalFunction *Writer = nullptr;
    Outcome Calls = Outcome::Resolved, Reads = Outcome::Resolved;
    if (F.Pending) {
      Calls = calleesOf(*F.Pending, Summaries, Callees);
      Reads = perRankOf(*F.Pending, Summaries, Read, Writer);
    }
    if (Calls == Outcome::Dropped || Reads == Outcome::Dropped)
      continue;
    if (Calls == Outcome::Unknown || Reads == Outcome::Unknown) {
      if (KeepUnresolved)
        Out.push_back(std::move(F));
      continue;
    }
    if (F.Pending)
      resolve(F, Callees, Read, Writer);
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace lockstep::cli
