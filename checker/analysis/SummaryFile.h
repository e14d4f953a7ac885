// The summary file: ExternalSummaries as JSON, read strictly.
#pragma once

#include "ExternalSummary.h"
#include "Result.h"

#include <string>

namespace lockstep::analysis {

std::string writeSummaries(const ExternalSummaries &Summaries);

/// Parses \p Text (named \p Source in errors) and merges it into \p Into;
/// a function already present keeps its first summary. On failure \p Into
/// is unchanged.
Error mergeSummaries(const std::string &Text, const std::string &Source, ExternalSummaries &Into);

Error mergeSummaryFile(const std::string &Path, ExternalSummaries &Into);

} // namespace lockstep::analysis
