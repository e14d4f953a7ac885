#include "Membership.h"

namespace lockstep::analysis {

void Membership::addSplit(const clang::ValueDecl *Comm, FormulaRef Colour) {
  auto [It, Inserted] = Colours.try_emplace(Comm, Colour);
  if (!Inserted && It->second != Colour)
    It->second = std::nullopt;
}

bool Membership::isSplit(const clang::ValueDecl *Comm) const {
  auto It = Colours.find(Comm);
  return It != Colours.end() && It->second;
}

FormulaRef Membership::isNull(const clang::ValueDecl *Comm) {
  auto It = Colours.find(Comm);
  if (It != Colours.end() && It->second) // MPI_UNDEFINED is -32766 in Open MPI and MPICH
    return Arena.disjoin(Arena.compare(FormulaOp::Eq, *It->second, Arena.constant(UndefinedColour)),
                         Arena.compare(FormulaOp::Eq, *It->second, Arena.constant(-32766)));
  auto [Test, Inserted] = NullTests.try_emplace(Comm, 0);
  if (Inserted)
    Test->second = Arena.perRank(Comm, /*Boolean=*/true);
  return Test->second;
}

std::optional<FormulaRef> Membership::shared(const clang::ValueDecl *Comm) {
  if (!Comm)
    return std::nullopt;
  auto It = Colours.find(Comm);
  bool Known = It != Colours.end() && It->second;
  if (!Known && !NullTests.count(Comm) && It == Colours.end())
    return std::nullopt;
  FormulaRef Member = Arena.negate(isNull(Comm));
  FormulaRef Both = Arena.conjoin(Arena.inRank(1, Member), Arena.inRank(2, Member));
  if (!Known)
    return Both; // members of a handle made elsewhere: assume the same one
  return Arena.conjoin(Both, Arena.compare(FormulaOp::Eq, Arena.inRank(1, *It->second),
                                           Arena.inRank(2, *It->second)));
}

} // namespace lockstep::analysis
