#include "JoinBarrierCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;

void JoinBarrierCheck::reportLoop(const analysis::LoopDivergence &D, ASTContext &Context) {
  const rules::JoinProtocolRule &Protocol = *D.Join->Protocol;
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  Finding.warning(D.Event.Site, Finding.name(D.Event) + (D.AfterLoop ? " runs after" : " runs in") +
                                    " the uneven loop inside the join region of " +
                                    quoted(Protocol.Name) +
                                    ", which does not shadow it; ranks that run out of input "
                                    "first shadow "
                                    "only " +
                                    quotedList(Protocol.Shadows) +
                                    ", so their shadow collectives pair with this one and "
                                    "the ranks fall out "
                                    "of step");
  Finding.note(D.Join->Range.getBegin(),
               "the join region of " + quoted(Protocol.Name) + " starts here");
  addCommonNotes(Finding, D.Event, D.Condition, D.Source, Context);
  Finding.note(D.Event.Site, "move " + quoted(calledName(D.Event)) +
                                 " out of the join region (after it ends, every rank has "
                                 "joined), or list it in the protocol's 'shadows' if the "
                                 "protocol really shadows it");
  Finding.emit();
}

} // namespace lockstep::checks
