#include "RankArgumentCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

void RankArgumentCheck::reportArgument(const analysis::RankArgument &A, ASTContext &Context) {
  analysis::CollectiveEvent Direct; // the collective called right here, not in a callee
  Direct.Collective = A.Collective;
  Direct.Communicator = A.Communicator;
  FindingBuilder Finding = finding(Context);
  Finding.about(A.Function, &Direct, A.Argument);
  Finding.warning(A.Argument->getBeginLoc(),
                  "the " + A.Role + " of " + quoted(A.Collective) +
                      " differs between ranks; every rank must pass the same " + A.Role +
                      " or the job hangs or computes garbage",
                  A.Argument->getSourceRange());
  addCommonNotes(Finding, Direct, A.Argument, A.Source, Context);
  // A communicator is chosen, not computed: the ranks that take each one
  // must call it together.
  Finding.note(A.Argument->getBeginLoc(),
               A.Role == std::string_view("communicator")
                   ? "pick the communicator by a value that is the same on every rank, or "
                     "call " +
                         quoted(A.Collective) +
                         " on each communicator in a branch that all of its members take"
                   : "compute the " + std::string(A.Role) +
                         " from values that are the same on every rank: a constant, "
                         "the world size, or a value broadcast from one rank");
  Finding.emit();
}

// Balanced arms that call the same collective with different arguments.
void RankArgumentCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  auto [Role, Values] = firstDifference(D.Event, *D.OtherEvent);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  Finding.warning(D.Event.Site, Finding.name(D.Event) + " gets " + Role + " '" + Values.first +
                                    "' on " + ranksWhere(D, Context) + " but '" + Values.second +
                                    "' on " + otherRanks(D, Context) +
                                    "; every rank must pass the same " + Role +
                                    " or the job hangs or computes garbage");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.OtherEvent->Site, otherRanks(D, Context) + " pass '" + Values.second + "' here");
  Finding.note(D.Event.Site, "compute the " + Role +
                                 " so that it is the same on every rank, and call " +
                                 quoted(calledName(D.Event)) + " once, outside the branch");
  Finding.emit();
}

} // namespace lockstep::checks
