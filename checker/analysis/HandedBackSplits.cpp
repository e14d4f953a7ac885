#include "HandedBackSplits.h"
#include "CallSite.h"
#include "FunctionCFG.h"
#include "ParameterBindings.h"
#include "RankDependence.h"

#include "clang/AST/ParentMap.h"

namespace lockstep::analysis {
using namespace clang;

/// Whether every return of \p Helper returns \p Local (and there is one).
static bool returnsOnly(const FunctionCFG &Helper, const ValueDecl *Local) {
  bool Returned = false, Other = false;
  forEachStmtInOrder(Helper.decl()->getBody(), [&](const Stmt *S) {
    if (const auto *Return = dyn_cast<ReturnStmt>(S))
      (namedStorage(Return->getRetValue()) == Local ? Returned : Other) = true;
  });
  return Returned && !Other;
}

/// The storage a call's result is kept in: `MPI_Comm c = f(w);`, `c = f(w);`.
static const ValueDecl *receiving(const CallExpr *Call, const FunctionCFG &Caller) {
  const Stmt *Parent = Caller.parents().getParentIgnoreParenImpCasts(const_cast<CallExpr *>(Call));
  if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
      Assign && Assign->getOpcode() == BO_Assign && Assign->getRHS()->IgnoreParenImpCasts() == Call)
    return namedStorage(Assign->getLHS());
  if (const auto *Declaration = dyn_cast_or_null<DeclStmt>(Parent))
    for (const Decl *D : Declaration->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D);
          Var && Var->getInit() && Var->getInit()->IgnoreParenImpCasts() == Call)
        return Var;
  return nullptr;
}

/// What a call passes for \p Param, as named storage; null when it passes
/// none or \p Param is none of \p Helper's.
static const ValueDecl *passedFor(const ParmVarDecl *Param, const FunctionCFG &Helper,
                                  const ParameterBindings::Call &Call) {
  const auto *Owner = dyn_cast<FunctionDecl>(Param->getDeclContext());
  unsigned Index = Param->getFunctionScopeIndex();
  return Owner && Owner->getCanonicalDecl() == Helper.decl()->getCanonicalDecl() &&
                 Index < Call.Arguments.size()
             ? namedStorage(Call.Arguments[Index])
             : nullptr;
}

std::vector<HandedBackSplit> handedBack(const FunctionCFG &Helper, const RankSplit &Split,
                                        const ParameterBindings &Bindings) {
  const auto *Out = dyn_cast<ParmVarDecl>(Split.Communicator);
  if (Out && !Out->getType()->isPointerType() && !Out->getType()->isReferenceType())
    return {}; // a copy the helper splits into
  const auto *Local = dyn_cast<VarDecl>(Split.Communicator);
  if (!Out && (!Local || !Local->hasLocalStorage() || !returnsOnly(Helper, Local)))
    return {};
  std::vector<HandedBackSplit> Found;
  for (const ParameterBindings::Call &Call : Bindings.callsSeen(Helper.decl())) {
    const ValueDecl *Storage =
        Out ? passedFor(Out, Helper, Call) : receiving(Call.Expr, *Call.Caller);
    const auto *ParentParam = dyn_cast_or_null<ParmVarDecl>(Split.Parent);
    const ValueDecl *Parent = ParentParam ? passedFor(ParentParam, Helper, Call) : Split.Parent;
    if (Storage)
      Found.push_back({Call.Caller, Call.Expr, Storage, Parent});
  }
  return Found;
}

} // namespace lockstep::analysis
