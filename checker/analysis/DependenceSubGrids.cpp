// Cartesian sub-grids in the rank-dependence data flow: `MPI_Cart_sub(grid,
// keep, &row)` splits `grid` by this rank's coordinates in the dimensions
// `keep` drops, so the members of `row` agree on those coordinates and only
// they use it. Recorded as a split (RankSplit) by the elements of the
// coordinates array that a per-rank source of the grid filled
// (`MPI_Cart_coords(grid, rank, 2, coords)`): tests of those elements then
// line up with the membership. The array is a local one, read where that
// call left it, or an array field (`d->coords`), read in any function as
// the coordinates. A sub-grid whose dimensions or coordinates are not in
// such arrays stays an ordinary communicator creation.
#include "CallSite.h"
#include "DependenceDataflow.h"

#include "clang/AST/ParentMapContext.h"

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

/// The dimensions a constant `remain_dims` array (`int keep[3] = {0, 0, 1};`)
/// drops; none when it drops none or is not such an array.
static llvm::SmallVector<unsigned, 2> droppedDimensions(const VarDecl *Remain,
                                                        const ASTContext &Context) {
  const auto *List = dyn_cast_or_null<InitListExpr>(Remain->getInit());
  const auto *Type = Context.getAsConstantArrayType(Remain->getType());
  if (!List || !Type || Type->getSize().ugt(limits::TrackedElements))
    return {};
  llvm::SmallVector<unsigned, 2> Dropped;
  for (unsigned D = 0; D < Type->getSize().getZExtValue(); ++D) {
    Expr::EvalResult Keep;
    if (D < List->getNumInits() &&
        (List->getInit(D)->isValueDependent() || !List->getInit(D)->EvaluateAsInt(Keep, Context)))
      return {};
    if (D >= List->getNumInits() || Keep.Val.getInt() == 0)
      Dropped.push_back(D);
  }
  return Dropped;
}

/// The array field \p Coordinates names (`d->coords`, `grid.coords`), if any.
static const FieldDecl *arrayField(const Expr *Coordinates) {
  const auto *Member = dyn_cast<MemberExpr>(Coordinates->IgnoreParenImpCasts());
  const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  return Field && Field->getType()->isConstantArrayType() ? Field : nullptr;
}

void Dataflow::recordSubGrid(const CallExpr *Call, const CalleeRole &Role, const Expr *NewCommArg) {
  const rules::CollectiveRule &Rule = *Role.Collective;
  if (Rule.RemainDims.K == rules::ArgRef::Kind::Absent || !namedStorage(NewCommArg))
    return;
  const VarDecl *Remain = localArray(ruleArgument(Call, Rule.RemainDims));
  llvm::SmallVector<unsigned, 2> Dims = Remain && onlyReadAsDimensions(Remain, Function, Classifier)
                                            ? droppedDimensions(Remain, Context)
                                            : llvm::SmallVector<unsigned, 2>{};
  const ValueDecl *Grid = namedStorage(ruleArgument(Call, Rule.Comm));
  if (Dims.empty() || !Grid)
    return;
  // This rank's coordinates: an array a per-rank source of the same grid
  // wrote, still as that call left it here.
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
    const Expr *Written =
        Write->getArg(Classifier.classify(Write->getDirectCallee()).PerRankSource->OutArgs.front());
    const VarDecl *Local = localArray(Written);
    const FieldDecl *Field = Local ? nullptr : arrayField(Written);
    StorageKey Array;
    if ((!Local && !Field) || !keyOf(Written, Array))
      continue;
    const RankValue *Held = nullptr;
    bool Kept = true; // every dropped coordinate still as the call left it
    for (unsigned Dim : Dims) {
      StorageKey Element = Array;
      Element.push_back(&ElementAt[Dim]);
      auto It = Current.find(Element);
      if (It == Current.end()) {
        Element.back() = &AnyElement;
        It = Current.find(Element);
      }
      const void *Definition = It == Current.end() ? nullptr : It->second.Definition;
      Kept &= Definition && It->second.dependent() &&
              (Definition == Write || llvm::is_contained(Write->arguments(), Definition));
      Held = Kept ? &It->second : nullptr;
    }
    if (!Kept)
      continue;
    if (Recording)
      Result.Splits.push_back({namedStorage(NewCommArg), /*Color=*/nullptr, *Held, Grid, Local,
                               Held->Definition, Field, Dims});
    RankValue Handle;
    Handle.Source = Env.Arena.makeSplit(Role.Name, Call->getBeginLoc(), Held->Source,
                                        /*Colour=*/nullptr);
    writeOutArgument(NewCommArg, nullptr, Handle);
    return;
  }
}

} // namespace lockstep::analysis::dependence
