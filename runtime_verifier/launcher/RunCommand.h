// `lockstep run`: starts the job, coordinates it, stops it on divergence
// and reports.
#pragma once

#include <string>
#include <vector>

namespace lockstep::run {

/// \p Args are the arguments after "run". Returns the exit status.
int runCommand(const std::vector<std::string> &Args);

} // namespace lockstep::run
