// What region walks need to know about a function's shape: its natural
// loops, the loops a branch decides, and the condition reaching each block.
#include "FunctionShape.h"

#include "clang/AST/StmtCXX.h"

namespace lockstep::analysis {
using namespace clang;

FunctionShape::FunctionShape(const FunctionCFG &Function, FormulaArena &Arena, ConditionFacts Facts)
    : Function(Function), Arena(Arena), Conditions(Function, Arena, std::move(Facts)) {
  const CFG &Graph = Function.cfg();
  unsigned N = Graph.getNumBlockIDs();
  // Natural loops: the blocks that reach a back edge without passing its header.
  llvm::SmallPtrSet<const CFGBlock *, 4> Irreducible;
  for (const CFGBlock *Latch : Function.reversePostOrder())
    for (const CFGBlock::AdjacentBlock &Succ : Latch->succs()) {
      const CFGBlock *Header = Succ.getReachableBlock();
      if (!Header || !isBackEdge(Latch, Header))
        continue;
      llvm::BitVector &Body = LoopBodies.try_emplace(Header, N).first->second;
      Body.set(Header->getBlockID());
      std::vector<const CFGBlock *> Work{Latch};
      while (!Work.empty()) {
        const CFGBlock *B = Work.back();
        Work.pop_back();
        if (Body.test(B->getBlockID()))
          continue;
        Body.set(B->getBlockID());
        for (const CFGBlock::AdjacentBlock &Pred : B->preds())
          if (const CFGBlock *P = Pred.getReachableBlock(); P && reachable(P))
            Work.push_back(P);
      }
      // The entry reaches the latch around the header (a `goto` into the
      // body): no natural loop. Walks end an iteration at its retreating
      // edge, with no claim past it.
      if (Body.test(Graph.getEntry().getBlockID()) && Irreducible.insert(Header).second)
        IrreducibleSpans.push_back({order(Header), order(Latch)});
    }
  for (const CFGBlock *Header : Irreducible)
    LoopBodies.erase(Header);
}

bool FunctionShape::isBackEdge(const CFGBlock *From, const CFGBlock *To) const {
  return reachable(From) && reachable(To) && order(To) <= order(From);
}

bool FunctionShape::inLoop(const CFGBlock *Header, const CFGBlock *Block) const {
  auto It = LoopBodies.find(Header);
  return It != LoopBodies.end() && It->second.test(Block->getBlockID());
}

bool FunctionShape::sameIterations(const CFGBlock *Outer, const CFGBlock *Inner) const {
  for (const auto &[Header, Body] : LoopBodies)
    if (Body.test(Inner->getBlockID()) && (Outer == Header || !Body.test(Outer->getBlockID())))
      return false;
  return true;
}

/// Whether every path from \p Block runs straight into a call that does not
/// return (`{ fprintf(stderr, ...); exit(1); }`).
static bool endsProcess(const CFGBlock *Block) {
  llvm::SmallPtrSet<const CFGBlock *, 4> Seen;
  while (Block && Seen.insert(Block).second) {
    if (Block->hasNoReturnElement())
      return true;
    if (Block->succ_size() != 1)
      return false;
    Block = Block->succ_begin()->getReachableBlock();
  }
  return false;
}

llvm::SmallVector<const CFGBlock *, 4> FunctionShape::loopsAround(const CFGBlock *Block) const {
  llvm::SmallVector<const CFGBlock *, 4> Headers;
  for (const auto &[Header, Body] : LoopBodies)
    if (Body.test(Block->getBlockID()))
      Headers.push_back(Header);
  return Headers;
}

// Whether \p Block, in the loop of body \p Body, jumps out of it other than
// into an end of the process (`abort()` in a check macro: no trip count,
// lockstep-rank-exit judges it).
static bool jumpsOut(const llvm::BitVector &Body, const CFGBlock *Block) {
  return Body.test(Block->getBlockID()) && !Block->hasNoReturnElement() &&
         llvm::any_of(Block->succs(), [&](const CFGBlock::AdjacentBlock &Succ) {
           const CFGBlock *Target = Succ.getReachableBlock();
           return Target && !Body.test(Target->getBlockID()) && !endsProcess(Target);
         });
}

const llvm::BitVector &FunctionShape::outWithoutHeader(const CFGBlock *Header) {
  if (auto Known = OutWithoutHeader.find(Header); Known != OutWithoutHeader.end())
    return Known->second;
  const llvm::BitVector &Body = LoopBodies.find(Header)->second;
  llvm::BitVector Out(Function.cfg().getNumBlockIDs());
  std::vector<const CFGBlock *> Work;
  for (const CFGBlock *Block : Function.cfg())
    if (Block != Header && jumpsOut(Body, Block))
      Work.push_back(Block);
  while (!Work.empty()) {
    const CFGBlock *Block = Work.back();
    Work.pop_back();
    if (Out.test(Block->getBlockID()))
      continue;
    Out.set(Block->getBlockID());
    for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
      if (const CFGBlock *P = Pred.getReachableBlock();
          P && P != Header && reachable(P) && Body.test(P->getBlockID()))
        Work.push_back(P);
  }
  return OutWithoutHeader[Header] = std::move(Out);
}

// Whether \p Branch decides, itself or through the branches it decides in
// turn, a block of the loop of \p Header that can only go back to the header.
// Inner branches' answers are kept, so nested ones are walked once.
bool FunctionShape::sendsBack(const CFGBlock *Header, const CFGBlock *Branch) {
  if (auto Known = SendsBack.find({Header, Branch}); Known != SendsBack.end())
    return Known->second;
  const llvm::BitVector &Body = LoopBodies.find(Header)->second;
  const llvm::BitVector &Out = outWithoutHeader(Header);
  auto OnlyBack = [&](const CFGBlock *Block) {
    return Block == Header || !Out.test(Block->getBlockID());
  };
  if (llvm::any_of(Branch->succs(), [&](const CFGBlock::AdjacentBlock &Succ) {
        const CFGBlock *Target = Succ.getReachableBlock();
        return Target && Body.test(Target->getBlockID()) && OnlyBack(Target);
      }))
    return SendsBack[{Header, Branch}] = true;
  llvm::BitVector Seen(Function.cfg().getNumBlockIDs());
  std::vector<const CFGBlock *> Work{Branch};
  while (!Work.empty()) {
    const CFGBlock *Block = Work.back();
    Work.pop_back();
    for (const CFGBlock *Decided : Function.controlled(Block)) {
      if (Decided == Header || !Body.test(Decided->getBlockID()) ||
          Seen.test(Decided->getBlockID()))
        continue;
      Seen.set(Decided->getBlockID());
      if (OnlyBack(Decided))
        return SendsBack[{Header, Branch}] = true;
      if (auto Known = SendsBack.find({Header, Decided}); Known == SendsBack.end())
        Work.push_back(Decided);
      else if (Known->second)
        return SendsBack[{Header, Branch}] = true;
    }
  }
  return SendsBack[{Header, Branch}] = false;
}

std::vector<const CFGBlock *> FunctionShape::loopsLeftBy(const CFGBlock *Branch) {
  std::vector<const CFGBlock *> Headers;
  for (const auto &Loop : LoopBodies) {
    const CFGBlock *Header = Loop.first;
    const llvm::BitVector &Body = Loop.second;
    // Not by the header's own test, which a branch controls only through an
    // end of the process; a header that is no loop statement's test
    // (`retry: ... if (rank == 1) goto retry;`, an `if` first in a do-while
    // body) is such a branch itself.
    if ((Header == Branch && isLoopBranch(*Branch)) || !Body.test(Branch->getBlockID()))
      continue;
    // The exit itself, or one that runs only where the branch says so
    // (`if (rank > 1 && epoch == 3) break;`).
    auto Leaves = [&](const CFGBlock *Block) {
      return (Block != Header || Block == Branch) && jumpsOut(Body, Block);
    };
    bool Decides = Leaves(Branch) || llvm::any_of(Function.controlled(Branch), Leaves);
    // Or it sends some ranks straight back to the header, past a way out
    // the others can still take first (`if (rank == 0) continue; if
    // (done()) break;`, `for (...) if (a[i] == rank) goto retry;`).
    if (!Decides) {
      const llvm::BitVector &Out = outWithoutHeader(Header);
      Decides = llvm::any_of(Branch->succs(),
                             [&](const CFGBlock::AdjacentBlock &Succ) {
                               const CFGBlock *Target = Succ.getReachableBlock();
                               return Target && Target != Header && Out.test(Target->getBlockID());
                             }) &&
                sendsBack(Header, Branch);
    }
    if (Decides)
      Headers.push_back(Header);
  }
  // In the CFG's order, not the map's: findings must not change between runs.
  llvm::sort(Headers, [](const CFGBlock *A, const CFGBlock *B) {
    return A->getBlockID() > B->getBlockID();
  });
  return Headers;
}

std::vector<std::pair<const CFGBlock *, unsigned>>
FunctionShape::loopExits(const CFGBlock *Header) const {
  std::vector<std::pair<const CFGBlock *, unsigned>> Exits;
  auto It = LoopBodies.find(Header);
  if (It == LoopBodies.end())
    return Exits;
  for (const CFGBlock *B : Function.cfg())
    if (It->second.test(B->getBlockID())) {
      unsigned Index = 0;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        if (const CFGBlock *T = Succ.getReachableBlock(); T && !It->second.test(T->getBlockID()))
          Exits.push_back({B, Index});
        ++Index;
      }
    }
  return Exits;
}

