#include "RankArgumentCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

namespace {

/// The first agreed argument (root, count, ...) that differs.
std::pair<std::string, std::pair<std::string, std::string>>
firstDifference(const analysis::CollectiveEvent &A, const analysis::CollectiveEvent &B) {
  for (size_t I = 0; I < A.agreedArguments.size() && I < B.agreedArguments.size(); ++I)
    if (A.agreedArguments[I].value != B.agreedArguments[I].value)
      return {A.agreedArguments[I].role,
              {A.agreedArguments[I].written, B.agreedArguments[I].written}};
  return {"arguments", {"", ""}};
}

} // namespace

void RankArgumentCheck::reportArgument(const analysis::RankArgument &A, ASTContext &Context) {
  diag(A.argument->getBeginLoc(), "the %0 of %1 differs between ranks; every rank must pass "
                                  "the same %0 or the job hangs or computes garbage")
      << A.role << quoted(A.collective) << A.argument->getSourceRange();
  analysis::CollectiveEvent Direct; // notes about the argument itself, not a callee
  addCommonNotes(*this, Direct, A.argument, A.source, Context);
  diag(A.argument->getBeginLoc(),
       "compute the %0 from values that are the same on every rank: a constant, the world "
       "size, or a value broadcast from one rank",
       DiagnosticIDs::Note)
      << A.role;
}

// Balanced arms that call the same collective with different arguments.
void RankArgumentCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  auto [Role, Values] = firstDifference(D.event, *D.otherEvent);
  diag(D.event.site, "%0 gets %1 '%2' on %3 but '%4' on the other ranks; every rank must "
                     "pass the same %1 or the job hangs or computes garbage")
      << namedCollective(D.event) << Role << Values.first << ranksWhere(D, Context)
      << Values.second;
  addCommonNotes(*this, D, Context);
  diag(D.otherEvent->site, "the other ranks pass '%0' here", DiagnosticIDs::Note)
      << Values.second;
  diag(D.event.site, "compute the %0 so that it is the same on every rank, and call %1 once, "
                     "outside the branch",
       DiagnosticIDs::Note)
      << Role << quoted(calledName(D.event));
}

} // namespace lockstep::checks
