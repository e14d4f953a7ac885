#include "RunCommand.h"

#include "Coordinator.h"
#include "Diagnosis.h"
#include "Findings.h"
#include "Options.h"
#include "Processes.h"
#include "Report.h"

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sys/random.h>
#include <unistd.h>

namespace lockstep::run {

namespace {

volatile sig_atomic_t Interrupted = 0;
void onSignal(int Signal) { Interrupted = Signal; }

constexpr uint64_t kMs = 1000000;

void error(const std::string &Message) { std::fprintf(stderr, "lockstep: error: %s\n", Message.c_str()); }

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
  for (const std::string &Candidate : {Dir + "/../lib/liblockstep-intercept.so",
                                       Dir + "/liblockstep-intercept.so"})
    if (access(Candidate.c_str(), R_OK) == 0) {
      char Real[PATH_MAX];
      return realpath(Candidate.c_str(), Real) ? Real : Candidate;
    }
  return "";
}

/// A free TCP port on the loopback for MASTER_PORT (the program's own rendezvous).
uint16_t freePort() {
  net::Endpoint At{"127.0.0.1", 0};
  std::string Ignored;
  int Fd = net::listenOn(At, Ignored);
  if (Fd >= 0)
    close(Fd);
  return At.port;
}

std::string preload(const std::string &Library) {
  const char *Existing = getenv("LD_PRELOAD");
  return Existing && *Existing ? Library + ":" + Existing : Library;
}

/// Starts the job as \p O describes. Empty string or the error.
std::string launch(const RunOptions &O, Processes &P, const std::string &Coordinator,
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
      if (std::string E = P.spawn(O.Command, Env, R, Prefix::Rank); !E.empty())
        return E;
    }
    return "";
  }
  if (O.Mode == LaunchMode::Mpi) {
    // The token travels in the environment (-x NAME), never on a command
    // line that other users can read; the preload only reaches the ranks.
    Env["LOCKSTEP_MANAGED"] = "1";
    const char *Mpirun = getenv("LOCKSTEP_MPIRUN");
    std::vector<std::string> Argv = {Mpirun && *Mpirun ? Mpirun : "mpirun",
                                     "-np", std::to_string(O.Ranks), "--oversubscribe", "--tag-output",
                                     "-x", "LD_PRELOAD=" + preload(Interposer),
                                     "-x", "LOCKSTEP_COORDINATOR", "-x", "LOCKSTEP_MANAGED"};
    Argv.insert(Argv.end(), O.Command.begin(), O.Command.end());
    return P.spawn(Argv, Env, -1, Prefix::MpiTagged);
  }
  std::fprintf(stderr,
               "lockstep: coordinating %d ranks; each needs in its environment:\n"
               "  LOCKSTEP_COORDINATOR=<as exported to the command>\n  LD_PRELOAD=%s\n",
               O.Ranks, Interposer.c_str());
  if (O.Command.empty()) {
    std::fprintf(stderr, "lockstep: export LOCKSTEP_COORDINATOR=%s\n", Coordinator.c_str());
    return "";
  }
  Env["LOCKSTEP_MANAGED"] = "1";
  Env["LD_PRELOAD"] = preload(Interposer);
  return P.spawn(O.Command, Env, -1, Prefix::None);
}

std::string stopReason(const Matcher &M) {
  const Divergence &D = *M.divergence();
  const auto &P = D.Points.front();
  return std::string(kindName(D.Kind)) + " at collective #" + std::to_string(P.Seq) + " on " +
         M.label(P.Comm);
}

} // namespace

