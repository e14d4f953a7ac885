#include "GroupBalanceCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::GroupImbalance;

void GroupBalanceCheck::reportImbalance(const GroupImbalance &P, ASTContext &) {
  const std::string Function = quoted(P.function->getQualifiedNameAsString());
  switch (P.kind) {
  case GroupImbalance::Kind::LeftOpen:
    diag(P.site, "%0 opens a group that is still open on some paths out of %1; the "
                 "operations queued in it are never launched and the other ranks hang")
        << quoted(P.marker) << Function;
    if (P.leaving)
      diag(P.leaving->getBeginLoc(), "the group is still open at this %0", DiagnosticIDs::Note)
          << quoted(leavingKeyword(P.leaving));
    diag(P.site, "end the group on every path, or hold it in an RAII guard whose destructor "
                 "ends it",
         DiagnosticIDs::Note);
    break;
  case GroupImbalance::Kind::NeverClosed:
    diag(P.site, "%0 opens a group that %1 never ends; the operations queued in it are never "
                 "launched and the other ranks hang")
        << quoted(P.marker) << Function;
    diag(P.site, "end the group before %0 returns", DiagnosticIDs::Note) << Function;
    break;
  case GroupImbalance::Kind::UnmatchedEnd:
    diag(P.site, "%0 ends a group that is not open on every path through %1; the group calls "
                 "no longer pair up")
        << quoted(P.marker) << Function;
    diag(P.site, "start the group on the same paths that end it", DiagnosticIDs::Note);
    break;
  }
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
  if (Skipped)
    diag(D.event.site, "%0 is never reached on %1, which %2 before it; their group stays open "
                       "and the job can hang")
        << namedCollective(D.event) << Ranks << leavingVerb(D.leaving);
  else
    diag(D.event.site, "%0 runs only on %1; the ranks group their operations differently and "
                       "the job can hang")
        << namedCollective(D.event) << Ranks;
  addCommonNotes(*this, D, Context);
  diag(D.event.site, "make the same group calls on every rank; keep only the rank-specific "
                     "operations under the condition",
       DiagnosticIDs::Note);
}

} // namespace lockstep::checks
