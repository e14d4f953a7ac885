// Which findings a run reports, by the file they are in: --header-filter (a
// regular expression, as clang-tidy's: a finding in a header is reported
// only when the header's path matches; the analysed files themselves always
// are) and --exclude (globs: findings in matching files are never
// reported, e.g. vendored code). The analysis itself is not narrowed: every
// unit still contributes its summaries to the others.
#pragma once

#include "FindingsOutput.h"
#include "Result.h"

#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Regex.h"

#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace lockstep::cli {

class PathFilter {
public:
  /// \p Root is the invocation directory: globs and the header filter also
  /// see paths relative to it.
  explicit PathFilter(std::string Root) : Root(std::move(Root)) {}

  /// Fails when \p Regex is no valid regular expression.
  Error setHeaderFilter(const std::string &Regex);
  /// Fails when \p Glob is no valid glob.
  Error addExclude(const std::string &Glob);

  /// Whether a finding in \p File is reported; \p MainFiles are the
  /// analysed files (not headers).
  bool reported(const std::string &File, const std::set<std::string> &MainFiles) const;

  /// \p Findings without those in files not reported.
  std::vector<Finding> apply(std::vector<Finding> Findings,
                             const std::set<std::string> &MainFiles) const;

private:
  std::string Root;
  std::unique_ptr<llvm::Regex> HeaderFilter; // null: every header
  std::deque<std::string> ExcludedText;      // GlobPattern refers to its text
  std::vector<llvm::GlobPattern> Excluded;
};

} // namespace lockstep::cli
