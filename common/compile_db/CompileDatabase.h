// Strict loading of compile_commands.json (the JSON compilation database
// format of clang tooling, as CMake, Bear and meson write it), with every
// command translated for clang 22 (CommandTranslation.h). Pure C++17 and
// nlohmann_json: no LLVM.
//
// A malformed database is an error naming the file and the entry; an entry
// whose command cannot be translated (a response file that is gone, an
// assembler source) is skipped and reported, so that one bad entry does not
// stop the analysis of a whole project.
#pragma once

#include "CommandTranslation.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lockstep::cli {

/// One translation unit to analyse.
struct CompileUnit {
  std::string File;      // absolute and normalised
  std::string Directory; // the absolute working directory of the compile
  /// clang arguments without the compiler and without the source file:
  /// append them after `--` of clang-tidy, or use them as the command line
  /// of a clang::tooling::FixedCompilationDatabase, then add `file`.
  std::vector<std::string> Arguments;
  std::string Language; // "c", "c++" or "cuda"
};

/// An entry that was not turned into a unit, and why.
struct SkippedEntry {
  std::size_t Index = 0; // position in the JSON array, from 0
  std::string File;
  std::string Reason;
};

/// What a load did besides the units: for the summary line and warnings.
struct LoadReport {
  std::string DatabasePath;   // the compile_commands.json that was read
  std::size_t Entries = 0;    // entries in the array
  std::size_t Duplicates = 0; // later entries for a file already loaded (kept: first)
  std::vector<SkippedEntry> Skipped;
  std::vector<std::string> Warnings; // each distinct warning once
};

/// Reads \p BuildDir/compile_commands.json (or \p BuildDir itself when it
/// names a file). Fails, naming the file and the entry index, when the
/// database is missing, unreadable, not JSON, not an array, or has an entry
/// without a string "directory" and "file" and a "command" string or
/// "arguments" array of strings; \p Out is then left unchanged. Entries that
/// cannot be translated are skipped and listed in \p Report.
Error loadCompileDatabase(const std::string &BuildDir, std::vector<CompileUnit> &Out,
                          LoadReport *Report = nullptr,
                          const TranslationOptions &Options = TranslationOptions());

/// As loadCompileDatabase, from the text of a database. \p DatabasePath names
/// it in errors and resolves a relative "directory".
Error parseCompileDatabase(const std::string &Text, const std::string &DatabasePath,
                           std::vector<CompileUnit> &Out, LoadReport *Report = nullptr,
                           const TranslationOptions &Options = TranslationOptions());

/// The text of a compile database with each nvcc entry's command replaced by
/// its translation for clang 22 (the one lockstep check uses), run by
/// \p ClangDriver: for tools that read compile databases themselves, such as
/// lockstep-clangd. Other entries are kept as they are, and so is the whole
/// text when it is not a well-formed database (the tool then reports it).
/// An nvcc entry that cannot be translated is kept and its reason appended
/// to \p Warnings.
std::string translateNvccEntries(const std::string &Text, const std::string &ClangDriver,
                                 const TranslationOptions &Options,
                                 std::vector<std::string> &Warnings);

} // namespace lockstep::cli
