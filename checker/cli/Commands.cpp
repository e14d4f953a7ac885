#include "Commands.h"
#include "FindingsOutput.h"
#include "Output.h"
#include "PendingCalls.h"
#include "UnitCache.h"

#include "../analysis/SummaryFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

// Keeps the lockstep module's registration in the executable.
extern volatile int LockstepModuleAnchorSource;
static int LockstepModuleAnchorDestination [[maybe_unused]] = LockstepModuleAnchorSource;

namespace lockstep::cli {

namespace {

const char *CheckUsage = R"(usage: lockstep check [-p BUILD_DIR] [--jobs N] [--format text|json|sarif]
                      [--output FILE] [--baseline FILE] [--shard I/N]
                      [--rules FILE]... [--summaries FILE] [--summary-out FILE]
                      [--cache-dir DIR | --no-cache] [--quiet] [PATHS...]

Runs every lockstep check on the translation units of BUILD_DIR/compile_commands.json
(default: the current directory), in parallel, with summaries across files.
PATHS keep only the units under those files or directories.
Exit status: 0 no findings, 1 findings, 2 usage or configuration error.
)";

const char *MergeUsage = R"(usage: lockstep merge [--format text|json|sarif] [--output FILE]
                      [--baseline FILE] [--summary-out FILE] SHARD.json...

Joins the JSON outputs of `lockstep check --shard I/N --format json` runs:
resolves the calls between files the shards saw separately and writes one
result. Exit status as for `lockstep check`.
)";

int usageError(const std::string &Message, const char *Usage) {
  std::fprintf(stderr, "lockstep: error: %s\n%s", Message.c_str(), Usage);
  return 2;
}

std::string absolute(const std::string &Path) {
  llvm::SmallString<256> Result(Path);
  llvm::sys::fs::make_absolute(Result);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return Result.str().str();
}

bool under(const std::string &File, const std::string &Root) {
  return File == Root || (File.size() > Root.size() && File.compare(0, Root.size(), Root) == 0 &&
                          (Root.back() == '/' || File[Root.size()] == '/'));
}

/// Reads the value of an option that takes one ("--jobs 4" or "--jobs=4").
bool optionValue(const std::vector<std::string> &Args, size_t &I, const std::string &Name,
                 std::string &Value, std::string &Error) {
  const std::string &Arg = Args[I];
  if (Arg.rfind(Name + "=", 0) == 0) {
    Value = Arg.substr(Name.size() + 1);
    return true;
  }
  if (Arg != Name)
    return false;
  if (I + 1 >= Args.size()) {
    Error = "option '" + Name + "' needs a value";
    return true;
  }
  Value = Args[++I];
  return true;
}

std::string writeSummaryFile(const std::string &Path, const analysis::ExternalSummaries &S) {
  if (Path.empty())
    return "";
  std::ofstream Out(Path, std::ios::binary);
  Out << analysis::writeSummaries(S);
  Out.close();
  return Out ? "" : Path + ": cannot write the summary file";
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

} // namespace

