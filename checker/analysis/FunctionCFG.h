// One function's control-flow graph with what every analysis needs from it:
// post-dominators, control dependence, and the statement that makes a path
// leave (return, throw, break, continue, goto, noreturn call).
#pragma once

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <vector>

namespace lockstep::analysis {

class ThrowingFunctions;

class FunctionCFG {
public:
  /// Whether \p FD has a body the analysis can read: not one whose
  /// declaration or body Clang marked invalid (a unit that does not compile).
  static bool analysable(const clang::FunctionDecl *FD);

  /// Returns null when \p FD is not analysable or Clang cannot build a CFG.
  /// With \p Throwing, a call inside a `try` to a function that may throw
  /// also has an edge to the try's handlers (exceptionalCall).
  static std::unique_ptr<FunctionCFG> build(const clang::FunctionDecl *FD,
                                            clang::ASTContext &Context,
                                            const ThrowingFunctions *Throwing = nullptr);

  const clang::FunctionDecl *decl() const { return Decl; }
  const clang::CFG &cfg() const { return *Graph; }
  clang::ASTContext &context() const { return Context; }
  const clang::ParentMap &parents() const { return *Parents; }

  /// Post-dominators and control dependence again, on the graph without
  /// the edges \p Follows drops (the failing arms of status checks): what
  /// follows `if (rank == 0) NCCLCHECK(...)` runs on every rank that goes
  /// on, so that branch decides nothing about it. The graph keeps them.
  void ignoreEdges(llvm::function_ref<bool(const clang::CFGBlock &, unsigned)> Follows);

  /// The nearest block every path from \p Block to the exit passes; the exit
  /// block when the paths only meet there.
  const clang::CFGBlock *immediatePostDominator(const clang::CFGBlock *Block) const;

  /// Whether every path from \p B to the exit passes \p A.
  bool postDominates(const clang::CFGBlock *A, const clang::CFGBlock *B) const;

  /// The dominator tree, built on first use: most functions never need it.
  /// (Mutable: clang's tree answers queries only through non-const members.)
  clang::CFGDomTree &dominators() const;

  /// Branch blocks that decide whether \p Block runs.
  const std::vector<const clang::CFGBlock *> &controllers(const clang::CFGBlock *Block) const {
    return Controllers[Block->getBlockID()];
  }

  /// Blocks whose execution \p Branch decides (the inverse of controllers).
  const std::vector<const clang::CFGBlock *> &controlled(const clang::CFGBlock *Branch) const {
    return Controlled[Branch->getBlockID()];
  }

  /// The header of the loop whose condition \p Block tests an operand of
  /// (`res > tol` of `while (res > tol && it < max)`), or null.
  const clang::CFGBlock *loopTestedBy(const clang::CFGBlock &Block) const;

  /// Whether \p Branch decides whether a loop around it goes on (the loop's
  /// test, a `break` or a `return` inside it): it comes round to itself
  /// again without passing the block where its arms meet.
  bool decidesLoop(const clang::CFGBlock &Branch) const;

  /// The blocks reachable from the entry, in reverse post-order.
  const std::vector<const clang::CFGBlock *> &reversePostOrder() const { return Rpo; }
  /// \p Block's index in reversePostOrder(); ~0u when it is unreachable.
  unsigned rpoIndex(const clang::CFGBlock *Block) const { return RpoIndex[Block->getBlockID()]; }

private:
  FunctionCFG(const clang::FunctionDecl *FD, clang::ASTContext &Context)
      : Decl(FD), Context(Context) {}
  bool singlePath() const;
  void computeControlDependence();
  void computeReversePostOrder();
  void computeNaturalLoops() const;
  bool inNaturalLoop(const clang::CFGBlock *Block, unsigned Loop) const;

  const clang::FunctionDecl *Decl;
  clang::ASTContext &Context;
  std::unique_ptr<clang::CFG> Graph;
  std::unique_ptr<clang::CFGPostDomTree> PostDom; // null: the function is one path
  mutable std::unique_ptr<clang::CFGDomTree> Dominators;
  std::unique_ptr<clang::ParentMap> Parents;
  std::vector<std::vector<const clang::CFGBlock *>> Controllers, Controlled;
  std::vector<const clang::CFGBlock *> Rpo;
  std::vector<unsigned> RpoIndex;
  std::vector<std::pair<unsigned, unsigned>> LoopSpans; // of each back edge, in RpoIndex
  // Natural loops, built on first use by decidesLoop: the innermost loop
  // holding each block (by block ID; NoLoop for none) and each loop's parent.
  static constexpr unsigned NoLoop = ~0u;
  mutable std::vector<unsigned> InnermostLoop;
  mutable std::vector<unsigned> ParentLoop;
};

/// The value a branch block tests: for `if (a && b)` the block that tests `b`
/// is decided by `b` alone; for a call that may throw into the handlers of a
/// `try` (exceptionalCall), the call, whose first edge is taken when it
/// returns. Null for other blocks without a two-way or switch terminator.
const clang::Expr *decidingCondition(const clang::CFGBlock &Block);

/// True for loop headers (for, while, do, range-for): their branches decide
/// a trip count rather than which arm runs.
bool isLoopBranch(const clang::CFGBlock &Block);

/// The return, throw, break, continue, goto or noreturn call that makes a
/// path leave through \p Block, or null.
const clang::Stmt *leavingStatement(const clang::CFGBlock &Block);

/// The statement a branch belongs to for the user: the if/switch/?: itself,
/// or the statement enclosing a `&&`/`||` chain.
const clang::Stmt *branchStatement(const clang::CFGBlock &Block, const clang::ParentMap &Parents);
/// The loop statement whose test \p Header is; null for a loop that no loop
/// statement writes (a backward `goto`).
const clang::Stmt *loopStatement(const clang::CFGBlock &Header, const clang::ParentMap &Parents);

/// Whether \p Loc lies in \p Range, comparing where macros expand.
bool sourceContains(const clang::SourceManager &SM, clang::SourceRange Range,
                    clang::SourceLocation Loc);

/// Blocks reached from the entry along the edges \p Follows(Block, Index)
/// keeps.
template <typename FollowsFn>
llvm::BitVector reachedFromEntry(const clang::CFG &Graph, FollowsFn Follows) {
  llvm::BitVector Seen(Graph.getNumBlockIDs());
  std::vector<const clang::CFGBlock *> Work{&Graph.getEntry()};
  Seen.set(Graph.getEntry().getBlockID());
  while (!Work.empty()) {
    const clang::CFGBlock *Block = Work.back();
    Work.pop_back();
    unsigned Index = 0;
    for (const clang::CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const clang::CFGBlock *Target = Succ.getReachableBlock();
      const unsigned EdgeIndex = Index++;
      if (Target && Follows(*Block, EdgeIndex) && !Seen.test(Target->getBlockID())) {
        Seen.set(Target->getBlockID());
        Work.push_back(Target);
      }
    }
  }
  return Seen;
}

/// Whether \p Graph has a block \p Ends and every way from its entry to
/// its exit passes one: a function that loops forever ends nothing.
bool everyWayPasses(const clang::CFG &Graph,
                    llvm::function_ref<bool(const clang::CFGBlock &)> Ends);

} // namespace lockstep::analysis
