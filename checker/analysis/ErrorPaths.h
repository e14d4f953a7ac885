// Paths that stop the job or report an error: no divergence. A call that
// ends the job (JobEnds.h: a failing `assert`, `MPI_Abort`, a `die()` that
// calls it) leaves no rank waiting; the arm of a status check taken when a
// call failed (`if (r_ != ncclSuccess) return r_;`) reports the error, and
// the job is broken on that rank whatever the others do. Both are cut from the walks of the engine
// (guarded sequences, group balance), unless an option asks to see them as exits.
//
// A status check compares a status value with its success value (or a
// pointer status with null, its failure value), or tests it for truth: the
// result of a call the rules give a status (by result type or name,
// rules/*.json "status"), of a function of this file that returns only
// statuses and constants, or a local written only from those.
// Its failing arm is an error path when every way through it leaves the
// function (return, throw, a forward goto, a call that does not return)
// before the arms meet again.
#pragma once

#include "CallClassifier.h"
#include "FunctionCFG.h"
#include "JobEnds.h"
#include "LocalWrites.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

namespace lockstep::analysis {

/// What the user wants to see as a rank that leaves.
struct PathOptions {
  bool ErrorPathsAsExits = false; // status checks that fail and leave
  bool AssertionsAsExits = false; // assertions that fail

  bool operator!=(const PathOptions &O) const {
    return ErrorPathsAsExits != O.ErrorPathsAsExits || AssertionsAsExits != O.AssertionsAsExits;
  }
};

/// What a status check compares with: the one value that reports success
/// (an error code), or the one that reports failure (a null pointer).
struct StatusValue {
  int64_t Value = 0;
  bool Fails = false;
  // Of an open for reading (`fopen(path, "rb")`): null says the file is not
  // there, which code may take as an answer rather than a failure.
  bool OpensForReading = false;

  bool operator==(const StatusValue &O) const { return Value == O.Value && Fails == O.Fails; }
  bool operator!=(const StatusValue &O) const { return !(*this == O); }
};

class ErrorPaths {
public:
  ErrorPaths(const CallClassifier &Classifier,
             const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions,
             PathOptions Options);
  ~ErrorPaths();

  /// Whether the analyses follow edge \p Index out of \p Block: false into
  /// a failing assertion or a job abort, and into the failing arm of a
  /// status check that leaves.
  bool follows(const FunctionCFG &Function, const clang::CFGBlock &Block, unsigned Index);

  /// Whether edge \p Index out of \p Block is the passing arm of a status
  /// check whose failing arm is cut: every path the analyses follow through
  /// \p Block takes it.
  bool passesStatusCheck(const FunctionCFG &Function, const clang::CFGBlock &Block, unsigned Index);

  /// Whether \p Block runs only on a cut path.
  bool onErrorPath(const FunctionCFG &Function, const clang::CFGBlock &Block);

private:
  struct Cuts {
    llvm::DenseMap<unsigned, unsigned> FailingEdge; // status branch block -> failing successor
    llvm::BitVector JobEnds;                        // blocks that end the job (JobEnds.h)
    llvm::BitVector Dropped;                        // blocks only on cut paths
  };
  const Cuts &cutsOf(const FunctionCFG &Function);
  static bool keeps(const Cuts &C, const clang::CFGBlock &Block, unsigned Index);
  const LocalWrites &writesOf(const clang::FunctionDecl *FD);
  std::optional<unsigned> failingArm(const clang::Expr *Condition, const clang::CFGBlock &Block,
                                     const clang::FunctionDecl *FD,
                                     bool *OpensForReading = nullptr);
  bool leavesBeforeJoin(const FunctionCFG &Function, const clang::CFGBlock &Branch,
                        const clang::CFGBlock &Target);
  std::optional<StatusValue> statusOf(const clang::Expr *E, const clang::FunctionDecl *FD,
                                      std::vector<const clang::FunctionDecl *> *Missing);
  std::optional<StatusValue> assignedJustBefore(const clang::Expr *E, const clang::CFGBlock &Block);
  std::optional<StatusValue> callStatus(const clang::Expr *E,
                                        std::vector<const clang::FunctionDecl *> *Missing);
  std::optional<StatusValue> calleeStatus(const clang::FunctionDecl *Callee,
                                          std::vector<const clang::FunctionDecl *> *Missing);
  std::optional<StatusValue> summarise(const clang::FunctionDecl *FD,
                                       std::vector<const clang::FunctionDecl *> &Missing);

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  PathOptions Options;
  JobEnds Ends;
  llvm::DenseMap<const FunctionCFG *, Cuts> CutsByFunction;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<LocalWrites>> Writes;
  // Functions of this file that return a status: its value, or nullopt when
  // they do not. Absent: not decided yet.
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<StatusValue>> Returned;
  llvm::DenseSet<const clang::FunctionDecl *> Deciding;
};

} // namespace lockstep::analysis
