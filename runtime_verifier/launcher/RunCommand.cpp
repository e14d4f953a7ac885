#include "RunCommand.h"

#include "Coordinator.h"
#include "Diagnosis.h"
#include "Findings.h"
#include "Options.h"
#include "Processes.h"
#include "Report.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lockstep::run {

namespace {

volatile sig_atomic_t Interrupted = 0;
void onSignal(int Signal) { Interrupted = Signal; }

constexpr uint64_t Ms = 1000000;

void error(const std::string &Message) {
  std::fprintf(stderr, "lockstep: error: %s\n", Message.c_str());
}

/// The interposer next to this executable (build tree: ../lib; installed:
/// ../lib too), or LOCKSTEP_INTERCEPT.
std::string findInterposer() {
  if (const char *Env = getenv("LOCKSTEP_INTERCEPT"); Env && *Env)
    return access(Env, R_OK) == 0 ? Env : "";
  char Exe[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof Exe - 1);
  if (N <= 0)
    return "";
  std::string Dir(Exe, size_t(N));
  Dir = Dir.substr(0, Dir.rfind('/'));
  for (const std::string &Candidate :
       {Dir + "/../lib/liblockstep-intercept.so", Dir + "/liblockstep-intercept.so"})
    if (access(Candidate.c_str(), R_OK) == 0) {
      char Real[PATH_MAX];
      return realpath(Candidate.c_str(), Real) ? Real : Candidate;
    }
  return "";
}

/// A free TCP port on the loopback for MASTER_PORT (the program's own rendezvous).
uint16_t freePort() {
  net::Endpoint At{"127.0.0.1", 0};
  if (Expected<int> Fd = net::listenOn(At))
    close(*Fd);
  return At.Port;
}

/// LOCKSTEP_MPIRUN (a command with arguments) or mpirun.
std::vector<std::string> mpirunCommand() {
  const char *Env = getenv("LOCKSTEP_MPIRUN");
  std::vector<std::string> Words = splitWords(Env ? Env : "");
  return Words.empty() ? std::vector<std::string>{"mpirun"} : Words;
}

/// Fails with why \p Program cannot be run, as execvp would find it.
Error checkRunnable(const std::string &Program) {
  auto Check = [](const std::string &Path) {
    struct stat St;
    if (stat(Path.c_str(), &St) != 0)
      return Error(std::strerror(errno));
    if (!S_ISREG(St.st_mode) || access(Path.c_str(), X_OK) != 0)
      return Error(std::strerror(EACCES));
    return Error::success();
  };
  if (Program.find('/') != std::string::npos)
    return Check(Program);
  const char *Env = getenv("PATH");
  std::string Path = Env && *Env ? Env : "/usr/bin:/bin";
  for (size_t Start = 0; Start <= Path.size();) {
    size_t End = std::min(Path.find(':', Start), Path.size());
    std::string Dir = Path.substr(Start, End - Start);
    if (!Check((Dir.empty() ? "." : Dir) + "/" + Program))
      return Error::success();
    Start = End + 1;
  }
  return Error("not found in PATH");
}

/// Fails with why \p Path cannot be written; leaves no file behind.
Error checkWritable(const std::string &Path) {
  bool Existed = access(Path.c_str(), F_OK) == 0;
  FILE *F = std::fopen(Path.c_str(), "a");
  if (!F)
    return Error(std::strerror(errno));
  std::fclose(F);
  if (!Existed)
    unlink(Path.c_str());
  return Error::success();
}

std::string preload(const std::string &Library) {
  const char *Existing = getenv("LD_PRELOAD");
  return Existing && *Existing ? Library + ":" + Existing : Library;
}

/// Starts the job as \p O describes.
Error launch(const RunOptions &O, Processes &P, const std::string &Coordinator,
             const std::string &Interposer) {
  std::map<std::string, std::string> Env = {{"LOCKSTEP_COORDINATOR", Coordinator}};
  if (O.Mode == LaunchMode::Direct) {
    Env["LOCKSTEP_MANAGED"] = "1";
    Env["LD_PRELOAD"] = preload(Interposer);
    Env["WORLD_SIZE"] = Env["LOCAL_WORLD_SIZE"] = std::to_string(O.Ranks);
    Env["MASTER_ADDR"] = "127.0.0.1";
    Env["MASTER_PORT"] = std::to_string(freePort());
    Env["GROUP_RANK"] = "0";
    for (int R = 0; R < O.Ranks; ++R) {
      Env["RANK"] = Env["LOCAL_RANK"] = std::to_string(R);
      if (Error E = P.spawn(O.Command, Env, R, Prefix::Rank))
        return E;
    }
    return Error::success();
  }
  if (O.Mode == LaunchMode::Mpi) {
    // The token travels in the environment (-x NAME), never on a command
    // line that other users can read; the preload only reaches the ranks.
    Env["LOCKSTEP_MANAGED"] = "1";
    std::vector<std::string> Argv = mpirunCommand();
    Argv.insert(Argv.end(), {"-np", std::to_string(O.Ranks), "--oversubscribe", "--tag-output",
                             "-x", "LD_PRELOAD=" + preload(Interposer), "-x",
                             "LOCKSTEP_COORDINATOR", "-x", "LOCKSTEP_MANAGED"});
    Argv.insert(Argv.end(), O.MpirunArgs.begin(), O.MpirunArgs.end());
    Argv.insert(Argv.end(), O.Command.begin(), O.Command.end());
    return P.spawn(Argv, Env, -1, Prefix::MpiTagged);
  }
  std::fprintf(stderr,
               "lockstep: coordinating %d ranks; each needs in its environment:\n"
               "  LOCKSTEP_COORDINATOR=<as exported to the command>\n  LD_PRELOAD=%s\n",
               O.Ranks, Interposer.c_str());
  if (O.Command.empty()) {
    std::fprintf(stderr, "lockstep: export LOCKSTEP_COORDINATOR=%s\n", Coordinator.c_str());
    return Error::success();
  }
  Env["LOCKSTEP_MANAGED"] = "1";
  Env["LD_PRELOAD"] = preload(Interposer);
  return P.spawn(O.Command, Env, -1, Prefix::None);
}

std::string stopReason(const Matcher &M) {
  const Divergence &D = *M.divergence();
  const auto &P = D.Points.front();
  return std::string(kindName(D.K)) + " at collective #" + std::to_string(P.Seq) + " on " +
         M.label(P.Comm);
}

/// What is checked before anything starts; 0 or the exit code.
int checkSetup(const RunOptions &O, std::vector<Finding> &Findings, net::Endpoint &Listen) {
  if (!O.FindingsFile.empty())
    if (Error E = loadFindings(O.FindingsFile, Findings)) {
      error(E.message());
      return ExitUsage;
    }
  for (const std::string *File : {&O.ReportFile, &O.JsonFile})
    if (!File->empty())
      if (Error E = checkWritable(*File)) {
        error("cannot write '" + *File + "': " + E.message());
        return ExitUsage;
      }
  // What exec would refuse, refused before anything starts, in every mode.
  std::vector<std::string> Programs;
  if (!O.Command.empty())
    Programs.push_back(O.Command[0]);
  if (O.Mode == LaunchMode::Mpi)
    Programs.push_back(mpirunCommand()[0]);
  for (const std::string &Program : Programs)
    if (Error E = checkRunnable(Program)) {
      error("cannot run '" + Program + "': " + E.message());
      return ExitNotRunnable;
    }
  if (Error E = net::parseEndpoint(O.Listen, Listen, true)) {
    error("--listen: " + E.message());
    return ExitUsage;
  }
  return 0;
}

void prepareProcess() {
  struct sigaction Action{};
  Action.sa_handler = onSignal;
  for (int S : {SIGINT, SIGTERM, SIGHUP})
    sigaction(S, &Action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // One socket per rank: thousands of ranks need more than the usual 1024.
  rlimit Files;
  if (getrlimit(RLIMIT_NOFILE, &Files) == 0 && Files.rlim_cur < Files.rlim_max) {
    Files.rlim_cur = Files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &Files);
  }
}

struct JobEnd {
  uint64_t StopNs = 0;    // when the ranks were told to stop; 0: never
  int CommandStatus = -1; // the launcher's wait status, when there is one
};

/// Serves the ranks until every process is gone, or the stopped job's time
/// is up.
JobEnd supervise(const RunOptions &O, Matcher &M, Coordinator &C, Processes &P, Outcome &Result) {
  JobEnd End;
  uint64_t LastExitNs = 0;
  for (;;) {
    std::vector<pollfd> Fds;
    std::vector<std::function<void(short)>> Handlers;
    C.pollSet(Fds, Handlers);
    P.pollSet(Fds, Handlers);
    if (poll(Fds.data(), Fds.size(), 20) > 0)
      for (size_t I = 0; I < Fds.size(); ++I)
        if (Fds[I].revents)
          Handlers[I](Fds[I].revents);
    uint64_t Now = net::monotonicNs();
    C.expire(Now);
    P.reap([&](const Child &Kid) {
      LastExitNs = Now;
      if (Kid.Rank < 0) {
        End.CommandStatus = Kid.Status;
        Result.LauncherExit = Processes::describe(Kid.Status);
        return;
      }
      M.setExit(Kid.Rank, Processes::describe(Kid.Status));
      if (!M.ranks()[size_t(Kid.Rank)].Connected) // a rank that never called a collective
        M.departed(Kid.Rank, false, Now);
    });
    M.tick(Now);
    if (!End.StopNs && (M.divergence() || Interrupted)) {
      End.StopNs = Now;
      C.stopRanks(M.divergence() ? stopReason(M) : "interrupted");
      // Ranks exit on the stop order. MPI ranks end the job from inside
      // (MPI_Abort) and mpirun exits on its own: a signal in the middle of
      // its teardown makes it crash.
      P.terminate(O.Mode == LaunchMode::Direct ? 0 : O.Mode == LaunchMode::Mpi ? 10000 : 300, 1000);
    }
    P.escalate(Now);
    bool Started = !P.children().empty();
    bool Gone = Started ? P.allReaped() : C.ranksSeen() == O.Ranks;
    if (Gone && (C.openRanks() == 0 || Now - LastExitNs > 2000 * Ms))
      break;
    if (End.StopNs && Now - End.StopNs > 15000 * Ms) // processes that ignore even SIGKILL's group
      break;
  }
  return End;
}

/// The status and exit code of a job that did not diverge.
void settleWithoutDivergence(const Matcher &M, Coordinator &C, const Processes &P,
                             const JobEnd &End, const std::vector<int> &Unheard, bool Lost,
                             Outcome &Result) {
  if (Interrupted) {
    Result.Status = "interrupted";
    Result.ExitCode = 128 + Interrupted;
    return;
  }
  int Code = 0;
  if (End.CommandStatus >= 0)
    Code = Processes::exitCode(End.CommandStatus);
  for (const Child &Kid : P.children())
    if (Kid.Rank >= 0 && Code == 0)
      Code = Processes::exitCode(Kid.Status);
  Result.Status = Code == 0 ? "passed" : "failed";
  Result.ExitCode = Code;
  if (Lost && Code != 0) { // a rank that loses its coordinator exits 96
    error("the coordinator never heard from " +
          std::string(Unheard.size() == 1 ? "rank " : "ranks ") + rankList(Unheard) +
          " while it shed " + std::to_string(C.shedConnections()) +
          " connections that did not say hello in time; the job was not verified");
    Result.Status = "failed";
    Result.ExitCode = ExitSetup;
  }
  uint64_t Verified = 0;
  bool MpiAlone = false;
  for (const RankState &R : M.ranks()) {
    Verified += R.Calls;
    MpiAlone |= R.MpiUnverified;
  }
  if (MpiAlone && Verified == 0) { // a pass that checked nothing must not look like one
    C.Warn("the ranks are MPI programs, each started as an MPI job of its own: no collective "
           "could be verified; run them with 'lockstep run --mpi'");
    Result.Status = "unverified";
    Result.ExitCode = Code ? Code : ExitUsage;
  }
}

/// The diagnosis, the verdicts on the findings, the summary and the reports.
void report(const RunOptions &O, const Matcher &M, Coordinator &C,
            const std::vector<Finding> &Findings, Outcome &Result) {
  if (C.shedConnections() > 0)
    C.Warn("closed " + std::to_string(C.shedConnections()) +
           " connection(s) that did not say hello in time or came over the limit");
  for (int R = 0; R < O.Ranks; ++R)
    if (uint64_t Lost = M.ranks()[size_t(R)].Dropped)
      C.Warn("rank " + std::to_string(R) + " dropped " + std::to_string(Lost) +
             " of its collective records (they came faster than they could be sent); "
             "those collectives were not compared");
  const auto &D = M.divergence();
  bool NeedSites = D || !Findings.empty() || !O.ReportFile.empty() || !O.JsonFile.empty();
  std::vector<Location> Sites = NeedSites ? symbolize(M.names()) : std::vector<Location>{};
  if (D) {
    Result.Diagnosis = renderDiagnosis(M, Sites, O.StallTimeoutSeconds);
    std::fprintf(stderr, "%s", Result.Diagnosis.c_str());
    std::fprintf(stderr,
                 "lockstep: note: divergence detected %.0f ms after it happened; stop ordered %.0f "
                 "ms later\n",
                 D->K == DivergenceKind::Stall ? Result.DetectionMs - O.StallTimeoutSeconds * 1000
                                               : Result.DetectionMs,
                 Result.StopMs);
  }
  Result.Verdicts = judge(Findings, M, Sites);
  for (const Judged &V : Result.Verdicts)
    std::fprintf(stderr, "lockstep: %-14s %s:%u%s%s\n", verdictName(V.Outcome),
                 V.What.Location.File.c_str(), V.What.Location.Line, V.Detail.empty() ? "" : ": ",
                 V.Detail.c_str());
  if (!D && !O.Quiet) {
    uint64_t Calls = 0;
    for (const RankState &R : M.ranks())
      Calls += R.Calls;
    std::fprintf(
        stderr,
        "lockstep: %s: %d ranks, %llu collective calls on %zu communicator%s, no divergence\n",
        Result.Status.c_str(), O.Ranks, static_cast<unsigned long long>(Calls), M.comms().size(),
        M.comms().size() == 1 ? "" : "s");
  }
  for (const auto &[File, Write] :
       {std::pair{O.JsonFile, &writeJson}, std::pair{O.ReportFile, &writeHtml}})
    if (!File.empty())
      if (Error E = Write(File, M, Sites, Result))
        error(E.message());
}

/// The job is over: ranks never heard from, how it ended, and its status.
void conclude(const RunOptions &O, Matcher &M, Coordinator &C, Processes &P, const JobEnd &End,
              Outcome &Result) {
  P.flush();
  Result.LauncherSignalled = P.signalled() && !Result.LauncherExit.empty();
  uint64_t EndNs = net::monotonicNs();
  std::vector<int> Unheard;
  for (int R = 0; R < O.Ranks; ++R)
    if (!M.ranks()[size_t(R)].Connected)
      Unheard.push_back(R);
  // While connections were shed, a rank never heard from may be one the
  // coordinator lost rather than one that left.
  bool Lost = !Unheard.empty() && C.shedConnections() > 0;
  if (!Lost)
    for (int R : Unheard) // gone with the job without a word (mpirun's ranks)
      M.departed(R, false, EndNs);
  M.finish(EndNs);
  P.releaseLauncherLines(!M.divergence()); // the diagnosis says what mpirun's banners would

  if (const auto &D = M.divergence()) {
    Result.Status = D->K == DivergenceKind::Stall ? "stalled" : "diverged";
    Result.ExitCode = D->K == DivergenceKind::Stall ? ExitStalled : ExitDiverged;
    Result.DetectionMs = double(D->DetectedNs - D->CauseNs) / Ms;
    Result.StopMs =
        End.StopNs ? double(End.StopNs - D->DetectedNs) / Ms : 0; // 0: found once the job was down
  } else {
    settleWithoutDivergence(M, C, P, End, Unheard, Lost, Result);
  }
}

} // namespace

