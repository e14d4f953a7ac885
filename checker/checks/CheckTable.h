// The table of lockstep's checks, generated from checks.json (see
// CheckTable.cmake): their names, classes, pages and SARIF metadata. No
// Clang here: the outputs of lockstep check read it too.
#pragma once

#include <cstddef>
#include <string_view>

namespace lockstep::checks {

/// One enumerator per check, named after its class.
enum class CheckId {
#define LOCKSTEP_CHECK(Class, Name, Doc, Severity, Description) Class,
#include "Checks.inc"
#undef LOCKSTEP_CHECK
};

struct CheckInfo {
  CheckId Id;
  std::string_view Name;        // "lockstep-rank-branch"
  std::string_view Doc;         // "docs/checks/rank-branch.md", relative to the repository
  std::string_view Severity;    // "warning": SARIF's default level
  std::string_view Description; // the page's first paragraph, Markdown
};

inline constexpr CheckInfo CheckTable[] = {
#define LOCKSTEP_CHECK(Class, Name, Doc, Severity, Description)                                    \
  {CheckId::Class, Name, Doc, Severity, Description},
#include "Checks.inc"
#undef LOCKSTEP_CHECK
};

inline const CheckInfo &checkInfo(CheckId Id) { return CheckTable[static_cast<size_t>(Id)]; }

/// The check called \p Name, or null.
inline const CheckInfo *findCheck(std::string_view Name) {
  for (const CheckInfo &Check : CheckTable)
    if (Check.Name == Name)
      return &Check;
  return nullptr;
}

} // namespace lockstep::checks
