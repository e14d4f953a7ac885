#include "TripCount.h"
#include "CallSite.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

namespace lockstep::analysis {
using namespace clang;

static const VarDecl *variableOf(const Expr *E) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

/// The step a statement adds to \p Var: `++i` (1), `i -= 2` (-2); nullopt
/// when it is not a constant step of Var.
static std::optional<int64_t> stepOf(const Stmt *S, const VarDecl *Var, const ASTContext &Context) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E);
      Unary && Unary->isIncrementDecrementOp() && variableOf(Unary->getSubExpr()) == Var)
    return Unary->isIncrementOp() ? 1 : -1;
  if (const auto *Compound = dyn_cast<CompoundAssignOperator>(E);
      Compound && variableOf(Compound->getLHS()) == Var &&
      (Compound->getOpcode() == BO_AddAssign || Compound->getOpcode() == BO_SubAssign)) {
    Expr::EvalResult Result;
    if (!Compound->getRHS()->EvaluateAsInt(Result, Context))
      return std::nullopt;
    int64_t Step = Result.Val.getInt().getExtValue();
    return Compound->getOpcode() == BO_AddAssign ? Step : -Step;
  }
  return std::nullopt;
}

/// Every statement below \p Root that writes \p Var (explicit stack).
static std::vector<const Stmt *> writesOf(const Stmt *Root, const VarDecl *Var) {
  std::vector<const Stmt *> Writes, Stack{Root};
  while (!Stack.empty()) {
    const Stmt *S = Stack.back();
    Stack.pop_back();
    if (!S)
      continue;
    if (const auto *Binary = dyn_cast<BinaryOperator>(S);
        Binary && Binary->isAssignmentOp() && variableOf(Binary->getLHS()) == Var)
      Writes.push_back(S);
    else if (const auto *Unary = dyn_cast<UnaryOperator>(S);
             Unary && (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf) &&
             variableOf(Unary->getSubExpr()) == Var)
      Writes.push_back(S);
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
  return Writes;
}

/// The variables \p Root reads (explicit stack).
static std::vector<const VarDecl *> variablesIn(const Stmt *Root) {
  std::vector<const VarDecl *> Found;
  std::vector<const Stmt *> Stack{Root};
  while (!Stack.empty()) {
    const Stmt *S = Stack.back();
    Stack.pop_back();
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && !llvm::is_contained(Found, Var))
        Found.push_back(Var);
    if (S)
      for (const Stmt *Child : S->children())
        Stack.push_back(Child);
  }
  return Found;
}

/// The value \p Var holds when the loop starts: the for's init, or the
/// initialization or assignment just before the loop in its block.
static const Expr *startOf(const Stmt *Loop, const Stmt *Init, const VarDecl *Var,
                           const ParentMap &Parents) {
  auto FromStatement = [&](const Stmt *S) -> const Expr * {
    if (const auto *Decl = dyn_cast_or_null<DeclStmt>(S)) {
      for (const auto *D : Decl->decls())
        if (D == Var)
          return Var->getInit();
      return nullptr;
    }
    if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(S);
        Assign && Assign->getOpcode() == BO_Assign && variableOf(Assign->getLHS()) == Var)
      return Assign->getRHS();
    return nullptr;
  };
  if (Init)
    return FromStatement(Init);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Parents.getParent(Loop));
  if (!Block)
    return nullptr;
  const Expr *Start = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == Loop)
      return Start;
    if (const Expr *Value = FromStatement(S))
      Start = Value;
    else if (!writesOf(S, Var).empty())
      Start = nullptr; // written some other way
  }
  return nullptr;
}

bool aliased(const VarDecl *Var, const Stmt *Body) {
  auto Names = [Var](const Expr *E) {
    const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    return Ref && Ref->getDecl() == Var;
  };
  bool Found = false;
  forEachStmtInOrder(Body, [&](const Stmt *S) {
    if (const auto *Address = dyn_cast<UnaryOperator>(S))
      Found |= Address->getOpcode() == UO_AddrOf && Names(Address->getSubExpr());
    else if (const auto *Declared = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Declared->decls()) {
        const auto *Bound = dyn_cast<VarDecl>(D);
        Found |= Bound && writableReference(Bound->getType()) && Names(Bound->getInit());
      }
    else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      std::vector<const Expr *> Args = explicitArguments(Call);
      for (unsigned I = 0; Callee && I < Args.size() && I < Callee->getNumParams(); ++I)
        Found |= writableReference(Callee->getParamDecl(I)->getType()) && Names(Args[I]);
    } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &Capture : Lambda->captures())
        Found |= Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef &&
                 Capture.getCapturedVar() == Var;
  });
  return Found;
}

