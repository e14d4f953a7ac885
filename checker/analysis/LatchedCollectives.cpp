#include "LatchedCollectives.h"

#include "CallSite.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <utility>

namespace lockstep::analysis {
using namespace clang;

static bool isLoopStatement(const Stmt *S) {
  return isa_and_nonnull<WhileStmt, DoStmt, ForStmt, CXXForRangeStmt>(S);
}

static const Stmt *parentOf(const Stmt *S, const ParentMap &Parents) {
  return Parents.getParent(const_cast<Stmt *>(S));
}

static bool inside(const Stmt *Inner, const Stmt *Outer, const ParentMap &Parents) {
  for (const Stmt *S = Inner; S; S = parentOf(S, Parents))
    if (S == Outer)
      return true;
  return false;
}

static std::optional<llvm::APSInt> constantOf(const Expr *E, const ASTContext &Context) {
  return E->IgnoreParenImpCasts()->getIntegerConstantExpr(Context);
}

static bool isZero(const std::optional<llvm::APSInt> &Value) { return Value && Value->isZero(); }
static bool isNonzero(const std::optional<llvm::APSInt> &Value) {
  return Value && !Value->isZero();
}

/// The local integer or bool flag \p Condition tests, and whether the
/// condition holding means the flag is nonzero (`started`, `done != 0`) or
/// zero (`!started`, `done == 0`, `started == false`).
static std::optional<std::pair<const VarDecl *, bool>> flagTest(const Expr *Condition,
                                                                const ASTContext &Context) {
  const Expr *E = Condition->IgnoreParenImpCasts();
  bool Nonzero = true;
  while (const auto *Not = dyn_cast<UnaryOperator>(E)) {
    if (Not->getOpcode() != UO_LNot)
      return std::nullopt;
    Nonzero = !Nonzero;
    E = Not->getSubExpr()->IgnoreParenImpCasts();
  }
  if (const auto *Compare = dyn_cast<BinaryOperator>(E); Compare && Compare->isEqualityOp()) {
    const Expr *Flag = Compare->getLHS()->IgnoreParenImpCasts();
    const Expr *Constant = Compare->getRHS();
    if (!isa<DeclRefExpr>(Flag))
      std::swap(Flag, Constant);
    std::optional<llvm::APSInt> Value = constantOf(Constant, Context);
    // Against zero, or `true` for a bool: `done == 1` of an int says
    // nothing of a flag set to 2.
    if (!Value || (!Value->isZero() && !(Value->isOne() && Flag->getType()->isBooleanType())))
      return std::nullopt;
    if ((Compare->getOpcode() == BO_EQ) == Value->isZero())
      Nonzero = !Nonzero;
    E = Flag->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDecl() || !Var->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  return std::make_pair(Var, Nonzero);
}

/// What the ifs between \p S and \p Loop say of local flags where \p S runs:
/// each conjunct of a then-arm's condition holds, an else-arm's does not.
static llvm::DenseMap<const VarDecl *, bool> flagsAt(const Stmt *S, const Stmt *Loop,
                                                     const FunctionCFG &Function) {
  llvm::DenseMap<const VarDecl *, bool> Known;
  const ASTContext &Context = Function.context();
  for (const Stmt *Child = S, *Parent = parentOf(S, Function.parents()); Parent && Child != Loop;
       Child = Parent, Parent = parentOf(Parent, Function.parents())) {
    const auto *If = dyn_cast<IfStmt>(Parent);
    if (!If || Child == If->getCond())
      continue;
    if (Child == If->getElse()) {
      if (auto Test = flagTest(If->getCond(), Context))
        Known.try_emplace(Test->first, !Test->second);
      continue;
    }
    std::vector<const Expr *> Conjuncts{If->getCond()};
    while (!Conjuncts.empty()) {
      const Expr *C = Conjuncts.back()->IgnoreParenImpCasts();
      Conjuncts.pop_back();
      if (const auto *And = dyn_cast<BinaryOperator>(C); And && And->getOpcode() == BO_LAnd) {
        Conjuncts.push_back(And->getLHS());
        Conjuncts.push_back(And->getRHS());
      } else if (auto Test = flagTest(C, Context)) {
        Known.try_emplace(Test->first, Test->second);
      }
    }
  }
  return Known;
}

/// `Var = <constant>` as a statement, with that constant.
static std::optional<llvm::APSInt> constantAssigned(const Stmt *S, const VarDecl *Var,
                                                    const ASTContext &Context) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *Assign = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts());
  if (!Ref || Ref->getDecl() != Var)
    return std::nullopt;
  return constantOf(Assign->getRHS(), Context);
}

/// Whether \p S holds a statement that leaves it other than by falling
/// through: break, continue, return, goto, throw (not inside a lambda).
static bool jumpsOut(const Stmt *S) {
  bool Jumps = false;
  forEachStmtInOrder(S, [&](const Stmt *Inner) {
    Jumps = Jumps || isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt,
                         CXXThrowExpr, CoreturnStmt>(Inner);
  });
  return Jumps;
}

