#include "GroupBalanceCheck.h"
#include "../analysis/NeverReturns.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::GroupImbalance;

void GroupBalanceCheck::reportImbalance(const GroupImbalance &P, ASTContext &Context) {
  const std::string Marker = quoted(P.Marker);
  const std::string Function = quoted(qualifiedName(P.Function));
  FindingBuilder Finding = finding(Context);
  Finding.about(P.Function, nullptr, nullptr);
  switch (P.K) {
  case GroupImbalance::Kind::LeftOpen:
    Finding.warning(P.Site, Marker + " opens a group that is still open on some paths out of " +
                                Function +
                                "; the operations queued in it are never launched and the other "
                                "ranks hang");
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P.Leaving);
        Call && Call->getDirectCallee() && !analysis::neverReturns(*Call->getDirectCallee()))
      Finding.note(Call->getBeginLoc(), "the group is still open if " +
                                            quoted(qualifiedName(Call->getDirectCallee())) +
                                            " throws here");
    else if (P.Leaving)
      Finding.note(P.Leaving->getBeginLoc(),
                   "the group is still open at this " + quoted(leavingKeyword(P.Leaving)));
    Finding.note(P.Site, "end the group on every path, or hold it in an RAII guard whose "
                         "destructor ends it");
    break;
  case GroupImbalance::Kind::NeverClosed:
    Finding.warning(P.Site, Marker + " opens a group that " + Function +
                                " never ends; the operations queued in it are never launched "
                                "and the other ranks hang");
    Finding.note(P.Site, "end the group before " + Function + " returns");
    break;
  case GroupImbalance::Kind::UnmatchedEnd:
    Finding.warning(P.Site, Marker + " ends a group that is not open on every path through " +
                                Function + "; the group calls no longer pair up");
    Finding.note(P.Site, "start the group on the same paths that end it");
    break;
  }
  Finding.emit();
}

// Group calls that only some ranks make, and group ends that some ranks
// skip, unless an imbalance already says what is wrong: one at the same
// site, or, for a skipped end, the group left open in the same function. A
// divergence whose other side is the group call is the same one seen from
// the other arm, reported at the group call.
void GroupBalanceCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  const bool Skipped = D.K == Divergence::Kind::SkippedAfterExit;
  if (!D.Event.GroupMarker)
    return;
  for (const GroupImbalance &P : unit().groupImbalances())
    if (P.Site == D.Event.Site || (Skipped && P.Function == D.Function))
      return;
  const std::string Ranks = ranksWhere(D, Context);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  if (Skipped)
    Finding.warning(D.Event.Site, Finding.name(D.Event) + " is never reached on " + Ranks +
                                      ", which " + leavingVerb(D.Leaving, Context) +
                                      " before it; their group stays open and the job can hang");
  else
    Finding.warning(D.Event.Site, Finding.name(D.Event) + " runs only on " + Ranks +
                                      "; the ranks group their operations differently and the "
                                      "job can hang");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.Event.Site, "make the same group calls on every rank; keep only the "
                             "rank-specific operations under the condition");
  Finding.emit();
}

} // namespace lockstep::checks
