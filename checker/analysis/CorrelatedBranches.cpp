#include "CorrelatedBranches.h"
#include "Limits.h"
#include "LocalWrites.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"

#include <optional>

namespace lockstep::analysis {
using namespace clang;

namespace {

/// Whether \p Condition reads only constants and variables of the function
/// that keep their value, through operators without side effects.
bool stable(const Expr *Condition, const LocalWrites &Writes) {
  std::vector<const Stmt *> Work{Condition};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      const VarDecl *Var = localVariable(Ref);
      if (!isa<EnumConstantDecl>(Ref->getDecl()) && !(Var && Writes.keepsItsValue(Var)))
        return false;
      continue;
    }
    const auto *Unary = dyn_cast<UnaryOperator>(S);
    const auto *Binary = dyn_cast<BinaryOperator>(S);
    const bool Pure =
        isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral, CXXNullPtrLiteralExpr, ParenExpr,
            ImplicitCastExpr, CStyleCastExpr>(S) ||
        (Unary && !Unary->isIncrementDecrementOp() && Unary->getOpcode() != UO_Deref) ||
        (Binary && !Binary->isAssignmentOp() && !Binary->isCommaOp());
    if (!Pure)
      return false;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return true;
}

/// Whether \p Condition has at most limits::MaxExpressionNodes operands:
/// Clang's profiler recurses, and a flag tested twice is a short condition.
bool profilable(const Expr *Condition) {
  std::vector<const Stmt *> Work{Condition};
  for (unsigned Seen = 0; !Work.empty(); ++Seen) {
    if (Seen > limits::MaxExpressionNodes)
      return false;
    const Stmt *S = Work.back();
    Work.pop_back();
    if (S)
      Work.insert(Work.end(), S->child_begin(), S->child_end());
  }
  return true;
}

} // namespace

CorrelatedBranches CorrelatedBranches::of(const FunctionCFG &Function) {
  const ASTContext &Context = Function.context();
  // Branches grouped by their condition, compared as Clang profiles it.
  std::vector<std::pair<llvm::FoldingSetNodeID, std::vector<const CFGBlock *>>> Groups;
  llvm::DenseMap<unsigned, std::vector<size_t>> ByHash;
  for (const CFGBlock *Block : Function.cfg()) {
    const Expr *Condition = decidingCondition(*Block);
    if (!Condition || Block->succ_size() != 2 || isLoopBranch(*Block) || !profilable(Condition))
      continue;
    llvm::FoldingSetNodeID ID;
    Condition->Profile(ID, Context, /*Canonical=*/true);
    std::vector<size_t> &Bucket = ByHash[ID.ComputeHash()];
    auto Same = llvm::find_if(Bucket, [&](size_t I) { return Groups[I].first == ID; });
    if (Same != Bucket.end()) {
      Groups[*Same].second.push_back(Block);
      continue;
    }
    Bucket.push_back(Groups.size());
    Groups.push_back({ID, {Block}});
  }
  // The first conditions in the source get the ids.
  const SourceManager &SM = Context.getSourceManager();
  auto Where = [](const std::vector<const CFGBlock *> &Blocks) {
    return decidingCondition(*Blocks.front())->getBeginLoc();
  };
  for (auto &Group : Groups)
    llvm::sort(Group.second, [&](const CFGBlock *A, const CFGBlock *B) {
      return SM.isBeforeInTranslationUnit(Where({A}), Where({B}));
    });
  llvm::sort(Groups, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(Where(A.second), Where(B.second));
  });
  CorrelatedBranches Result;
  std::optional<LocalWrites> Writes;
  unsigned Next = 0;
  for (const auto &[ID, Blocks] : Groups) {
    if (Blocks.size() < 2)
      continue;
    if (!Writes)
      Writes = LocalWrites::of(Function.decl());
    if (!stable(decidingCondition(*Blocks.front()), *Writes))
      continue;
    if (Next == limits::MaxCorrelatedConditions) {
      Result.Truncated = true;
      break;
    }
    for (const CFGBlock *Block : Blocks)
      Result.Condition[Block] = Next;
    ++Next;
  }
  return Result;
}

} // namespace lockstep::analysis
