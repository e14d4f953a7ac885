// `lockstep check`: reads and validates everything the user gave (options,
// paths, rules, summaries, baseline) once, analyses the units in parallel,
// then resolves, filters and writes the findings.
#include "CommandLine.h"
#include "Commands.h"
#include "Fixes.h"
#include "InstallPaths.h"
#include "Output.h"
#include "PathFilter.h"
#include "PendingFindings.h"
#include "ProjectPaths.h"
#include "UnitCache.h"

#include "../analysis/SummaryFile.h"
#include "RulesLoader.h"

#include "clang-tidy/GlobList.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace lockstep::cli {

namespace {

const char *CheckUsage =
    R"(usage: lockstep check [-p BUILD_DIR] [--jobs N] [--format text|json|sarif]
                      [--output FILE] [--baseline FILE] [--shard I/N]
                      [--checks GLOBS] [--header-filter REGEX] [--exclude GLOB]...
                      [--fix] [--export-fixes FILE]
                      [--error-paths-as-exits] [--assertions-as-exits]
                      [--rules FILE]... [--summaries FILE] [--summary-out FILE]
                      [--cache-dir DIR | --no-cache] [--quiet] [--verbose] [PATHS...]

Runs the lockstep checks on the translation units of BUILD_DIR/compile_commands.json
(default: the current directory), in parallel, with summaries across files.
PATHS keep only the units under those files or directories.
--error-paths-as-exits and --assertions-as-exits report ranks that leave
because a status check or an assertion failed (not reported by default).
Exit status: 0 no findings, 1 findings, 2 usage or configuration error.
)";

struct CheckArguments {
  std::string BuildDir = ".", Jobs, Shard, SummaryOut, SummaryIn, CacheDir, ExportFixes;
  std::string Checks, HeaderFilter;
  std::vector<std::string> Paths, Rules, Excludes;
  OutputOptions Output;
  bool Quiet = false, NoCache = false, Fix = false, Verbose = false;
  analysis::PathOptions Exits; // --error-paths-as-exits, --assertions-as-exits
  // Derived by validateArguments.
  unsigned JobCount = 1, ShardIndex = 1, ShardCount = 1;
  std::string CheckGlobs; // the default plus --checks
};

/// Reads the option or path Args[I] (and its value) into \p A.
Error readArgument(const std::vector<std::string> &Args, size_t &I, CheckArguments &A) {
  Expected<bool> Valued = args::anyOptionValue(Args, I,
                                               {{"-p", &A.BuildDir},
                                                {"--jobs", &A.Jobs},
                                                {"-j", &A.Jobs},
                                                {"--format", &A.Output.Format},
                                                {"--output", &A.Output.Path},
                                                {"-o", &A.Output.Path},
                                                {"--baseline", &A.Output.Baseline},
                                                {"--shard", &A.Shard},
                                                {"--summary-out", &A.SummaryOut},
                                                {"--summaries", &A.SummaryIn},
                                                {"--cache-dir", &A.CacheDir},
                                                {"--checks", &A.Checks},
                                                {"--header-filter", &A.HeaderFilter},
                                                {"--export-fixes", &A.ExportFixes}});
  if (!Valued)
    return Valued.takeError();
  if (*Valued)
    return Error::success();
  for (auto [Name, List] : {std::pair{"--rules", &A.Rules}, std::pair{"--exclude", &A.Excludes}}) {
    std::string Value;
    Expected<bool> Listed = args::optionValue(Args, I, Name, Value);
    if (!Listed)
      return Listed.takeError();
    if (*Listed) {
      List->push_back(Value);
      return Error::success();
    }
  }
  const std::string &Arg = Args[I];
  if (Arg == "-q" || Arg == "--quiet")
    A.Quiet = true;
  else if (Arg == "-v" || Arg == "--verbose")
    A.Verbose = true;
  else if (Arg == "--no-cache")
    A.NoCache = true;
  else if (Arg == "--fix")
    A.Fix = true;
  else if (Arg == "--error-paths-as-exits")
    A.Exits.ErrorPathsAsExits = true;
  else if (Arg == "--assertions-as-exits")
    A.Exits.AssertionsAsExits = true;
  else if (!Arg.empty() && Arg[0] == '-')
    return unknownOption(Arg);
  else
    A.Paths.push_back(Arg);
  return Error::success();
}

