#include "JoinBarrierCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;

void JoinBarrierCheck::reportLoop(const analysis::LoopDivergence &D, ASTContext &Context) {
  const rules::JoinProtocolRule &Protocol = *D.join->protocol;
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &D.event, D.condition);
  Finding.warning(D.event.site, Finding.name(D.event) + (D.afterLoop ? " runs after" : " runs in") +
                                    " the uneven loop inside the join region of " +
                                    quoted(Protocol.name) +
                                    ", which does not shadow it; ranks that run out of input "
                                    "first shadow "
                                    "only " +
                                    quotedList(Protocol.shadows) +
                                    ", so their shadow collectives pair with this one and "
                                    "the ranks fall out "
                                    "of step");
  Finding.note(D.join->range.getBegin(),
               "the join region of " + quoted(Protocol.name) + " starts here");
  addCommonNotes(Finding, D.event, D.condition, D.source, Context);
  Finding.note(D.event.site, "move " + quoted(calledName(D.event)) +
                                 " out of the join region (after it ends, every rank has "
                                 "joined), or list it in the protocol's 'shadows' if the "
                                 "protocol really shadows it");
  Finding.emit();
}

} // namespace lockstep::checks
