// Strict loading of rules/*.json: an unknown key, a wrong type, a missing
// field or a duplicate definition is an error naming the file, the entry and
// the key. Nothing is skipped silently.
#pragma once

#include "RuleSet.h"

#include <string>
#include <vector>

namespace lockstep::rules {

/// Parses one rules document and merges it into \p Rules. \p SourceName names
/// it in errors. Returns an empty string on success, else the error; on error
/// \p Rules is left unchanged.
std::string mergeRulesText(const std::string &Text,
                           const std::string &SourceName, RuleSet &Rules);

/// Reads and merges a rules file.
std::string mergeRulesFile(const std::string &Path, RuleSet &Rules);

/// The rules shipped with lockstep (rules/*.json, embedded at build time).
std::string mergeBuiltinRules(RuleSet &Rules);

/// The built-in rules, then \p Files in order, checked complete: what the
/// checks load without naming options. Returns the first error or "".
std::string loadRules(const std::vector<std::string> &Files, RuleSet &Rules);

/// Checks what only a complete rule set can answer (naming patterns present
/// and valid regular expressions). Returns an empty string when valid.
std::string validateComplete(const RuleSet &Rules);

} // namespace lockstep::rules

namespace lockstep::rules {
/// Returns an empty string when \p Pattern is a valid case-insensitive
/// ECMAScript regular expression, else the problem.
std::string checkPattern(const std::string &Pattern);
} // namespace lockstep::rules
