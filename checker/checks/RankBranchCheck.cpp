#include "RankBranchCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

namespace {

std::string onCommunicator(const analysis::CollectiveEvent &Event) {
  return Event.communicator.empty() ? "" : " on " + quoted(Event.communicator);
}

/// The first agreed argument (root, count, ...) that differs.
std::pair<std::string, std::pair<std::string, std::string>>
firstDifference(const analysis::CollectiveEvent &A, const analysis::CollectiveEvent &B) {
  for (size_t I = 0; I < A.agreedArguments.size() && I < B.agreedArguments.size(); ++I)
    if (A.agreedArguments[I] != B.agreedArguments[I])
      return {A.agreedArguments[I].first,
              {A.agreedArguments[I].second, B.agreedArguments[I].second}};
  return {"arguments", {"", ""}};
}

} // namespace

void RankBranchCheck::report(const analysis::TranslationUnitAnalysis &Analysis,
                             ASTContext &Context) {
  for (const Divergence &D : Analysis.divergences()) {
    const std::string Ranks = ranksWhere(D, Context);
    const analysis::CollectiveEvent &Event = D.event;
    switch (D.kind) {
    case Divergence::Kind::SkippedAfterExit:
      continue; // lockstep-rank-exit
    case Divergence::Kind::OnlySomeRanks: {
      std::string Others =
          D.otherEvent ? "the other ranks call " + quoted(D.otherEvent->collective) + " instead"
                       : "the other ranks never call it";
      diag(Event.site, "%0 runs only on %1; %2 and the job hangs")
          << namedCollective(Event)
          << Ranks << Others;
      addCommonNotes(*this, D, Context);
      if (D.otherEvent)
        diag(D.otherEvent->site, "the other ranks call %0 here", DiagnosticIDs::Note)
            << quoted(D.otherEvent->collective);
      diag(Event.site,
           "call %0 on every rank: move it out of the branch and keep only the rank-specific "
           "work under the condition",
           DiagnosticIDs::Note)
          << quoted(calledName(Event));
      break;
    }
    case Divergence::Kind::Order: {
      diag(Event.site, "%0%1 runs first on %2, but the other ranks run %3%4 first; each "
                       "side waits for the other and the job hangs")
          << quoted(Event.collective) << onCommunicator(Event) << Ranks
          << quoted(D.otherEvent->collective) << onCommunicator(*D.otherEvent);
      addCommonNotes(*this, D, Context);
      diag(D.otherEvent->site, "the other ranks start with %0%1 here", DiagnosticIDs::Note)
          << quoted(D.otherEvent->collective) << onCommunicator(*D.otherEvent);
      diag(Event.site, "issue the collectives in the same order on every rank",
           DiagnosticIDs::Note);
      break;
    }
    case Divergence::Kind::Arguments: {
      auto [Role, Values] = firstDifference(Event, *D.otherEvent);
      diag(Event.site, "%0 gets %1 '%2' on %3 but '%4' on the other ranks; every rank must "
                       "pass the same %1 or the job hangs or computes garbage")
          << namedCollective(Event) << Role
          << Values.first << Ranks << Values.second;
      addCommonNotes(*this, D, Context);
      diag(D.otherEvent->site, "the other ranks pass '%0' here", DiagnosticIDs::Note)
          << Values.second;
      diag(Event.site, "compute the %0 so that it is the same on every rank", DiagnosticIDs::Note)
          << Role;
      break;
    }
    }
  }
}

} // namespace lockstep::checks