int runCommand(const std::vector<std::string> &Args) {
  RunOptions O;
  if (args::ParseResult Parsed = parseRunOptions(Args, O); !Parsed.isOk()) {
    if (Parsed.isHelp()) {
      std::fputs(RunUsage, stdout);
      return 0;
    }
    error(Parsed.message());
    std::fprintf(stderr, "usage: lockstep run -n N [options] -- PROGRAM [ARGS...] (see --help)\n");
    return ExitUsage;
  }
  std::vector<Finding> Findings;
  net::Endpoint Listen;
  if (int Status = checkSetup(O, Findings, Listen))
    return Status;
  std::string Interposer = findInterposer();
  if (Interposer.empty()) {
    error("cannot find liblockstep-intercept.so next to this executable (set LOCKSTEP_INTERCEPT)");
    return ExitSetup;
  }
  uint8_t Token[wire::TokenBytes];
  if (getrandom(Token, sizeof Token, 0) != ssize_t(sizeof Token)) {
    error("cannot draw a random job token");
    return ExitSetup;
  }

  Matcher M(O.Ranks, uint64_t(O.StallTimeoutSeconds * 1e9));
  Coordinator C(M, Token);
  Outcome Result;
  Result.Command = O.Command;
  C.Warn = [&](const std::string &W) {
    std::fprintf(stderr, "lockstep: warning: %s\n", W.c_str());
    Result.Warnings.push_back(W);
  };
  if (Error E = C.listen(Listen)) {
    error(E.message() + "; choose another port with --listen HOST:PORT, or "
                        "port 0 for any free one");
    return ExitSetup;
  }
  net::Endpoint Reach = Listen;
  if (Reach.Host == "0.0.0.0" || Reach.Host == "::") { // ranks need an address they can reach
    char Host[256] = {};
    gethostname(Host, sizeof Host - 1);
    Reach.Host = Host;
  }
  prepareProcess();
  Processes P;
  if (Error E = launch(O, P, net::formatCoordinator(Token, Reach), Interposer)) {
    error(E.message());
    return ExitSetup;
  }
  JobEnd End = supervise(O, M, C, P, Result);
  conclude(O, M, C, P, End, Result);
  report(O, M, C, Findings, Result);
  return Result.ExitCode;
}

} // namespace lockstep::run
