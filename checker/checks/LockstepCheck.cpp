#include "LockstepCheck.h"
#include "../analysis/SummaryFile.h"
#include "RulesLoader.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <map>
#include <memory>

namespace lockstep::checks {
using namespace clang;
using namespace clang::ast_matchers;

namespace {

struct LoadedRules {
  std::unique_ptr<rules::RuleSet> rules;
  std::unique_ptr<analysis::CallClassifier> classifier;
  analysis::ExternalSummaries summaries;
  std::string error;
  bool errorReported = false;
};

/// Rules are loaded once per distinct configuration and kept for the
/// thread; the analysis is shared by the checks of one translation unit.
/// Per thread, because `lockstep check` analyses files in parallel.
struct SharedState {
  std::map<std::string, LoadedRules> rulesByConfiguration;
  const ASTContext *analysedContext = nullptr;
  const LoadedRules *analysedWith = nullptr;
  analysis::PathOptions analysedPaths;
  std::unique_ptr<analysis::TranslationUnitAnalysis> analysis;
  AnalysisObserver observer;
};

SharedState &shared() {
  static thread_local SharedState State;
  return State;
}

LoadedRules &loadRules(const std::string &RuleFiles, const std::string &RankPattern,
                       const std::string &SizePattern, const std::string &SummaryFile) {
  std::string Key = RuleFiles + '\n' + RankPattern + '\n' + SizePattern + '\n' + SummaryFile;
  auto [It, Inserted] = shared().rulesByConfiguration.try_emplace(Key);
  LoadedRules &Loaded = It->second;
  if (!Inserted)
    return Loaded;
  auto Rules = std::make_unique<rules::RuleSet>();
  std::string Error = rules::mergeBuiltinRules(*Rules);
  llvm::SmallVector<llvm::StringRef, 4> Files;
  llvm::StringRef(RuleFiles).split(Files, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef File : Files)
    if (Error.empty())
      Error = rules::mergeRulesFile(File.trim().str(), *Rules);
  for (auto [Pattern, Target] : {std::pair{&RankPattern, &Rules->naming.rankPattern},
                                 std::pair{&SizePattern, &Rules->naming.worldSizePattern}}) {
    if (!Error.empty() || Pattern->empty())
      continue;
    Error = rules::checkPattern(*Pattern);
    if (!Error.empty())
      Error = "option '" + std::string(Target == &Rules->naming.rankPattern
                                           ? "RankNamePattern"
                                           : "WorldSizeNamePattern") +
              "': " + Error;
    else
      *Target = *Pattern;
  }
  if (Error.empty())
    Error = rules::validateComplete(*Rules);
  if (Error.empty() && !SummaryFile.empty())
    Error = analysis::mergeSummaryFile(SummaryFile, Loaded.summaries);
  if (!Error.empty()) {
    Loaded.error = Error;
    return Loaded;
  }
  Loaded.rules = std::move(Rules);
  Loaded.classifier = std::make_unique<analysis::CallClassifier>(*Loaded.rules);
  return Loaded;
}

} // namespace

LockstepCheck::LockstepCheck(llvm::StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      RuleFiles(Options.getLocalOrGlobal("RuleFiles", "")),
      RankNamePattern(Options.getLocalOrGlobal("RankNamePattern", "")),
      WorldSizeNamePattern(Options.getLocalOrGlobal("WorldSizeNamePattern", "")),
      SummaryFile(Options.getLocalOrGlobal("SummaryFile", "")),
      PendingExternalCalls(flag("PendingExternalCalls")) {
  Paths.errorPathsAsExits = flag("ErrorPathsAsExits");
  Paths.assertionsAsExits = flag("AssertionsAsExits");
}

// Read as text: the plugin cannot use clang-tidy's integral option parser.
bool LockstepCheck::flag(llvm::StringRef Name) const {
  return llvm::StringRef(Options.getLocalOrGlobal(Name, "false")).trim() == "true";
}

void setAnalysisObserver(AnalysisObserver Observer) { shared().observer = std::move(Observer); }

void LockstepCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RuleFiles", RuleFiles);
  Options.store(Opts, "RankNamePattern", RankNamePattern);
  Options.store(Opts, "WorldSizeNamePattern", WorldSizeNamePattern);
  Options.store(Opts, "SummaryFile", SummaryFile);
  Options.store(Opts, "PendingExternalCalls", PendingExternalCalls ? "true" : "false");
  Options.store(Opts, "ErrorPathsAsExits", Paths.errorPathsAsExits ? "true" : "false");
  Options.store(Opts, "AssertionsAsExits", Paths.assertionsAsExits ? "true" : "false");
}

void LockstepCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

void LockstepCheck::check(const MatchFinder::MatchResult &Result) {
  LoadedRules &Loaded = loadRules(RuleFiles, RankNamePattern, WorldSizeNamePattern, SummaryFile);
  if (!Loaded.error.empty()) {
    if (!Loaded.errorReported)
      configurationDiag("lockstep cannot load its rules: %0", DiagnosticIDs::Error)
          << Loaded.error;
    Loaded.errorReported = true;
    return;
  }
  SharedState &State = shared();
  // Checks given other path options locally get an analysis of their own.
  if (State.analysedContext != Result.Context || State.analysedWith != &Loaded ||
      State.analysedPaths != Paths) {
    State.analysis.reset();
    State.analysis = std::make_unique<analysis::TranslationUnitAnalysis>(
        *Result.Context, *Loaded.classifier, &Loaded.summaries, PendingExternalCalls, Paths);
    State.analysedContext = Result.Context;
    State.analysedWith = &Loaded;
    State.analysedPaths = Paths;
    if (State.observer)
      State.observer(*State.analysis, *Result.Context);
  }
  report(*State.analysis, *Result.Context);
}

void LockstepCheck::onEndOfTranslationUnit() {
  SharedState &State = shared();
  State.analysis.reset();
  State.analysedContext = nullptr;
  State.analysedWith = nullptr;
}

} // namespace lockstep::checks
