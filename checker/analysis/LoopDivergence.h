// Loops whose trip count differs between ranks: every collective inside runs
// a different number of times on different ranks, unless a join protocol
// shadows it for the ranks that finished early.
#pragma once

#include "CollectiveEvents.h"
#include "JoinRegion.h"
#include "RankValue.h"

#include <optional>
#include <vector>

namespace lockstep::analysis {

struct LoopDivergence {
  enum class Kind {
    TripCount,  // the collective runs a rank-dependent number of times
    Unshadowed, // inside a join region, the protocol does not shadow the collective
  };
  Kind K = Kind::TripCount;
  const clang::FunctionDecl *Function = nullptr;
  CollectiveEvent Event;
  const clang::Expr *Condition = nullptr; // the loop condition
  const Provenance *Source = nullptr;     // why the trip count differs
  std::optional<JoinRegion> Join;         // Unshadowed: the region it breaks
  bool AfterLoop = false;                 // Unshadowed: runs after the uneven loop
};

/// The divergences a rank-dependent branch \p Deciding causes in the loop of
/// \p Header: its own condition, or a branch that leaves the loop. \p
/// FunctionEvents are the collectives of the whole function or, for a loop
/// that no loop statement writes (a backward `goto`), those of its body.
std::vector<LoopDivergence> loopDivergences(const FunctionCFG &Function,
                                            const clang::CFGBlock &Header,
                                            const clang::CFGBlock &Deciding,
                                            const Provenance *Source,
                                            const std::vector<CollectiveEvent> &FunctionEvents,
                                            const std::vector<JoinRegion> &Regions);

} // namespace lockstep::analysis
