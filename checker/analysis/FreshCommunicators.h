// Communicators a function creates and keeps to itself: no other handle of
// the program can hold the same one, so collectives on such a handle and on
// any other are on different communicators.
#pragma once

#include "CallClassifier.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"

namespace lockstep::analysis {

/// Adds to \p Fresh the local variables of \p FD that one collective call
/// of \p FD creates (rules' new_comm) and that \p FD only hands to calls the
/// rules know (collectives, rank queries, `MPI_Comm_free`) or compares: not
/// copied, stored, returned or passed to the program's own functions.
void collectFreshCommunicators(const clang::FunctionDecl *FD, const CallClassifier &Classifier,
                               llvm::DenseSet<const clang::ValueDecl *> &Fresh);

} // namespace lockstep::analysis
