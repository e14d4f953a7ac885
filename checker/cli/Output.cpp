#include "Output.h"
#include "FindingsOutput.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace lockstep::cli {

std::string validateOutput(const OutputOptions &Options) {
  if (Options.format != "text" && Options.format != "json" && Options.format != "sarif")
    return "unknown format '" + Options.format + "' (expected text, json or sarif)";
  if (!Options.baseline.empty() && !std::ifstream(Options.baseline))
    return Options.baseline + ": cannot open the baseline";
  return "";
}

std::string writeFindings(std::vector<Finding> &Findings, const OutputOptions &Options,
                          const nlohmann::json &Summary, const nlohmann::json *Shard) {
  assignIds(Findings, Options.projectRoot);
  Findings = mergeFindings({Findings}); // a header's finding seen from several units is one
  if (!Options.baseline.empty()) {
    std::ifstream In(Options.baseline);
    std::stringstream Text;
    Text << In.rdbuf();
    std::vector<Finding> Baseline;
    std::string Error;
    nlohmann::json Document = nlohmann::json::parse(Text.str(), nullptr, false);
    if (Document.is_object()) // a shard output also carries what merge needs
      Document.erase("shard");
    if (!readFindingsJson(Document.is_discarded() ? Text.str() : Document.dump(),
                          Options.baseline, Baseline, Error))
      return Error;
    Findings = withoutBaseline(Findings, Baseline);
  }
  std::string Text;
  if (Options.format == "text")
    Text = toText(Findings, "");
  else if (Options.format == "sarif")
    Text = toSarif(Findings, Options.projectRoot, "0.1.0");
  else if (Shard) {
    nlohmann::json Document = nlohmann::json::parse(toJson(Findings, Summary));
    Document["shard"] = *Shard;
    Text = Document.dump(1) + "\n";
  } else {
    Text = toJson(Findings, Summary);
  }
  if (Options.path.empty()) {
    std::cout << Text << std::flush;
    return "";
  }
  std::ofstream Out(Options.path, std::ios::binary);
  Out << Text;
  Out.close();
  return Out ? "" : Options.path + ": cannot write the output";
}

} // namespace lockstep::cli
