#include "StaticInitializers.h"
#include "CallSite.h"
#include "CalleesFirst.h"

#include "clang/AST/Stmt.h"

namespace lockstep::analysis {
using namespace clang;

StaticInitializers::StaticInitializers(
    const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions,
    std::function<bool(const FunctionDecl *)> Performs,
    std::function<bool(const Stmt *)> RunsOthers)
    : Functions(Functions), Performs(std::move(Performs)), RunsOthers(std::move(RunsOthers)) {}

/// The static local whose initializer holds \p Site, or null.
static const VarDecl *initializedStatic(const Stmt *Site, const ParentMap &Parents) {
  for (const Stmt *S = Site; S; S = Parents.getParent(S)) {
    const auto *Declaration = dyn_cast<DeclStmt>(S);
    if (!Declaration)
      continue;
    for (const Decl *D : Declaration->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->isStaticLocal() && Var->getInit())
        for (const Stmt *In = Site; In && In != Declaration; In = Parents.getParent(In))
          if (In == Var->getInit())
            return Var;
    return nullptr;
  }
  return nullptr;
}

const VarDecl *StaticInitializers::onceOf(const FunctionDecl *FD) {
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (auto Known = Decided.find(Key); Known != Decided.end())
    return Known->second;
  if (!Functions.count(Key) || Deciding.count(Key))
    return nullptr;
  decideCalleesFirst(Key, Decided, Deciding,
                     [&](const FunctionDecl *F, std::vector<const FunctionDecl *> &Needed) {
                       return decide(F, Needed);
                     });
  return Decided.lookup(Key);
}

// Once when every collective runs in one initializer (its own, or the one
// every function it calls runs) and every way through the function passes
// a block that runs it: a call that may skip it leaves it for a later call.
const VarDecl *StaticInitializers::decide(const FunctionDecl *FD,
                                          std::vector<const FunctionDecl *> &Needed) {
  const FunctionCFG &Function = *Functions.lookup(FD);
  const VarDecl *Once = nullptr;
  bool Other = false; // a collective that runs on every call
  llvm::DenseSet<const CFGBlock *> Running;
  for (const CFGBlock *Block : Function.cfg())
    forEachCall(
        *Block, Function.context(),
        [&, Block = Block](const FunctionDecl *Callee, SourceLocation, const Stmt *Site) {
          if (Site && RunsOthers(Site)) {
            Other = true;
            return;
          }
          if (Callee && !Performs(Callee))
            return;
          const VarDecl *Runs = Site ? initializedStatic(Site, Function.parents()) : nullptr;
          if (!Runs && Callee) {
            const FunctionDecl *Key = Callee->getCanonicalDecl();
            if (auto Known = Decided.find(Key); Known != Decided.end())
              Runs = Known->second;
            else if (Functions.count(Key) && !Deciding.count(Key))
              Needed.push_back(Key);
          }
          if (!Runs || (Once && Once != Runs))
            Other = true;
          Once = Runs;
          Running.insert(Block);
        },
        /*Unnamed=*/true);
  if (Other || !Needed.empty() || !Once ||
      !everyWayPasses(Function.cfg(),
                      [&](const CFGBlock &Block) { return Running.count(&Block) != 0; }))
    return nullptr;
  return Once;
}

bool StaticInitializers::runBefore(const FunctionCFG &Function, const CFGBlock &Block,
                                   const VarDecl *Once) {
  auto Found = Callers.try_emplace({&Function, Once});
  std::vector<const CFGBlock *> &Blocks = Found.first->second;
  if (Found.second)
    for (const CFGBlock *Caller : Function.cfg())
      forEachCall(*Caller, Function.context(),
                  [&, Caller = Caller](const FunctionDecl *Callee, SourceLocation, const Stmt *) {
                    if (Callee && Performs(Callee) && onceOf(Callee) == Once &&
                        (Blocks.empty() || Blocks.back() != Caller))
                      Blocks.push_back(Caller);
                  });
  return llvm::any_of(Blocks, [&](const CFGBlock *Caller) {
    return Caller != &Block && Function.dominators().dominates(Caller, &Block);
  });
}

} // namespace lockstep::analysis
