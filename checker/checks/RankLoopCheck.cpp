#include "RankLoopCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::LoopDivergence;

void RankLoopCheck::report(const analysis::TranslationUnitAnalysis &Analysis,
                           ASTContext &Context) {
  for (const LoopDivergence &D : Analysis.loopDivergences()) {
    if (D.kind != LoopDivergence::Kind::TripCount)
      continue;
    diag(D.event.site, "%0 runs in a loop whose trip count differs between ranks; the ranks "
                       "that finish first stop calling it and the others hang in it")
        << namedCollective(D.event);
    addCommonNotes(*this, D.event, D.condition, D.source, Context);
    diag(D.event.site,
         "agree on the trip count first (an allreduce with MAX or MIN makes it the same on "
         "every rank; ranks without data then contribute neutral values), or run the loop "
         "under a join protocol that shadows %0",
         DiagnosticIDs::Note)
        << quoted(calledName(D.event));
  }
}

} // namespace lockstep::checks