int checkCommand(const std::vector<std::string> &Args) {
  std::string BuildDir = ".", Jobs, Shard, SummaryOut, SummaryIn, CacheDir, Error, Value;
  std::vector<std::string> Paths, Rules;
  OutputOptions Output;
  bool Quiet = false, NoCache = false;
  for (size_t I = 0; I < Args.size() && Error.empty(); ++I) {
    const std::string &Arg = Args[I];
    if (Arg == "-h" || Arg == "--help") {
      std::fputs(CheckUsage, stdout);
      return 0;
    }
    if (optionValue(Args, I, "-p", BuildDir, Error) || optionValue(Args, I, "--jobs", Jobs, Error) ||
        optionValue(Args, I, "-j", Jobs, Error) ||
        optionValue(Args, I, "--format", Output.format, Error) ||
        optionValue(Args, I, "--output", Output.path, Error) ||
        optionValue(Args, I, "-o", Output.path, Error) ||
        optionValue(Args, I, "--baseline", Output.baseline, Error) ||
        optionValue(Args, I, "--shard", Shard, Error) ||
        optionValue(Args, I, "--summary-out", SummaryOut, Error) ||
        optionValue(Args, I, "--summaries", SummaryIn, Error) ||
        optionValue(Args, I, "--cache-dir", CacheDir, Error))
      continue;
    if (optionValue(Args, I, "--rules", Value, Error)) {
      Rules.push_back(absolute(Value));
      continue;
    }
    if (Arg == "-q" || Arg == "--quiet")
      Quiet = true;
    else if (Arg == "--no-cache")
      NoCache = true;
    else if (!Arg.empty() && Arg[0] == '-')
      Error = "unknown option '" + Arg + "'";
    else
      Paths.push_back(absolute(Arg));
  }
  if (!Error.empty())
    return usageError(Error, CheckUsage);
  unsigned JobCount = std::max(1u, std::thread::hardware_concurrency());
  if (!Jobs.empty() && (Jobs.find_first_not_of("0123456789") != std::string::npos ||
                        (JobCount = std::stoul(Jobs.substr(0, 6))) == 0))
    return usageError("--jobs expects a positive number, got '" + Jobs + "'", CheckUsage);
  unsigned ShardIndex = 1, ShardCount = 1;
  if (!Shard.empty()) {
    char Slash = 0;
    std::istringstream In(Shard);
    if (!(In >> ShardIndex >> Slash >> ShardCount) || Slash != '/' || !In.eof() ||
        ShardCount == 0 || ShardIndex == 0 || ShardIndex > ShardCount)
      return usageError("--shard expects I/N with 1 <= I <= N, got '" + Shard + "'", CheckUsage);
  }
  if (std::string Problem = validateOutput(Output); !Problem.empty())
    return usageError(Problem, CheckUsage);

  std::vector<CompileUnit> Units;
  LoadReport Report;
  if (!loadCompileDatabase(BuildDir, Units, Error, &Report)) {
    std::fprintf(stderr, "lockstep: error: %s\n", Error.c_str());
    return 2;
  }
  for (const std::string &Warning : Report.warnings)
    std::fprintf(stderr, "lockstep: warning: %s\n", Warning.c_str());
  for (const SkippedEntry &Skipped : Report.skipped)
    std::fprintf(stderr, "lockstep: warning: %s: skipped: %s\n", Skipped.file.c_str(),
                 Skipped.reason.c_str());
  std::vector<CompileUnit> Selected;
  for (size_t I = 0; I < Units.size(); ++I) {
    bool Wanted = Paths.empty() || std::any_of(Paths.begin(), Paths.end(), [&](auto &P) {
                    return under(Units[I].file, P);
                  });
    if (Wanted && I % ShardCount == ShardIndex - 1)
      Selected.push_back(Units[I]);
  }
  if (Selected.empty()) {
    std::fprintf(stderr, "lockstep: error: no translation unit to analyse in %s%s\n",
                 Report.databasePath.c_str(), Paths.empty() ? "" : " under the given paths");
    return 2;
  }
  // Paths in JSON ids and SARIF are relative to where lockstep runs: the project root.
  Output.projectRoot = absolute(".");
  CheckConfig Config;
  for (const std::string &File : Rules) {
    if (!std::ifstream(File))
      return usageError(File + ": cannot open the rules file", CheckUsage);
    Config.ruleFiles += (Config.ruleFiles.empty() ? "" : ";") + File;
  }
  std::string SummaryText;
  if (!SummaryIn.empty()) {
    // A previous run's summaries: functions of other files that return the rank.
    Config.summaryFile = absolute(SummaryIn);
    analysis::ExternalSummaries Check;
    if (std::string Problem = analysis::mergeSummaryFile(Config.summaryFile, Check);
        !Problem.empty())
      return usageError(Problem, CheckUsage);
    SummaryText = analysis::writeSummaries(Check);
  }
  if (!NoCache && CacheDir.empty())
    CacheDir = llvm::sys::path::parent_path(absolute(Report.databasePath)).str() + "/.lockstep-cache";
  UnitCache Cache(NoCache ? "" : absolute(CacheDir),
                  "lockstep 0.1.0\n" + Config.ruleFiles + "\n" + SummaryText);

  // Analyse in parallel; each worker owns whole units.
  std::vector<UnitResult> Results(Selected.size());
  std::vector<bool> FromCache(Selected.size(), false);
  std::atomic<size_t> Next{0};
  {
    Progress Shown(Selected.size(), !Quiet);
    auto Worker = [&] {
      for (size_t I; (I = Next++) < Selected.size();) {
        if (std::optional<UnitResult> Cached = Cache.load(Selected[I])) {
          Results[I] = std::move(*Cached);
          FromCache[I] = true;
        } else {
          Results[I] = runUnit(Selected[I], Config);
          Cache.store(Selected[I], Results[I]);
        }
        Shown.advance(Selected[I].file);
      }
    };
    std::vector<std::thread> Threads;
    for (unsigned T = 1; T < std::min<size_t>(JobCount, Selected.size()); ++T)
      Threads.emplace_back(Worker);
    Worker();
    for (std::thread &T : Threads)
      T.join();
  }

  analysis::ExternalSummaries Summaries;
  std::vector<Finding> Findings;
  size_t Failed = 0, Cached = 0;
  for (size_t I = 0; I < Results.size(); ++I) {
    Cached += FromCache[I];
    if (!Results[I].errors.empty()) {
      ++Failed;
      std::fprintf(stderr, "lockstep: error: %s does not compile; not analysed:\n",
                   Selected[I].file.c_str());
      for (size_t E = 0; E < Results[I].errors.size() && E < 3; ++E)
        std::fprintf(stderr, "  %s\n", Results[I].errors[E].c_str());
      continue;
    }
    Summaries.insert(Results[I].summaries.begin(), Results[I].summaries.end());
    Findings.insert(Findings.end(), Results[I].findings.begin(), Results[I].findings.end());
  }
  Findings = resolvePending(std::move(Findings), Summaries, /*KeepUnresolved=*/ShardCount > 1);
  if (std::string Problem = writeSummaryFile(SummaryOut, Summaries); !Problem.empty()) {
    std::fprintf(stderr, "lockstep: error: %s\n", Problem.c_str());
    return 2;
  }
  const size_t Analysed = Selected.size() - Failed;
  nlohmann::json Summary = {{"units", Selected.size()}, {"analysed", Analysed},
                            {"failed", Failed},        {"cached", Cached}};
  nlohmann::json ShardData = {{"index", ShardIndex}, {"count", ShardCount},
                              {"summaries", nlohmann::json::parse(analysis::writeSummaries(Summaries))}};
  if (std::string Problem =
          writeFindings(Findings, Output, Summary, ShardCount > 1 ? &ShardData : nullptr);
      !Problem.empty()) {
    std::fprintf(stderr, "lockstep: error: %s\n", Problem.c_str());
    return 2;
  }
  if (!Quiet)
    std::fprintf(stderr, "lockstep: %zu finding%s in %zu translation unit%s (%zu analysed, %zu from cache, %zu failed)\n",
                 Findings.size(), Findings.size() == 1 ? "" : "s", Selected.size(),
                 Selected.size() == 1 ? "" : "s", Analysed, Cached, Failed);
  if (Analysed == 0)
    return 2;
  return Findings.empty() ? 0 : 1;
}

