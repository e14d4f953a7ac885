#include "LocalWrites.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace lockstep::analysis {
using namespace clang;

namespace {

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  explicit Scanner(LocalWrites &Out) : Out(Out) {}

  bool TraverseLambdaExpr(LambdaExpr *) { return true; } // a function of its own
  // Without the data-recursion queue, so that the loop depth is exact.
  bool TraverseForStmt(ForStmt *S) {
    return inLoop([&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return inLoop([&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) {
    return inLoop([&] { return Base::TraverseDoStmt(S); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    return inLoop([&] { return Base::TraverseCXXForRangeStmt(S); });
  }

  bool VisitReturnStmt(ReturnStmt *S) {
    Out.Returns.push_back(S->getRetValue());
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (!Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
      return true;
    if (LoopDepth)
      Out.InLoop.insert(Var);
    if (Var->getInit())
      Out.Writes[Var].push_back(Var->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (const VarDecl *Var = Op->isAssignmentOp() ? localVariable(Op->getLHS()) : nullptr) {
      if (Op->getOpcode() == BO_Assign)
        Out.Writes[Var].push_back(Op->getRHS());
      else
        Out.Opaque.insert(Var);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf)
      if (const VarDecl *Var = localVariable(Op->getSubExpr()))
        Out.Opaque.insert(Var);
    return true;
  }

private:
  using Base = RecursiveASTVisitor<Scanner>;
  template <typename Fn> bool inLoop(Fn Traverse) {
    ++LoopDepth;
    bool Result = Traverse();
    --LoopDepth;
    return Result;
  }

  LocalWrites &Out;
  unsigned LoopDepth = 0;
};

} // namespace

const VarDecl *localVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasLocalStorage() ? Var : nullptr;
}

LocalWrites LocalWrites::of(const FunctionDecl *FD) {
  LocalWrites Result;
  if (Stmt *Body = FD->getBody())
    Scanner(Result).TraverseStmt(Body);
  return Result;
}

bool LocalWrites::keepsItsValue(const VarDecl *Var) const {
  if (Opaque.count(Var) || InLoop.count(Var))
    return false;
  auto It = Writes.find(Var);
  size_t Initial = !isa<ParmVarDecl>(Var) && Var->getInit() ? 1 : 0;
  return (It == Writes.end() ? 0 : It->second.size()) == Initial;
}

} // namespace lockstep::analysis
