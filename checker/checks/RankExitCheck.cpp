#include "RankExitCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;

void RankExitCheck::reportDivergence(const analysis::Divergence &D, ASTContext &Context) {
  const std::string Ranks = ranksWhere(D, Context);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &D.event, D.condition);
  // A group start is local: the others wait in the operations of the group.
  Finding.warning(D.event.site, Finding.name(D.event) + " is never reached on " + Ranks +
                                    ", which " + leavingVerb(D.leaving) +
                                    " before it; the other ranks wait in " +
                                    (D.event.groupMarker ? "the operations of their group" : "it") +
                                    " and the job hangs");
  if (D.leaving)
    Finding.note(D.leaving->getBeginLoc(), Ranks + " " + leavingVerb(D.leaving) + " here");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.event.site, "let every rank reach " + quoted(calledName(D.event)) +
                                 " before leaving, or make the decision to leave the same on "
                                 "every rank");
  Finding.emit();
}

} // namespace lockstep::checks
