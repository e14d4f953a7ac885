// Whole containers in the rank-dependence data flow: made by a library
// constructor, copied from another container, or returned by a function of
// the file. Each keeps its own state (its size) apart from its elements, so
// that `std::vector<double> dy(x);` after filling `x` per rank has per-rank
// elements and a size every rank agrees on.
#include "CallSite.h"
#include "DependenceDataflow.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

namespace lockstep::analysis::dependence {
using namespace clang;

// A container of the library whose constructor's first count is its number
// of elements.
static bool isSequence(QualType Type) {
  const auto *Record = Type->getAsCXXRecordDecl();
  return Record && Record->isInStdNamespace() && Record->getIdentifier() &&
         llvm::is_contained({"vector", "deque", "list", "forward_list", "basic_string"},
                            Record->getName());
}

// A library container built from counts and elements (`std::vector<double>
// v(n, x)`, `std::vector<double> w = {a, b}`, `(first, last)`, and a
// temporary `std::vector<double>(n, x)` assigned or in a braced list): its
// size is the counts', its elements the rest's. False for any other \p Init.
bool Dataflow::constructContainer(const StorageKey &Key, const Expr *Init) {
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init ? stripCopies(Init) : nullptr);
  if (!Construct || Construct->getNumArgs() == 0 ||
      Construct->getConstructor()->isCopyOrMoveConstructor() ||
      !inLibrary(Construct->getConstructor()) || !isContainer(Construct->getType()))
    return false;
  std::vector<RankValue> Values, Positions(Construct->getNumArgs());
  // A braced list of records (`std::vector<Item> items{{rank, 4}}`) fills
  // the elements field by field, once the container is made.
  const InitListExpr *Records = nullptr;
  for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
    StorageKey Into;
    Values.push_back(libraryArgument(Construct->getArg(I), Into, &Positions[I]));
    FieldValues Fields;
    if (const auto *List =
            dyn_cast<CXXStdInitializerListExpr>(Construct->getArg(I)->IgnoreImplicit())) {
      Records = dyn_cast<InitListExpr>(List->getSubExpr()->IgnoreImplicit());
      if (Records &&
          llvm::all_of(Records->inits(), [&](const Expr *Init) { return fieldsOf(Init, Fields); }))
        Values.back() = RankValue();
      else
        Records = nullptr;
    }
  }
  fillContainer(Key, Construct->getConstructor(), Values, Positions, Construct,
                /*Constructed=*/true);
  // A sequence's first count is its number of elements (a hash table's is
  // a number of buckets).
  if (StorageKey Like; isSequence(Construct->getType()) && sizeSeen(Key) &&
                       sizeQueried(Construct->getArg(0), Like) && sizeSeen(Like))
    SizedLike[Construct] = {Like, read(Like).Definition};
  if (Records)
    for (const Expr *Element : Records->inits())
      writeElementFields(Key, /*Index=*/nullptr, {}, Element);
  return true;
}

// `std::vector<double> dy(x);`, `auto y = x;`, `dy = x;`: a copy of a
// container holds its size and its elements apart, as the one it copies.
// False for anything else \p Into is set to.
bool Dataflow::copyContainer(const StorageKey &Into, const Expr *From, const Stmt *Definition) {
  From = From ? stripCopies(From) : nullptr;
  StorageKey Source;
  if (!From || !isContainer(From->getType().getNonReferenceType()) ||
      !isa<DeclRefExpr, MemberExpr>(From->IgnoreParenImpCasts()) || !containerKeyOf(From, Source) ||
      Source == Into)
    return false;
  setContents(Into, contentsOf(Source), Definition, sameSize(Into, Source));
  return true;
}

// What a container holds: its own state (its size), and its elements.
std::pair<RankValue, RankValue> Dataflow::contentsOf(const StorageKey &Container) const {
  RankValue Own = read(Container);
  Own.ElementParams &= ~callersElements(Container, Own);
  return {Own, readElement(Container, nullptr)};
}

