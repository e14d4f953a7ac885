// Static findings in, verdicts out: a finding is CONFIRMED when a
// divergence happened at one of its locations, NOT REPRODUCED when its
// sites ran without diverging, NOT REACHED when they never ran.
#pragma once

#include "Matcher.h"
#include "Symbolizer.h"

#include <string>
#include <vector>

namespace lockstep::run {

struct SourcePoint {
  std::string File;
  unsigned Line = 0, Column = 0;
};

struct Finding {
  SourcePoint At;
  std::string Check, Message;
  std::vector<SourcePoint> Related; // notes: the collective inside a callee, ...
};

/// Reads \p Path: JSON (an array of findings, or {"findings": [...]}, each
/// {"file", "line", optional "column", "check", "message", "notes": [{"file",
/// "line"}]}) or text lines FILE:LINE[:COL][: message], where a line with
/// ": note:" adds a location to the finding before it and indented lines
/// (a compiler's source excerpts) are skipped. Empty string or the error.
std::string loadFindings(const std::string &Path, std::vector<Finding> &Out);

enum class Verdict { Confirmed, NotReproduced, NotReached };
const char *verdictName(Verdict V);

struct Judged {
  Finding What;
  Verdict Outcome = Verdict::NotReached;
  std::string Detail;
};

std::vector<Judged> judge(const std::vector<Finding> &Findings, const Matcher &M,
                          const std::vector<Location> &Sites);

/// True when two paths name the same file: equal, or one is a tail of the
/// other by whole components ("src/a.c" and "/home/x/src/a.c").
bool sameFile(const std::string &A, const std::string &B);

} // namespace lockstep::run
