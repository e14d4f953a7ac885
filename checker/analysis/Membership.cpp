#include "Membership.h"
#include "CallSite.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace lockstep::analysis {
using namespace clang;

/// The communicator of a rank read in a function that made it (or that
/// every call of the function passes, by \p Passed), or null.
static const VarDecl *
localCommunicator(const Provenance *Root,
                  const std::function<const ValueDecl *(const ValueDecl *)> &Passed) {
  if (!Root->Communicator)
    return nullptr;
  const ValueDecl *Named = namedStorage(Root->Communicator);
  if (Passed && Named)
    Named = Passed(Named);
  const auto *Var = dyn_cast_or_null<VarDecl>(Named);
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
    return nullptr;
  bool World = spelledAsMacro(Var->getInit(), "MPI_COMM_WORLD", Var->getASTContext());
  return World ? nullptr : Var;
}

static const Provenance *rootOf(const Provenance *Source) {
  while (Source && Source->Via)
    Source = Source->Via;
  return Source;
}

const void *rankPart(const Provenance *Source,
                     const std::function<const ValueDecl *(const ValueDecl *)> &Passed) {
  const Provenance *Root = rootOf(Source);
  if (!Root)
    return nullptr;
  if (Root->Part)
    return Root->Part;
  return localCommunicator(Root, Passed);
}

std::string rankPartName(const Provenance *Source) {
  const Provenance *Root = rootOf(Source);
  if (!Root)
    return "";
  if (Root->Part)
    return *Root->Part;
  const VarDecl *Local = localCommunicator(Root, nullptr);
  return Local ? usrOf(Local) : "";
}

void Membership::addSplit(const ValueDecl *Comm, const ValueDecl *Parent, FormulaRef Colour) {
  auto [It, Inserted] = Colours.try_emplace(Comm, Colour);
  if (!Inserted && It->second != Colour)
    It->second = std::nullopt;
  auto [From, New] = Parents.try_emplace(Comm, Parent == Comm ? nullptr : Parent);
  if (!New && From->second != Parent)
    From->second = nullptr;
}

void Membership::addCopy(const ValueDecl *Copy, const ValueDecl *Of) {
  const std::optional<FormulaRef> *Colour = colourOf(Of);
  if (Colour && *Colour)
    addSplit(Copy, Parents.lookup(Of), **Colour);
}

const std::optional<FormulaRef> *Membership::colourOf(const ValueDecl *Comm) {
  auto It = Colours.find(Comm);
  if (It == Colours.end() && ColoursElsewhere)
    if (std::optional<FormulaRef> Colour = ColoursElsewhere(Comm))
      It = Colours.try_emplace(Comm, *Colour).first;
  return It == Colours.end() ? nullptr : &It->second;
}

// A parameter every call passes the same communicator for is that one,
// through chains of helpers.
const ValueDecl *Membership::passed(const ValueDecl *Comm) const {
  llvm::SmallPtrSet<const ValueDecl *, 4> Seen;
  while (ParameterStorage && Comm && Seen.insert(Comm).second)
    if (const ValueDecl *Storage = ParameterStorage(Comm))
      Comm = Storage;
    else
      break;
  return Comm;
}

bool Membership::isSplit(const ValueDecl *Comm) {
  const std::optional<FormulaRef> *Colour = colourOf(passed(Comm));
  return Colour && *Colour;
}

// Only a colour written to be undefined somewhere counts: one the split
// reads from an unknown value would otherwise be MPI_UNDEFINED anywhere.
bool Membership::leavesOut(const ValueDecl *Comm) {
  const std::optional<FormulaRef> *Colour = colourOf(passed(Comm));
  if (!Colour || !*Colour)
    return false;
  const std::vector<int64_t> Constants = Arena.plan(**Colour).Constants;
  return llvm::is_contained(Constants, UndefinedColour) || llvm::is_contained(Constants, -32766);
}

FormulaRef Membership::isNull(const ValueDecl *Comm) {
  Comm = passed(Comm);
  const std::optional<FormulaRef> *Colour = colourOf(Comm);
  if (Colour && *Colour) // MPI_UNDEFINED is -32766 in Open MPI and MPICH
    return Arena.disjoin(Arena.compare(FormulaOp::Eq, **Colour, Arena.constant(UndefinedColour)),
                         Arena.compare(FormulaOp::Eq, **Colour, Arena.constant(-32766)));
  auto [Test, Inserted] = NullTests.try_emplace(Comm, 0);
  if (Inserted)
    Test->second = Arena.perRank(Comm, /*Boolean=*/true);
  return Test->second;
}

void Membership::sameOnMembers(const ValueDecl *Comm, FormulaRef Symbol) {
  std::vector<FormulaRef> &Symbols = OnMembers[passed(Comm)];
  if (llvm::find(Symbols, Symbol) == Symbols.end())
    Symbols.push_back(Symbol);
}

// Two members of a part of a split were members of the same communicator
// split, so they share that one too: walked up the chain of splits.
std::optional<FormulaRef> Membership::shared(const ValueDecl *Comm) {
  std::optional<FormulaRef> Both;
  llvm::SmallPtrSet<const ValueDecl *, 4> Seen;
  for (Comm = passed(Comm); Comm && Seen.insert(Comm).second; Comm = Parents.lookup(Comm))
    if (std::optional<FormulaRef> Here = sharedItself(Comm))
      Both = Both ? Arena.conjoin(*Both, *Here) : *Here;
  return Both;
}

std::optional<FormulaRef> Membership::sharedItself(const ValueDecl *Comm) {
  if (!Comm)
    return std::nullopt;
  const std::optional<FormulaRef> *Colour = colourOf(Comm);
  bool Known = Colour && *Colour;
  if (!Known && !NullTests.count(Comm) && !Colour && !OnMembers.count(Comm))
    return std::nullopt;
  FormulaRef Member = Arena.negate(isNull(Comm));
  FormulaRef Both = Arena.conjoin(Arena.inRank(1, Member), Arena.inRank(2, Member));
  for (FormulaRef Symbol : OnMembers.lookup(Comm))
    Both = Arena.conjoin(
        Both, Arena.compare(FormulaOp::Eq, Arena.inRank(1, Symbol), Arena.inRank(2, Symbol)));
  if (!Known)
    return Both; // members of a handle made elsewhere: assume the same one
  return Arena.conjoin(
      Both, Arena.compare(FormulaOp::Eq, Arena.inRank(1, **Colour), Arena.inRank(2, **Colour)));
}

} // namespace lockstep::analysis
