#include "LocalContainers.h"

namespace lockstep::analysis::dependence {
using namespace clang;

const VarDecl *localContainer(const StorageKey &Container, const FunctionDecl *Owner) {
  const auto *Var = Container.size() == 1 && Container.front() != &ThisRoot
                        ? dyn_cast<VarDecl>(static_cast<const Decl *>(Container.front()))
                        : nullptr;
  return Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
                 (!Owner || Var->getDeclContext() == Owner)
             ? Var
             : nullptr;
}

} // namespace lockstep::analysis::dependence
