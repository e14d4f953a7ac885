#include "NeverReturns.h"
#include "CalleesFirst.h"
#include "Exceptions.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>

namespace lockstep::analysis {
using namespace clang;

bool neverReturns(const FunctionDecl &FD) { return FD.isNoReturn() || FD.isAnalyzerNoReturn(); }

const CallExpr *firstEndingCall(const FunctionDecl &FD) {
  const FunctionDecl *Definition = FD.getDefinition();
  if (FD.isNoReturn() || !Definition || !Definition->getBody())
    return nullptr;
  // In source order, without entering lambdas: their bodies are functions of
  // their own.
  std::vector<const Stmt *> Work{Definition->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && Call->getDirectCallee() && neverReturns(*Call->getDirectCallee()))
      return Call;
    const size_t End = Work.size();
    Work.insert(Work.end(), S->child_begin(), S->child_end());
    std::reverse(Work.begin() + End, Work.end());
  }
  return nullptr;
}

namespace {

using FunctionMap = llvm::DenseMap<const FunctionDecl *, const FunctionCFG *>;

class NeverReturning {
public:
  NeverReturning(const FunctionMap &Functions, const ThrowingFunctions *Throwing)
      : Functions(Functions), Throwing(Throwing) {}

  bool decided(const FunctionDecl *Key) {
    if (auto Known = Decided.find(Key); Known != Decided.end())
      return Known->second;
    decideCalleesFirst(Key, Decided, Deciding,
                       [&](const FunctionDecl *F, std::vector<const FunctionDecl *> &Needed) {
                         return decide(*F, *Functions.lookup(F), Needed);
                       });
    return Decided.lookup(Key);
  }

private:
  /// Whether \p Call does not return; callees of this file not decided yet
  /// go to \p Needed (a recursive call may return).
  bool callEnds(const CallExpr &Call, std::vector<const FunctionDecl *> &Needed) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee)
      return false;
    if (neverReturns(*Callee))
      return true;
    const FunctionDecl *Key = Callee->getCanonicalDecl();
    if (auto Known = Decided.find(Key); Known != Decided.end())
      return Known->second;
    if (Functions.count(Key) && !Deciding.count(Key))
      Needed.push_back(Key);
    return false;
  }

  bool blockEnds(const CFGBlock &Block, std::vector<const FunctionDecl *> &Needed) {
    if (Block.hasNoReturnElement())
      return true;
    for (const CFGElement &Element : Block)
      if (auto S = Element.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()); Call && callEnds(*Call, Needed))
          return true;
    return false;
  }

  // Never returns when every way through it passes a call that does not
  // return: a loop that never ends is a server's or a worker's, not an exit.
  bool decide(const FunctionDecl &FD, const FunctionCFG &Function,
              std::vector<const FunctionDecl *> &Needed) {
    // An override may return; an exception may leave for a caller's handler.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(&FD); Method && Method->isVirtual())
      return false;
    if (Throwing && Throwing->mayThrow(&FD))
      return false;
    const bool Ends = everyWayPasses(
        Function.cfg(), [&](const CFGBlock &Block) { return blockEnds(Block, Needed); });
    return Needed.empty() && Ends;
  }

  const FunctionMap &Functions;
  const ThrowingFunctions *Throwing;
  llvm::DenseMap<const FunctionDecl *, bool> Decided;
  llvm::DenseSet<const FunctionDecl *> Deciding;
};

} // namespace

/// Whether \p Function's CFG calls a function of \p Marked.
static bool callsOneOf(const FunctionCFG &Function,
                       const llvm::DenseSet<const FunctionDecl *> &Marked) {
  for (const CFGBlock *Block : Function.cfg())
    for (const CFGElement &Element : *Block)
      if (auto S = Element.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
          if (const FunctionDecl *Callee = Call->getDirectCallee();
              Callee && Marked.count(Callee->getCanonicalDecl()))
            return true;
  return false;
}

void cutNeverReturningCalls(std::vector<std::unique_ptr<FunctionCFG>> &Functions,
                            FunctionMap &ByDecl, const ThrowingFunctions *Throwing) {
  NeverReturning Finder(ByDecl, Throwing);
  llvm::DenseSet<const FunctionDecl *> Marked;
  for (const std::unique_ptr<FunctionCFG> &Function : Functions) {
    const FunctionDecl *Key = Function->decl()->getCanonicalDecl();
    if (neverReturns(*Function->decl()) || !Finder.decided(Key))
      continue;
    Marked.insert(Key);
    for (FunctionDecl *Redecl : const_cast<FunctionDecl *>(Key)->redecls())
      Redecl->addAttr(AnalyzerNoReturnAttr::CreateImplicit(Function->context()));
  }
  if (Marked.empty())
    return;
  for (std::unique_ptr<FunctionCFG> &Function : Functions) {
    if (!callsOneOf(*Function, Marked))
      continue;
    if (std::unique_ptr<FunctionCFG> Again =
            FunctionCFG::build(Function->decl(), Function->context(), Throwing)) {
      ByDecl[Function->decl()->getCanonicalDecl()] = Again.get();
      Function = std::move(Again);
    }
  }
}

} // namespace lockstep::analysis
