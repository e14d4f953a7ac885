// Divergence: a rank-dependent branch whose ways out do not perform the same
// ordered sequence of collectives. The results are plain data; the checks
// turn them into diagnostics.
#pragma once

#include "CollectiveEvents.h"
#include "RankValue.h"

#include <optional>
#include <vector>

namespace lockstep::analysis {

/// One way out of a branch: `if` true/false, a `case`, `default`.
struct BranchArm {
  enum class Kind { True, False, Case, Default };
  Kind kind = Kind::True;
  const clang::Stmt *label = nullptr; // the case or default statement
};

struct Divergence {
  enum class Kind {
    OnlySomeRanks,   // the collective runs only on the ranks of one arm
    SkippedAfterExit, // the ranks of another arm left (return, break, throw, ...) before it
    Order,           // the arms run the same collectives in different orders
    Arguments,       // the arms run the same collective with different agreed arguments
  };
  Kind kind = Kind::OnlySomeRanks;
  const clang::FunctionDecl *function = nullptr;
  CollectiveEvent event;                     // where the warning goes
  const clang::Expr *condition = nullptr;    // the rank-dependent condition
  const clang::Stmt *branch = nullptr;       // the if, switch, ?: or && / || chain
  BranchArm arm;                             // ranks that run `event` (that leave, for SkippedAfterExit)
  unsigned armCount = 2;
  const Provenance *source = nullptr;        // why the condition differs between ranks
  const clang::Stmt *leaving = nullptr;      // how the other ranks left, when they did
  std::optional<CollectiveEvent> otherEvent; // what the other ranks run instead
};

/// The divergences of one rank-dependent branch block.
std::vector<Divergence> branchDivergences(const FunctionCFG &Function, const clang::CFGBlock &Branch,
                                          const Provenance *Source, CollectiveEvents &Events);

} // namespace lockstep::analysis
