#include "FunctionCFG.h"
#include "Exceptions.h"
#include "NeverReturns.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace lockstep::analysis {
using namespace clang;

// An expression's error bit covers its operands: only statements that are
// not expressions need a look inside.
static bool containsErrors(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    return E->containsErrors();
  return S && llvm::any_of(S->children(), containsErrors);
}

bool FunctionCFG::analysable(const FunctionDecl *FD) {
  // CFG::buildCFG crashes on the recovery expressions of invalid code.
  const Stmt *Body = FD->getBody();
  return Body && !FD->isInvalidDecl() && !containsErrors(Body);
}

std::unique_ptr<FunctionCFG> FunctionCFG::build(const FunctionDecl *FD, ASTContext &Context,
                                                const ThrowingFunctions *Throwing) {
  if (!analysable(FD))
    return nullptr;
  std::unique_ptr<FunctionCFG> Result(new FunctionCFG(FD, Context));
  CFG::BuildOptions Options;
  Options.AddImplicitDtors = true; // RAII guards: destructors run on every exit
  Options.AddTemporaryDtors = true;
  Options.AddInitializers = true; // constructor initializers write fields
  Options.AddCXXDefaultInitExprInCtors = true;
  Options.AddLifetime = true; // locals leave the data flow's state where their scope ends
  Options.setAllAlwaysAdd();
  // A call inside a `try` to a function that may throw can jump to the
  // handlers: on the ranks where it throws, what follows it does not run.
  Options.AddEHEdges = Throwing && callsIntoHandlers(FD->getBody(), *Throwing);
  Result->Graph = CFG::buildCFG(FD, FD->getBody(), &Context, Options);
  if (!Result->Graph)
    return nullptr;
  if (Throwing)
    keepHandlerEdges(*Result->Graph, *Throwing, /*CallEdges=*/Options.AddEHEdges);
  Result->computeReversePostOrder();
  Result->Parents = std::make_unique<ParentMap>(FD->getBody());
  // A function without branches is one path: its order says who
  // post-dominates whom, and nothing is control dependent.
  if (!Result->singlePath())
    Result->PostDom = std::make_unique<CFGPostDomTree>(Result->Graph.get());
  Result->computeControlDependence();
  return Result;
}

void FunctionCFG::ignoreEdges(llvm::function_ref<bool(const CFGBlock &, unsigned)> Follows) {
  if (!PostDom)
    return;
  std::vector<std::pair<CFGBlock *, unsigned>> Ignored;
  for (CFGBlock *Block : *Graph) {
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      if (Succ.getReachableBlock() && !Follows(*Block, Index))
        Ignored.push_back({Block, Index});
      ++Index;
    }
  }
  if (Ignored.empty())
    return;
  // Clang's dominator trees skip unreachable edges: mark them so for the
  // rebuild, then restore them.
  auto BlockOf = [](const CFGBlock::AdjacentBlock &Edge) {
    return Edge.getReachableBlock() ? Edge.getReachableBlock() : Edge.getPossiblyUnreachableBlock();
  };
  auto Mark = [&BlockOf](CFGBlock *Block, unsigned Index, bool Reachable) {
    CFGBlock::AdjacentBlock &Edge = *std::next(Block->succ_begin(), Index);
    CFGBlock *Target = BlockOf(Edge);
    Edge = CFGBlock::AdjacentBlock(Target, Reachable);
    for (CFGBlock::AdjacentBlock &Pred : Target->preds())
      if (BlockOf(Pred) == Block)
        Pred = CFGBlock::AdjacentBlock(Block, Reachable);
  };
  for (auto [Block, Index] : Ignored)
    Mark(Block, Index, /*Reachable=*/false);
  PostDom = std::make_unique<CFGPostDomTree>(Graph.get());
  computeControlDependence();
  for (auto [Block, Index] : Ignored)
    Mark(Block, Index, /*Reachable=*/true);
}

bool FunctionCFG::singlePath() const {
  return Rpo.size() == Graph->size() &&
         llvm::all_of(*Graph, [](const CFGBlock *Block) { return Block->succ_size() <= 1; });
}