/// Reads the command line; every path comes back absolute against \p Cwd.
Error parseArguments(const std::vector<std::string> &Args, const std::string &Cwd,
                     CheckArguments &A) {
  for (size_t I = 0; I < Args.size(); ++I)
    if (Error E = readArgument(Args, I, A))
      return E;
  for (std::string *Path : {&A.BuildDir, &A.Output.Path, &A.Output.Baseline, &A.SummaryOut,
                            &A.SummaryIn, &A.CacheDir, &A.ExportFixes})
    *Path = absolutePath(*Path, Cwd);
  for (std::vector<std::string> *List : {&A.Paths, &A.Rules})
    for (std::string &Path : *List)
      Path = absolutePath(Path, Cwd);
  return Error::success();
}

/// Success when \p Globs (the default plus the user's --checks) enables a
/// lockstep check and every glob the user enables names one: a misspelt
/// check must not silently check nothing.
Error checkSelection(const std::string &Globs, const std::string &UserGlobs) {
  static const char *const All[] = {"lockstep-group-balance", "lockstep-join-barrier",
                                    "lockstep-rank-argument", "lockstep-rank-branch",
                                    "lockstep-rank-exit",     "lockstep-rank-loop"};
  auto Enables = [](const std::string &Glob) {
    clang::tidy::GlobList Selection(Glob);
    return std::any_of(std::begin(All), std::end(All),
                       [&](const char *Check) { return Selection.contains(Check); });
  };
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(UserGlobs).split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts)
    if (!Part.trim().starts_with("-") && !Enables(Part.trim().str()))
      return Error("--checks: '" + Part.trim().str() + "' matches no lockstep check");
  if (!Enables(Globs))
    return Error("--checks '" + UserGlobs + "' enables no lockstep check");
  return Error::success();
}

bool under(const std::string &File, const std::string &Root) {
  return File == Root || (File.size() > Root.size() && File.compare(0, Root.size(), Root) == 0 &&
                          (Root.back() == '/' || File[Root.size()] == '/'));
}

/// Shows "[k/n] file" on a terminal; silent in CI logs.
class Progress {
public:
  Progress(size_t Total, bool Enabled) : Total(Total), Enabled(Enabled && isatty(2)) {}
  void advance(const std::string &File) {
    std::lock_guard<std::mutex> Lock(Mutex);
    ++Done;
    if (Enabled)
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", Done, Total, File.c_str());
  }
  ~Progress() {
    if (Enabled && Done)
      std::fprintf(stderr, "\r\033[K");
  }

private:
  std::mutex Mutex;
  size_t Done = 0, Total;
  bool Enabled;
};

