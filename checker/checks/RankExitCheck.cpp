#include "RankExitCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;

void RankExitCheck::reportDivergence(const analysis::Divergence &D, ASTContext &Context) {
  const std::string Ranks = ranksWhere(D, Context);
  // A group start is local: the others wait in the operations of the group.
  diag(D.event.site, "%0 is never reached on %1, which %2 before it; the other ranks wait in "
                     "%3 and the job hangs")
      << namedCollective(D.event) << Ranks << leavingVerb(D.leaving)
      << (D.event.groupMarker ? "the operations of their group" : "it");
  if (D.leaving)
    diag(D.leaving->getBeginLoc(), "%0 %1 here", DiagnosticIDs::Note)
        << Ranks << leavingVerb(D.leaving);
  addCommonNotes(*this, D, Context);
  diag(D.event.site,
       "let every rank reach %0 before leaving, or make the decision to leave the same on "
       "every rank",
       DiagnosticIDs::Note)
      << quoted(calledName(D.event));
}

} // namespace lockstep::checks
