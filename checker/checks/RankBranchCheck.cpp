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
  const analysis::CollectiveEvent &Event = D.event;
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &Event, D.condition);
  if (D.kind == Divergence::Kind::OnlySomeRanks) {
    Message Others = D.otherEvent ? "the other ranks call " +
                                        Finding.name(*D.otherEvent, Naming::Collective) + " instead"
                                  : "the other ranks never call it";
    Finding.warning(Event.site,
                    Finding.name(Event) + " runs only on " + Ranks + "; " + Others +
                        " and the job hangs",
                    {}, moveOutOfBranch(D, Context));
    addCommonNotes(Finding, D, Context);
    if (D.otherEvent)
      Finding.note(D.otherEvent->site, "the other ranks call " +
                                           Finding.name(*D.otherEvent, Naming::Collective) +
                                           " here");
    // A guard declared before the branch is on every rank already.
    if (!Event.guard ||
        (D.branch && analysis::sourceContains(Context.getSourceManager(),
                                              D.branch->getSourceRange(), Event.site)))
      Finding.note(Event.site, (Event.guard ? "declare " + quoted(Event.guard->getName().str())
                                            : "call " + quoted(calledName(Event))) +
                                   " on every rank: move it out of the branch and keep only the "
                                   "rank-specific work under the condition");
    Finding.emit();
    return;
  }
  assert(D.kind == Divergence::Kind::Order && "the router sends only these two kinds");
  const analysis::CollectiveEvent &Other = *D.otherEvent;
  Finding.warning(Event.site, Finding.name(Event, Naming::Collective) +
                                  Finding.name(Event, Naming::OnCommunicator) + " runs first on " +
                                  Ranks + ", but the other ranks run " +
                                  Finding.name(Other, Naming::Collective) +
                                  Finding.name(Other, Naming::OnCommunicator) +
                                  " first; each side waits for the other and the job hangs");
  addCommonNotes(Finding, D, Context);
  Finding.note(Other.site, "the other ranks start with " + Finding.name(Other, Naming::Collective) +
                               Finding.name(Other, Naming::OnCommunicator) + " here");
  Finding.note(Event.site, "issue the collectives in the same order on every rank");
  Finding.emit();
}

// A bound of the engine was reached: say so rather than stay silently quiet.
void RankBranchCheck::reportLimit(const analysis::AnalysisLimit &Limit, ASTContext &) {
  diag(Limit.where, "lockstep: analysis of %0 incomplete: %1", DiagnosticIDs::Remark)
      << Limit.function << Limit.what;
}

} // namespace lockstep::checks
