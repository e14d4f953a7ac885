// The lockstep command line: one executable, one subcommand per tool.
// Subcommands: `run` here, `check` and `merge` when the checker is linked in.
#include "RunCommand.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Subcommand {
  const char *Name;
  const char *Summary;
  int (*Run)(const std::vector<std::string> &Args);
};

} // namespace

// Built with the checker, `lockstep` also has `check` and `merge` (defined in
// checker/cli); weak references keep the runtime buildable without it.
int lockstepCheckCommand(const std::vector<std::string> &Args) __attribute__((weak));
int lockstepMergeCommand(const std::vector<std::string> &Args) __attribute__((weak));

namespace {

std::vector<Subcommand> subcommands() {
  std::vector<Subcommand> List;
  if (lockstepCheckCommand)
    List.push_back({"check", "analyse a whole project (compile database) with every lockstep check",
                    lockstepCheckCommand});
  if (lockstepMergeCommand)
    List.push_back({"merge", "join the outputs of `lockstep check --shard` runs",
                    lockstepMergeCommand});
  List.push_back({"run",
                  "run a job and check, as it runs, that its ranks call collectives in lockstep",
                  lockstep::run::runCommand});
  return List;
}

int usage(FILE *To) {
  std::fprintf(To, "usage: lockstep <command> [options]\n\ncommands:\n");
  for (const Subcommand &S : subcommands())
    std::fprintf(To, "  %-8s %s\n", S.Name, S.Summary);
  std::fprintf(To, "\n'lockstep <command> --help' describes a command.\n");
  return To == stdout ? 0 : 2;
}

} // namespace

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
  for (const Subcommand &S : subcommands())
    if (Name == S.Name)
      return S.Run(std::vector<std::string>(Argv + 2, Argv + Argc));
  std::fprintf(stderr, "lockstep: error: unknown command '%s'\n", Name.c_str());
  return usage(stderr);
}
