// The engine's entry point: analyses every function of a translation unit
// (rank dependence to a fixed point across calls, collective summaries,
// divergence) and keeps the results as plain data for the checks.
#pragma once

#include "CallClassifier.h"
#include "CollectiveEvents.h"
#include "Divergence.h"
#include "FunctionCFG.h"
#include "RankDependence.h"

#include "clang/AST/ASTContext.h"

#include <memory>
#include <vector>

namespace lockstep::analysis {

/// A branch whose condition differs between ranks.
struct RankDependentBranch {
  const clang::FunctionDecl *function = nullptr;
  const clang::Expr *condition = nullptr;
  const Provenance *source = nullptr;
  bool loop = false;
};

class TranslationUnitAnalysis {
public:
  TranslationUnitAnalysis(clang::ASTContext &Context, const CallClassifier &Classifier);
  ~TranslationUnitAnalysis();

  const std::vector<Divergence> &divergences() const { return Divergences; }
  const std::vector<RankDependentBranch> &rankDependentBranches() const { return Branches; }

private:
  void collectFunctions(clang::ASTContext &Context);
  void computeDependence();
  void computeSeeds();
  bool publishSharedWrites();
  void findDivergences();

  const CallClassifier &Classifier;
  ProvenanceArena Arena;
  DependenceEnvironment Env;
  std::vector<std::unique_ptr<FunctionCFG>> Functions;
  llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> ByDecl;
  llvm::DenseMap<const FunctionCFG *, FunctionDependence> Dependence;
  std::unique_ptr<CollectiveEvents> Events;
  std::vector<Divergence> Divergences;
  std::vector<RankDependentBranch> Branches;
};

} // namespace lockstep::analysis
