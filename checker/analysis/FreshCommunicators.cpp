#include "FreshCommunicators.h"

#include "CallSite.h"

#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {
using namespace clang;

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
  llvm::DenseSet<const DeclRefExpr *> Harmless; // uses that cannot change the handle
  forEachStmtInOrder(FD->getBody(), [&](const Stmt *S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        ++References[Var];
      return;
    }
    if (const auto *Read = dyn_cast<ImplicitCastExpr>(S);
        Read && Read->getCastKind() == CK_LValueToRValue) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Read->getSubExpr()->IgnoreParens()))
        Harmless.insert(Ref);
      return;
    }
    if (const auto *Assign = dyn_cast<BinaryOperator>(S)) {
      if (Assign->getOpcode() == BO_Assign && storesNull(Assign->getRHS(), Context))
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts()))
          Harmless.insert(Ref);
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee)
      return;
    // The handle a creation writes, and the one `MPI_Comm_free(&c)` nulls.
    const rules::CollectiveRule *Rule = Classifier.classify(Callee).Collective;
    if (!Rule)
      return;
    if (const DeclRefExpr *Ref = addressTaken(ruleArgument(Call, Rule->NewComm)))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
        ++Creations[Var];
        Harmless.insert(Ref);
      }
    if (Rule->Operation == "comm_free")
      if (const DeclRefExpr *Ref = addressTaken(ruleArgument(Call, Rule->Comm)))
        Harmless.insert(Ref);
  });
  llvm::DenseMap<const VarDecl *, unsigned> HarmlessUses;
  for (const DeclRefExpr *Ref : Harmless)
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      ++HarmlessUses[Var];
  for (const auto &[Var, Count] : Creations)
    if (Count == 1 && Var->hasLocalStorage() && !Var->isStaticLocal() && !isa<ParmVarDecl>(Var) &&
        !Var->getType()->isReferenceType() &&
        (!Var->getInit() || storesNull(Var->getInit(), Context)) &&
        References.lookup(Var) == HarmlessUses.lookup(Var))
      Fresh.insert(Var);
}

bool releasesHandle(const CallExpr *Call, const CallClassifier &Classifier) {
  const FunctionDecl *Callee = resolvedCallee(Call);
  const CalleeRole *Role = Callee ? &Classifier.classify(Callee) : nullptr;
  return Role && Role->Collective &&
         llvm::is_contained({"comm_free", "window_free", "file_close"},
                            Role->Collective->Operation);
}

} // namespace lockstep::analysis
