// Paths as the outputs show them: relative to the project root where the
// file is under it (ids and SARIF must not depend on where the checkout
// lies), and as URIs for SARIF. Lexical: the file system is not read and
// symbolic links are not resolved; only a relative root or URI path is made
// absolute against the current directory.
#pragma once

#include <string>

namespace lockstep::cli {

struct ProjectPath {
  std::string Path; // '/'-separated; relative when underRoot
  bool UnderRoot = false;
};

/// \p File relative to \p Root when it lies under it ("src/a.c"), else
/// \p File normalized ("/usr/include/mpi.h"). A relative \p File is taken
/// as relative to the root already; an empty \p Root makes nothing
/// relative, a relative one is taken from the current directory.
ProjectPath relativeToRoot(const std::string &File, const std::string &Root);

/// '/'-separated, without "." and "x/.." components; "" stays "".
std::string normalPath(const std::string &Path);

/// RFC 3986 percent-encoding of everything but unreserved characters and
/// '/', so that spaces, '%', '#' and ':' in file names give valid URIs.
std::string percentEncode(const std::string &Path);

/// "file:///abs/path" (with a trailing '/' when \p Directory) for an
/// absolute \p Path; a relative one is made absolute against the current
/// directory first.
std::string fileUri(const std::string &Path, bool Directory);

} // namespace lockstep::cli
