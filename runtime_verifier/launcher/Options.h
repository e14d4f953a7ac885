// Command-line options of `lockstep run`.
#pragma once

#include "../common/ExitCodes.h"
#include "Arguments.h"

#include <string>
#include <vector>

namespace lockstep::run {

enum class LaunchMode {
  Direct, // lockstep starts the N ranks itself, torchrun-style
  Mpi,    // lockstep starts mpirun -np N
  Attach, // ranks come from another launcher (a command after --, or none)
};

struct RunOptions {
  int Ranks = 0;
  LaunchMode Mode = LaunchMode::Direct;
  std::string Listen = "127.0.0.1:0";
  double StallTimeoutSeconds = 300;
  std::string FindingsFile, ReportFile, JsonFile;
  std::vector<std::string> MpirunArgs; // --mpirun-args, split at spaces
  bool Quiet = false;
  std::vector<std::string> Command; // PROGRAM ARGS..., or a launcher command in attach mode
};

/// Splits a command line at runs of spaces and tabs (no quoting):
/// LOCKSTEP_MPIRUN and --mpirun-args.
std::vector<std::string> splitWords(const std::string &Text);

/// Parses the arguments after `run`.
args::ParseResult parseRunOptions(const std::vector<std::string> &Args, RunOptions &Out);

extern const char *const RunUsage;

} // namespace lockstep::run