// An explicit depth-first walk: CFGs of generated code can be very deep.
void FunctionCFG::computeReversePostOrder() {
  const unsigned N = Graph->getNumBlockIDs();
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  std::vector<bool> Seen(N, false);
  Stack.push_back({&Graph->getEntry(), Graph->getEntry().succ_begin()});
  Seen[Graph->getEntry().getBlockID()] = true;
  while (!Stack.empty()) {
    auto &[Block, Next] = Stack.back();
    if (Next == Block->succ_end()) {
      Rpo.push_back(Block);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Succ = (Next++)->getReachableBlock();
    if (Succ && !Seen[Succ->getBlockID()]) {
      Seen[Succ->getBlockID()] = true;
      Stack.push_back({Succ, Succ->succ_begin()});
    }
  }
  std::reverse(Rpo.begin(), Rpo.end());
  RpoIndex.assign(N, ~0u);
  for (unsigned I = 0; I < Rpo.size(); ++I)
    RpoIndex[Rpo[I]->getBlockID()] = I;
  for (const CFGBlock *Block : Rpo)
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs())
      if (const CFGBlock *To = Succ.getReachableBlock(); To && rpoIndex(To) <= rpoIndex(Block))
        LoopSpans.push_back({rpoIndex(To), rpoIndex(Block)});
}

bool FunctionCFG::decidesLoop(const CFGBlock &Branch) const {
  // A block in a loop lies between the loop's header and a block that
  // jumps back to it in reverse post-order: most branches are in none.
  const unsigned At = rpoIndex(&Branch);
  if (At == ~0u || llvm::none_of(LoopSpans, [At](const std::pair<unsigned, unsigned> &Span) {
        return Span.first <= At && At <= Span.second;
      }))
    return false;
  const CFGBlock *Meet = immediatePostDominator(&Branch);
  // Every block of a natural loop reaches its header and is reached from it
  // inside the loop: when the arms meet outside, the branch comes round to
  // itself without passing the meet (the `break`s of a long loop, found
  // without walking the loop from each).
  computeNaturalLoops();
  if (const unsigned Loop = InnermostLoop[Branch.getBlockID()];
      Loop != NoLoop && !inNaturalLoop(Meet, Loop))
    return true;
  llvm::BitVector Seen(Graph->getNumBlockIDs());
  std::vector<const CFGBlock *> Worklist{&Branch};
  while (!Worklist.empty()) {
    const CFGBlock *Block = Worklist.back();
    Worklist.pop_back();
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const CFGBlock *To = Succ.getReachableBlock();
      if (To == &Branch)
        return true;
      if (To && To != Meet && !Seen.test(To->getBlockID())) {
        Seen.set(To->getBlockID());
        Worklist.push_back(To);
      }
    }
  }
  return false;
}

// Loops are numbered by header, innermost first (headers in reverse
// post-order from the last): each body is walked backwards from the blocks
// that jump to its header, stepping over inner loops already numbered from
// their headers, so every block is visited once per loop it is the header
// or a direct member of.
void FunctionCFG::computeNaturalLoops() const {
  if (!InnermostLoop.empty())
    return;
  InnermostLoop.assign(Graph->getNumBlockIDs(), NoLoop);
  auto Outermost = [this](unsigned Loop) {
    while (ParentLoop[Loop] != NoLoop)
      Loop = ParentLoop[Loop];
    return Loop;
  };
  std::vector<const CFGBlock *> LoopHeaders, Worklist;
  for (auto It = Rpo.rbegin(); It != Rpo.rend(); ++It) {
    const CFGBlock *Header = *It;
    for (const CFGBlock::AdjacentBlock &Pred : Header->preds())
      if (const CFGBlock *From = Pred.getReachableBlock();
          From && rpoIndex(From) != ~0u && dominators().dominates(Header, From))
        Worklist.push_back(From);
    if (Worklist.empty())
      continue;
    const unsigned Loop = ParentLoop.size();
    ParentLoop.push_back(NoLoop);
    LoopHeaders.push_back(Header);
    InnermostLoop[Header->getBlockID()] = Loop;
    while (!Worklist.empty()) {
      const CFGBlock *Block = Worklist.back();
      Worklist.pop_back();
      const unsigned Inner = InnermostLoop[Block->getBlockID()];
      if (Inner == NoLoop) {
        InnermostLoop[Block->getBlockID()] = Loop;
      } else {
        const unsigned Top = Outermost(Inner);
        if (Top == Loop)
          continue;
        ParentLoop[Top] = Loop; // an inner loop: go on from its header
        Block = LoopHeaders[Top];
      }
      for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
        if (const CFGBlock *From = Pred.getReachableBlock(); From && rpoIndex(From) != ~0u)
          Worklist.push_back(From);
    }
  }
}

