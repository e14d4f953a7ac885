// The fix-its of reported findings: exported for clang-apply-replacements
// (--export-fixes, the YAML clang-tidy writes) or applied in place (--fix).
#pragma once

#include "FindingsOutput.h"
#include "Result.h"

#include <string>
#include <vector>

namespace lockstep::cli {

/// Writes every finding's fix to \p Path as clang-apply-replacements YAML;
/// paths are absolute, \p BuildDirectory is the invocation directory.
Error exportFixes(const std::vector<Finding> &Findings, const std::string &Path,
                  const std::string &BuildDirectory);

struct AppliedFixes {
  unsigned Fixes = 0, Files = 0;
  std::vector<std::string> Problems; // fixes left out (overlaps), files not written
};

/// Rewrites the files so that every finding's fix is applied; a fix that
/// overlaps one applied before is left out, whole.
AppliedFixes applyFixes(const std::vector<Finding> &Findings);

} // namespace lockstep::cli
