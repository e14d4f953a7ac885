// Turns call sites (module, offset) into source locations, only when a
// report needs them: llvm-symbolizer (LOCKSTEP_SYMBOLIZER, llvm-symbolizer-22,
// llvm-symbolizer), else addr2line, else the module and offset as they are.
#pragma once

#include "Matcher.h"

#include <string>
#include <vector>

namespace lockstep::run {

struct Frame {
  std::string Function, File;
  unsigned Line = 0, Column = 0;
};

struct Location {
  std::vector<Frame> Frames; // innermost (the call itself) first; empty if unknown
  std::string Fallback;      // module+offset (symbol)
  /// "file.c:12:5" relative to the working directory when below it, or the
  /// fallback.
  std::string text() const;
  /// "file.c:12" without directories, for narrow columns.
  std::string brief() const;
};

/// Locations of sites 0..N-1 of \p Names.
std::vector<Location> symbolize(const Names &Names);

} // namespace lockstep::run
