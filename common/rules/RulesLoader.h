// Strict loading of rules/*.json: an unknown key, a wrong type, a missing
// field or a duplicate definition is an error naming the file, the entry and
// the key. Nothing is skipped silently.
#pragma once

#include "Result.h"
#include "RuleSet.h"

#include <string>
#include <vector>

namespace lockstep::rules {

/// Parses one rules document and merges it into \p Rules. \p SourceName names
/// it in errors. On failure \p Rules is left unchanged.
Error mergeRulesText(const std::string &Text, const std::string &SourceName, RuleSet &Rules);

/// Reads and merges a rules file.
Error mergeRulesFile(const std::string &Path, RuleSet &Rules);

/// The rules shipped with lockstep (rules/*.json, embedded at build time).
Error mergeBuiltinRules(RuleSet &Rules);

/// The built-in rules, then \p Files in order, checked complete: what the
/// checks load without naming options. Fails with the first error.
Error loadRules(const std::vector<std::string> &Files, RuleSet &Rules);

/// Checks what only a complete rule set can answer (naming patterns present
/// and valid regular expressions).
Error validateComplete(const RuleSet &Rules);

} // namespace lockstep::rules

namespace lockstep::rules {
/// Success when \p Pattern is a valid case-insensitive ECMAScript regular
/// expression, else the problem.
Error checkPattern(const std::string &Pattern);
} // namespace lockstep::rules
