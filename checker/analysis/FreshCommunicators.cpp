#include "FreshCommunicators.h"

#include "CallSite.h"

#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {
using namespace clang;

/// The reference \p E makes to a variable, through `&`.
static const DeclRefExpr *handleReference(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf)
    E = Unary->getSubExpr()->IgnoreParenImpCasts();
  return dyn_cast<DeclRefExpr>(E);
}

/// Whether \p E stores the null handle, through chained assignments
/// (`a = b = MPI_COMM_NULL`).
static bool storesNull(const Expr *E, ASTContext &Context) {
  for (const auto *Chained = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
       Chained && Chained->getOpcode() == BO_Assign;
       Chained = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()))
    E = Chained->getRHS();
  return isNullHandle(E->IgnoreParenImpCasts(), Context);
}

void collectFreshCommunicators(const FunctionDecl *FD, const CallClassifier &Classifier,
                               llvm::DenseSet<const ValueDecl *> &Fresh) {
  ASTContext &Context = FD->getASTContext();
  llvm::DenseMap<const VarDecl *, unsigned> Creations, References;
  llvm::DenseSet<const DeclRefExpr *> Harmless; // uses that hand the handle nowhere
  forEachStmtInOrder(FD->getBody(), [&](const Stmt *S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        ++References[Var];
      return;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
      if (Binary->isEqualityOp()) // `c != MPI_COMM_NULL`
        for (const Expr *Side : {Binary->getLHS(), Binary->getRHS()})
          if (const auto *Ref = dyn_cast<DeclRefExpr>(Side->IgnoreParenImpCasts()))
            Harmless.insert(Ref);
      if (Binary->getOpcode() == BO_Assign && storesNull(Binary->getRHS(), Context))
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Binary->getLHS()->IgnoreParenImpCasts()))
          Harmless.insert(Ref);
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Classifier.classify(Callee).isKnown())
      return;
    const CalleeRole &Role = Classifier.classify(Callee);
    for (const Expr *Arg : Call->arguments())
      if (const DeclRefExpr *Ref = handleReference(Arg))
        Harmless.insert(Ref);
    if (const Expr *Made = Role.Collective ? ruleArgument(Call, Role.Collective->NewComm) : nullptr)
      if (const DeclRefExpr *Ref = handleReference(Made))
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
          ++Creations[Var];
  });
  llvm::DenseMap<const VarDecl *, unsigned> HarmlessUses;
  for (const DeclRefExpr *Ref : Harmless)
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      ++HarmlessUses[Var];
  for (const auto &[Var, Count] : Creations)
    if (Count == 1 && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
        !Var->getType()->isReferenceType() && References.lookup(Var) == HarmlessUses.lookup(Var))
      Fresh.insert(Var);
}

} // namespace lockstep::analysis
