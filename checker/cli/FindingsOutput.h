// Findings out of the checker and back in: stable ids, clang-style text,
// the JSON format of `lockstep check`, SARIF 2.1.0, baselines and the merge
// of shard outputs. Plain data and nlohmann::json only (no Clang), so that
// every front end and the tests share one implementation.
// The formats are described in docs/output.md.
#pragma once

#include "FindingsJson.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lockstep::cli {

using findings::Finding;
using findings::Location;
using findings::Note;
using findings::Replacement;
// The JSON format and its reader (common/findings/FindingsJson.h).
using findings::FindingsJsonVersion;
using findings::readFindingsJson;
using findings::toJson;

// ---- Identity (FindingIds.cpp) ------------------------------------------

/// The id of \p F: 16 lowercase hexadecimal digits (FNV-1a 64) of the check,
/// the file relative to \p ProjectRoot, the enclosing function, the message
/// with line numbers and file paths taken out, and \p Occurrence, the rank
/// of \p F's position among findings with the same key in the same file.
/// Line and column numbers are deliberately not hashed, so an id survives
/// edits above the finding and renames of unrelated functions.
std::string stableId(const Finding &F, const std::string &ProjectRoot, unsigned Occurrence);

/// Sets the id of every finding. Findings with the same key are numbered by
/// position (line, then column); the same key at the same position gets the
/// same id, so one finding reported through two translation units (a
/// header) is one finding. Call it once on everything a run found.
void assignIds(std::vector<Finding> &Findings, const std::string &ProjectRoot);

// ---- Sets of findings (FindingSet.cpp) ----------------------------------

/// The one output order: file, line, column, check, then message and id so
/// that the order is total and outputs compare byte for byte.
void sortFindings(std::vector<Finding> &Findings);

/// \p Findings without those whose id appears in \p Baseline, in their
/// order. A finding without an id is always kept: it cannot be matched.
std::vector<Finding> withoutBaseline(const std::vector<Finding> &Findings,
                                     const std::vector<Finding> &Baseline);

/// The union of \p Parts (the outputs of shards), one finding per id (the
/// first seen wins), sorted with sortFindings. Findings without an id are
/// all kept.
std::vector<Finding> mergeFindings(std::vector<std::vector<Finding>> Parts);

// ---- Text (TextOutput.cpp) ----------------------------------------------

/// Clang style: "file:line:col: warning: message [check]", then one
/// "file:line:col: note: message" line per note; every line ends in '\n'.
/// Files under \p RelativeTo (when not empty) are printed relative to it,
/// the way clang prints the path it was given.
std::string toText(const std::vector<Finding> &Findings, const std::string &RelativeTo = "");

// ---- SARIF 2.1.0 (Sarif.cpp) --------------------------------------------

/// The check ids lockstep knows, in the order of the SARIF rules array.
const std::vector<std::string> &knownChecks();

/// One SARIF log with one run: a rule per known check (and per unknown
/// check that appears) with the help from docs/checks/, a result per
/// finding with its notes as related locations, URIs relative to
/// \p ProjectRoot (an absolute directory) under "%SRCROOT%", and the id as
/// partialFingerprints["lockstepId/v1"]. Findings without an id get one
/// computed against \p ProjectRoot.
std::string toSarif(const std::vector<Finding> &Findings, const std::string &ProjectRoot,
                    const std::string &ToolVersion);

} // namespace lockstep::cli
