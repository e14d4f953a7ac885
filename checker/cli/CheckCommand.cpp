// `lockstep check`: reads and validates everything the user gave (options,
// paths, rules, summaries, baseline) once, analyses the units in parallel,
// then resolves, filters and writes the findings.
#include "CommandLine.h"
#include "Commands.h"
#include "Fixes.h"
#include "InstallPaths.h"
#include "Output.h"
#include "PathFilter.h"
#include "PendingCalls.h"
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
  std::string buildDir = ".", jobs, shard, summaryOut, summaryIn, cacheDir, exportFixes;
  std::string checks, headerFilter;
  std::vector<std::string> paths, rules, excludes;
  OutputOptions output;
  bool quiet = false, noCache = false, fix = false, verbose = false;
  analysis::PathOptions exits; // --error-paths-as-exits, --assertions-as-exits
  // Derived by validateArguments.
  unsigned jobCount = 1, shardIndex = 1, shardCount = 1;
  std::string checkGlobs; // the default plus --checks
};

/// Reads the option or path Args[I] (and its value) into \p A.
Error readArgument(const std::vector<std::string> &Args, size_t &I, CheckArguments &A) {
  Expected<bool> Valued = args::anyOptionValue(Args, I,
                                               {{"-p", &A.buildDir},
                                                {"--jobs", &A.jobs},
                                                {"-j", &A.jobs},
                                                {"--format", &A.output.format},
                                                {"--output", &A.output.path},
                                                {"-o", &A.output.path},
                                                {"--baseline", &A.output.baseline},
                                                {"--shard", &A.shard},
                                                {"--summary-out", &A.summaryOut},
                                                {"--summaries", &A.summaryIn},
                                                {"--cache-dir", &A.cacheDir},
                                                {"--checks", &A.checks},
                                                {"--header-filter", &A.headerFilter},
                                                {"--export-fixes", &A.exportFixes}});
  if (!Valued)
    return Valued.takeError();
  if (*Valued)
    return Error::success();
  for (auto [Name, List] : {std::pair{"--rules", &A.rules}, std::pair{"--exclude", &A.excludes}}) {
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
    A.quiet = true;
  else if (Arg == "-v" || Arg == "--verbose")
    A.verbose = true;
  else if (Arg == "--no-cache")
    A.noCache = true;
  else if (Arg == "--fix")
    A.fix = true;
  else if (Arg == "--error-paths-as-exits")
    A.exits.errorPathsAsExits = true;
  else if (Arg == "--assertions-as-exits")
    A.exits.assertionsAsExits = true;
  else if (!Arg.empty() && Arg[0] == '-')
    return unknownOption(Arg);
  else
    A.paths.push_back(Arg);
  return Error::success();
}

/// Reads the command line; every path comes back absolute against \p Cwd.
Error parseArguments(const std::vector<std::string> &Args, const std::string &Cwd,
                     CheckArguments &A) {
  for (size_t I = 0; I < Args.size(); ++I)
    if (Error E = readArgument(Args, I, A))
      return E;
  for (std::string *Path : {&A.buildDir, &A.output.path, &A.output.baseline, &A.summaryOut,
                            &A.summaryIn, &A.cacheDir, &A.exportFixes})
    *Path = absolutePath(*Path, Cwd);
  for (std::vector<std::string> *List : {&A.paths, &A.rules})
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
      Shown.advance(Units[I].file);
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
  CacheKey = "lockstep 0.1.0, cache 2\n" + Config.checks + "\n" +
             (Config.paths.errorPathsAsExits ? "error-paths-as-exits\n" : "") +
             (Config.paths.assertionsAsExits ? "assertions-as-exits\n" : "");
  rules::RuleSet Rules;
  if (Error E = rules::loadRules(A.rules, Rules))
    return Error("cannot load the rules: " + E.message());
  for (const std::string &File : A.rules) {
    Config.ruleFiles += (Config.ruleFiles.empty() ? "" : ";") + File;
    std::ifstream In(File, std::ios::binary);
    CacheKey += File + "\n" + std::string(std::istreambuf_iterator<char>(In), {}) + "\n";
  }
  if (!A.summaryIn.empty()) {
    // A previous run's summaries: functions of other files that return the rank.
    Config.summaryFile = A.summaryIn;
    analysis::ExternalSummaries Previous;
    if (Error E = analysis::mergeSummaryFile(Config.summaryFile, Previous))
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
  A.output.projectRoot = Cwd; // ids, SARIF and text paths are relative to it
  if (Error E = parseArguments(Args, Cwd, A))
    return E;
  A.jobCount = std::max(1u, std::thread::hardware_concurrency());
  if (!A.jobs.empty() && (A.jobs.find_first_not_of("0123456789") != std::string::npos ||
                          (A.jobCount = std::stoul(A.jobs.substr(0, 6))) == 0))
    return Error("--jobs expects a positive number, got '" + A.jobs + "'");
  if (!A.shard.empty()) {
    char Slash = 0;
    std::istringstream In(A.shard);
    if (!(In >> A.shardIndex >> Slash >> A.shardCount) || Slash != '/' || !In.eof() ||
        A.shardCount == 0 || A.shardIndex == 0 || A.shardIndex > A.shardCount)
      return Error("--shard expects I/N with 1 <= I <= N, got '" + A.shard + "'");
  }
  // As in clang-tidy, --checks adds to the default: every lockstep check.
  A.checkGlobs = "lockstep-*" + (A.checks.empty() ? "" : "," + A.checks);
  if (Error E = checkSelection(A.checkGlobs, A.checks))
    return E;
  if (!A.headerFilter.empty())
    if (Error E = Filter.setHeaderFilter(A.headerFilter))
      return E;
  for (const std::string &Glob : A.excludes)
    if (Error E = Filter.addExclude(Glob))
      return E;
  return Error::success();
}

/// The outputs, rules and summaries, checked: a bad configuration stops the
/// run before any unit, whatever the number of jobs.
Error configure(CheckArguments &A, CheckConfig &Config, std::string &CacheKey) {
  if (Error E = validateOutput(A.output))
    return E;
  Config.checks = A.checkGlobs;
  Config.verbose = A.verbose;
  Config.paths = A.exits;
  return loadConfiguration(A, Config, CacheKey);
}

/// The units of the compile database this shard analyses, under the given
/// paths; \p Split gets the units of every shard of the split.
Error selectUnits(const CheckArguments &A, std::vector<CompileUnit> &Selected, std::string &Split,
                  std::string &DatabasePath) {
  std::vector<CompileUnit> Units;
  LoadReport Report;
  TranslationOptions Translation;
  Translation.nvccCompatHeader = nvccCompatHeader();
  if (Error E = loadCompileDatabase(A.buildDir, Units, &Report, Translation))
    return E;
  for (const std::string &Warning : Report.warnings)
    std::fprintf(stderr, "lockstep: warning: %s\n", Warning.c_str());
  for (const SkippedEntry &Skipped : Report.skipped)
    std::fprintf(stderr, "lockstep: warning: %s: skipped: %s\n", Skipped.file.c_str(),
                 Skipped.reason.c_str());
  size_t Candidate = 0;
  for (const CompileUnit &Unit : Units) {
    if (!A.paths.empty() &&
        std::none_of(A.paths.begin(), A.paths.end(), [&](auto &P) { return under(Unit.file, P); }))
      continue;
    Split += Unit.file + '\n';
    if (Candidate++ % A.shardCount == A.shardIndex - 1)
      Selected.push_back(Unit);
  }
  DatabasePath = Report.databasePath;
  if (Selected.empty())
    return Error("no translation unit to analyse in " + Report.databasePath +
                 (A.paths.empty() ? "" : " under the given paths"));
  return Error::success();
}

/// What the units found, together: the analysed units' findings (pending
/// ones resolved) and summaries; the failures and bounds reported on stderr.
struct RunResults {
  std::vector<Finding> findings;
  analysis::ExternalSummaries summaries;
  size_t failed = 0;
  std::set<std::string> incomplete; // a limit in a header, seen from several units, once
};

RunResults gatherResults(const CheckArguments &A, const std::vector<CompileUnit> &Units,
                         std::vector<UnitResult> &Results, const PathFilter &Filter,
                         const std::string &Cwd) {
  RunResults Run;
  std::set<std::string> MainFiles;
  for (size_t I = 0; I < Results.size(); ++I) {
    MainFiles.insert(Units[I].file);
    const std::string Shown = relativeToRoot(Units[I].file, Cwd).path; // as the findings
    for (const std::string &Note : Results[I].notes)
      std::fprintf(stderr, "lockstep: note: %s: %s\n", Shown.c_str(), Note.c_str());
    for (const std::string &Limit : Results[I].incomplete)
      if (Run.incomplete.insert(Limit).second && !A.quiet)
        std::fprintf(stderr, "lockstep: note: %s\n", Limit.c_str());
    if (!Results[I].failure.empty()) {
      ++Run.failed;
      std::fprintf(stderr, "lockstep: error: %s %s; not analysed:\n", Shown.c_str(),
                   Results[I].failure.c_str());
      const size_t Errors = A.verbose ? Results[I].errors.size() : 3;
      for (size_t E = 0; E < Results[I].errors.size() && E < Errors; ++E)
        std::fprintf(stderr, "  %s\n", Results[I].errors[E].c_str());
      continue;
    }
    Run.summaries.insert(Results[I].summaries.begin(), Results[I].summaries.end());
    std::move(Results[I].findings.begin(), Results[I].findings.end(),
              std::back_inserter(Run.findings));
  }
  Run.findings = resolvePending(std::move(Run.findings), Run.summaries,
                                /*KeepUnresolved=*/A.shardCount > 1);
  Run.findings = Filter.apply(std::move(Run.findings), MainFiles);
  return Run;
}

/// Writes the findings, the summaries and the fixes where the user asked,
/// and applies the fixes with --fix.
Error writeOutputs(const CheckArguments &A, RunResults &Run, const nlohmann::json &Summary,
                   const std::string &Split, size_t &Suppressed) {
  if (Error E = writeSummaryFile(A.summaryOut, Run.summaries))
    return E;
  nlohmann::json ShardData = {
      {"index", A.shardIndex},
      {"count", A.shardCount},
      {"split", hexHash(Split)},
      {"summaries", nlohmann::json::parse(analysis::writeSummaries(Run.summaries))}};
  if (Error E = writeFindings(Run.findings, A.output, Summary,
                              A.shardCount > 1 ? &ShardData : nullptr, Suppressed))
    return E;
  if (!A.exportFixes.empty())
    if (Error E = exportFixes(Run.findings, A.exportFixes, A.output.projectRoot))
      return E;
  if (A.fix) {
    AppliedFixes Applied = applyFixes(Run.findings);
    for (const std::string &Problem : Applied.problems)
      std::fprintf(stderr, "lockstep: warning: %s\n", Problem.c_str());
    if (!A.quiet)
      std::fprintf(stderr, "lockstep: applied %u fix%s in %u file%s\n", Applied.fixes,
                   Applied.fixes == 1 ? "" : "es", Applied.files, Applied.files == 1 ? "" : "s");
  }
  return Error::success();
}

void printSummary(const CheckArguments &A, const RunResults &Run, size_t Units, size_t Cached,
                  size_t Suppressed) {
  const size_t Findings = Run.findings.size();
  std::fprintf(stderr,
               "lockstep: %zu finding%s in %zu translation unit%s "
               "(%zu analysed, %zu from cache, %zu failed)",
               Findings, Findings == 1 ? "" : "s", Units, Units == 1 ? "" : "s", Units - Run.failed,
               Cached, Run.failed);
  if (!Run.incomplete.empty())
    std::fprintf(stderr, " (%zu analysis limit%s reached)", Run.incomplete.size(),
                 Run.incomplete.size() == 1 ? "" : "s");
  if (!A.output.baseline.empty())
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

  if (!A.noCache && A.cacheDir.empty())
    A.cacheDir = llvm::sys::path::parent_path(DatabasePath).str() + "/.lockstep-cache";
  UnitCache Cache(A.noCache ? "" : A.cacheDir, CacheKey);
  size_t Cached = 0;
  std::vector<UnitResult> Results =
      analyseUnits(Selected, Config, Cache, A.jobCount, !A.quiet, Cached);
  RunResults Run = gatherResults(A, Selected, Results, Filter, Cwd);

  const size_t Analysed = Selected.size() - Run.failed;
  nlohmann::json Summary = {{"units", Selected.size()},
                            {"analysed", Analysed},
                            {"failed", Run.failed},
                            {"cached", Cached},
                            {"incomplete", Run.incomplete.size()}};
  size_t Suppressed = 0;
  if (Error E = writeOutputs(A, Run, Summary, Split, Suppressed))
    return configurationError(E.message());
  if (!A.quiet)
    printSummary(A, Run, Selected.size(), Cached, Suppressed);
  if (Analysed == 0)
    return 2;
  return Run.findings.empty() ? 0 : 1;
}

} // namespace lockstep::cli
