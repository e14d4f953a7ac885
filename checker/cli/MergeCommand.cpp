// `lockstep merge`: joins the JSON outputs of the shards of one split
// (`lockstep check --shard I/N`), checking that they are exactly that split.
#include "CommandLine.h"
#include "Commands.h"
#include "FindingsOutput.h"
#include "Output.h"
#include "PendingFindings.h"

#include "../analysis/SummaryFile.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace lockstep::cli {

namespace {

const char *MergeUsage = R"(usage: lockstep merge [--format text|json|sarif] [--output FILE]
                      [--baseline FILE] [--summary-out FILE] [--quiet] SHARD.json...

Joins the JSON outputs of `lockstep check --shard I/N --format json` runs:
resolves the calls between files the shards saw separately and writes one
result. The shards must be exactly 1/N to N/N of one split.
Exit status as for `lockstep check`.
)";

struct ShardFile {
  std::string Path;
  unsigned Index = 0, Count = 0;
  std::string Split; // the hash of the split's units, when the shard names it
  std::vector<Finding> Findings;
  nlohmann::json Summary, Summaries;
};

Error readShard(const std::string &Path, ShardFile &Out) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  Text << In.rdbuf();
  nlohmann::json Document = nlohmann::json::parse(Text.str(), nullptr, false);
  if (!In || !Document.is_object() || !Document.contains("shard") || !Document["shard"].is_object())
    return Error(Path + ": not the JSON output of `lockstep check --shard`");
  nlohmann::json Shard = Document["shard"];
  Document.erase("shard");
  if (!Shard.value("index", nlohmann::json()).is_number_unsigned() ||
      !Shard.value("count", nlohmann::json()).is_number_unsigned())
    return Error(Path + ": shard: 'index' and 'count' must be positive integers");
  Out.Path = Path;
  Out.Index = Shard["index"].get<unsigned>();
  Out.Count = Shard["count"].get<unsigned>();
  if (Shard.contains("split") && Shard["split"].is_string())
    Out.Split = Shard["split"].get<std::string>();
  Out.Summaries = Shard.value("summaries", nlohmann::json());
  return readFindingsJson(Document.dump(), Path, Out.Findings, &Out.Summary);
}

/// Success when \p Shards are shards 1/N to N/N of one split, each once.
Error checkSplit(const std::vector<ShardFile> &Shards) {
  const ShardFile &First = Shards.front();
  std::map<unsigned, const ShardFile *> ByIndex;
  for (const ShardFile &S : Shards) {
    const std::string Name =
        S.Path + " (shard " + std::to_string(S.Index) + "/" + std::to_string(S.Count) + ")";
    if (S.Count != First.Count || S.Split != First.Split)
      return Error(Name + " and " + First.Path + " (shard " + std::to_string(First.Index) + "/" +
                   std::to_string(First.Count) + ") are shards of different splits");
    if (S.Index == 0 || S.Index > S.Count)
      return Error(Name + ": not a shard index from 1 to " + std::to_string(S.Count));
    auto [It, Inserted] = ByIndex.emplace(S.Index, &S);
    if (Inserted)
      continue;
    if (It->second->Path == S.Path)
      return Error(Name + " is given twice");
    return Error(Name + ": shard " + std::to_string(S.Index) + "/" + std::to_string(S.Count) +
                 " is also given as " + It->second->Path);
  }
  std::string Missing;
  size_t Count = 0;
  for (unsigned I = 1; I <= First.Count; ++I)
    if (!ByIndex.count(I))
      Missing += (Count++ ? ", " : "") + std::to_string(I) + "/" + std::to_string(First.Count);
  if (Count)
    return Error(std::string(Count == 1 ? "shard " : "shards ") + Missing +
                 " missing: merge needs every shard of the split");
  return Error::success();
}

