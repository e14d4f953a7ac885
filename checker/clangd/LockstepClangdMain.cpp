// lockstep-clangd: stock clangd 22 with the lockstep clang-tidy module linked
// in, since clangd cannot load clang-tidy plugins. The module registers itself
// through LockstepTidyModule.cpp, which is compiled into this executable;
// nvcc compile commands are translated in NvccCompileCommands.cpp.
#include "InstallPaths.h"

#include <cstring>
#include <string>
#include <vector>

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

int main(int argc, char *argv[]) {
  // clangd looks for clang's builtin headers next to its own binary, where
  // lockstep-clangd has none: name those of the clang 22 it was built with.
  std::vector<char *> Args(argv, argv + argc);
  std::string ResourceDir = std::string("--resource-dir=") + lockstep::cli::clangResourceDir();
  bool Given = false;
  for (int I = 1; I < argc; ++I)
    Given |= std::strncmp(argv[I], "--resource-dir", 14) == 0 ||
             std::strncmp(argv[I], "-resource-dir", 13) == 0;
  if (!Given)
    Args.insert(Args.begin() + 1, ResourceDir.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(int(Args.size()) - 1, Args.data());
}
