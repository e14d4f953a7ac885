// Compile commands as build systems write them (gcc, g++, clang, nvcc; with
// response and options files) turned into arguments clang 22 parses for
// host-side analysis. Pure C++17, no LLVM: `lockstep check`, the tests and
// any other front end share it.
//
// The analysis only needs the front end to see the same code the build
// compiled: the same macros, include paths, language and dialect. So
// everything that only shapes code generation, linking, dependency files or
// diagnostics (which the checker controls itself) is dropped rather than
// translated: an option clang 22 does not know would otherwise stop the
// file ("unknown argument" is an error).
#pragma once

#include "Result.h"

#include <string>
#include <vector>

namespace lockstep::cli {

/// One compile command translated for clang 22.
struct TranslatedCommand {
  /// The clang arguments, without the compiler and without any input file:
  /// append the source file (after `--` for clang-tidy, or as the last
  /// argument of a clang::tooling::FixedCompilationDatabase command).
  std::vector<std::string> Arguments;
  /// The positional inputs the original command named, as written.
  std::vector<std::string> Inputs;
  /// "c", "c++" or "cuda".
  std::string Language;
  /// Whether the compiler was nvcc (behind any launcher such as ccache).
  bool Nvcc = false;
  /// Things that may make the analysis see less than the build did (an nvcc
  /// whose toolkit is not where clang will look, an MPI wrapper's implicit
  /// include paths). Never fatal.
  std::vector<std::string> Warnings;
};

struct TranslationOptions {
  /// The CUDA toolkit for nvcc commands; empty: derived from nvcc's path.
  std::string CudaPath;
  /// include/lockstep/nvcc_compat.h, force-included into nvcc's CUDA units
  /// so that they see nvcc's __CUDACC__; empty: not included.
  std::string NvccCompatHeader;
};

/// Translates \p Command (argv, compiler first) run in \p Directory.
/// \p SourceFile, when not empty, decides the language where the command has
/// no `-x` (a compile database entry's "file"); otherwise the command's last
/// input does. Relative paths in include options, response files and
/// options files are resolved against \p Directory. Fails (naming the option
/// or file) when the command cannot be translated: an unreadable response
/// file, an option missing its value, a source that is not C, C++ or CUDA.
Error translateCommand(const std::vector<std::string> &Command, const std::string &Directory,
                       const std::string &SourceFile, const TranslationOptions &Options,
                       TranslatedCommand &Out);

/// translateCommand with default options, returning only the arguments.
Expected<std::vector<std::string>> toClangArguments(const std::vector<std::string> &Command,
                                                    const std::string &Directory);

/// Splits a command line with POSIX shell quoting: whitespace separates
/// words; single quotes keep everything literally; inside double quotes a
/// backslash escapes only `"`, `\`, `$`, a backquote and a newline; outside
/// quotes it escapes any character. This is how make and ninja's /bin/sh
/// read the "command" of a compile database entry, and how gcc and nvcc
/// read response and options files. Fails on an unterminated quote or a
/// trailing backslash.
Expected<std::vector<std::string>> splitCommandLine(const std::string &Line);

} // namespace lockstep::cli
