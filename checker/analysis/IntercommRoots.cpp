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

bool IntercommRoots::mayBe(const Expr *Root) {
  std::vector<const Expr *> Work{Root};
  llvm::SmallPtrSet<const ParmVarDecl *, 8> Followed;
  while (!Work.empty()) {
    const Expr *E = Work.back();
    Work.pop_back();
    bool Marker = false;
    forEachStmtInOrder(E, [&](const Stmt *S) {
      const auto *Part = dyn_cast<Expr>(S);
      if (!Part || Marker)
        return;
      if (spelledAsMacro(Part, "MPI_ROOT", Context) ||
          spelledAsMacro(Part, "MPI_PROC_NULL", Context)) {
        Marker = true;
        return;
      }
      // A parameter is what the calls of its function pass.
      const auto *Ref = dyn_cast<DeclRefExpr>(Part);
      const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
      const auto *Owner = Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
      if (!Owner || !Followed.insert(Param).second)
        return;
      if (!Indexed)
        indexCalls();
      for (const CallExpr *Call : Calls.lookup(Owner->getCanonicalDecl()))
        if (Param->getFunctionScopeIndex() < Call->getNumArgs())
          Work.push_back(Call->getArg(Param->getFunctionScopeIndex()));
    });
    if (Marker)
      return true;
  }
  return false;
}

} // namespace lockstep::analysis
