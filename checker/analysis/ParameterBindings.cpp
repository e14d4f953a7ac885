#include "ParameterBindings.h"
#include "CallSite.h"
#include "FunctionCFG.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

namespace lockstep::analysis {
using namespace clang;

/// Functions the file's global initialisers name (a table of callbacks).
static void collectNamedByGlobals(const DeclContext *Scope,
                                  llvm::DenseSet<const FunctionDecl *> &Into) {
  for (const Decl *D : Scope->decls()) {
    if (const auto *Inner = dyn_cast<DeclContext>(D); Inner && !isa<FunctionDecl>(D))
      collectNamedByGlobals(Inner, Into);
    const auto *Var = dyn_cast<VarDecl>(D);
    if (!Var || !Var->hasGlobalStorage() || !Var->getInit())
      continue;
    forEachStmtInOrder(Var->getInit(), [&](const Stmt *S) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
        if (const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl()))
          Into.insert(FD->getCanonicalDecl());
    });
  }
}

ParameterBindings::ParameterBindings(const std::vector<std::unique_ptr<FunctionCFG>> &Functions,
                                     ASTContext &Context) {
  collectNamedByGlobals(Context.getTranslationUnitDecl(), Escaping);
  for (const auto &Function : Functions) {
    const ParentMap &Parents = Function->parents();
    for (const CFGBlock *Block : Function->reversePostOrder())
      for (const CFGElement &Element : *Block) {
        auto S = Element.getAs<CFGStmt>();
        const Expr *Ref = S ? dyn_cast<Expr>(S->getStmt()) : nullptr;
        const ValueDecl *Named = nullptr;
        if (const auto *Decl = dyn_cast_or_null<DeclRefExpr>(Ref))
          Named = Decl->getDecl();
        else if (const auto *Member = dyn_cast_or_null<MemberExpr>(Ref))
          Named = Member->getMemberDecl();
        const auto *Callee = dyn_cast_or_null<FunctionDecl>(Named);
        if (!Callee)
          continue;
        Callee = Callee->getCanonicalDecl();
        // Named other than as a call's callee (`&f`, `ops = {f}`), it may
        // be called from anywhere.
        const auto *Call = dyn_cast_or_null<CallExpr>(
            Parents.getParentIgnoreParenImpCasts(const_cast<Expr *>(Ref)));
        if (!Call || Call->getCallee()->IgnoreParenImpCasts() != Ref ||
            Callee == Function->decl()->getCanonicalDecl()) {
          Escaping.insert(Callee);
          continue;
        }
        Calls[Callee].push_back({Function.get(), Call, explicitArguments(Call)});
      }
  }
}

std::vector<ParameterBindings::Site> ParameterBindings::sites(const ParmVarDecl *Param) const {
  std::vector<Site> Found;
  const auto *FD = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!FD)
    return {};
  FD = FD->getCanonicalDecl();
  // A lambda's or a method's calls may come from code not seen here (an
  // algorithm of the library, a virtual call).
  const auto *Method = dyn_cast<CXXMethodDecl>(FD);
  if (FD->isExternallyVisible() || Escaping.count(FD) || (Method && Method->isVirtual()) ||
      (Method && Method->getParent()->isLambda()))
    return {};
  auto It = Calls.find(FD);
  if (It == Calls.end())
    return {};
  unsigned Index = Param->getFunctionScopeIndex();
  for (const Call &Seen : It->second) {
    if (Index >= Seen.Arguments.size()) // a default argument
      return {};
    Found.push_back({Seen.Caller, Seen.Arguments[Index]});
  }
  return Found;
}

llvm::ArrayRef<ParameterBindings::Call>
ParameterBindings::callsSeen(const FunctionDecl *Callee) const {
  auto It = Calls.find(Callee->getCanonicalDecl());
  return It == Calls.end() ? llvm::ArrayRef<Call>() : llvm::ArrayRef<Call>(It->second);
}

const ValueDecl *ParameterBindings::storage(const ParmVarDecl *Param) const {
  // Membership asks for every communicator it meets: the answer is kept.
  auto [Known, Inserted] = Storage.try_emplace(Param, nullptr);
  if (!Inserted)
    return Known->second;
  const ValueDecl *Common = nullptr;
  for (const Site &Call : sites(Param)) {
    const ValueDecl *Passed = namedStorage(Call.Argument);
    if (!Passed || (Common && Passed != Common))
      return nullptr;
    Common = Passed;
  }
  return Known->second = Common;
}

} // namespace lockstep::analysis