bool FunctionCFG::inNaturalLoop(const CFGBlock *Block, unsigned Loop) const {
  for (unsigned L = InnermostLoop[Block->getBlockID()]; L != NoLoop; L = ParentLoop[L])
    if (L == Loop)
      return true;
  return false;
}

const CFGBlock *FunctionCFG::immediatePostDominator(const CFGBlock *Block) const {
  if (!PostDom) {
    unsigned Next = rpoIndex(Block) + 1;
    return Next < Rpo.size() ? Rpo[Next] : &Graph->getExit();
  }
  auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(Block));
  if (Node && Node->getIDom() && Node->getIDom()->getBlock())
    return Node->getIDom()->getBlock();
  return &Graph->getExit();
}

bool FunctionCFG::postDominates(const CFGBlock *A, const CFGBlock *B) const {
  if (!PostDom)
    return rpoIndex(A) >= rpoIndex(B);
  return PostDom->dominates(A, B);
}

CFGDomTree &FunctionCFG::dominators() const {
  if (!Dominators) {
    Dominators = std::make_unique<CFGDomTree>();
    Dominators->buildDominatorTree(Graph.get());
  }
  return *Dominators;
}

// Ferrante-Ottenstein-Warren: for every edge B -> S where S does not
// post-dominate B, the blocks on the post-dominator tree path from S up to
// (excluding) ipdom(B) are control dependent on B.
void FunctionCFG::computeControlDependence() {
  Controllers.assign(Graph->getNumBlockIDs(), {});
  Controlled.assign(Graph->getNumBlockIDs(), {});
  if (!PostDom)
    return; // one path: no branches
  auto &Tree = PostDom->getBase();
  for (const CFGBlock *Branch : *Graph) {
    if (Branch->succ_size() < 2)
      continue;
    auto *BranchNode = Tree.getNode(const_cast<CFGBlock *>(Branch));
    if (!BranchNode)
      continue;
    auto *Stop = BranchNode->getIDom();
    for (const CFGBlock::AdjacentBlock &Succ : Branch->succs()) {
      const CFGBlock *Target = Succ.getReachableBlock();
      if (!Target)
        continue;
      for (auto *Node = Tree.getNode(const_cast<CFGBlock *>(Target)); Node && Node != Stop;
           Node = Node->getIDom()) {
        const CFGBlock *Dependent = Node->getBlock();
        if (!Dependent)
          break;
        auto &List = Controllers[Dependent->getBlockID()];
        if (std::find(List.begin(), List.end(), Branch) == List.end()) {
          List.push_back(Branch);
          Controlled[Branch->getBlockID()].push_back(Dependent);
        }
      }
    }
  }
}

const Expr *decidingCondition(const CFGBlock &Block) {
  const Stmt *Terminator = Block.getTerminatorStmt();
  if (!Terminator)
    return exceptionalCall(Block); // whether it throws into the handlers
  const Expr *Condition =
      dyn_cast_or_null<Expr>(Block.getTerminatorCondition(/*StripParens=*/true));
  if (!Condition)
    return nullptr;
  // The last block of `a && b` tests only `b`.
  while (const auto *Logical = dyn_cast<BinaryOperator>(Condition->IgnoreParenImpCasts())) {
    if (!Logical->isLogicalOp() || Logical == Terminator)
      break;
    Condition = Logical->getRHS()->IgnoreParens();
  }
  return Condition;
}

