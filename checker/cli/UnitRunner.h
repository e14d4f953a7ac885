// Runs the lockstep checks on one translation unit in this process (the
// clang-tidy machinery with the lockstep module), and returns what
// `lockstep check` needs from it: the findings as plain data, the summaries
// of its functions for the other files, and the files it read (for the cache).
#pragma once

#include "CompileDatabase.h"
#include "FindingsOutput.h"

#include "../analysis/ErrorPaths.h"
#include "../analysis/ExternalSummary.h"

#include <string>
#include <vector>

namespace lockstep::cli {

struct CheckConfig {
  std::string checks = "lockstep-*"; // clang-tidy glob, as --checks
  std::string ruleFiles;             // ';'-separated, the RuleFiles option
  std::string summaryFile;
  analysis::PathOptions paths; // --error-paths-as-exits, --assertions-as-exits
  bool verbose = false;        // name the functions skipped because they do not compile
};

struct UnitResult {
  std::vector<Finding> findings; // with the pending ones (Finding::pending)
  analysis::ExternalSummaries summaries;
  std::vector<std::string> inputs; // every file the parse read
  std::string failure;             // why the unit was not analysed, "" when it was
  std::vector<std::string> errors; // the details: the first compiler errors, ...
  std::vector<std::string> notes;  // with --verbose: what was left out of the analysis
  // Where the engine hit one of its bounds: "file:line:col: analysis of 'f'
  // incomplete: ...", always reported (the findings there may be missing).
  std::vector<std::string> incomplete;
};

/// Runs the checks on \p Unit. Never depends on the process's working
/// directory: each unit's own directory is set in its file system view, so
/// units run in parallel threads. A unit whose directory or file is missing,
/// or whose analysis crashes, comes back with errors; the others are not
/// affected. Call CrashRecoveryContext::Enable() once before.
UnitResult runUnit(const CompileUnit &Unit, const CheckConfig &Config);

} // namespace lockstep::cli
