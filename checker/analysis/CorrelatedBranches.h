// Branches that test the same condition on values that do not change in
// between: `if (nGpus > 1) ncclGroupStart(); ...; if (nGpus > 1)
// ncclGroupEnd();`. Every path takes the same arm at each of them, so a
// path-sensitive walk may drop the paths that mix the arms.
#pragma once

#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {

struct CorrelatedBranches {
  /// Branch block -> the id of its condition, from 0, for conditions tested
  /// at two branches or more; at most limits::MaxCorrelatedConditions ids.
  llvm::DenseMap<const clang::CFGBlock *, unsigned> Condition;
  bool Truncated = false; // more conditions than the bound: the rest are not correlated

  static CorrelatedBranches of(const FunctionCFG &Function);
};

} // namespace lockstep::analysis
