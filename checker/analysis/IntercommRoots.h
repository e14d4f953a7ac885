// The root of an intercommunicator collective differs between ranks by
// design: in the root group the root passes MPI_ROOT and the others
// MPI_PROC_NULL, while the remote group passes the root's rank. Such a root
// is not an argument every rank must pass identically.
#pragma once

#include "FunctionCFG.h"
#include "LocalWrites.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace lockstep::analysis {

/// Whether \p E spells MPI_ROOT or MPI_PROC_NULL somewhere
/// (`lrank == 0 ? MPI_ROOT : MPI_PROC_NULL`).
bool namesIntercommMarker(const clang::Expr *E, const clang::ASTContext &Context);

class IntercommRoots {
public:
  IntercommRoots(const std::vector<std::unique_ptr<FunctionCFG>> &Functions,
                 const clang::ASTContext &Context)
      : Functions(Functions), Context(Context) {}

  /// Whether \p Root may be MPI_ROOT or MPI_PROC_NULL: written so, a local
  /// assigned so, or a parameter that some call of the unit passes so,
  /// through any number of wrappers (`MTest_Bcast(buf, n, type, rank == 0 ?
  /// MPI_ROOT : MPI_PROC_NULL, comm)`).
  bool mayBe(const clang::Expr *Root);

private:
  void indexCalls();

  const std::vector<std::unique_ptr<FunctionCFG>> &Functions;
  const clang::ASTContext &Context;
  // The calls of each function, by canonical declaration; built on the
  // first question about a parameter.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> Calls;
  bool Indexed = false;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<LocalWrites>> Writes;
};

} // namespace lockstep::analysis
