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
  analysis::CollectiveEvent Direct; // the collective called right here, not in a callee
  Direct.collective = A.collective;
  Direct.communicator = A.communicator;
  FindingBuilder Finding = finding(Context);
  Finding.about(A.function, &Direct, A.argument);
  Finding.warning(A.argument->getBeginLoc(),
                  "the " + A.role + " of " + quoted(A.collective) +
                      " differs between ranks; every rank must pass the same " + A.role +
                      " or the job hangs or computes garbage",
                  A.argument->getSourceRange());
  addCommonNotes(Finding, Direct, A.argument, A.source, Context);
  Finding.note(A.argument->getBeginLoc(),
               "compute the " + A.role +
                   " from values that are the same on every rank: a constant, "
                   "the world size, "
                   "or a value broadcast from one rank");
  Finding.emit();
}

// Balanced arms that call the same collective with different arguments.
void RankArgumentCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  auto [Role, Values] = firstDifference(D.event, *D.otherEvent);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &D.event, D.condition);
  Finding.warning(D.event.site, Finding.name(D.event) + " gets " + Role + " '" + Values.first +
                                    "' on " + ranksWhere(D, Context) + " but '" + Values.second +
                                    "' on the other ranks; every rank must pass the same " + Role +
                                    " or the job hangs or computes garbage");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.otherEvent->site, "the other ranks pass '" + Values.second + "' here");
  Finding.note(D.event.site, "compute the " + Role +
                                 " so that it is the same on every rank, and call " +
                                 quoted(calledName(D.event)) + " once, outside the branch");
  Finding.emit();
}

} // namespace lockstep::checks
