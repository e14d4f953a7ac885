// Collectives in the initializer of a function's static local run once per
// process, on the function's first call (`static const Layout layout = [] {
// ...; MPI_Allgather(...); ...; }();`): a lazily built cache. A later call,
// after a call that every path to it passes, finds the initializer done and
// runs no collective, whichever ranks make it.
#pragma once

#include "FunctionCFG.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <utility>
#include <vector>

namespace lockstep::analysis {

class StaticInitializers {
public:
  /// \p Performs says whether a call of a function runs a collective: it is
  /// one, or performs one. \p RunsOthers says whether a call runs functions
  /// that perform collectives besides the one it names: overrides, the
  /// target of a `std::function`, callables passed to it.
  StaticInitializers(
      const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions,
      std::function<bool(const clang::FunctionDecl *)> Performs,
      std::function<bool(const clang::Stmt *)> RunsOthers);

  /// The static local whose initializer runs every collective \p FD
  /// performs, directly in \p FD or through the functions it calls (each of
  /// which has that initializer), and which every call of \p FD reaches;
  /// null when there is none.
  const clang::VarDecl *onceOf(const clang::FunctionDecl *FD);

  /// Whether a block of \p Function that dominates \p Block, other than
  /// \p Block itself, calls a function whose collectives \p Once runs.
  bool runBefore(const FunctionCFG &Function, const clang::CFGBlock &Block,
                 const clang::VarDecl *Once);

private:
  const clang::VarDecl *decide(const clang::FunctionDecl *FD,
                               std::vector<const clang::FunctionDecl *> &Needed);

  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  std::function<bool(const clang::FunctionDecl *)> Performs;
  std::function<bool(const clang::Stmt *)> RunsOthers;
  llvm::DenseMap<const clang::FunctionDecl *, const clang::VarDecl *> Decided;
  llvm::DenseSet<const clang::FunctionDecl *> Deciding;
  // Per function and initializer: the blocks that call a function of it.
  llvm::DenseMap<std::pair<const FunctionCFG *, const clang::VarDecl *>,
                 std::vector<const clang::CFGBlock *>>
      Callers;
};

} // namespace lockstep::analysis
