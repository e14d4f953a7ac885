// Base of every lockstep check: reads the shared options, loads the rules
// once, runs the engine once per translation unit for all checks, and hands
// each check the divergences to report.
#pragma once

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
  /// Reports what this check is about from the engine's results.
  virtual void report(const analysis::TranslationUnitAnalysis &Analysis,
                      clang::ASTContext &Context) = 0;

private:
  bool flag(llvm::StringRef Name) const;

  std::string RuleFiles;        // extra rules files, separated by ';'
  std::string RankNamePattern;  // overrides naming.rank_pattern when set
  std::string WorldSizeNamePattern;
  std::string SummaryFile;      // merged summaries of the other files (lockstep check)
  bool PendingExternalCalls;    // keep calls to unsummarised functions for lockstep check
  analysis::PathOptions Paths;  // ErrorPathsAsExits, AssertionsAsExits
};

/// Called with every translation unit's analysis before the checks report,
/// on the thread that analyses it: how `lockstep check` collects summaries.
using AnalysisObserver =
    std::function<void(const analysis::TranslationUnitAnalysis &, clang::ASTContext &)>;
void setAnalysisObserver(AnalysisObserver Observer);

} // namespace lockstep::checks
