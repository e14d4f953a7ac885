#include "DecidingParameters.h"
#include "CallSite.h"
#include "FunctionCFG.h"
#include "LocalWrites.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

namespace lockstep::analysis {
using namespace clang;

namespace {

/// What the variables of one function read, in parameters: a local counts
/// the parameters its writes read, a variable written otherwise (`+=`, by
/// address) none, so that only values computed from a parameter count.
class ParameterReads {
public:
  explicit ParameterReads(const FunctionDecl *FD) : Writes(LocalWrites::of(FD)) {}

  void collect(const Expr *Test, llvm::SmallPtrSetImpl<const ParmVarDecl *> &Into) {
    llvm::DenseSet<const VarDecl *> Followed;
    std::vector<const Expr *> Pending{Test};
    while (!Pending.empty()) {
      const Expr *Value = Pending.back();
      Pending.pop_back();
      forEachStmtInOrder(Value, [&](const Stmt *S) {
        const auto *Ref = dyn_cast<DeclRefExpr>(S);
        const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(Var))
          Into.insert(Param);
        // Each local is followed once, so a cycle of assignments ends.
        else if (Var && Var->hasLocalStorage() && !Writes.Opaque.count(Var) &&
                 Followed.insert(Var).second)
          if (auto Found = Writes.Writes.find(Var); Found != Writes.Writes.end())
            for (const Expr *Written : Found->second)
              if (Written)
                Pending.push_back(Written);
      });
    }
  }

private:
  LocalWrites Writes;
};

} // namespace

DecidingParameters decidingParameters(const FunctionCFG &Function,
                                      llvm::function_ref<bool(const CFGBlock &)> RunsCollectives) {
  const FunctionDecl *FD = Function.decl();
  if (FD->getNumParams() == 0)
    return {};
  llvm::DenseSet<const CFGBlock *> Seen;
  std::vector<const CFGBlock *> Work;
  for (const CFGBlock *Block : Function.reversePostOrder())
    if (RunsCollectives(*Block))
      Work.push_back(Block);
  std::vector<std::pair<const Expr *, bool>> Tests; // and whether a loop's
  while (!Work.empty()) {
    const CFGBlock *Block = Work.back();
    Work.pop_back();
    for (const CFGBlock *Branch : Function.controllers(Block))
      if (Seen.insert(Branch).second) {
        if (const Expr *Test = decidingCondition(*Branch))
          Tests.push_back({Test, isLoopBranch(*Branch)});
        Work.push_back(Branch);
      }
  }
  if (Tests.empty())
    return {};
  ParameterReads Reads(FD);
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Read, ReadByLoops;
  for (auto [Test, Loop] : Tests)
    Reads.collect(Test, Loop ? ReadByLoops : Read);
  DecidingParameters Deciding;
  for (const ParmVarDecl *Param : FD->parameters()) {
    if (Read.count(Param) || ReadByLoops.count(Param))
      Deciding.All.push_back(Param);
    if (ReadByLoops.count(Param))
      Deciding.Loops.push_back(Param);
  }
  return Deciding;
}

} // namespace lockstep::analysis
