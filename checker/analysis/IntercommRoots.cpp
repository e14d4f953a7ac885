#include "IntercommRoots.h"
#include "CallSite.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace lockstep::analysis {
using namespace clang;

void IntercommRoots::indexCalls() {
  Indexed = true;
  for (const auto &Function : Functions)
    for (const CFGBlock *Block : Function->cfg())
      for (const CFGElement &Element : *Block)
        if (auto S = Element.getAs<CFGStmt>())
          if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
            if (const FunctionDecl *Callee = Call->getDirectCallee())
              Calls[Callee->getCanonicalDecl()].push_back(Call);
}

bool namesIntercommMarker(const Expr *E, const ASTContext &Context) {
  bool Marker = false;
  forEachStmtInOrder(E, [&](const Stmt *S) {
    const auto *Part = dyn_cast<Expr>(S);
    Marker = Marker || (Part && (spelledAsMacro(Part, "MPI_ROOT", Context) ||
                                 spelledAsMacro(Part, "MPI_PROC_NULL", Context)));
  });
  return Marker;
}

bool IntercommRoots::mayBe(const Expr *Root) {
  std::vector<const Expr *> Work{Root};
  llvm::SmallPtrSet<const VarDecl *, 8> Followed;
  while (!Work.empty()) {
    const Expr *E = Work.back();
    Work.pop_back();
    if (namesIntercommMarker(E, Context))
      return true;
    forEachStmtInOrder(E, [&](const Stmt *S) {
      const auto *Ref = dyn_cast<DeclRefExpr>(S);
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      const auto *Owner = Var ? dyn_cast<FunctionDecl>(Var->getDeclContext()) : nullptr;
      if (!Owner || !Followed.insert(Var).second)
        return;
      // A parameter is what the calls of its function pass; a local, what
      // it is given (`root = lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;`).
      if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
        if (!Indexed)
          indexCalls();
        for (const CallExpr *Call : Calls.lookup(Owner->getCanonicalDecl()))
          if (Param->getFunctionScopeIndex() < Call->getNumArgs())
            Work.push_back(Call->getArg(Param->getFunctionScopeIndex()));
        return;
      }
      std::unique_ptr<LocalWrites> &Body = Writes[Owner->getCanonicalDecl()];
      if (!Body)
        Body = std::make_unique<LocalWrites>(LocalWrites::of(Owner));
      if (auto Written = Body->Writes.find(Var); Written != Body->Writes.end())
        Work.insert(Work.end(), Written->second.begin(), Written->second.end());
    });
  }
  return false;
}

} // namespace lockstep::analysis
