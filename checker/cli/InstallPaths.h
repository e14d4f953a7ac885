// Where the front ends find clang's files and lockstep's own: the clang 22
// lockstep was built against (not a directory next to the lockstep binary,
// which is what Clang's tooling would guess), and lockstep's headers next to
// the running executable, in the build tree and in an installed prefix alike.
#pragma once

#include <string>

namespace lockstep::cli {

/// clang 22's resource directory: its builtin headers and CUDA wrappers.
const char *clangResourceDir();

/// clang 22's C++ driver, for compile commands written for other tools.
const char *clangDriver();

/// <bin>/../include/lockstep/nvcc_compat.h for the running executable, or ""
/// when it is not there.
std::string nvccCompatHeader();

} // namespace lockstep::cli
