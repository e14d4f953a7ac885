// The lockstep command line: one executable, one subcommand per tool. The
// table lists every subcommand; those whose part was not built (the checker
// needs LLVM/Clang 22) say so when asked for instead of being unknown.
#include "RunCommand.h"
#ifdef LOCKSTEP_HAVE_CHECKER
#include "Commands.h"
#endif

#include <cstdio>
#include <string>
#include <vector>

namespace {

using Command = int (*)(const std::vector<std::string> &Args);

struct Subcommand {
  const char *Name;
  const char *Summary;
  Command Run;           // null when its part is not built
  const char *NeedsPart; // what building it needs
};

#ifdef LOCKSTEP_HAVE_CHECKER
constexpr Command CheckCommand = lockstep::cli::checkCommand;
constexpr Command MergeCommand = lockstep::cli::mergeCommand;
#else
constexpr Command CheckCommand = nullptr;
constexpr Command MergeCommand = nullptr;
#endif

constexpr const char *Checker = "the checker (LLVM/Clang 22, -DLOCKSTEP_BUILD_CHECKER=ON)";

const Subcommand Subcommands[] = {
    {"check", "analyse a whole project (compile database) with every lockstep check", CheckCommand,
     Checker},
    {"merge", "join the outputs of `lockstep check --shard` runs", MergeCommand, Checker},
    {"run", "run a job and check, as it runs, that its ranks call collectives in lockstep",
     lockstep::run::runCommand, "the runtime verifier"},
};

} // namespace

static int usage(FILE *To) {
  std::fprintf(To, "usage: lockstep <command> [options]\n\ncommands:\n");
  for (const Subcommand &S : Subcommands)
    std::fprintf(To, "  %-8s %s%s\n", S.Name, S.Summary, S.Run ? "" : " (not built)");
  std::fprintf(To, "\n'lockstep <command> --help' describes a command.\n");
  return To == stdout ? 0 : 2;
}

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return usage(stderr);
  std::string Name = Argv[1];
  if (Name == "-h" || Name == "--help" || Name == "help")
    return usage(stdout);
  if (Name == "--version") {
    std::printf("lockstep 0.1.0\n");
    return 0;
  }
  for (const Subcommand &S : Subcommands) {
    if (Name != S.Name)
      continue;
    if (!S.Run) {
      std::fprintf(stderr, "lockstep: error: '%s' is not built into this lockstep: it needs %s\n",
                   S.Name, S.NeedsPart);
      return 2;
    }
    return S.Run(std::vector<std::string>(Argv + 2, Argv + Argc));
  }
  std::fprintf(stderr, "lockstep: error: unknown command '%s'\n", Name.c_str());
  return usage(stderr);
}
