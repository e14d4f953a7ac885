#include "RankExitCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

void RankExitCheck::report(const analysis::TranslationUnitAnalysis &Analysis,
                           ASTContext &Context) {
  for (const Divergence &D : Analysis.divergences()) {
    if (D.kind != Divergence::Kind::SkippedAfterExit || D.event.groupMarker)
      continue; // group markers: lockstep-group-balance
    const std::string Ranks = ranksWhere(D, Context);
    const std::string Verb = leavingVerb(D.leaving);
    diag(D.event.site, "%0 is never reached on %1, which %2 before it; the other ranks wait in "
                       "it and the job hangs")
        << namedCollective(D.event) << Ranks << Verb;
    if (D.leaving)
      diag(D.leaving->getBeginLoc(), "%0 %1 here", DiagnosticIDs::Note) << Ranks << Verb;
    addCommonNotes(*this, D, Context);
    diag(D.event.site,
         "let every rank reach %0 before leaving, or make the decision to leave the same on "
         "every rank",
         DiagnosticIDs::Note)
        << quoted(calledName(D.event));
  }
}

} // namespace lockstep::checks
