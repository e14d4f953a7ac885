// The worklist of the forward data flows (rank dependence, group balance):
// blocks leave in reverse post-order, so in a graph without loops every
// block runs once, after all its predecessors, and a loop body settles
// before the code after the loop.
#pragma once

#include "FunctionCFG.h"

#include <functional>
#include <queue>
#include <vector>

namespace lockstep::analysis {

class BlockWorklist {
public:
  explicit BlockWorklist(const FunctionCFG &Function)
      : Function(Function), Queued(Function.reversePostOrder().size(), false) {}

  /// Queues \p Block unless it is queued already or unreachable.
  void push(const clang::CFGBlock *Block) {
    unsigned Index = Block ? Function.rpoIndex(Block) : ~0u;
    if (Index == ~0u || Queued[Index])
      return;
    Queued[Index] = true;
    Pending.push(Index);
  }

  bool empty() const { return Pending.empty(); }

  /// The queued block earliest in reverse post-order.
  const clang::CFGBlock *pop() {
    unsigned Index = Pending.top();
    Pending.pop();
    Queued[Index] = false;
    return Function.reversePostOrder()[Index];
  }

private:
  const FunctionCFG &Function;
  std::vector<bool> Queued; // by reverse post-order index
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>> Pending;
};

} // namespace lockstep::analysis
