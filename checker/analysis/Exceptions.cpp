#include "Exceptions.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {
using namespace clang;

/// Visits the statements of \p Body with whether a `try` block of the same
/// function encloses them; lambdas are functions of their own.
template <typename Visit> static void walkBody(const Stmt *Body, Visit &&Fn) {
  std::vector<std::pair<const Stmt *, bool>> Stack{{Body, false}};
  while (!Stack.empty()) {
    auto [S, InTry] = Stack.back();
    Stack.pop_back();
    if (!S || isa<LambdaExpr>(S))
      continue;
    Fn(S, InTry);
    if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
      Stack.push_back({Try->getTryBlock(), true});
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
        Stack.push_back({Try->getHandler(I), InTry});
      continue;
    }
    for (const Stmt *Child : S->children())
      Stack.push_back({Child, InTry});
  }
}

ThrowingFunctions::ThrowingFunctions(const std::vector<const FunctionDecl *> &Functions) {
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Callers;
  std::vector<const FunctionDecl *> Worklist;
  for (const FunctionDecl *FD : Functions) {
    const FunctionDecl *Key = FD->getCanonicalDecl();
    bool Throws = false;
    walkBody(FD->getBody(), [&](const Stmt *S, bool InTry) {
      if (InTry)
        return;
      if (isa<CXXThrowExpr>(S))
        Throws = true;
      else if (const auto *Call = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          Callers[Callee->getCanonicalDecl()].push_back(Key);
    });
    if (Throws && Throwing.insert(Key).second)
      Worklist.push_back(Key);
  }
  while (!Worklist.empty()) {
    const FunctionDecl *Callee = Worklist.back();
    Worklist.pop_back();
    for (const FunctionDecl *Caller : Callers.lookup(Callee))
      if (Throwing.insert(Caller).second)
        Worklist.push_back(Caller);
  }
}

bool callsIntoHandlers(const Stmt *Body, const ThrowingFunctions &Throwing) {
  bool Found = false;
  walkBody(Body, [&](const Stmt *S, bool InTry) {
    if (const auto *Call = dyn_cast<CallExpr>(S); InTry && Call)
      Found = Found || Throwing.mayThrow(Call->getDirectCallee());
  });
  return Found;
}

/// The call that ends \p Block when Clang gave it an exceptional edge (its
/// second one, to a try's dispatch or the exit, reachable or not).
static const CallExpr *callWithExceptionalEdge(const CFGBlock &Block) {
  if (Block.getTerminatorStmt() || Block.succ_size() != 2 || Block.empty())
    return nullptr;
  auto Last = Block.back().getAs<CFGStmt>();
  return Last ? dyn_cast<CallExpr>(Last->getStmt()) : nullptr;
}

/// The `try` dispatch block \p Block's exceptional edge reaches, if any.
static const CFGBlock *handlersOf(const CFGBlock &Block) {
  const CFGBlock *Target = std::next(Block.succ_begin())->getReachableBlock();
  return Target && isa_and_nonnull<CXXTryStmt>(Target->getTerminatorStmt()) ? Target : nullptr;
}

void keepHandlerEdges(CFG &Graph, const ThrowingFunctions &Throwing) {
  for (CFGBlock *Block : Graph) {
    const CallExpr *Call = callWithExceptionalEdge(*Block);
    if (!Call || (handlersOf(*Block) && Throwing.mayThrow(Call->getDirectCallee())))
      continue;
    CFGBlock::AdjacentBlock &Edge = *std::next(Block->succ_begin());
    CFGBlock *Target = Edge.getReachableBlock();
    if (!Target)
      continue;
    Edge = CFGBlock::AdjacentBlock(Target, /*IsReachable=*/false);
    for (CFGBlock::AdjacentBlock &Pred : Target->preds())
      if (Pred.getPossiblyUnreachableBlock() == Block)
        Pred = CFGBlock::AdjacentBlock(Block, /*IsReachable=*/false);
  }
}

const CallExpr *exceptionalCall(const CFGBlock &Block) {
  const CallExpr *Call = callWithExceptionalEdge(Block);
  return Call && handlersOf(Block) ? Call : nullptr;
}

} // namespace lockstep::analysis
