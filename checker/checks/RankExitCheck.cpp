#include "RankExitCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;

void RankExitCheck::reportDivergence(const analysis::Divergence &D, ASTContext &Context) {
  const std::string Ranks = ranksWhere(D, Context);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  // A group start is local: the others wait in the operations of the group.
  Finding.warning(D.Event.Site, Finding.name(D.Event) + " is never reached on " + Ranks +
                                    ", which " + leavingVerb(D.Leaving, Context) +
                                    " before it; the other ranks wait in " +
                                    (D.Event.GroupMarker ? "the operations of their group" : "it") +
                                    " and the job hangs");
  if (D.Leaving)
    Finding.note(D.Leaving->getBeginLoc(), Ranks + " " + leavingVerb(D.Leaving, Context) + " here");
  noteWhyNeverReturns(Finding, D.Leaving);
  addCommonNotes(Finding, D, Context);
  Finding.note(D.Event.Site, "let every rank reach " + quoted(calledName(D.Event)) +
                                 " before leaving, or make the decision to leave the same on "
                                 "every rank");
  Finding.emit();
}

} // namespace lockstep::checks
