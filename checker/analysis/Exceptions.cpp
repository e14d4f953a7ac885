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

/// The type a thrown value has, as handlers match it.
static QualType caughtAs(QualType Type) {
  return Type.getNonReferenceType().getUnqualifiedType().getCanonicalType();
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
      if (const auto *Throw = dyn_cast<CXXThrowExpr>(S)) {
        Throws = true;
        if (!Throw->getSubExpr())
          ThrowsAnything.insert(Key);
        else if (QualType Type = caughtAs(Throw->getSubExpr()->getType());
                 !llvm::is_contained(Thrown[Key], Type))
          Thrown[Key].push_back(Type);
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          Callers[Callee->getCanonicalDecl()].push_back(Key);
      }
    });
    if (Throws && Throwing.insert(Key).second)
      Worklist.push_back(Key);
    // A virtual call may run any override: the method it names lets out
    // what they throw.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
      for (std::vector<const CXXMethodDecl *> Overriders{Method}; !Overriders.empty();) {
        const CXXMethodDecl *Overrider = Overriders.back();
        Overriders.pop_back();
        for (const CXXMethodDecl *Overridden : Overrider->overridden_methods()) {
          Callers[Overrider->getCanonicalDecl()].push_back(Overridden->getCanonicalDecl());
          Overriders.push_back(Overridden);
        }
      }
  }
  // A caller lets out what its callees throw: revisit it whenever it gains.
  while (!Worklist.empty()) {
    const FunctionDecl *Callee = Worklist.back();
    Worklist.pop_back();
    for (const FunctionDecl *Caller : Callers.lookup(Callee)) {
      bool Gained = Throwing.insert(Caller).second;
      if (ThrowsAnything.count(Callee))
        Gained |= ThrowsAnything.insert(Caller).second;
      for (QualType Type : Thrown.lookup(Callee))
        if (!llvm::is_contained(Thrown[Caller], Type)) {
          Thrown[Caller].push_back(Type);
          Gained = true;
        }
      if (Gained)
        Worklist.push_back(Caller);
    }
  }
}

std::optional<std::vector<QualType>> ThrowingFunctions::thrownTypes(const FunctionDecl *FD) const {
  if (!FD || ThrowsAnything.count(FD->getCanonicalDecl()))
    return std::nullopt;
  return Thrown.lookup(FD->getCanonicalDecl());
}

/// Whether a handler of \p Try catches a value of \p Type: the same class
/// or a base of it, or a catch-all.
static bool caught(const CXXTryStmt &Try, QualType Type) {
  const CXXRecordDecl *Thrown = Type->getAsCXXRecordDecl();
  for (unsigned I = 0; I < Try.getNumHandlers(); ++I) {
    QualType Handler = Try.getHandler(I)->getCaughtType();
    if (Handler.isNull())
      return true; // catch (...)
    Handler = caughtAs(Handler);
    if (Handler == Type)
      return true;
    const CXXRecordDecl *Base = Handler->getAsCXXRecordDecl();
    if (Thrown && Base && Thrown->hasDefinition() && Thrown->isDerivedFrom(Base))
      return true;
  }
  return false;
}

/// Whether the handlers of \p Try catch everything its block may throw:
/// its own `throw`s and what its calls may let out.
static bool catchesAllThrown(const CXXTryStmt &Try, const ThrowingFunctions &Throwing) {
  bool All = true;
  walkBody(Try.getTryBlock(), [&](const Stmt *S, bool InTry) {
    if (!All || InTry)
      return;
    if (const auto *Throw = dyn_cast<CXXThrowExpr>(S)) {
      All = Throw->getSubExpr() && caught(Try, caughtAs(Throw->getSubExpr()->getType()));
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || !Throwing.mayThrow(Call->getDirectCallee()))
      return;
    std::optional<std::vector<QualType>> Types = Throwing.thrownTypes(Call->getDirectCallee());
    All = Types && llvm::all_of(*Types, [&](QualType Type) { return caught(Try, Type); });
  });
  return All;
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

/// Marks \p Block's edge \p Edge unreachable, on both of its ends.
static void dropEdge(CFGBlock *Block, CFGBlock::AdjacentBlock &Edge) {
  CFGBlock *Target = Edge.getReachableBlock();
  if (!Target)
    return;
  Edge = CFGBlock::AdjacentBlock(Target, /*IsReachable=*/false);
  for (CFGBlock::AdjacentBlock &Pred : Target->preds())
    if (Pred.getReachableBlock() == Block)
      Pred = CFGBlock::AdjacentBlock(Block, /*IsReachable=*/false);
}

void keepHandlerEdges(CFG &Graph, const ThrowingFunctions &Throwing, bool CallEdges) {
  for (CFGBlock *Block : Graph) {
    // A try's dispatch ends in its handlers, then (without a catch-all) the
    // edge for what none of them catches.
    if (const auto *Try = dyn_cast_or_null<CXXTryStmt>(Block->getTerminatorStmt());
        Try && Block->succ_size() == Try->getNumHandlers() + 1 && catchesAllThrown(*Try, Throwing))
      dropEdge(Block, *std::prev(Block->succ_end()));
    if (!CallEdges)
      continue;
    const CallExpr *Call = callWithExceptionalEdge(*Block);
    if (!Call || (handlersOf(*Block) && Throwing.mayThrow(Call->getDirectCallee())))
      continue;
    dropEdge(Block, *std::next(Block->succ_begin()));
  }
}

const CallExpr *exceptionalCall(const CFGBlock &Block) {
  const CallExpr *Call = callWithExceptionalEdge(Block);
  return Call && handlersOf(Block) ? Call : nullptr;
}

} // namespace lockstep::analysis
