#include "RankBranchCheck.h"
#include "DivergenceNotes.h"
#include "MoveOutOfBranchFix.h"

#include "../analysis/FunctionCFG.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

namespace {

std::string onCommunicator(const analysis::CollectiveEvent &Event) {
  return Event.communicator.empty() ? "" : " on " + quoted(Event.communicator);
}

} // namespace

void RankBranchCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  const std::string Ranks = ranksWhere(D, Context);
  const analysis::CollectiveEvent &Event = D.event;
  if (D.kind == Divergence::Kind::OnlySomeRanks) {
    std::string Others =
        D.otherEvent ? "the other ranks call " + quoted(D.otherEvent->collective) + " instead"
                     : "the other ranks never call it";
    diag(Event.site, "%0 runs only on %1; %2 and the job hangs")
        << namedCollective(Event) << Ranks << Others << moveOutOfBranch(D, Context);
    addCommonNotes(*this, D, Context);
    if (D.otherEvent)
      diag(D.otherEvent->site, "the other ranks call %0 here", DiagnosticIDs::Note)
          << quoted(D.otherEvent->collective);
    // A guard declared before the branch is on every rank already.
    if (!Event.guard || (D.branch && analysis::sourceContains(Context.getSourceManager(),
                                                              D.branch->getSourceRange(),
                                                              Event.site)))
      diag(Event.site,
           "%select{call|declare}0 %1 on every rank: move it out of the branch and keep "
           "only the rank-specific work under the condition",
           DiagnosticIDs::Note)
          << (Event.guard != nullptr)
          << quoted(Event.guard ? Event.guard->getName().str() : calledName(Event));
    return;
  }
  assert(D.kind == Divergence::Kind::Order && "the router sends only these two kinds");
  diag(Event.site, "%0%1 runs first on %2, but the other ranks run %3%4 first; each "
                   "side waits for the other and the job hangs")
      << quoted(Event.collective) << onCommunicator(Event) << Ranks
      << quoted(D.otherEvent->collective) << onCommunicator(*D.otherEvent);
  addCommonNotes(*this, D, Context);
  diag(D.otherEvent->site, "the other ranks start with %0%1 here", DiagnosticIDs::Note)
      << quoted(D.otherEvent->collective) << onCommunicator(*D.otherEvent);
  diag(Event.site, "issue the collectives in the same order on every rank", DiagnosticIDs::Note);
}

// A bound of the engine was reached: say so rather than stay silently quiet.
void RankBranchCheck::reportLimit(const analysis::AnalysisLimit &Limit, ASTContext &) {
  diag(Limit.where, "lockstep: analysis of %0 incomplete: %1", DiagnosticIDs::Remark)
      << Limit.function << Limit.what;
}

} // namespace lockstep::checks
