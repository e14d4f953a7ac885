// The per-unit cache of `lockstep check`: a unit's findings and summaries,
// reused while its command, the configuration and the content of every file
// its parse read are unchanged, so a second run only redoes changed files.
#pragma once

#include "UnitRunner.h"

#include <optional>
#include <string>

namespace lockstep::cli {

class UnitCache {
public:
  /// An empty directory disables the cache.
  UnitCache(std::string Directory, std::string Configuration)
      : Directory(std::move(Directory)), Configuration(std::move(Configuration)) {}

  std::optional<UnitResult> load(const CompileUnit &Unit) const;
  void store(const CompileUnit &Unit, const UnitResult &Result) const;

private:
  std::string entryPath(const CompileUnit &Unit) const;

  std::string Directory;
  std::string Configuration; // lockstep version, rules, options: part of every key
};

} // namespace lockstep::cli
