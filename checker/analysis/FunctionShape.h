// The shape of one function as region walks see it: natural loops (and the
// cycles that are none), which loops a branch decides, the condition under
// which each block is reached.
#pragma once

#include "ConditionFormula.h"
#include "Formula.h"
#include "FunctionCFG.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>
#include <vector>

namespace lockstep::analysis {

/// What region walks need to know about one function, computed once.
class FunctionShape {
public:
  FunctionShape(const FunctionCFG &Function, FormulaArena &Arena, ConditionFacts Facts);

  const FunctionCFG &function() const { return Function; }
  ConditionFormula &conditions() { return Conditions; }
  unsigned order(const clang::CFGBlock *Block) const { return Function.rpoIndex(Block); }
  bool reachable(const clang::CFGBlock *Block) const { return Function.rpoIndex(Block) != ~0u; }
  bool isBackEdge(const clang::CFGBlock *From, const clang::CFGBlock *To) const;
  bool isLoopHeader(const clang::CFGBlock *Block) const { return LoopBodies.count(Block); }
  /// The cycles entered other than through their head (a `goto` into a
  /// loop's body), as spans of reverse post-order from head to latch: no
  /// natural loop, so no trip count is compared for them.
  const std::vector<std::pair<unsigned, unsigned>> &irreducibleSpans() const {
    return IrreducibleSpans;
  }
  bool inLoop(const clang::CFGBlock *Header, const clang::CFGBlock *Block) const;
  /// Whether every loop around \p Inner has \p Outer in its body, below its
  /// header: a region from Outer sees Inner's iterations one by one.
  bool sameIterations(const clang::CFGBlock *Outer, const clang::CFGBlock *Inner) const;
  /// The edges (block, successor index) by which the loop of \p Header
  /// jumps out of its body.
  std::vector<std::pair<const clang::CFGBlock *, unsigned>>
  loopExits(const clang::CFGBlock *Header) const;
  /// Whether the body of the loop of \p Header leaves the function (a
  /// `return` or a `throw` inside it); true where its body is unknown.
  bool loopLeavesFunction(const clang::CFGBlock *Header) const;
  /// The headers of the loops \p Block lies in.
  llvm::SmallVector<const clang::CFGBlock *, 4> loopsAround(const clang::CFGBlock *Block) const;
  /// The headers of the loops whose trip count \p Branch decides: it jumps
  /// out of their body (`break`, `return`, `goto`), itself or by a block it
  /// controls, or sends some ranks back to the header while the others can
  /// still jump out first.
  std::vector<const clang::CFGBlock *> loopsLeftBy(const clang::CFGBlock *Branch);
  const clang::CFGBlock *immediateDominator(const clang::CFGBlock *Block) const;
  bool postDominates(const clang::CFGBlock *A, const clang::CFGBlock *B) const {
    return Function.postDominates(A, B);
  }
  /// The condition under which a rank reaches \p Block from the entry.
  FormulaRef reaching(const clang::CFGBlock *Block);

private:
  const FunctionCFG &Function;
  FormulaArena &Arena;
  ConditionFormula Conditions;
  llvm::DenseMap<const clang::CFGBlock *, llvm::BitVector> LoopBodies;
  std::vector<std::pair<unsigned, unsigned>> IrreducibleSpans;
  std::vector<FormulaRef> Reaching; // computed on first use
  /// Per loop header, computed on first use: the blocks of its body from
  /// which a path jumps out without passing the header again.
  llvm::DenseMap<const clang::CFGBlock *, llvm::BitVector> OutWithoutHeader;
  const llvm::BitVector &outWithoutHeader(const clang::CFGBlock *Header);
  llvm::DenseMap<std::pair<const clang::CFGBlock *, const clang::CFGBlock *>, bool> SendsBack;
  bool sendsBack(const clang::CFGBlock *Header, const clang::CFGBlock *Branch);
};

} // namespace lockstep::analysis
