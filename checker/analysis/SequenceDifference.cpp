#include "SequenceDifference.h"

namespace lockstep::analysis {
using namespace clang;

CallersOwnEvents::Creations
CallersOwnEvents::createdByBoth(llvm::ArrayRef<const CollectiveEvent *> A,
                                llvm::ArrayRef<const CollectiveEvent *> B) {
  auto CreatedIn = [](llvm::ArrayRef<const CollectiveEvent *> Events) {
    Creations Made;
    for (const CollectiveEvent *Event : Events)
      if (Event->GroupMembers && !Event->SelfCommunicator && Event->Creates && Event->SiteStmt)
        Made.push_back({Event->Creates, Event->SiteStmt});
    return Made;
  };
  Creations InA = CreatedIn(A), Both;
  for (const auto &Made : CreatedIn(B))
    if (llvm::is_contained(InA, Made) && !llvm::is_contained(Both, Made))
      Both.push_back(Made);
  return Both;
}

// Two sequences differ for two ranks when what they run on the communicators
// both ranks belong to differs: always for communicators every rank shares,
// and for a split one only when both ranks are members of the same part.
// Loops of the same body differ only when their trip counts do.
FormulaRef sequencesDiffer(const std::vector<unsigned> &KeysA, const std::vector<unsigned> &KeysB,
                           const SequenceTable &Table, FormulaArena &Arena, Membership &Members) {
  std::vector<const ValueDecl *> Split;
  auto EventsOf = [&Table](const std::vector<unsigned> &Keys) {
    std::vector<const CollectiveEvent *> Events;
    for (unsigned Key : Keys)
      Events.push_back(&Table.representative(Key));
    return Events;
  };
  const CallersOwnEvents::Creations Both =
      CallersOwnEvents::createdByBoth(EventsOf(KeysA), EventsOf(KeysB));
  auto Project = [&](const std::vector<unsigned> &Keys, const ValueDecl *Only) {
    std::vector<unsigned> Kept;
    CallersOwnEvents CallersOwn(Both);
    for (unsigned Key : Keys) {
      const CollectiveEvent &Event = Table.representative(Key);
      if (CallersOwn.skip(Event))
        continue;
      const ValueDecl *Comm = Event.CommunicatorDecl;
      if (Comm && Members.shared(Comm)) {
        if (!llvm::is_contained(Split, Comm))
          Split.push_back(Comm);
        if (Comm != Only)
          continue;
      }
      Kept.push_back(Key);
    }
    return Kept;
  };
  // Truth when the shapes differ, else when some pair of loops runs a
  // different number of times.
  auto Compare = [&](const std::vector<unsigned> &X, const std::vector<unsigned> &Y) {
    if (X.size() != Y.size())
      return Arena.truth();
    FormulaRef Trips = Arena.falsity();
    for (size_t I = 0; I < X.size(); ++I) {
      if (X[I] == Y[I])
        continue;
      const CollectiveEvent &EX = Table.representative(X[I]), &EY = Table.representative(Y[I]);
      if (mayMatch(EX, EY))
        continue;
      // Other loops, or one loop passed other values (`phase(3)` against
      // `phase(5)`, whose trip count is its parameter).
      if (!matchingIterations(Table, EX, EY) || firstDifferingArgument(EX, EY))
        return Arena.truth();
      if (EX.LoopTripFormula && EY.LoopTripFormula)
        Trips =
            Arena.disjoin(Trips, Arena.compare(FormulaOp::Ne, Arena.inRank(1, *EX.LoopTripFormula),
                                               Arena.inRank(2, *EY.LoopTripFormula)));
    }
    return Trips;
  };
  // Nonblocking starts may come in either order against collectives on
  // other communicators (`MPI_Iallreduce(world)` before or after
  // `MPI_Comm_idup(dup)`): compare in the canonical order where the plain
  // one differs.
  auto Commute = [&Members](const CollectiveEvent &X, const CollectiveEvent &Y) {
    return commute(X, Y, [&Members](const ValueDecl *Comm) { return Members.isFresh(Comm); });
  };
  auto CompareCommuted = [&](const std::vector<unsigned> &X, const std::vector<unsigned> &Y) {
    FormulaRef Plain = Compare(X, Y);
    if (Plain != Arena.truth() || X.size() != Y.size())
      return Plain;
    return Compare(canonicalOrder(X, Table, Commute), canonicalOrder(Y, Table, Commute));
  };
  FormulaRef Differs = CompareCommuted(Project(KeysA, nullptr), Project(KeysB, nullptr));
  for (size_t I = 0; I < Split.size(); ++I)
    Differs = Arena.disjoin(Differs, Arena.conjoin(*Members.shared(Split[I]),
                                                   CompareCommuted(Project(KeysA, Split[I]),
                                                                   Project(KeysB, Split[I]))));
  return Differs;
}

} // namespace lockstep::analysis