bool FunctionShape::loopLeavesFunction(const CFGBlock *Header) const {
  if (!isLoopHeader(Header))
    return true; // not known to stay
  return llvm::any_of(loopExits(Header), [this](const std::pair<const CFGBlock *, unsigned> &Exit) {
    const CFGBlock *To = std::next(Exit.first->succ_begin(), Exit.second)->getReachableBlock();
    return To && (To == &Function.cfg().getExit() ||
                  isa_and_nonnull<ReturnStmt, CXXThrowExpr>(leavingStatement(*Exit.first)) ||
                  isa_and_nonnull<ReturnStmt, CXXThrowExpr>(leavingStatement(*To)));
  });
}

const CFGBlock *FunctionShape::immediateDominator(const CFGBlock *Block) const {
  auto *Node = Function.dominators().getBase().getNode(const_cast<CFGBlock *>(Block));
  return Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
}

FormulaRef FunctionShape::reaching(const CFGBlock *Target) {
  if (Reaching.empty()) {
    const CFG &Graph = Function.cfg();
    Reaching.assign(Graph.getNumBlockIDs(), Arena.falsity());
    for (const CFGBlock *Block : Function.reversePostOrder()) {
      FormulaRef &Slot = Reaching[Block->getBlockID()];
      if (Block == &Graph.getEntry()) {
        Slot = Arena.truth();
        continue;
      }
      // Control-equivalent to its dominator: reached exactly when it is.
      const CFGBlock *Dominator = immediateDominator(Block);
      if (Dominator && postDominates(Block, Dominator)) {
        Slot = Reaching[Dominator->getBlockID()];
        continue;
      }
      for (const CFGBlock::AdjacentBlock &Pred : Block->preds()) {
        const CFGBlock *P = Pred.getReachableBlock();
        if (!P || !reachable(P) || isBackEdge(P, Block))
          continue;
        unsigned Index = 0;
        for (const CFGBlock::AdjacentBlock &Succ : P->succs()) {
          if (Succ.getReachableBlock() == Block)
            Slot = Arena.disjoin(
                Slot, Arena.conjoin(Reaching[P->getBlockID()], Conditions.edge(*P, Index)));
          ++Index;
        }
      }
    }
  }
  return Reaching[Target->getBlockID()];
}

} // namespace lockstep::analysis