/// Analyses \p Units on \p Jobs threads, from the cache where it can.
std::vector<UnitResult> analyseUnits(const std::vector<CompileUnit> &Units,
                                     const CheckConfig &Config, const UnitCache &Cache,
                                     unsigned Jobs, bool ShowProgress, size_t &Cached) {
  std::vector<UnitResult> Results(Units.size());
  std::atomic<size_t> Next{0}, FromCache{0};
  llvm::CrashRecoveryContext::Enable();
  Progress Shown(Units.size(), ShowProgress);
  auto Worker = [&] {
    for (size_t I; (I = Next++) < Units.size();) {
      if (std::optional<UnitResult> Hit = Cache.load(Units[I])) {
        Results[I] = std::move(*Hit);
        ++FromCache;
      } else {
        Results[I] = runUnit(Units[I], Config);
        Cache.store(Units[I], Results[I]);
      }
      Shown.advance(Units[I].File);
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned T = 1; T < std::min<size_t>(Jobs, Units.size()); ++T)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();
  Cached = FromCache;
  return Results;
}

/// Reads and checks the rules and the previous summaries, once for the whole
/// run; \p CacheKey gets everything in them that a unit's result depends on.
Error loadConfiguration(const CheckArguments &A, CheckConfig &Config, std::string &CacheKey) {
  CacheKey = "lockstep 0.1.0, cache 3\n" + Config.Checks + "\n" +
             (Config.Paths.ErrorPathsAsExits ? "error-paths-as-exits\n" : "") +
             (Config.Paths.AssertionsAsExits ? "assertions-as-exits\n" : "") + "project root " +
             Config.ProjectRoot + "\n";
  rules::RuleSet Rules;
  if (Error E = rules::loadRules(A.Rules, Rules))
    return Error("cannot load the rules: " + E.message());
  for (const std::string &File : A.Rules) {
    Config.RuleFiles += (Config.RuleFiles.empty() ? "" : ";") + File;
    std::ifstream In(File, std::ios::binary);
    CacheKey += File + "\n" + std::string(std::istreambuf_iterator<char>(In), {}) + "\n";
  }
  if (!A.SummaryIn.empty()) {
    // A previous run's summaries: functions of other files that return the rank.
    Config.SummaryFile = A.SummaryIn;
    analysis::ExternalSummaries Previous;
    if (Error E = analysis::mergeSummaryFile(Config.SummaryFile, Previous))
      return E;
    CacheKey += analysis::writeSummaries(Previous);
  }
  return Error::success();
}

std::string hexHash(const std::string &Text) {
  char Hex[17];
  std::snprintf(Hex, sizeof Hex, "%016llx", (unsigned long long)llvm::xxh3_64bits(Text));
  return Hex;
}

/// The command line, checked; a failure is a usage error. Every path the
/// user named is resolved here, once: the units run with their own working
/// directories.
Error validateArguments(const std::vector<std::string> &Args, const std::string &Cwd,
                        CheckArguments &A, PathFilter &Filter) {
  A.Output.ProjectRoot = Cwd; // ids, SARIF and text paths are relative to it
  if (Error E = parseArguments(Args, Cwd, A))
    return E;
  A.JobCount = std::max(1u, std::thread::hardware_concurrency());
  if (!A.Jobs.empty() && (A.Jobs.find_first_not_of("0123456789") != std::string::npos ||
                          (A.JobCount = std::stoul(A.Jobs.substr(0, 6))) == 0))
    return Error("--jobs expects a positive number, got '" + A.Jobs + "'");
  if (!A.Shard.empty()) {
    char Slash = 0;
    std::istringstream In(A.Shard);
    if (!(In >> A.ShardIndex >> Slash >> A.ShardCount) || Slash != '/' || !In.eof() ||
        A.ShardCount == 0 || A.ShardIndex == 0 || A.ShardIndex > A.ShardCount)
      return Error("--shard expects I/N with 1 <= I <= N, got '" + A.Shard + "'");
  }
  // As in clang-tidy, --checks adds to the default: every lockstep check.
  A.CheckGlobs = "lockstep-*" + (A.Checks.empty() ? "" : "," + A.Checks);
  if (Error E = checkSelection(A.CheckGlobs, A.Checks))
    return E;
  if (!A.HeaderFilter.empty())
    if (Error E = Filter.setHeaderFilter(A.HeaderFilter))
      return E;
  for (const std::string &Glob : A.Excludes)
    if (Error E = Filter.addExclude(Glob))
      return E;
  return Error::success();
}

/// The outputs, rules and summaries, checked: a bad configuration stops the
/// run before any unit, whatever the number of jobs.
Error configure(CheckArguments &A, CheckConfig &Config, std::string &CacheKey) {
  if (Error E = validateOutput(A.Output))
    return E;
  Config.Checks = A.CheckGlobs;
  Config.Verbose = A.Verbose;
  Config.Paths = A.Exits;
  Config.ProjectRoot = A.Output.ProjectRoot;
  return loadConfiguration(A, Config, CacheKey);
}

/// The units of the compile database this shard analyses, under the given
/// paths; \p Split gets the units of every shard of the split.
Error selectUnits(const CheckArguments &A, std::vector<CompileUnit> &Selected, std::string &Split,
                  std::string &DatabasePath) {
  std::vector<CompileUnit> Units;
  LoadReport Report;
  TranslationOptions Translation;
  Translation.NvccCompatHeader = nvccCompatHeader();
  if (Error E = loadCompileDatabase(A.BuildDir, Units, &Report, Translation))
    return E;
  for (const std::string &Warning : Report.Warnings)
    std::fprintf(stderr, "lockstep: warning: %s\n", Warning.c_str());
  for (const SkippedEntry &Skipped : Report.Skipped)
    std::fprintf(stderr, "lockstep: warning: %s: skipped: %s\n", Skipped.File.c_str(),
                 Skipped.Reason.c_str());
  size_t Candidate = 0;
  for (const CompileUnit &Unit : Units) {
    if (!A.Paths.empty() &&
        std::none_of(A.Paths.begin(), A.Paths.end(), [&](auto &P) { return under(Unit.File, P); }))
      continue;
    Split += Unit.File + '\n';
    if (Candidate++ % A.ShardCount == A.ShardIndex - 1)
      Selected.push_back(Unit);
  }
  DatabasePath = Report.DatabasePath;
  if (Selected.empty())
    return Error("no translation unit to analyse in " + Report.DatabasePath +
                 (A.Paths.empty() ? "" : " under the given paths"));
  return Error::success();
}

/// What the units found, together: the analysed units' findings (pending
/// ones resolved) and summaries; the failures and bounds reported on stderr.
struct RunResults {
  std::vector<Finding> Findings;
  analysis::ExternalSummaries Summaries;
  size_t Failed = 0;
  std::set<std::string> Incomplete; // a limit in a header, seen from several units, once
};

RunResults gatherResults(const CheckArguments &A, const std::vector<CompileUnit> &Units,
                         std::vector<UnitResult> &Results, const PathFilter &Filter,
                         const std::string &Cwd) {
  RunResults Run;
  std::set<std::string> MainFiles;
  for (size_t I = 0; I < Results.size(); ++I) {
    MainFiles.insert(Units[I].File);
    const std::string Shown = relativeToRoot(Units[I].File, Cwd).Path; // as the findings
    for (const std::string &Note : Results[I].Notes)
      std::fprintf(stderr, "lockstep: note: %s: %s\n", Shown.c_str(), Note.c_str());
    for (const std::string &Limit : Results[I].Incomplete)
      if (Run.Incomplete.insert(Limit).second && !A.Quiet)
        std::fprintf(stderr, "lockstep: note: %s\n", Limit.c_str());
    if (!Results[I].Failure.empty()) {
      ++Run.Failed;
      std::fprintf(stderr, "lockstep: error: %s %s; not analysed:\n", Shown.c_str(),
                   Results[I].Failure.c_str());
      const size_t Errors = A.Verbose ? Results[I].Errors.size() : 3;
      for (size_t E = 0; E < Results[I].Errors.size() && E < Errors; ++E)
        std::fprintf(stderr, "  %s\n", Results[I].Errors[E].c_str());
      continue;
    }
    Run.Summaries.insert(Results[I].Summaries.begin(), Results[I].Summaries.end());
    std::move(Results[I].Findings.begin(), Results[I].Findings.end(),
              std::back_inserter(Run.Findings));
  }
  Run.Findings = resolvePending(std::move(Run.Findings), Run.Summaries,
                                /*KeepUnresolved=*/A.ShardCount > 1);
  Run.Findings = Filter.apply(std::move(Run.Findings), MainFiles);
  return Run;
}

/// Writes the findings, the summaries and the fixes where the user asked,
/// and applies the fixes with --fix.
Error writeOutputs(const CheckArguments &A, RunResults &Run, const nlohmann::json &Summary,
                   const std::string &Split, size_t &Suppressed) {
  if (Error E = writeSummaryFile(A.SummaryOut, Run.Summaries))
    return E;
  nlohmann::json ShardData = {
      {"index", A.ShardIndex},
      {"count", A.ShardCount},
      {"split", hexHash(Split)},
      {"summaries", nlohmann::json::parse(analysis::writeSummaries(Run.Summaries))}};
  if (Error E = writeFindings(Run.Findings, A.Output, Summary,
                              A.ShardCount > 1 ? &ShardData : nullptr, Suppressed))
    return E;
  if (!A.ExportFixes.empty())
    if (Error E = exportFixes(Run.Findings, A.ExportFixes, A.Output.ProjectRoot))
      return E;
  if (A.Fix) {
    AppliedFixes Applied = applyFixes(Run.Findings);
    for (const std::string &Problem : Applied.Problems)
      std::fprintf(stderr, "lockstep: warning: %s\n", Problem.c_str());
    if (!A.Quiet)
      std::fprintf(stderr, "lockstep: applied %u fix%s in %u file%s\n", Applied.Fixes,
                   Applied.Fixes == 1 ? "" : "es", Applied.Files, Applied.Files == 1 ? "" : "s");
  }
  return Error::success();
}

void printSummary(const CheckArguments &A, const RunResults &Run, size_t Units, size_t Cached,
                  size_t Suppressed) {
  const size_t Findings = Run.Findings.size();
  std::fprintf(stderr,
               "lockstep: %zu finding%s in %zu translation unit%s "
               "(%zu analysed, %zu from cache, %zu failed)",
               Findings, Findings == 1 ? "" : "s", Units, Units == 1 ? "" : "s", Units - Run.Failed,
               Cached, Run.Failed);
  if (!Run.Incomplete.empty())
    std::fprintf(stderr, " (%zu analysis limit%s reached)", Run.Incomplete.size(),
                 Run.Incomplete.size() == 1 ? "" : "s");
  if (!A.Output.Baseline.empty())
    std::fprintf(stderr, " (%zu suppressed by the baseline)", Suppressed);
  std::fputc('\n', stderr);
}

} // namespace

