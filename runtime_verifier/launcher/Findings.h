// Static findings in, verdicts out: a finding is CONFIRMED when a
// divergence happened at one of its locations, NOT REPRODUCED when its
// sites ran without diverging, NOT REACHED when they never ran.
#pragma once

#include "Finding.h"
#include "Matcher.h"
#include "Result.h"
#include "Symbolizer.h"

#include <string>
#include <vector>

namespace lockstep::run {

using findings::Finding;

/// Reads \p Path: the JSON of `lockstep check` (read strictly, by the one
/// reader of common/findings) or text lines FILE:LINE[:COL][: message], where a
/// line with ": note:" adds a location to the finding before it and
/// indented lines (a compiler's source excerpts) are skipped.
Error loadFindings(const std::string &Path, std::vector<Finding> &Out);

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