int mergeCommand(const std::vector<std::string> &Args) {
  OutputOptions Output;
  std::string SummaryOut, Error;
  std::vector<std::string> Inputs;
  for (size_t I = 0; I < Args.size() && Error.empty(); ++I) {
    if (Args[I] == "-h" || Args[I] == "--help") {
      std::fputs(MergeUsage, stdout);
      return 0;
    }
    if (optionValue(Args, I, "--format", Output.format, Error) ||
        optionValue(Args, I, "--output", Output.path, Error) ||
        optionValue(Args, I, "-o", Output.path, Error) ||
        optionValue(Args, I, "--baseline", Output.baseline, Error) ||
        optionValue(Args, I, "--summary-out", SummaryOut, Error))
      continue;
    if (!Args[I].empty() && Args[I][0] == '-')
      Error = "unknown option '" + Args[I] + "'";
    else
      Inputs.push_back(Args[I]);
  }
  if (Error.empty() && Inputs.empty())
    Error = "no shard outputs to merge";
  if (!Error.empty())
    return usageError(Error, MergeUsage);
  if (std::string Problem = validateOutput(Output); !Problem.empty())
    return usageError(Problem, MergeUsage);

  std::vector<std::vector<Finding>> Parts;
  analysis::ExternalSummaries Summaries;
  size_t Units = 0, Analysed = 0, Failed = 0;
  for (const std::string &Input : Inputs) {
    std::ifstream In(Input, std::ios::binary);
    std::stringstream Text;
    Text << In.rdbuf();
    nlohmann::json Document = nlohmann::json::parse(Text.str(), nullptr, false);
    if (!In || !Document.is_object() || !Document.contains("shard")) {
      std::fprintf(stderr, "lockstep: error: %s: not the JSON output of `lockstep check --shard`\n",
                   Input.c_str());
      return 2;
    }
    nlohmann::json Shard = Document["shard"];
    Document.erase("shard");
    std::vector<Finding> Part;
    nlohmann::json Summary;
    if (!readFindingsJson(Document.dump(), Input, Part, Error, &Summary) ||
        !(Error = analysis::mergeSummaries(Shard.value("summaries", nlohmann::json()).dump(),
                                           Input + ": shard.summaries", Summaries))
             .empty()) {
      std::fprintf(stderr, "lockstep: error: %s\n", Error.c_str());
      return 2;
    }
    Units += Summary.value("units", 0);
    Analysed += Summary.value("analysed", 0);
    Failed += Summary.value("failed", 0);
    for (Finding &F : Part)
      F.id.clear(); // pending findings change when resolved: ids are recomputed
    Parts.push_back(std::move(Part));
  }
  std::vector<Finding> All;
  for (std::vector<Finding> &Part : Parts)
    All.insert(All.end(), Part.begin(), Part.end());
  All = resolvePending(std::move(All), Summaries, /*KeepUnresolved=*/false);
  if (std::string Problem = writeSummaryFile(SummaryOut, Summaries); !Problem.empty())
    return std::fprintf(stderr, "lockstep: error: %s\n", Problem.c_str()), 2;
  Output.projectRoot = absolute("."); // as in `lockstep check`: run from the project root
  nlohmann::json Summary = {{"units", Units}, {"analysed", Analysed}, {"failed", Failed}};
  if (std::string Problem = writeFindings(All, Output, Summary); !Problem.empty())
    return std::fprintf(stderr, "lockstep: error: %s\n", Problem.c_str()), 2;
  return All.empty() ? 0 : 1;
}

} // namespace lockstep::cli

// The `lockstep` executable's subcommand table finds these when the checker
// is built (weak references in runtime_verifier/launcher/main.cpp).
int lockstepCheckCommand(const std::vector<std::string> &Args) {
  return lockstep::cli::checkCommand(Args);
}
int lockstepMergeCommand(const std::vector<std::string> &Args) {
  return lockstep::cli::mergeCommand(Args);
}
