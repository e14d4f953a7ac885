// The communicator of a file or a window: a collective that names only the
// handle (`MPI_File_close(&fh)`, `MPI_Win_fence(0, win)`) runs on the
// communicator the handle was created on (`MPI_File_open(MPI_COMM_SELF, ...,
// &fh)`), as the rules' `handle` and `new_handle` arguments say.
#pragma once

#include "CallClassifier.h"
#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {

class HandleCommunicators {
public:
  /// \p Functions are the analysed functions, by canonical declaration.
  HandleCommunicators(
      const CallClassifier &Classifier,
      const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions)
      : Classifier(Classifier), Functions(Functions) {}

  /// The communicator argument of the call that creates the handle \p Handle
  /// (a variable or field), when every such call of the translation unit
  /// passes the same one as written; null otherwise.
  const clang::Expr *creator(const clang::ValueDecl *Handle) const;

private:
  void scan() const;

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  // Filled on the first question: most units never close a file.
  mutable bool Scanned = false;
  mutable llvm::DenseMap<const clang::ValueDecl *, const clang::Expr *> Creators;
};

} // namespace lockstep::analysis
