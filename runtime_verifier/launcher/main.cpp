// The lockstep command line: one executable, one subcommand per tool.
// Subcommands register in the table below (`check` joins `run` there).
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

const Subcommand Subcommands[] = {
    {"run", "run a job and check, as it runs, that its ranks call collectives in lockstep",
     lockstep::run::runCommand},
};

int usage(FILE *To) {
  std::fprintf(To, "usage: lockstep <command> [options]\n\ncommands:\n");
  for (const Subcommand &S : Subcommands)
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
  for (const Subcommand &S : Subcommands)
    if (Name == S.Name)
      return S.Run(std::vector<std::string>(Argv + 2, Argv + Argc));
  std::fprintf(stderr, "lockstep: error: unknown command '%s'\n", Name.c_str());
  return usage(stderr);
}
