// What `lockstep check` and `lockstep merge` share in reading their command
// lines: option values, usage errors, and user-given paths resolved once
// against the invocation directory (units later run in other directories).
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

/// Prints "lockstep: error: MESSAGE" and the usage; returns 2.
int usageError(const std::string &Message, const char *Usage);

/// Prints "lockstep: error: MESSAGE"; returns 2.
int configurationError(const std::string &Message);

/// \p Path made absolute against \p Base (the invocation directory) and
/// normalised; "" stays "".
std::string absolutePath(const std::string &Path, const std::string &Base);

/// The absolute, normalised current directory, read once per command.
std::string invocationDirectory();

/// Reads the value of an option that takes one ("--jobs 4" or "--jobs=4"):
/// true when Args[I] is \p Name (advancing \p I past the value), with
/// \p Error set when the value is missing.
bool optionValue(const std::vector<std::string> &Args, size_t &I, const std::string &Name,
                 std::string &Value, std::string &Error);

} // namespace lockstep::cli
