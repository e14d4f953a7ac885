// lockstep-clangd: stock clangd 22 with the lockstep clang-tidy module linked
// in, since clangd cannot load clang-tidy plugins. The module registers itself
// through LockstepTidyModule.cpp, which is compiled into this executable.
namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

int main(int argc, char *argv[]) { return clang::clangd::clangdMain(argc, argv); }
