#include "RankArgumentCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::Provenance;

/// The split of \p Source (through the parameters that carried it).
static const Provenance *splitOf(const Provenance *Source) {
  while (Source && Source->K != Provenance::Kind::Split)
    Source = Source->Via;
  return Source;
}

// A communicator that a split left null on some ranks, which they pass too.
static void reportNonMember(FindingBuilder &Finding, const analysis::RankArgument &A,
                            ASTContext &Context) {
  const Provenance *Split = splitOf(A.Source);
  const bool Nccl = Split && llvm::StringRef(Split->Name).starts_with("nccl");
  const std::string Comm = quoted(A.Communicator);
  Finding.warning(A.Argument->getBeginLoc(),
                  quoted(A.Collective) + " is called on " + Comm +
                      " by ranks that are not its members; there " + Comm + " is " +
                      (Nccl ? "null" : "MPI_COMM_NULL") + " and the call fails",
                  A.Argument->getSourceRange());
  if (Split) {
    const std::string Colour = Split->Colour ? sourceText(Split->Colour, Context) : "";
    Finding.note(Split->Loc, quoted(Split->Name) + " gives " + Comm +
                                 " no communicator on the ranks whose colour" +
                                 (Colour.empty() ? "" : " " + quoted(Colour)) + " is " +
                                 (Nccl ? "NCCL_SPLIT_NOCOLOR" : "MPI_UNDEFINED"));
    addSourceNotes(Finding, Split->Via, Context);
  }
  const analysis::RankWitness &Witness = *A.NonMember;
  if (Witness.Rank1)
    Finding.note(A.Argument->getBeginLoc(),
                 "for example, " +
                     (Witness.Size ? "in a job of " + std::to_string(*Witness.Size) + " ranks, "
                                   : std::string()) +
                     "rank " + std::to_string(*Witness.Rank1) + " reaches the call outside " +
                     Comm);
  Finding.note(A.Argument->getBeginLoc(),
               "call " + quoted(A.Collective) + " only where " +
                   (Nccl ? Comm + " is not null" : quoted(A.Communicator + " != MPI_COMM_NULL")) +
                   ", or give every rank a colour");
  Finding.emit();
}

void RankArgumentCheck::reportArgument(const analysis::RankArgument &A, ASTContext &Context) {
  analysis::CollectiveEvent Direct; // the collective called right here, not in a callee
  Direct.Collective = A.Collective;
  Direct.Communicator = A.Communicator;
  FindingBuilder Finding = finding(Context);
  Finding.about(A.Function, &Direct, A.Argument);
  if (A.NonMember)
    return reportNonMember(Finding, A, Context);
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
