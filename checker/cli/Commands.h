// The `lockstep check` and `lockstep merge` subcommands. Exit status: 0 no
// findings, 1 findings, 2 usage or configuration error (or nothing could be
// analysed).
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

int checkCommand(const std::vector<std::string> &Args);
int mergeCommand(const std::vector<std::string> &Args);

} // namespace lockstep::cli
