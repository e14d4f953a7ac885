// Writing the findings of a run (text, JSON or SARIF) to a file or stdout,
// shared by `lockstep check` and `lockstep merge`.
#pragma once

#include "FindingsOutput.h"
#include "Result.h"

#include "../analysis/ExternalSummary.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace lockstep::cli {

struct OutputOptions {
  std::string Format = "text"; // text, json, sarif
  std::string Path;            // absolute; empty: stdout
  std::string ProjectRoot;     // absolute: the invocation directory
  std::string Baseline;        // absolute; a previous JSON output: report only new findings
  std::vector<Finding> BaselineFindings; // read by validateOutput
};

/// Checks the options and reads the baseline before any work is done.
Error validateOutput(OutputOptions &Options);

/// Drops the findings the baseline lists (counting them in \p Suppressed),
/// assigns ids, and writes. A shard's JSON also carries its unresolved
/// findings and its summaries (\p Shard) so that `lockstep merge` can finish
/// the job. On return \p Findings holds what was reported.
Error writeFindings(std::vector<Finding> &Findings, const OutputOptions &Options,
                    const nlohmann::json &Summary, const nlohmann::json *Shard,
                    std::size_t &Suppressed);

/// Writes \p Summaries to \p Path (nothing when empty).
Error writeSummaryFile(const std::string &Path, const analysis::ExternalSummaries &Summaries);

} // namespace lockstep::cli