int runCommand(const std::vector<std::string> &Args) {
  RunOptions O;
  if (std::string E = parseRunOptions(Args, O); !E.empty()) {
    if (E == "help") {
      std::fputs(kRunUsage, stdout);
      return 0;
    }
    error(E);
    std::fprintf(stderr, "usage: lockstep run -n N [options] -- PROGRAM [ARGS...] (see --help)\n");
    return kExitUsage;
  }
  std::vector<Finding> Findings;
  if (!O.FindingsFile.empty())
    if (std::string E = loadFindings(O.FindingsFile, Findings); !E.empty()) {
      error(E);
      return kExitUsage;
    }
  net::Endpoint Listen;
  if (std::string E = net::parseEndpoint(O.Listen, Listen, true); !E.empty()) {
    error("--listen: " + E);
    return kExitUsage;
  }
  std::string Interposer = findInterposer();
  if (Interposer.empty()) {
    error("cannot find liblockstep-intercept.so next to this executable (set LOCKSTEP_INTERCEPT)");
    return kExitSetup;
  }
  uint8_t Token[wire::kTokenBytes];
  if (getrandom(Token, sizeof Token, 0) != ssize_t(sizeof Token)) {
    error("cannot draw a random job token");
    return kExitSetup;
  }

  Matcher M(O.Ranks, uint64_t(O.StallTimeoutSeconds * 1e9));
  Coordinator C(M, Token);
  Outcome Result;
  Result.Command = O.Command;
  C.Warn = [&](const std::string &W) {
    std::fprintf(stderr, "lockstep: warning: %s\n", W.c_str());
    Result.Warnings.push_back(W);
  };
  if (std::string E = C.listen(Listen); !E.empty()) {
    error(E + "; choose another port with --listen HOST:PORT, or port 0 for any free one");
    return kExitSetup;
  }
  net::Endpoint Reach = Listen;
  if (Reach.host == "0.0.0.0" || Reach.host == "::") { // ranks need an address they can reach
    char Host[256] = {};
    gethostname(Host, sizeof Host - 1);
    Reach.host = Host;
  }

  struct sigaction Action {};
  Action.sa_handler = onSignal;
  for (int S : {SIGINT, SIGTERM, SIGHUP})
    sigaction(S, &Action, nullptr);
  signal(SIGPIPE, SIG_IGN);

  Processes P;
  if (std::string E = launch(O, P, net::formatCoordinator(Token, Reach), Interposer); !E.empty()) {
    error(E);
    return kExitSetup;
  }

  uint64_t StopNs = 0, LastExitNs = 0;
  int CommandStatus = -1;
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
        CommandStatus = Kid.Status;
        return;
      }
      M.setExit(Kid.Rank, Processes::describe(Kid.Status));
      if (!M.ranks()[size_t(Kid.Rank)].Connected) // a rank that never called a collective
        M.departed(Kid.Rank, false, Now);
    });
    M.tick(Now);
    if (!StopNs && (M.divergence() || Interrupted)) {
      StopNs = Now;
      C.stopRanks(M.divergence() ? stopReason(M) : "interrupted");
      // Ranks exit on the stop order; a launcher in between (mpirun) gets a
      // moment to pass on their last output before it is terminated too.
      P.terminate(O.Mode == LaunchMode::Direct ? 0 : 300, 1000);
    }
    P.escalate(Now);
    bool Started = !P.children().empty();
    bool Gone = Started ? P.allReaped() : C.ranksSeen() == O.Ranks;
    if (Gone && (C.openRanks() == 0 || Now - LastExitNs > 2000 * kMs))
      break;
    if (StopNs && Now - StopNs > 5000 * kMs) // processes that ignore even SIGKILL's group
      break;
  }
  P.flush();
  uint64_t EndNs = net::monotonicNs();
  for (int R = 0; R < O.Ranks; ++R) // gone with the job without a word (mpirun's ranks)
    if (!M.ranks()[size_t(R)].Connected)
      M.departed(R, false, EndNs);
  M.finish(EndNs);

  const auto &D = M.divergence();
  if (D) {
    Result.Status = D->Kind == DivergenceKind::Stall ? "stalled" : "diverged";
    Result.ExitCode = D->Kind == DivergenceKind::Stall ? kExitStalled : kExitDiverged;
    Result.DetectionMs = double(D->DetectedNs - D->CauseNs) / kMs;
    Result.StopMs = StopNs ? double(StopNs - D->DetectedNs) / kMs : 0; // 0: found once the job was down
  } else if (Interrupted) {
    Result.Status = "interrupted";
    Result.ExitCode = 128 + Interrupted;
  } else {
    int Code = 0;
    if (CommandStatus >= 0)
      Code = Processes::exitCode(CommandStatus);
    for (const Child &Kid : P.children())
      if (Kid.Rank >= 0 && Code == 0)
        Code = Processes::exitCode(Kid.Status);
    Result.Status = Code == 0 ? "passed" : "failed";
    Result.ExitCode = Code;
  }

  for (int R = 0; R < O.Ranks; ++R)
    if (uint64_t Lost = M.ranks()[size_t(R)].Dropped)
      C.Warn("rank " + std::to_string(R) + " dropped " + std::to_string(Lost) +
             " of its collective records (they came faster than they could be sent); "
             "those collectives were not compared");
  bool NeedSites = D || !Findings.empty() || !O.ReportFile.empty() || !O.JsonFile.empty();
  std::vector<Location> Sites = NeedSites ? symbolize(M.names()) : std::vector<Location>{};
  if (D) {
    Result.Diagnosis = renderDiagnosis(M, Sites, O.StallTimeoutSeconds);
    std::fprintf(stderr, "%s", Result.Diagnosis.c_str());
    std::fprintf(stderr, "lockstep: note: divergence detected %.0f ms after it happened; stop ordered %.0f ms later\n",
                 D->Kind == DivergenceKind::Stall ? Result.DetectionMs - O.StallTimeoutSeconds * 1000
                                                  : Result.DetectionMs,
                 Result.StopMs);
  }
  Result.Verdicts = judge(Findings, M, Sites);
  for (const Judged &V : Result.Verdicts)
    std::fprintf(stderr, "lockstep: %-14s %s:%u%s%s\n", verdictName(V.Outcome), V.What.At.File.c_str(),
                 V.What.At.Line, V.Detail.empty() ? "" : ": ", V.Detail.c_str());
  if (!D && !O.Quiet) {
    uint64_t Calls = 0;
    for (const RankState &R : M.ranks())
      Calls += R.Calls;
    std::fprintf(stderr, "lockstep: %s: %d ranks, %llu collective calls on %zu communicator%s, no divergence\n",
                 Result.Status.c_str(), O.Ranks, static_cast<unsigned long long>(Calls), M.comms().size(),
                 M.comms().size() == 1 ? "" : "s");
  }
  for (const auto &[File, Write] : {std::pair{O.JsonFile, &writeJson}, std::pair{O.ReportFile, &writeHtml}})
    if (!File.empty())
      if (std::string E = Write(File, M, Sites, Result); !E.empty())
        error(E);
  return Result.ExitCode;
}

} // namespace lockstep::run
