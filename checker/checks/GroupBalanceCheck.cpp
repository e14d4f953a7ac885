#include "GroupBalanceCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

#include <set>

namespace lockstep::checks {
using namespace clang;
using analysis::GroupImbalance;

void GroupBalanceCheck::report(const analysis::TranslationUnitAnalysis &Analysis,
                               ASTContext &Context) {
  for (const GroupImbalance &P : Analysis.groupImbalances()) {
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
  // Group calls that only some ranks make, unless reported above.
  std::set<unsigned> Reported;
  for (const GroupImbalance &P : Analysis.groupImbalances())
    Reported.insert(P.site.getRawEncoding());
  for (const analysis::Divergence &D : Analysis.divergences()) {
    if (!D.event.groupMarker || D.kind == analysis::Divergence::Kind::SkippedAfterExit ||
        Reported.count(D.event.site.getRawEncoding()))
      continue;
    diag(D.event.site, "%0 runs only on %1; the ranks group their operations differently and "
                       "the job can hang")
        << namedCollective(D.event) << ranksWhere(D, Context);
    addCommonNotes(*this, D, Context);
    diag(D.event.site, "make the same group calls on every rank; keep only the rank-specific "
                       "operations under the condition",
         DiagnosticIDs::Note);
  }
}

} // namespace lockstep::checks
