#include "LockstepCheck.h"
#include "../analysis/SummaryFile.h"
#include "RulesLoader.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>

namespace lockstep::checks {
using namespace clang;
using namespace clang::ast_matchers;

namespace {

struct LoadedRules {
  std::unique_ptr<rules::RuleSet> Rules;
  std::unique_ptr<analysis::CallClassifier> Classifier;
  analysis::ExternalSummaries Summaries;
  std::string Error;
  bool ErrorReported = false;
};

/// Rules are loaded once per distinct configuration and kept for the
/// thread; the analysis is shared by the checks of one translation unit.
/// Per thread, because `lockstep check` analyses files in parallel.
struct SharedState {
  std::map<std::string, LoadedRules> RulesByConfiguration;
  const ASTContext *AnalysedContext = nullptr;
  const LoadedRules *AnalysedWith = nullptr;
  analysis::PathOptions AnalysedPaths;
  std::unique_ptr<analysis::TranslationUnitAnalysis> Analysis;
  double AnalysisSeconds = 0;
  AnalysisObserver Observer;
};

SharedState &shared() {
  static thread_local SharedState State;
  return State;
}

LoadedRules &loadRules(const std::string &RuleFiles, const std::string &RankPattern,
                       const std::string &SizePattern, const std::string &SummaryFile) {
  std::string Key = RuleFiles + '\n' + RankPattern + '\n' + SizePattern + '\n' + SummaryFile;
  auto [It, Inserted] = shared().RulesByConfiguration.try_emplace(Key);
  LoadedRules &Loaded = It->second;
  if (!Inserted)
    return Loaded;
  auto Rules = std::make_unique<rules::RuleSet>();
  Error Failure = rules::mergeBuiltinRules(*Rules);
  llvm::SmallVector<llvm::StringRef, 4> Files;
  llvm::StringRef(RuleFiles).split(Files, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef File : Files)
    if (!Failure)
      Failure = rules::mergeRulesFile(File.trim().str(), *Rules);
  for (auto [Pattern, Target] : {std::pair{&RankPattern, &Rules->Naming.RankPattern},
                                 std::pair{&SizePattern, &Rules->Naming.WorldSizePattern}}) {
    if (Failure || Pattern->empty())
      continue;
    if (Error Invalid = rules::checkPattern(*Pattern))
      Failure = Error("option '" +
                      std::string(Target == &Rules->Naming.RankPattern ? "RankNamePattern"
                                                                       : "WorldSizeNamePattern") +
                      "': " + Invalid.message());
    else
      *Target = *Pattern;
  }
  if (!Failure)
    Failure = rules::validateComplete(*Rules);
  if (!Failure && !SummaryFile.empty())
    Failure = analysis::mergeSummaryFile(SummaryFile, Loaded.Summaries);
  if (Failure) {
    Loaded.Error = Failure.message();
    return Loaded;
  }
  Loaded.Rules = std::move(Rules);
  Loaded.Classifier = std::make_unique<analysis::CallClassifier>(*Loaded.Rules);
  return Loaded;
}

} // namespace

LockstepCheck::LockstepCheck(llvm::StringRef Name, tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Id(findCheck(Name)->Id),
      RuleFiles(Options.getLocalOrGlobal("RuleFiles", "")),
      RankNamePattern(Options.getLocalOrGlobal("RankNamePattern", "")),
      WorldSizeNamePattern(Options.getLocalOrGlobal("WorldSizeNamePattern", "")),
      SummaryFile(Options.getLocalOrGlobal("SummaryFile", "")),
      PendingExternalFacts(flag("PendingExternalFacts")),
      ProjectRoot(Options.getLocalOrGlobal("ProjectRoot", "")) {
  Paths.ErrorPathsAsExits = flag("ErrorPathsAsExits");
  Paths.AssertionsAsExits = flag("AssertionsAsExits");
}

// Read as text: the plugin cannot use clang-tidy's integral option parser.
bool LockstepCheck::flag(llvm::StringRef Name) const {
  return llvm::StringRef(Options.getLocalOrGlobal(Name, "false")).trim() == "true";
}

void setAnalysisObserver(AnalysisObserver Observer) { shared().Observer = std::move(Observer); }

void LockstepCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RuleFiles", RuleFiles);
  Options.store(Opts, "RankNamePattern", RankNamePattern);
  Options.store(Opts, "WorldSizeNamePattern", WorldSizeNamePattern);
  Options.store(Opts, "SummaryFile", SummaryFile);
  Options.store(Opts, "PendingExternalFacts", PendingExternalFacts ? "true" : "false");
  Options.store(Opts, "ProjectRoot", ProjectRoot);
  Options.store(Opts, "ErrorPathsAsExits", Paths.ErrorPathsAsExits ? "true" : "false");
  Options.store(Opts, "AssertionsAsExits", Paths.AssertionsAsExits ? "true" : "false");
}

void LockstepCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

void LockstepCheck::check(const MatchFinder::MatchResult &Result) {
  LoadedRules &Loaded = loadRules(RuleFiles, RankNamePattern, WorldSizeNamePattern, SummaryFile);
  if (!Loaded.Error.empty()) {
    if (!Loaded.ErrorReported)
      configurationDiag("lockstep cannot load its rules: %0", DiagnosticIDs::Error) << Loaded.Error;
    Loaded.ErrorReported = true;
    return;
  }
  SharedState &State = shared();
  // Checks given other path options locally get an analysis of their own.
  if (State.AnalysedContext != Result.Context || State.AnalysedWith != &Loaded ||
      State.AnalysedPaths != Paths) {
    State.Analysis.reset();
    auto Start = std::chrono::steady_clock::now();
    State.Analysis = std::make_unique<analysis::TranslationUnitAnalysis>(
        *Result.Context, *Loaded.Classifier, &Loaded.Summaries,
        analysis::PendingFacts{PendingExternalFacts, ProjectRoot}, Paths);
    State.AnalysisSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    State.AnalysedContext = Result.Context;
    State.AnalysedWith = &Loaded;
    State.AnalysedPaths = Paths;
    if (State.Observer)
      State.Observer(*State.Analysis, *Result.Context);
  }
  Unit = State.Analysis.get();
  for (const EngineResult &R : engineResults(*Unit))
    if (route(R) == Id)
      report(R, *Result.Context);
  Unit = nullptr;
}

void LockstepCheck::report(const EngineResult &R, ASTContext &Context) {
  if (const auto *D = std::get_if<const analysis::Divergence *>(&R))
    reportDivergence(**D, Context);
  else if (const auto *L = std::get_if<const analysis::LoopDivergence *>(&R))
    reportLoop(**L, Context);
  else if (const auto *A = std::get_if<const analysis::RankArgument *>(&R))
    reportArgument(**A, Context);
  else if (const auto *P = std::get_if<const analysis::GroupImbalance *>(&R))
    reportImbalance(**P, Context);
  else
    reportLimit(*std::get<const analysis::AnalysisLimit *>(R), Context);
}

// The router sends a check only the kinds of result it reports.
void LockstepCheck::reportDivergence(const analysis::Divergence &, ASTContext &) {
  llvm_unreachable("a divergence routed to a check that does not report them");
}
void LockstepCheck::reportLoop(const analysis::LoopDivergence &, ASTContext &) {
  llvm_unreachable("a loop divergence routed to a check that does not report them");
}
void LockstepCheck::reportArgument(const analysis::RankArgument &, ASTContext &) {
  llvm_unreachable("a rank argument routed to a check that does not report them");
}
void LockstepCheck::reportImbalance(const analysis::GroupImbalance &, ASTContext &) {
  llvm_unreachable("a group imbalance routed to a check that does not report them");
}
void LockstepCheck::reportLimit(const analysis::AnalysisLimit &, ASTContext &) {
  llvm_unreachable("an analysis limit routed to a check that does not report them");
}

// With LOCKSTEP_STATISTICS set, one line per translation unit on stderr says
// what the analysis cost and how its rank questions were settled (the
// benchmarks read it).
static void printStatistics(const SharedState &State) {
  const analysis::SolverStatistics &S = State.Analysis->solverStatistics();
  llvm::errs() << llvm::format(
      "lockstep: statistics: analysis %.3f s, solver %.3f s; %u rank questions: %u "
      "answered before, %u by evaluation, %u by the solver, %u undecided\n",
      State.AnalysisSeconds, S.SolverSeconds, S.Questions, S.AnsweredBefore, S.ByEvaluation,
      S.SolverCalls, S.Undecided);
}

void LockstepCheck::onEndOfTranslationUnit() {
  SharedState &State = shared();
  if (State.Analysis && std::getenv("LOCKSTEP_STATISTICS"))
    printStatistics(State);
  State.AnalysisSeconds = 0;
  State.Analysis.reset();
  State.AnalysedContext = nullptr;
  State.AnalysedWith = nullptr;
}

} // namespace lockstep::checks
