// The JSON format of findings (`lockstep check --format json`, docs/output.md)
// and its one reader, strict: `lockstep check --baseline`, `lockstep merge`
// and `lockstep run --findings` all read findings through it.
#pragma once

#include "Finding.h"
#include "Result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lockstep::findings {

/// The version written in, and the only one accepted from, "version".
constexpr int FindingsJsonVersion = 1;

/// {"version": 1, "tool": "lockstep", "findings": [...], "summary": Summary},
/// findings in the given order (sort them first for a stable file),
/// indented for diffs. Ids must have been assigned: readFindingsJson
/// rejects an empty id.
std::string toJson(const std::vector<Finding> &Findings, const nlohmann::json &Summary);

/// Reads what toJson wrote, checking every key and type; unknown keys are
/// errors (a misspelt key in a hand-edited baseline must not be ignored).
/// On success appends the findings to \p Out and stores the "summary"
/// object in \p Summary when given. On failure leaves \p Out alone; the
/// message starts with \p Source and names the finding (1-based) and the
/// key.
Error readFindingsJson(const std::string &Text, const std::string &Source,
                       std::vector<Finding> &Out, nlohmann::json *Summary = nullptr);

} // namespace lockstep::findings
