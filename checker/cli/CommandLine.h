// What `lockstep check` and `lockstep merge` share in reading their command
// lines: the options of every subcommand (common/args), usage errors, and
// user-given paths resolved once against the invocation directory (units
// later run in other directories).
#pragma once

#include "Arguments.h"

#include <string>
#include <vector>

namespace lockstep::cli {

using args::optionValue;
using args::unknownOption;

/// Prints "lockstep: error: MESSAGE" and the usage; returns 2.
int usageError(const std::string &Message, const char *Usage);

/// Prints "lockstep: error: MESSAGE"; returns 2.
int configurationError(const std::string &Message);

/// \p Path made absolute against \p Base (the invocation directory) and
/// normalised; "" stays "".
std::string absolutePath(const std::string &Path, const std::string &Base);

/// The absolute, normalised current directory, read once per command.
std::string invocationDirectory();

} // namespace lockstep::cli
