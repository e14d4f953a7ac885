// The outcome of a run, written as JSON (--json) or as a self-contained
// HTML page (--report).
#pragma once

#include "Findings.h"
#include "Matcher.h"
#include "Symbolizer.h"

#include <string>
#include <vector>

namespace lockstep::run {

struct Outcome {
  std::vector<std::string> Command;
  std::string Status; // "passed", "failed" (a rank failed; no divergence), "diverged", "stalled"
  int ExitCode = 0;
  std::string Diagnosis;                // the rendered text, empty without a divergence
  double DetectionMs = -1, StopMs = -1; // cause to detection, detection to stop order
  std::vector<Judged> Verdicts;
  std::vector<std::string> Warnings;
  /// The launcher lockstep started (mpirun, an attached command): how it
  /// ended, and whether lockstep had to signal it.
  std::string LauncherExit;
  bool LauncherSignalled = false;
};

/// The outcome as JSON, or as a self-contained HTML page, in \p Path.
Error writeJson(const std::string &Path, const Matcher &M, const std::vector<Location> &Sites,
                const Outcome &O);
Error writeHtml(const std::string &Path, const Matcher &M, const std::vector<Location> &Sites,
                const Outcome &O);

/// The communicators a report shows: the diverging ones, else all (first 8).
std::vector<uint64_t> reportedComms(const Matcher &M);

} // namespace lockstep::run