int checkCommand(const std::vector<std::string> &Args) {
  for (const std::string &Arg : Args)
    if (Arg == "-h" || Arg == "--help") {
      std::fputs(CheckUsage, stdout);
      return 0;
    }
  const std::string Cwd = invocationDirectory();
  CheckArguments A;
  PathFilter Filter(Cwd);
  if (Error E = validateArguments(Args, Cwd, A, Filter))
    return usageError(E.message(), CheckUsage);
  CheckConfig Config;
  std::string CacheKey, Split, DatabasePath;
  std::vector<CompileUnit> Selected;
  if (Error E = configure(A, Config, CacheKey))
    return configurationError(E.message());
  if (Error E = selectUnits(A, Selected, Split, DatabasePath))
    return configurationError(E.message());

  if (!A.NoCache && A.CacheDir.empty())
    A.CacheDir = llvm::sys::path::parent_path(DatabasePath).str() + "/.lockstep-cache";
  UnitCache Cache(A.NoCache ? "" : A.CacheDir, CacheKey);
  size_t Cached = 0;
  std::vector<UnitResult> Results =
      analyseUnits(Selected, Config, Cache, A.JobCount, !A.Quiet, Cached);
  RunResults Run = gatherResults(A, Selected, Results, Filter, Cwd);

  const size_t Analysed = Selected.size() - Run.Failed;
  nlohmann::json Summary = {{"units", Selected.size()},
                            {"analysed", Analysed},
                            {"failed", Run.Failed},
                            {"cached", Cached},
                            {"incomplete", Run.Incomplete.size()}};
  size_t Suppressed = 0;
  if (Error E = writeOutputs(A, Run, Summary, Split, Suppressed))
    return configurationError(E.message());
  if (!A.Quiet)
    printSummary(A, Run, Selected.size(), Cached, Suppressed);
  if (Analysed == 0)
    return 2;
  return Run.Findings.empty() ? 0 : 1;
}

} // namespace lockstep::cli
