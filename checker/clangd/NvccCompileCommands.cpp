// nvcc commands in lockstep-clangd: clangd reads compile_commands.json
// itself and hands nvcc's flags to clang as they are ("unknown argument",
// `-isystem=DIR` read as sysroot-relative, no CUDA host flags). clangd has no
// hook for that, so the link wraps the one call through which it parses a
// JSON database (-Wl,--wrap, see CMakeLists.txt) and translates the nvcc
// entries first, with the translation `lockstep check` uses.
#include "CompileDatabase.h"
#include "InstallPaths.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

using clang::tooling::JSONCommandLineSyntax;
using clang::tooling::JSONCompilationDatabase;

#define LOCKSTEP_LOAD_FROM_BUFFER                                                                  \
  "_ZN5clang7tooling23JSONCompilationDatabase14loadFromBufferEN4llvm9StringRefERNSt7__cxx1112"     \
  "basic_stringIcSt11char_traitsIcESaIcEEENS0_21JSONCommandLineSyntaxE"

std::unique_ptr<JSONCompilationDatabase>
realLoadFromBuffer(llvm::StringRef Text, std::string &Error,
                   JSONCommandLineSyntax Syntax) __asm__("__real_" LOCKSTEP_LOAD_FROM_BUFFER);

std::unique_ptr<JSONCompilationDatabase>
wrappedLoadFromBuffer(llvm::StringRef Text, std::string &Error,
                      JSONCommandLineSyntax Syntax) __asm__("__wrap_" LOCKSTEP_LOAD_FROM_BUFFER);

std::unique_ptr<JSONCompilationDatabase>
wrappedLoadFromBuffer(llvm::StringRef Text, std::string &Error, JSONCommandLineSyntax Syntax) {
  lockstep::cli::TranslationOptions Options;
  Options.NvccCompatHeader = lockstep::cli::nvccCompatHeader();
  std::vector<std::string> Warnings;
  const std::string Translated = lockstep::cli::translateNvccEntries(
      Text.str(), lockstep::cli::clangDriver(), Options, Warnings);
  for (const std::string &Warning : Warnings)
    llvm::errs() << "lockstep: nvcc command not translated: " << Warning << "\n";
  return realLoadFromBuffer(Translated, Error, Syntax);
}
