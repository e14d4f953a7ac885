// Group balance: every ncclGroupStart must meet its ncclGroupEnd on every
// path. A forward data flow over the possible group depths of each function,
// path-sensitive on conditions tested twice (CorrelatedBranches.h);
// calls contribute the net depth change of the callee, so a guard class whose
// constructor starts and destructor ends the group is balanced.
#pragma once

#include "CallClassifier.h"
#include "CollectiveEvents.h"
#include "ErrorPaths.h"
#include "Exceptions.h"
#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace lockstep::analysis {

struct AnalysisLimit;

struct GroupImbalance {
  enum class Kind {
    LeftOpen,     // open on some paths out of the function, closed on others
    NeverClosed,  // open on every path out of a function that is not a group helper
    UnmatchedEnd, // an end marker with no group open on some path
  };
  Kind K = Kind::LeftOpen;
  const clang::FunctionDecl *Function = nullptr;
  clang::SourceLocation Site;           // the begin (or call) that opens, or the unmatched end
  std::string Marker;                   // what is called there
  const clang::Stmt *Leaving = nullptr; // LeftOpen: the exit that leaves the group open
};

class GroupBalance {
public:
  GroupBalance(const CallClassifier &Classifier,
               const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions,
               CollectiveEvents &Events, ErrorPaths &Paths, const ThrowingFunctions &Throwing,
               std::vector<AnalysisLimit> &Limits)
      : Classifier(Classifier), Functions(Functions), Events(Events), Paths(Paths),
        Throwing(Throwing), Limits(Limits) {}

  std::vector<GroupImbalance> check(const FunctionCFG &Function);

private:
  struct Outcome {
    std::vector<GroupImbalance> Problems;
    int Delta = 0; // net depth change when every path agrees
  };
  const Outcome &analyse(const clang::FunctionDecl *FD);
  Outcome run(const FunctionCFG &Function);
  bool isGroupHelper(const FunctionCFG &Function);
  bool throwsPastStatusChecks(const clang::FunctionDecl *Callee);

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  CollectiveEvents &Events;
  ErrorPaths &Paths;
  const ThrowingFunctions &Throwing;
  std::vector<AnalysisLimit> &Limits;
  llvm::DenseMap<const clang::FunctionDecl *, Outcome> Outcomes;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
  std::optional<llvm::DenseSet<const clang::FunctionDecl *>> ThrowingPastChecks;
};

} // namespace lockstep::analysis
