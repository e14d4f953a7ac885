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

bool optionValue(const std::vector<std::string> &Args, size_t &I, const std::string &Name,
                 std::string &Value, std::string &Error) {
  const std::string &Arg = Args[I];
  if (Arg.rfind(Name + "=", 0) == 0) {
    Value = Arg.substr(Name.size() + 1);
    return true;
  }
  if (Arg != Name)
    return false;
  if (I + 1 >= Args.size()) {
    Error = "option '" + Name + "' needs a value";
    return true;
  }
  Value = Args[++I];
  return true;
}

} // namespace lockstep::cli
