// The communicator a handle stands for. A collective that names only a file
// or a window (`MPI_File_close(&fh)`, `MPI_Win_fence(0, win)`) runs on the
// communicator the handle was created on (`MPI_File_open(MPI_COMM_SELF, ...,
// &fh)`), as the rules' `handle` and `new_handle` arguments say; and a
// variable or field that only ever holds MPI_COMM_SELF is that communicator,
// and one that only ever copies another handle is that handle's.
#pragma once

#include "CallClassifier.h"
#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

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

  /// Whether the communicator \p Comm is MPI_COMM_SELF: written so, or a
  /// local variable or field that the translation unit only ever sets to it
  /// (`MPI_Comm c = MPI_COMM_SELF;`, a member initialised so) and that no
  /// other name can write: its address is never taken nor a non-const
  /// reference bound to it, and for a field, no object of its class is set
  /// from a call, written through another name or a global.
  bool holdsSelf(const clang::Expr *Comm, const clang::ASTContext &Context) const;

  /// Records that the variable or field \p Copy only ever holds the handle
  /// \p Of holds (`MPI_Comm c = sub;`, `Comm w{sub};`).
  void addCopy(const clang::ValueDecl *Copy, const clang::ValueDecl *Of) { CopyOf[Copy] = Of; }
  /// The handle \p Comm holds a copy of, through chains of copies: a
  /// collective on the copy is one on that communicator. \p Comm itself when
  /// it copies none.
  const clang::ValueDecl *original(const clang::ValueDecl *Comm) const;

private:
  void scan() const;
  void scanSelfWrites(const clang::ASTContext &Context) const;

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  // Filled on the first question: most units never close a file.
  mutable bool Scanned = false;
  mutable llvm::DenseMap<const clang::ValueDecl *, const clang::Expr *> Creators;
  // Storage set to MPI_COMM_SELF, and storage set to anything else or whose
  // address is taken (filled on the first question about a variable).
  mutable bool ScannedWrites = false;
  mutable llvm::DenseSet<const clang::ValueDecl *> SelfWritten, OtherWritten;
  // Records some object of which is written as a whole, or through another
  // name: none of their fields is known to keep MPI_COMM_SELF.
  mutable llvm::DenseSet<const clang::TagDecl *> WrittenWhole;
  llvm::DenseMap<const clang::ValueDecl *, const clang::ValueDecl *> CopyOf;
};

} // namespace lockstep::analysis
