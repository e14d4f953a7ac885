#include "JoinBarrierCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;

void JoinBarrierCheck::reportLoop(const analysis::LoopDivergence &D, ASTContext &Context) {
  const rules::JoinProtocolRule &Protocol = *D.join->protocol;
  diag(D.event.site, "%0 %1 the uneven loop inside the join region of %2, which does not "
                     "shadow it; ranks that run out of input first shadow only %3, so their "
                     "shadow collectives pair with this one and the ranks fall out of step")
      << namedCollective(D.event) << (D.afterLoop ? "runs after" : "runs in")
      << quoted(Protocol.name) << quotedList(Protocol.shadows);
  diag(D.join->range.getBegin(), "the join region of %0 starts here", DiagnosticIDs::Note)
      << quoted(Protocol.name);
  addCommonNotes(*this, D.event, D.condition, D.source, Context);
  diag(D.event.site,
       "move %0 out of the join region (after it ends, every rank has joined), or list it in "
       "the protocol's 'shadows' if the protocol really shadows it",
       DiagnosticIDs::Note)
      << quoted(calledName(D.event));
}

} // namespace lockstep::checks
