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
  std::string Checks = "lockstep-*"; // clang-tidy glob, as --checks
  std::string RuleFiles;             // ';'-separated, the RuleFiles option
  std::string SummaryFile;
  analysis::PathOptions Paths; // --error-paths-as-exits, --assertions-as-exits
  bool Verbose = false;        // name the functions skipped because they do not compile
  // Absolute: fields and globals declared under it may be written per rank
  // by another file of the run (pending findings).
  std::string ProjectRoot;
};

struct UnitResult {
  std::vector<Finding> Findings; // with the pending ones (Finding::pending)
  analysis::ExternalSummaries Summaries;
  std::vector<std::string> Inputs; // every file the parse read
  std::string Failure;             // why the unit was not analysed, "" when it was
  std::vector<std::string> Errors; // the details: the first compiler errors, ...
  std::vector<std::string> Notes;  // with --verbose: what was left out of the analysis
  // Where the engine hit one of its bounds: "file:line:col: analysis of 'f'
  // incomplete: ...", always reported (the findings there may be missing).
  std::vector<std::string> Incomplete;
};

/// Runs the checks on \p Unit. Never depends on the process's working
/// directory: each unit's own directory is set in its file system view, so
/// units run in parallel threads. A unit whose directory or file is missing,
/// or whose analysis crashes, comes back with errors; the others are not
/// affected. Call CrashRecoveryContext::Enable() once before.
UnitResult runUnit(const CompileUnit &Unit, const CheckConfig &Config);

} // namespace lockstep::cli