bool isLoopBranch(const CFGBlock &Block) {
  const Stmt *Terminator = Block.getTerminatorStmt();
  return Terminator && (isa<ForStmt>(Terminator) || isa<WhileStmt>(Terminator) ||
                        isa<DoStmt>(Terminator) || isa<CXXForRangeStmt>(Terminator));
}

const Stmt *leavingStatement(const CFGBlock &Block) {
  if (const Stmt *Terminator = Block.getTerminatorStmt())
    if (isa<BreakStmt>(Terminator) || isa<ContinueStmt>(Terminator) || isa<GotoStmt>(Terminator) ||
        isa<IndirectGotoStmt>(Terminator))
      return Terminator;
  for (auto It = Block.rbegin(); It != Block.rend(); ++It) {
    auto Element = It->getAs<CFGStmt>();
    if (!Element)
      continue;
    const Stmt *S = Element->getStmt();
    if (isa<ReturnStmt>(S) || isa<CXXThrowExpr>(S))
      return S;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee(); Callee && neverReturns(*Callee))
        return S;
  }
  return nullptr;
}

bool everyWayPasses(const CFG &Graph, llvm::function_ref<bool(const CFGBlock &)> Ends) {
  llvm::BitVector Ending(Graph.getNumBlockIDs());
  for (const CFGBlock *Block : Graph)
    if (Ends(*Block))
      Ending.set(Block->getBlockID());
  // Only blocks that run count: `for (;;) serve(); abort();` ends nothing.
  Ending &= reachedFromEntry(Graph, [](const CFGBlock &, unsigned) { return true; });
  if (Ending.none())
    return false;
  llvm::BitVector Reached = reachedFromEntry(
      Graph, [&](const CFGBlock &Block, unsigned) { return !Ending.test(Block.getBlockID()); });
  return !Reached.test(Graph.getExit().getBlockID());
}

const CFGBlock *FunctionCFG::loopTestedBy(const CFGBlock &Block) const {
  const auto *Logical = dyn_cast_or_null<BinaryOperator>(Block.getTerminatorStmt());
  if (!Logical || !Logical->isLogicalOp())
    return nullptr;
  const Stmt *Owner = branchStatement(Block, *Parents);
  const Expr *LoopCondition = nullptr;
  if (const auto *While = dyn_cast_or_null<WhileStmt>(Owner))
    LoopCondition = While->getCond();
  else if (const auto *For = dyn_cast_or_null<ForStmt>(Owner))
    LoopCondition = For->getCond();
  else if (const auto *Do = dyn_cast_or_null<DoStmt>(Owner))
    LoopCondition = Do->getCond();
  // Not an expression statement of the body (`for (;;) f(a && b);`).
  if (!LoopCondition || !sourceContains(Context.getSourceManager(), LoopCondition->getSourceRange(),
                                        Logical->getBeginLoc()))
    return nullptr;
  for (const CFGBlock *Header : *Graph)
    if (Header->getTerminatorStmt() == Owner)
      return Header;
  return nullptr;
}

const Stmt *branchStatement(const CFGBlock &Block, const ParentMap &Parents) {
  const Stmt *S = Block.getTerminatorStmt();
  if (!S)
    return nullptr;
  if (const auto *Logical = dyn_cast<BinaryOperator>(S); !Logical || !Logical->isLogicalOp())
    return S;
  // Climb out of the condition to the statement that owns it.
  const Stmt *Current = S;
  while (const Stmt *Parent = Parents.getParent(Current)) {
    Current = Parent;
    if (!isa<Expr>(Current) || isa<ConditionalOperator>(Current))
      break;
  }
  return Current;
}

const Stmt *loopStatement(const CFGBlock &Header, const ParentMap &Parents) {
  const Stmt *S = branchStatement(Header, Parents);
  return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) ? S : nullptr;
}

bool sourceContains(const SourceManager &SM, SourceRange Range, SourceLocation Loc) {
  if (Range.isInvalid() || Loc.isInvalid())
    return false;
  SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
  SourceLocation End = SM.getExpansionLoc(Range.getEnd());
  Loc = SM.getExpansionLoc(Loc);
  return !SM.isBeforeInTranslationUnit(Loc, Begin) && !SM.isBeforeInTranslationUnit(End, Loc);
}

} // namespace lockstep::analysis
