#include "TranslationUnitAnalysis.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <set>

namespace lockstep::analysis {
using namespace clang;

namespace {

constexpr unsigned MaxRounds = 6;

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(ASTContext &Context) : SM(Context.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // System headers hold no user collectives and would dominate the cost.
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !FD->isInvalidDecl() && !SM.isInSystemHeader(FD->getLocation()))
      Found.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    if (CXXMethodDecl *Call = Lambda->getCallOperator())
      if (!Call->isDependentContext() && !Call->getDescribedFunctionTemplate())
        VisitFunctionDecl(Call);
    return true;
  }

  std::vector<const FunctionDecl *> Found;

private:
  const SourceManager &SM;
};

} // namespace

TranslationUnitAnalysis::TranslationUnitAnalysis(ASTContext &Context,
                                                 const CallClassifier &Classifier)
    : Classifier(Classifier), Env(Classifier, Arena) {
  collectFunctions(Context);
  computeDependence();
  Events = std::make_unique<CollectiveEvents>(Classifier, ByDecl);
  findDivergences();
}

TranslationUnitAnalysis::~TranslationUnitAnalysis() = default;

void TranslationUnitAnalysis::collectFunctions(ASTContext &Context) {
  FunctionCollector Collector(Context);
  Collector.TraverseDecl(Context.getTranslationUnitDecl());
  for (const FunctionDecl *FD : Collector.Found) {
    const FunctionDecl *Key = FD->getCanonicalDecl();
    if (ByDecl.count(Key))
      continue;
    if (std::unique_ptr<FunctionCFG> Function = FunctionCFG::build(FD, Context)) {
      ByDecl[Key] = Function.get();
      Functions.push_back(std::move(Function));
    }
  }
}

// Functions read each other's facts (return values, out-parameters) and the
// shared facts (fields, globals); parameters are seeded from call sites.
// Everything only grows, so a few rounds reach the fixed point.
void TranslationUnitAnalysis::computeDependence() {
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    bool Changed = false;
    for (const auto &Function : Functions) {
      FunctionDependence Result = analyzeDependence(*Function, Env);
      FunctionFacts &Facts = Env.facts[Function->decl()->getCanonicalDecl()];
      if (!Facts.sameAs(Result.facts)) {
        Facts = Result.facts;
        Changed = true;
      }
      Dependence[Function.get()] = std::move(Result);
    }
    computeSeeds();
    Changed |= publishSharedWrites();
    if (!Changed)
      break;
  }
}

void TranslationUnitAnalysis::computeSeeds() {
  Env.seeds.clear();
  llvm::DenseSet<const FunctionDecl *> Called;
  for (const auto &[Function, Result] : Dependence)
    for (const CallSiteRecord &Call : Result.calls)
      Called.insert(Call.callee);
  // Parameters of functions nobody in this file calls come from outside:
  // only their names tell whether they hold a rank.
  for (const auto &Function : Functions) {
    const FunctionDecl *FD = Function->decl();
    auto &Seeds = Env.seeds[FD->getCanonicalDecl()];
    Seeds.assign(FD->getNumParams(), nullptr);
    if (Called.count(FD->getCanonicalDecl()))
      continue;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (Classifier.isRankName(FD->getParamDecl(I)->getName()))
        Seeds[I] = Env.rankName(FD->getParamDecl(I));
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Function, Result] : Dependence) {
      for (const CallSiteRecord &Call : Result.calls) {
        auto It = Env.seeds.find(Call.callee);
        if (It == Env.seeds.end())
          continue;
        auto &Seeds = It->second;
        for (size_t I = 0; I < Call.args.size() && I < Seeds.size(); ++I) {
          if (Seeds[I])
            continue;
          if (const Provenance *Source = Env.resolve(Call.args[I], Function->decl())) {
            const ParmVarDecl *Param = Call.callee->getParamDecl(I);
            Seeds[I] = Arena.make(Provenance::Kind::Parameter, Param->getNameAsString(),
                                  Param->getLocation(), Source);
            Changed = true;
          }
        }
      }
    }
  }
}

bool TranslationUnitAnalysis::publishSharedWrites() {
  bool Changed = false;
  for (const auto &[Function, Result] : Dependence) {
    for (const SharedWrite &Write : Result.sharedWrites) {
      if (Env.shared.count(Write.decl))
        continue;
      if (const Provenance *Source = Env.resolve(Write.value, Function->decl())) {
        RankValue Value;
        Value.source = Source;
        Value.exactRank = Write.value.exactRank;
        Env.shared[Write.decl] = Value;
        Changed = true;
      }
    }
  }
  return Changed;
}

void TranslationUnitAnalysis::findDivergences() {
  for (const auto &Function : Functions) {
    const FunctionDependence &Result = Dependence[Function.get()];
    // Inner branches first (Clang numbers blocks from the exit backwards), so
    // a collective is reported at the branch that decides it most closely.
    std::vector<const CFGBlock *> Blocks(Function->cfg().begin(), Function->cfg().end());
    std::sort(Blocks.begin(), Blocks.end(), [](const CFGBlock *A, const CFGBlock *B) {
      return A->getBlockID() < B->getBlockID();
    });
    std::set<unsigned> Reported;
    for (const CFGBlock *Block : Blocks) {
      auto It = Result.conditions.find(Block);
      if (It == Result.conditions.end())
        continue;
      const Provenance *Source = Env.resolve(It->second, Function->decl());
      if (!Source)
        continue;
      Branches.push_back({Function->decl(), decidingCondition(*Block), Source,
                          isLoopBranch(*Block)});
      if (isLoopBranch(*Block))
        continue; // trip counts are the rank-loop check's concern
      for (Divergence &D : branchDivergences(*Function, *Block, Source, *Events))
        if (Reported.insert(D.event.site.getRawEncoding()).second)
          Divergences.push_back(std::move(D));
    }
  }
}

} // namespace lockstep::analysis
