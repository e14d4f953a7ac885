// Base of every lockstep check: reads the shared options, loads the rules
// once, runs the engine once per translation unit for all checks, and hands
// each check the results the router (Routing.h) assigns to it.
#pragma once

#include "CheckTable.h"
#include "FindingBuilder.h"
#include "Routing.h"

#include "../analysis/TranslationUnitAnalysis.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <functional>

namespace lockstep::checks {

class LockstepCheck : public clang::tidy::ClangTidyCheck {
public:
  LockstepCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) final;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) final;
  void onEndOfTranslationUnit() final;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// Report one result routed to this check; a check overrides those for the
  /// kinds of result the router sends it.
  virtual void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context);
  virtual void reportLoop(const analysis::LoopDivergence &D, clang::ASTContext &Context);
  virtual void reportArgument(const analysis::RankArgument &A, clang::ASTContext &Context);
  virtual void reportImbalance(const analysis::GroupImbalance &P, clang::ASTContext &Context);
  virtual void reportLimit(const analysis::AnalysisLimit &L, clang::ASTContext &Context);

  /// The analysis whose results are being reported.
  const analysis::TranslationUnitAnalysis &unit() const { return *Unit; }

  /// A finding of this check, to fill and emit.
  FindingBuilder finding(const clang::ASTContext &Context) {
    return FindingBuilder(*this, checkInfo(Id).Name, Context);
  }

private:
  bool flag(llvm::StringRef Name) const;
  void report(const EngineResult &Result, clang::ASTContext &Context);

  CheckId Id;
  const analysis::TranslationUnitAnalysis *Unit = nullptr; // during check()

  std::string RuleFiles;       // extra rules files, separated by ';'
  std::string RankNamePattern; // overrides naming.rank_pattern when set
  std::string WorldSizeNamePattern;
  std::string SummaryFile;     // merged summaries of the other files (lockstep check)
  bool PendingExternalFacts;   // lockstep check: findings on calls and storage of other files
  std::string ProjectRoot;     // lockstep check: where the storage of other files may be
  analysis::PathOptions Paths; // ErrorPathsAsExits, AssertionsAsExits
};

/// Called with every translation unit's analysis before the checks report,
/// on the thread that analyses it: how `lockstep check` collects summaries.
using AnalysisObserver =
    std::function<void(const analysis::TranslationUnitAnalysis &, clang::ASTContext &)>;
void setAnalysisObserver(AnalysisObserver Observer);

} // namespace lockstep::checks