// With \p KeepSize, only the elements change: the container keeps its own
// state, so ranks that did not copy hold the same size as those that did.
void Dataflow::setContents(const StorageKey &Container, std::pair<RankValue, RankValue> Contents,
                           const Stmt *Definition, bool KeepSize) {
  if (!KeepSize) {
    Contents.first.Definition = Definition;
    write(Container, Contents.first);
  }
  writeElement(Container, /*Index=*/nullptr, Contents.second, /*Compound=*/false, Definition);
}

// `walkers.swap(stay)`: each container takes the other's size and elements,
// and nothing else changes. False for any other call, and for a container
// held in an element (any element may be the one swapped).
bool Dataflow::swapContainers(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  std::vector<const Expr *> Args = explicitArguments(Call);
  const Expr *Receiver = ruleArgument(Call, {rules::ArgRef::Kind::Receiver, 0, ""});
  StorageKey Object, Other;
  RankValue At;
  if (!Method || !inLibrary(Method) || !Method->getIdentifier() ||
      !Method->getIdentifier()->isStr("swap") || Args.size() != 1 || !Receiver ||
      !containerKeyOf(Receiver, Object, &At) || At.dependent() ||
      !containerKeyOf(Args.front(), Other) || Other == Object || isElementStep(Object.back()) ||
      isElementStep(Other.back()))
    return false;
  std::pair<RankValue, RankValue> Mine = contentsOf(Object), Theirs = contentsOf(Other);
  const bool KeepSizes = sameSize(Object, Other);
  setContents(Object, Theirs, Call, KeepSizes);
  setContents(Other, Mine, Args.front(), KeepSizes);
  return true;
}

// What a function returns of a container it holds (`return layers;`) or
// another function of the file returns (`return scale(x);`): its own state
// (its size), apart from its elements. \p Whole for anything else.
RankValue Dataflow::returnedOwnState(const Expr *Returned, const RankValue &Whole) const {
  if (!isContainer(Returned->getType()))
    return Whole;
  if (std::optional<RankValue> Own = ownStateReturnedBy(Returned))
    return *Own;
  StorageKey Key;
  if (!keyOf(stripCopies(Returned), Key))
    return Whole;
  RankValue Own = read(Key);
  Own.ElementParams &= ~callersElements(Key, Own);
  return Own;
}

// The own state (the size) of the container the call \p E returns, when
// the functions it may run are the file's; none otherwise.
std::optional<RankValue> Dataflow::ownStateReturnedBy(const Expr *E) const {
  const auto *Call = dyn_cast<CallExpr>(stripCopies(E));
  const FunctionDecl *Callee = Call ? resolvedCallee(Call) : nullptr;
  if (!Callee)
    return std::nullopt;
  std::vector<const Expr *> Args = explicitArguments(Call);
  if (std::optional<RankValue> Own = returnedByTargets(Call, Args, /*Own=*/true))
    return Own;
  auto Facts = Env.Facts.find(Callee->getCanonicalDecl());
  if (Facts == Env.Facts.end())
    return std::nullopt;
  return chosenAtCall(Facts->second, atCall(Facts->second.ReturnedOwn, Args, Callee), Args, Callee);
}

// `auto layers = make_layers(rank);`, `dy = layer->backward(dy);`: the
// container a function of the file returns keeps its size apart from its
// elements, which may differ between ranks while the size does not. False
// for anything else \p Key is set to.
bool Dataflow::takeReturnedContainer(const StorageKey &Key, const Expr *Init) {
  std::optional<RankValue> Own = Init && isContainer(Init->getType().getNonReferenceType())
                                     ? ownStateReturnedBy(Init)
                                     : std::nullopt;
  if (!Own)
    return false;
  RankValue Whole = eval(Init);
  Own->Definition = Init;
  write(Key, *Own);
  writeElement(Key, /*Index=*/nullptr, Whole, /*Compound=*/false, Init);
  return true;
}

} // namespace lockstep::analysis::dependence
