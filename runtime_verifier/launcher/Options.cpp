#include "Options.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace lockstep::run {

const char *const RunUsage =
    "usage: lockstep run -n N [options] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM as N ranks and checks, as it runs, that every rank calls the\n"
    "same NCCL and MPI collectives in the same order with the same arguments.\n"
    "\n"
    "options:\n"
    "  -n, --nproc N       number of ranks (required)\n"
    "  --mpi               start the ranks with mpirun (LOCKSTEP_MPIRUN overrides\n"
    "                      it, arguments included) instead of as torchrun-style\n"
    "                      processes\n"
    "  --mpirun-args ARGS  more mpirun options, split at spaces (--mpi only)\n"
    "  --attach            start no ranks: coordinate N ranks started by another\n"
    "                      launcher; a command after -- is run once with the\n"
    "                      LOCKSTEP_COORDINATOR variable the ranks need\n"
    "  --listen HOST:PORT  coordinator address (default 127.0.0.1:0, a free port)\n"
    "  --timeout SEC       stall timeout: how long ranks may wait in a collective\n"
    "                      that others have not reached (default 300; 0: never)\n"
    "  --findings FILE     static findings (JSON of 'lockstep check' or file:line\n"
    "                      lines) to confirm or refute\n"
    "  --report FILE       write a self-contained HTML report\n"
    "  --json FILE         write the outcome as JSON\n"
    "  -q, --quiet         print nothing of lockstep's own when the job passes\n"
    "\n"
    "exit status: the program's when the ranks stayed in lockstep; 97 when they\n"
    "diverged, 98 when the stall timeout expired, 96 when the job could not be\n"
    "started or the coordinator lost its ranks, 2 for bad options or an MPI\n"
    "program run without --mpi, 127 when PROGRAM cannot be run.\n";

namespace {
bool parseNumber(const std::string &Text, double &Out) {
  if (Text.empty())
    return false;
  char *End = nullptr;
  errno = 0;
  Out = std::strtod(Text.c_str(), &End);
  return errno == 0 && *End == '\0' && Out >= 0 && Out < 1e9;
}

/// Reads the option Args[I] (and its value) into \p Out; false when Args[I]
/// is no option: the program starts there.
Expected<bool> readOption(const std::vector<std::string> &Args, size_t &I, RunOptions &Out,
                          bool &SawRanks) {
  const std::string &A = Args[I];
  std::string V;
  Expected<bool> Ranks = args::anyOptionValue(Args, I, {{"-n", &V}, {"--nproc", &V}});
  if (!Ranks)
    return Ranks;
  if (*Ranks) {
    double N = 0;
    if (!parseNumber(V, N) || N < 1 || N > 4096 || N != int(N))
      return Error("'" + V + "' is not a number of ranks (1 to 4096)");
    Out.Ranks = int(N);
    SawRanks = true;
    return true;
  }
  if (A == "--mpi" || A == "--attach") {
    const LaunchMode Mode = A == "--mpi" ? LaunchMode::Mpi : LaunchMode::Attach;
    if (Out.Mode != LaunchMode::Direct && Out.Mode != Mode)
      return Error("--mpi and --attach exclude each other");
    Out.Mode = Mode;
    return true;
  }
  Expected<bool> Mpirun = args::optionValue(Args, I, "--mpirun-args", V);
  if (!Mpirun)
    return Mpirun;
  if (*Mpirun) {
    std::vector<std::string> Words = splitWords(V);
    Out.MpirunArgs.insert(Out.MpirunArgs.end(), Words.begin(), Words.end());
    return true;
  }
  Expected<bool> Timeout = args::optionValue(Args, I, "--timeout", V);
  if (!Timeout)
    return Timeout;
  if (*Timeout) {
    if (!parseNumber(V, Out.StallTimeoutSeconds))
      return Error("'" + V + "' is not a number of seconds");
    return true;
  }
  Expected<bool> Kept = args::anyOptionValue(Args, I,
                                             {{"--listen", &Out.Listen},
                                              {"--findings", &Out.FindingsFile},
                                              {"--report", &Out.ReportFile},
                                              {"--json", &Out.JsonFile}});
  if (!Kept || *Kept)
    return Kept;
  if (A == "-q" || A == "--quiet") {
    Out.Quiet = true;
    return true;
  }
  if (!A.empty() && A[0] == '-')
    return args::unknownOption(A);
  return false; // the program: '--' is optional when it does not start with '-'
}
} // namespace

std::vector<std::string> splitWords(const std::string &Text) {
  std::vector<std::string> Words;
  size_t I = 0;
  while ((I = Text.find_first_not_of(" \t", I)) != std::string::npos) {
    size_t End = std::min(Text.find_first_of(" \t", I), Text.size());
    Words.push_back(Text.substr(I, End - I));
    I = End;
  }
  return Words;
}

args::ParseResult parseRunOptions(const std::vector<std::string> &Args, RunOptions &Out) {
  using args::ParseResult;
  bool SawRanks = false;
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      ++I;
      break;
    }
    if (Args[I] == "-h" || Args[I] == "--help")
      return ParseResult::help();
    Expected<bool> Read = readOption(Args, I, Out, SawRanks);
    if (!Read)
      return ParseResult::error(Read.takeError().message());
    if (!*Read)
      break;
  }
  Out.Command.assign(Args.begin() + long(I), Args.end());
  if (!SawRanks)
    return ParseResult::error("the number of ranks is required (-n N)");
  if (Out.Command.empty() && Out.Mode != LaunchMode::Attach)
    return ParseResult::error("no program to run (lockstep run -n N -- PROGRAM [ARGS...])");
  if (!Out.MpirunArgs.empty() && Out.Mode != LaunchMode::Mpi)
    return ParseResult::error("--mpirun-args needs --mpi");
  return ParseResult::ok();
}

} // namespace lockstep::run