std::optional<CountedLoop> countedLoop(const Stmt *Loop, const ParentMap &Parents,
                                       ConditionFormula &Conditions, FormulaArena &Arena) {
  const Expr *Condition = nullptr;
  const Stmt *Init = nullptr, *Increment = nullptr, *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    Condition = For->getCond();
    Init = For->getInit();
    Increment = For->getInc();
    Body = For->getBody();
  } else if (const auto *While = dyn_cast<WhileStmt>(Loop)) {
    Condition = While->getCond();
    Body = While->getBody();
  } else {
    return std::nullopt;
  }
  const auto *Compare =
      dyn_cast_or_null<BinaryOperator>(Condition ? Condition->IgnoreParenImpCasts() : nullptr);
  if (!Compare || !Compare->isRelationalOp() && Compare->getOpcode() != BO_NE)
    return std::nullopt;
  BinaryOperatorKind Op = Compare->getOpcode();
  const Expr *Bound = Compare->getRHS();
  const VarDecl *Var = variableOf(Compare->getLHS());
  if (!Var) { // `n > i`: read from the variable's side
    Var = variableOf(Compare->getRHS());
    Bound = Compare->getLHS();
    Op = Op == BO_LT ? BO_GT : Op == BO_GT ? BO_LT : Op == BO_LE ? BO_GE : Op == BO_GE ? BO_LE : Op;
  }
  if (!Var || !Var->getType()->isIntegerType())
    return std::nullopt;
  ASTContext &Context = Var->getASTContext();
  std::vector<const Stmt *> BodyWrites = writesOf(Body, Var);
  std::optional<int64_t> Step;
  if (Increment && BodyWrites.empty())
    Step = stepOf(Increment, Var, Context);
  else if (!Increment && BodyWrites.size() == 1)
    Step = stepOf(BodyWrites.front(), Var, Context);
  const Expr *Start = startOf(Loop, Init, Var, Parents);
  if (!Step || *Step == 0 || !Start || !writesOf(Bound, Var).empty())
    return std::nullopt;
  // Counting up towards `< b`, `<= b` or `!= b` (step 1), or down towards
  // `> b`, `>= b` or `!= b` (step -1): the distance over the step, at least 0.
  // A for's init reads its variables right before the loop: those the loop
  // leaves alone keep that value in every test (`s < start + 10`).
  llvm::DenseSet<const VarDecl *> Stable;
  if (Init)
    for (const Expr *Read : {Start, Bound})
      for (const VarDecl *Used : variablesIn(Read))
        if (writesOf(Body, Used).empty() && writesOf(Increment, Used).empty() &&
            writesOf(Condition, Used).empty())
          Stable.insert(Used);
  FormulaRef A = Conditions.expression(Start, Loop, Stable),
             B = Conditions.expression(Bound, Loop, Stable);
  int64_t C = *Step;
  bool Up = C > 0;
  if (Op == BO_NE) {
    if (C != 1 && C != -1)
      return std::nullopt;
    Op = Up ? BO_LT : BO_GT;
  }
  if ((Up && Op != BO_LT && Op != BO_LE) || (!Up && Op != BO_GT && Op != BO_GE))
    return std::nullopt;
  FormulaRef Last = (Op == BO_LE)   ? Arena.arithmetic(FormulaOp::Add, B, Arena.constant(1))
                    : (Op == BO_GE) ? Arena.arithmetic(FormulaOp::Sub, B, Arena.constant(1))
                                    : B;
  FormulaRef Distance =
      Up ? Arena.arithmetic(FormulaOp::Sub, Last, A) : Arena.arithmetic(FormulaOp::Sub, A, Last);
  int64_t Magnitude = Up ? C : -C;
  FormulaRef Count = Arena.arithmetic(
      FormulaOp::Div, Arena.arithmetic(FormulaOp::Add, Distance, Arena.constant(Magnitude - 1)),
      Arena.constant(Magnitude));
  return CountedLoop{Var, A,
                     Arena.choose(Arena.compare(FormulaOp::Lt, Arena.constant(0), Distance), Count,
                                  Arena.constant(0))};
}

} // namespace lockstep::analysis
