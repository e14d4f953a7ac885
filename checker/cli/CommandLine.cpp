#include "CommandLine.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>

namespace lockstep::cli {

int usageError(const std::string &Message, const char *Usage) {
  std::fprintf(stderr, "lockstep: error: %s\n%s", Message.c_str(), Usage);
  return 2;
}

int configurationError(const std::string &Message) {
  std::fprintf(stderr, "lockstep: error: %s\n", Message.c_str());
  return 2;
}

std::string absolutePath(const std::string &Path, const std::string &Base) {
  if (Path.empty())
    return Path;
  llvm::SmallString<256> Result(Path);
  llvm::sys::path::make_absolute(Base, Result);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return Result.str().str();
}

std::string invocationDirectory() {
  llvm::SmallString<256> Directory;
  if (llvm::sys::fs::current_path(Directory))
    return "/";
  llvm::sys::path::remove_dots(Directory, /*remove_dot_dot=*/true);
  return Directory.str().str();
}

} // namespace lockstep::cli
