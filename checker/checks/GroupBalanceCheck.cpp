#include "GroupBalanceCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::GroupImbalance;

void GroupBalanceCheck::reportImbalance(const GroupImbalance &P, ASTContext &Context) {
  const std::string Marker = quoted(P.marker);
  const std::string Function = quoted(P.function->getQualifiedNameAsString());
  FindingBuilder Finding = finding(Context);
  Finding.about(P.function, nullptr, nullptr);
  switch (P.kind) {
  case GroupImbalance::Kind::LeftOpen:
    Finding.warning(P.site, Marker + " opens a group that is still open on some paths out of " +
                                Function +
                                "; the operations queued in it are never launched and the other "
                                "ranks hang");
    if (P.leaving)
      Finding.note(P.leaving->getBeginLoc(),
                   "the group is still open at this " + quoted(leavingKeyword(P.leaving)));
    Finding.note(P.site, "end the group on every path, or hold it in an RAII guard whose "
                         "destructor ends it");
    break;
  case GroupImbalance::Kind::NeverClosed:
    Finding.warning(P.site, Marker + " opens a group that " + Function +
                                " never ends; the operations queued in it are never launched "
                                "and the other ranks hang");
    Finding.note(P.site, "end the group before " + Function + " returns");
    break;
  case GroupImbalance::Kind::UnmatchedEnd:
    Finding.warning(P.site, Marker + " ends a group that is not open on every path through " +
                                Function + "; the group calls no longer pair up");
    Finding.note(P.site, "start the group on the same paths that end it");
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
  const bool Skipped = D.kind == Divergence::Kind::SkippedAfterExit;
  if (!D.event.groupMarker)
    return;
  for (const GroupImbalance &P : unit().groupImbalances())
    if (P.site == D.event.site || (Skipped && P.function == D.function))
      return;
  const std::string Ranks = ranksWhere(D, Context);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &D.event, D.condition);
  if (Skipped)
    Finding.warning(D.event.site, Finding.name(D.event) + " is never reached on " + Ranks +
                                      ", which " + leavingVerb(D.leaving) +
                                      " before it; their group stays open and the job can hang");
  else
    Finding.warning(D.event.site, Finding.name(D.event) + " runs only on " + Ranks +
                                      "; the ranks group their operations differently and the "
                                      "job can hang");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.event.site, "make the same group calls on every rank; keep only the "
                             "rank-specific operations under the condition");
  Finding.emit();
}

} // namespace lockstep::checks
