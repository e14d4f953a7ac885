// Writing the findings of a run (text, JSON or SARIF) to a file or stdout,
// shared by `lockstep check` and `lockstep merge`.
#pragma once

#include "Finding.h"

#include "../analysis/ExternalSummary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lockstep::cli {

struct OutputOptions {
  std::string format = "text"; // text, json, sarif
  std::string path;            // empty: stdout
  std::string projectRoot;     // absolute
  std::string baseline;        // a previous JSON output: report only new findings
};

/// Checks the options before any work is done; returns the problem or "".
std::string validateOutput(const OutputOptions &Options);

/// Reads the baseline (when set), drops the findings it lists, assigns ids,
/// and writes. A shard's JSON also carries its unresolved findings and its
/// summaries (\p Shard) so that `lockstep merge` can finish the job. Returns
/// an error message or "".
std::string writeFindings(std::vector<Finding> &Findings, const OutputOptions &Options,
                          const nlohmann::json &Summary, const nlohmann::json *Shard = nullptr);

} // namespace lockstep::cli
