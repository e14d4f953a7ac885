// Runs the lockstep checks on one translation unit in this process (the
// clang-tidy machinery with the lockstep module), and returns what
// `lockstep check` needs from it: the findings as plain data, the summaries
// of its functions for the other files, and the files it read (for the cache).
#pragma once

#include "CompileDatabase.h"
#include "Finding.h"

#include "../analysis/ExternalSummary.h"

#include <string>
#include <vector>

namespace lockstep::cli {

struct CheckConfig {
  std::string ruleFiles; // ';'-separated, the RuleFiles option
  std::string summaryFile;
};

struct UnitResult {
  std::vector<Finding> findings; // pending ones name their callee as PendingPrefix + USR
  analysis::ExternalSummaries summaries;
  std::vector<std::string> inputs; // every file the parse read
  std::vector<std::string> errors; // compiler errors: the unit was not analysed
};

UnitResult runUnit(const CompileUnit &Unit, const CheckConfig &Config);

} // namespace lockstep::cli
