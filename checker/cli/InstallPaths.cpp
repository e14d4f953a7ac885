#include "InstallPaths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace lockstep::cli {

const char *clangResourceDir() { return LOCKSTEP_CLANG_RESOURCE_DIR; }

const char *clangDriver() { return LOCKSTEP_CLANG_DRIVER; }

std::string nvccCompatHeader() {
  static int Anchor;
  llvm::SmallString<256> Path(llvm::sys::fs::getMainExecutable(nullptr, &Anchor));
  llvm::sys::path::remove_filename(Path); // bin
  llvm::sys::path::remove_filename(Path); // the prefix or the build tree
  llvm::sys::path::append(Path, "include", "lockstep", "nvcc_compat.h");
  return llvm::sys::fs::exists(Path) ? Path.str().str() : "";
}

} // namespace lockstep::cli