/// Reads the command line: the shards to merge, and the output options.
args::ParseResult parseMergeArguments(const std::vector<std::string> &Args, const std::string &Cwd,
                                      OutputOptions &Output, std::string &SummaryOut,
                                      std::vector<std::string> &Inputs, bool &Quiet) {
  using args::ParseResult;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-h" || Args[I] == "--help")
      return ParseResult::help();
    Expected<bool> Valued = args::anyOptionValue(Args, I,
                                                 {{"--format", &Output.Format},
                                                  {"--output", &Output.Path},
                                                  {"-o", &Output.Path},
                                                  {"--baseline", &Output.Baseline},
                                                  {"--summary-out", &SummaryOut}});
    if (!Valued)
      return ParseResult::error(Valued.takeError().message());
    if (*Valued)
      continue;
    if (Args[I] == "-q" || Args[I] == "--quiet")
      Quiet = true;
    else if (!Args[I].empty() && Args[I][0] == '-')
      return ParseResult::error(unknownOption(Args[I]).message());
    else
      Inputs.push_back(absolutePath(Args[I], Cwd));
  }
  if (Inputs.empty())
    return ParseResult::error("no shard outputs to merge");
  for (std::string *Path : {&Output.Path, &Output.Baseline, &SummaryOut})
    *Path = absolutePath(*Path, Cwd);
  return ParseResult::ok();
}

/// The shards of \p Inputs, checked to be exactly one split.
Error readShards(const std::vector<std::string> &Inputs, std::vector<ShardFile> &Shards) {
  Shards.resize(Inputs.size());
  for (size_t I = 0; I < Inputs.size(); ++I)
    if (Error E = readShard(Inputs[I], Shards[I]))
      return E;
  return checkSplit(Shards);
}

} // namespace

int mergeCommand(const std::vector<std::string> &Args) {
  const std::string Cwd = invocationDirectory();
  OutputOptions Output;
  Output.ProjectRoot = Cwd; // as in `lockstep check`: run from the project root
  std::string SummaryOut;
  std::vector<std::string> Inputs;
  bool Quiet = false;
  args::ParseResult Parsed = parseMergeArguments(Args, Cwd, Output, SummaryOut, Inputs, Quiet);
  if (Parsed.isHelp()) {
    std::fputs(MergeUsage, stdout);
    return 0;
  }
  if (!Parsed.isOk())
    return usageError(Parsed.message(), MergeUsage);
  if (Error E = validateOutput(Output))
    return configurationError(E.message());
  std::vector<ShardFile> Shards;
  if (Error E = readShards(Inputs, Shards))
    return configurationError(E.message());

  analysis::ExternalSummaries Summaries;
  std::vector<Finding> All;
  size_t Units = 0, Analysed = 0, Failed = 0, Incomplete = 0;
  for (ShardFile &S : Shards) {
    if (Error E =
            analysis::mergeSummaries(S.Summaries.dump(), S.Path + ": shard.summaries", Summaries))
      return configurationError(E.message());
    Units += S.Summary.value("units", 0);
    Analysed += S.Summary.value("analysed", 0);
    Failed += S.Summary.value("failed", 0);
    Incomplete += S.Summary.value("incomplete", 0);
    for (Finding &F : S.Findings)
      F.Id.clear(); // pending findings change when resolved: ids are recomputed
    All.insert(All.end(), S.Findings.begin(), S.Findings.end());
  }
  All = resolvePending(std::move(All), Summaries, /*KeepUnresolved=*/false);
  if (Error E = writeSummaryFile(SummaryOut, Summaries))
    return configurationError(E.message());
  nlohmann::json Summary = {
      {"units", Units}, {"analysed", Analysed}, {"failed", Failed}, {"incomplete", Incomplete}};
  size_t Suppressed = 0;
  if (Error E = writeFindings(All, Output, Summary, nullptr, Suppressed))
    return configurationError(E.message());
  if (!Quiet) {
    std::fprintf(stderr,
                 "lockstep: %zu finding%s in %zu translation unit%s from %zu shards "
                 "(%zu analysed, %zu failed)",
                 All.size(), All.size() == 1 ? "" : "s", Units, Units == 1 ? "" : "s",
                 Shards.size(), Analysed, Failed);
    if (!Output.Baseline.empty())
      std::fprintf(stderr, " (%zu suppressed by the baseline)", Suppressed);
    std::fputc('\n', stderr);
  }
  return All.empty() ? 0 : 1;
}

} // namespace lockstep::cli
