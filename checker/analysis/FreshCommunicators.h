// Communicators a function creates once into a local handle that nothing
// rewrites afterwards: the handle holds a communicator of its own, different
// from any predefined one and from any other such handle, whatever copies of
// it the program makes.
#pragma once

#include "CallClassifier.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace lockstep::analysis {

/// Adds to \p Fresh the local variables of \p FD that one collective call
/// of \p FD creates (rules' new_comm) and that \p FD otherwise only reads,
/// initialises or sets to the null handle, or frees (`MPI_Comm_free(&c)`):
/// no assignment, pointer or reference can make them hold another
/// communicator.
void collectFreshCommunicators(const clang::FunctionDecl *FD, const CallClassifier &Classifier,
                               llvm::DenseSet<const clang::ValueDecl *> &Fresh);

/// Whether \p Call releases the communicator, window or file it is handed
/// (`MPI_Comm_free(&c)`, `MPI_Win_free`, `MPI_File_close`): the handle is
/// nulled, not set to another.
bool releasesHandle(const clang::CallExpr *Call, const CallClassifier &Classifier);

} // namespace lockstep::analysis
