#include "Output.h"
#include "FindingsOutput.h"

#include "../analysis/SummaryFile.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace lockstep::cli {

Error validateOutput(OutputOptions &Options) {
  if (Options.Format != "text" && Options.Format != "json" && Options.Format != "sarif")
    return Error("unknown format '" + Options.Format + "' (expected text, json or sarif)");
  if (Options.Baseline.empty())
    return Error::success();
  std::ifstream In(Options.Baseline, std::ios::binary);
  if (!In)
    return Error(Options.Baseline + ": cannot open the baseline");
  std::stringstream Text;
  Text << In.rdbuf();
  nlohmann::json Document = nlohmann::json::parse(Text.str(), nullptr, false);
  if (Document.is_object()) // a shard output also carries what merge needs
    Document.erase("shard");
  return readFindingsJson(Document.is_discarded() ? Text.str() : Document.dump(), Options.Baseline,
                          Options.BaselineFindings);
}

Error writeFindings(std::vector<Finding> &Findings, const OutputOptions &Options,
                    const nlohmann::json &Summary, const nlohmann::json *Shard,
                    std::size_t &Suppressed) {
  assignIds(Findings, Options.ProjectRoot);
  Findings = mergeFindings({Findings}); // a header's finding seen from several units is one
  const std::size_t Found = Findings.size();
  if (!Options.Baseline.empty())
    Findings = withoutBaseline(Findings, Options.BaselineFindings);
  Suppressed = Found - Findings.size();
  std::string Text;
  if (Options.Format == "text")
    Text = toText(Findings, Options.ProjectRoot);
  else if (Options.Format == "sarif")
    Text = toSarif(Findings, Options.ProjectRoot, "0.1.0");
  else if (Shard) {
    nlohmann::json Document = nlohmann::json::parse(toJson(Findings, Summary));
    Document["shard"] = *Shard;
    Text = Document.dump(1) + "\n";
  } else {
    Text = toJson(Findings, Summary);
  }
  if (Options.Path.empty()) {
    std::cout << Text << std::flush;
    return Error::success();
  }
  std::ofstream Out(Options.Path, std::ios::binary);
  Out << Text;
  Out.close();
  if (!Out)
    return Error(Options.Path + ": cannot write the output");
  return Error::success();
}

Error writeSummaryFile(const std::string &Path, const analysis::ExternalSummaries &Summaries) {
  if (Path.empty())
    return Error::success();
  std::ofstream Out(Path, std::ios::binary);
  Out << analysis::writeSummaries(Summaries);
  Out.close();
  if (!Out)
    return Error(Path + ": cannot write the summary file");
  return Error::success();
}

} // namespace lockstep::cli
