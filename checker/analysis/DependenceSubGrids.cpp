// Cartesian sub-grids in the rank-dependence data flow: `MPI_Cart_sub(grid,
// keep, &row)` splits `grid` by this rank's coordinates in the dimensions
// `keep` drops, so the members of `row` agree on those coordinates and only
// they use it. Recorded as a split (RankSplit) whose colour is the element
// of the local coordinates array that a per-rank source of the grid filled
// (`MPI_Cart_coords(grid, rank, 2, coords)`): tests of that element then line
// up with the membership. A sub-grid that drops several dimensions, or whose
// dimensions or coordinates are not in such local arrays, stays an ordinary
// communicator creation.
#include "CallSite.h"
#include "DependenceDataflow.h"

#include "clang/AST/ParentMapContext.h"

#include <optional>

namespace lockstep::analysis::dependence {
using namespace clang;

/// The local array \p E names, if any.
static const VarDecl *localArray(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const auto *Array = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Array && Array->hasLocalStorage() && !isa<ParmVarDecl>(Array) &&
                 Array->getType()->isConstantArrayType()
             ? Array
             : nullptr;
}

/// Whether every use of \p Array in \p Body hands it to a call that reads
/// which dimensions to keep: it holds its initializer throughout.
static bool onlyReadAsDimensions(const VarDecl *Array, const FunctionCFG &Function,
                                 const CallClassifier &Classifier) {
  std::vector<const Stmt *> Stack{Function.decl()->getBody()};
  while (!Stack.empty()) {
    const Stmt *S = Stack.back();
    Stack.pop_back();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == Array) {
      const auto *Call = dyn_cast_or_null<CallExpr>(
          Function.parents().getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(Ref)));
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      const CalleeRole *Role = Callee ? &Classifier.classify(Callee) : nullptr;
      if (!Role || !Role->Collective ||
          Role->Collective->RemainDims.K == rules::ArgRef::Kind::Absent ||
          ruleArgument(Call, Role->Collective->RemainDims)->IgnoreParenImpCasts() != Ref)
        return false;
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
  return true;
}

/// The one dimension a constant `remain_dims` array (`int keep[2] = {0, 1};`)
/// drops; none when it drops none or several.
static std::optional<unsigned> droppedDimension(const VarDecl *Remain, const ASTContext &Context) {
  const auto *List = dyn_cast_or_null<InitListExpr>(Remain->getInit());
  const auto *Type = Context.getAsConstantArrayType(Remain->getType());
  if (!List || !Type)
    return std::nullopt;
  std::optional<unsigned> Dropped;
  for (uint64_t D = 0; D < Type->getSize().getZExtValue(); ++D) {
    Expr::EvalResult Keep;
    if (D < List->getNumInits() &&
        (List->getInit(D)->isValueDependent() || !List->getInit(D)->EvaluateAsInt(Keep, Context)))
      return std::nullopt;
    if (D < List->getNumInits() && Keep.Val.getInt() != 0)
      continue;
    if (Dropped || D >= limits::TrackedElements)
      return std::nullopt;
    Dropped = unsigned(D);
  }
  return Dropped;
}

void Dataflow::recordSubGrid(const CallExpr *Call, const CalleeRole &Role, const Expr *NewCommArg) {
  const rules::CollectiveRule &Rule = *Role.Collective;
  if (Rule.RemainDims.K == rules::ArgRef::Kind::Absent || !namedStorage(NewCommArg))
    return;
  const VarDecl *Remain = localArray(ruleArgument(Call, Rule.RemainDims));
  std::optional<unsigned> Dim = Remain && onlyReadAsDimensions(Remain, Function, Classifier)
                                    ? droppedDimension(Remain, Context)
                                    : std::nullopt;
  const ValueDecl *Grid = namedStorage(ruleArgument(Call, Rule.Comm));
  if (!Dim || !Grid)
    return;
  // This rank's coordinates: a local array a per-rank source of the same
  // grid wrote, still as that call left it here.
  std::vector<const CallExpr *> Writes;
  forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
    const auto *Write = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Write ? Write->getDirectCallee() : nullptr;
    const CalleeRole *Source = Callee ? &Classifier.classify(Callee) : nullptr;
    if (Source && Source->PerRankSource && Source->PerRankSource->OutArgs.size() == 1 &&
        Write->getNumArgs() > Source->PerRankSource->OutArgs.front() &&
        namedStorage(Write->getArg(0)) == Grid)
      Writes.push_back(Write);
  });
  for (const CallExpr *Write : Writes) {
    const VarDecl *Coordinates = localArray(Write->getArg(
        Classifier.classify(Write->getDirectCallee()).PerRankSource->OutArgs.front()));
    if (!Coordinates)
      continue;
    StorageKey Key{Coordinates, &ElementAt[*Dim]};
    auto Held = Current.find(Key);
    if (Held == Current.end())
      Held = Current.find(StorageKey{Coordinates, &AnyElement});
    const void *Definition = Held == Current.end() ? nullptr : Held->second.Definition;
    if (!Definition || !Held->second.dependent() ||
        (Definition != Write && !llvm::is_contained(Write->arguments(), Definition)))
      continue;
    if (Recording)
      Result.Splits.push_back({namedStorage(NewCommArg), /*Color=*/nullptr, Held->second, Grid,
                               Coordinates, Definition, *Dim});
    RankValue Handle;
    Handle.Source = Env.Arena.makeSplit(Role.Name, Call->getBeginLoc(), Held->second.Source,
                                        /*Colour=*/nullptr);
    writeOutArgument(NewCommArg, nullptr, Handle);
    return;
  }
}

} // namespace lockstep::analysis::dependence
