// Calls after which no rank of the job runs on: a job abort of the rules
// (`MPI_Abort`), a failing `assert` (unless the user wants it seen as a rank
// exit), and a call to a function of this file every way through which ends
// in one (`[[noreturn]] void die(const char *m) { fprintf(...);
// MPI_Abort(MPI_COMM_WORLD, 1); exit(1); }`). Code after them runs nowhere,
// so no rank is left waiting in a collective.
#pragma once

#include "CallClassifier.h"
#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace lockstep::analysis {

class JobEnds {
public:
  JobEnds(const CallClassifier &Classifier,
          const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions,
          bool AssertionsAsExits);

  /// Whether \p Block makes a call that ends the job.
  bool endsJob(const clang::CFGBlock &Block);

  /// Whether every call of \p FD ends the job.
  bool alwaysEndsJob(const clang::FunctionDecl *FD);

private:
  bool endsJob(const clang::CFGBlock &Block, std::vector<const clang::FunctionDecl *> *Missing);
  bool callEndsJob(const clang::CallExpr &Call, std::vector<const clang::FunctionDecl *> *Missing);
  bool decide(const FunctionCFG &Function, std::vector<const clang::FunctionDecl *> &Missing);

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  bool AssertionsAsExits;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Decided;
  llvm::DenseSet<const clang::FunctionDecl *> Deciding;
};

} // namespace lockstep::analysis
