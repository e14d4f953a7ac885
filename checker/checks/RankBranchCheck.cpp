#include "RankBranchCheck.h"
#include "DivergenceNotes.h"
#include "MoveOutOfBranchFix.h"

#include "../analysis/FunctionCFG.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

void RankBranchCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  const std::string Ranks = ranksWhere(D, Context);
  const analysis::CollectiveEvent &Event = D.Event;
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &Event, D.Condition);
  if (D.K == Divergence::Kind::OnlySomeRanks) {
    Message Others = D.OtherEvent ? "the other ranks call " +
                                        Finding.name(*D.OtherEvent, Naming::Collective) + " instead"
                                  : "the other ranks never call it";
    Finding.warning(Event.Site,
                    Finding.name(Event) + " runs only on " + Ranks + "; " + Others +
                        " and the job hangs",
                    {}, moveOutOfBranch(D, Context));
    addCommonNotes(Finding, D, Context);
    if (D.OtherEvent)
      Finding.note(D.OtherEvent->Site, "the other ranks call " +
                                           Finding.name(*D.OtherEvent, Naming::Collective) +
                                           " here");
    // A guard declared before the branch is on every rank already.
    if (!Event.Guard ||
        (D.Branch && analysis::sourceContains(Context.getSourceManager(),
                                              D.Branch->getSourceRange(), Event.Site)))
      Finding.note(Event.Site, (Event.Guard ? "declare " + quoted(Event.Guard->getName().str())
                                            : "call " + quoted(calledName(Event))) +
                                   " on every rank: move it out of the branch and keep only the "
                                   "rank-specific work under the condition");
    Finding.emit();
    return;
  }
  assert(D.kind == Divergence::Kind::Order && "the router sends only these two kinds");
  const analysis::CollectiveEvent &Other = *D.OtherEvent;
  Finding.warning(Event.Site, Finding.name(Event, Naming::Collective) +
                                  Finding.name(Event, Naming::OnCommunicator) + " runs first on " +
                                  Ranks + ", but the other ranks run " +
                                  Finding.name(Other, Naming::Collective) +
                                  Finding.name(Other, Naming::OnCommunicator) +
                                  " first; each side waits for the other and the job hangs");
  addCommonNotes(Finding, D, Context);
  Finding.note(Other.Site, "the other ranks start with " + Finding.name(Other, Naming::Collective) +
                               Finding.name(Other, Naming::OnCommunicator) + " here");
  Finding.note(Event.Site, "issue the collectives in the same order on every rank");
  Finding.emit();
}

// A bound of the engine was reached: say so rather than stay silently quiet.
void RankBranchCheck::reportLimit(const analysis::AnalysisLimit &Limit, ASTContext &) {
  diag(Limit.Where, "lockstep: analysis of %0 incomplete: %1", DiagnosticIDs::Remark)
      << Limit.Function << Limit.What;
}

} // namespace lockstep::checks