/// The statements that leave \p Loop other than by its condition failing:
/// a break of it, return, goto, throw (lambdas aside).
static std::vector<const Stmt *> exitsOf(const Stmt *Loop) {
  std::vector<const Stmt *> Exits;
  // Each statement with the number of loops and switches around it below
  // \p Loop: a break at depth 0 leaves it.
  std::vector<std::pair<const Stmt *, unsigned>> Work{{Loop, 0}};
  while (!Work.empty()) {
    auto [S, Depth] = Work.back();
    Work.pop_back();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if ((isa<BreakStmt>(S) && Depth == 0) ||
        isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr, CoreturnStmt>(S))
      Exits.push_back(S);
    const unsigned Inner = Depth + (S != Loop && (isLoopStatement(S) || isa<SwitchStmt>(S)));
    for (const Stmt *Child : S->children())
      Work.push_back({Child, Inner});
  }
  return Exits;
}

/// Whether \p Var starts at zero: its initializer, or a `for` \p Loop that
/// sets it to zero first. (A later run of the loop may find it set by an
/// earlier one: on every rank alike, since every rank left that run with
/// the latch set.)
static bool startsAtZero(const VarDecl *Var, const Stmt *Loop, const FunctionCFG &Function) {
  const ASTContext &Context = Function.context();
  const auto *For = dyn_cast<ForStmt>(Loop);
  return (For && For->getInit() && isZero(constantAssigned(For->getInit(), Var, Context))) ||
         (Var->getInit() && isZero(constantOf(Var->getInit(), Context)));
}

const Stmt *latchingLoop(const Stmt *Call, const FunctionCFG &Function) {
  const ParentMap &Parents = Function.parents();
  const ASTContext &Context = Function.context();
  if (!isa_and_nonnull<CallExpr>(Call))
    return nullptr;
  // The statement the call is, in its block: not a conditional part of one.
  const Stmt *Statement = Call;
  const Stmt *Block = parentOf(Call, Parents);
  for (; Block && !isa<CompoundStmt>(Block); Block = parentOf(Block, Parents)) {
    if (isa<ConditionalOperator, BinaryConditionalOperator, LambdaExpr>(Block) ||
        (isa<BinaryOperator>(Block) && cast<BinaryOperator>(Block)->isLogicalOp()) ||
        !isa<Expr, DeclStmt>(Block))
      return nullptr;
    Statement = Block;
  }
  const Stmt *Loop = Block;
  while (Loop && !isLoopStatement(Loop))
    Loop = parentOf(Loop, Parents);
  if (!Block || !Loop || isa<CXXForRangeStmt>(Loop))
    return nullptr;
  // The latch: zero where the call runs, set to a nonzero constant by the
  // next statements of its block, with no jump before that.
  llvm::DenseMap<const VarDecl *, bool> Known = flagsAt(Call, Loop, Function);
  const VarDecl *Latch = nullptr;
  const Expr *LatchWrite = nullptr;
  const auto *Body = cast<CompoundStmt>(Block);
  bool After = false;
  for (const Stmt *Next : Body->body()) {
    if (Next == Statement) {
      After = true;
      continue;
    }
    if (!After)
      continue;
    for (const auto &[Var, Nonzero] : Known)
      if (!Nonzero && isNonzero(constantAssigned(Next, Var, Context))) {
        Latch = Var;
        LatchWrite = cast<Expr>(Next)->IgnoreParenImpCasts();
      }
    if (Latch || jumpsOut(Next))
      break;
  }
  if (!Latch || !startsAtZero(Latch, Loop, Function))
    return nullptr;
  // Every way out other than the condition is taken with the latch set
  // (`for (;;) { if (started) { ...; if (done) break; } else ... }`).
  for (const Stmt *Exit : exitsOf(Loop))
    if (!flagsAt(Exit, Loop, Function).lookup(Latch))
      return nullptr;
  // The condition never fails (`for (;;)`, `while (1)`), or the loop runs
  // while its exit flag is zero.
  const Expr *Condition = isa<WhileStmt>(Loop) ? cast<WhileStmt>(Loop)->getCond()
                          : isa<DoStmt>(Loop)  ? cast<DoStmt>(Loop)->getCond()
                                               : cast<ForStmt>(Loop)->getCond();
  const VarDecl *Done = nullptr;
  if (Condition && !isNonzero(constantOf(Condition, Context))) {
    std::optional<std::pair<const VarDecl *, bool>> Exit = flagTest(Condition, Context);
    if (!Exit || Exit->second || !startsAtZero(Exit->first, Loop, Function))
      return nullptr;
    Done = Exit->first;
  }
  // The latch is written there only, and read otherwise; the exit flag
  // changes only where the latch is set (or is the latch).
  bool Holds = true;
  forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (!Holds || !Ref || (Ref->getDecl() != Latch && Ref->getDecl() != Done))
      return;
    const Stmt *Parent = parentOf(Ref, Parents);
    while (isa_and_nonnull<ParenExpr>(Parent))
      Parent = parentOf(Parent, Parents);
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    if (Cast && Cast->getCastKind() == CK_LValueToRValue)
      return; // a read
    if (const auto *For = dyn_cast<ForStmt>(Loop);
        For && For->getInit() && inside(Ref, For->getInit(), Parents) &&
        isZero(constantAssigned(For->getInit(), cast<VarDecl>(Ref->getDecl()), Context)))
      return; // the reset startsAtZero allowed
    if (Ref->getDecl() == Latch)
      Holds = Parent == LatchWrite;
    else
      Holds = inside(Ref, Loop, Parents) && flagsAt(Ref, Loop, Function).lookup(Latch);
  });
  return Holds ? Loop : nullptr;
}

} // namespace lockstep::analysis
