#include "Processes.h"

#include "../common/Net.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace lockstep::run {

Processes::~Processes() {
  for (const Child &C : Kids)
    if (!C.Reaped)
      killpg(C.Pid, SIGKILL);
  for (Stream &S : Streams)
    if (S.Fd >= 0)
      close(S.Fd);
}

Error Processes::spawn(const std::vector<std::string> &Argv,
                       const std::map<std::string, std::string> &Env, int Rank, Prefix How) {
  int Out[2], Err[2];
  if (pipe2(Out, O_CLOEXEC) != 0 || pipe2(Err, O_CLOEXEC) != 0)
    return Error(std::string("pipe: ") + std::strerror(errno));
  // Everything the child needs is built before fork: only async-signal-safe
  // calls happen between fork and exec.
  std::map<std::string, std::string> Merged;
  for (char **E = environ; *E; ++E) {
    const char *Eq = std::strchr(*E, '=');
    if (Eq)
      Merged[std::string(*E, size_t(Eq - *E))] = Eq + 1;
  }
  for (const auto &[K, V] : Env)
    Merged[K] = V;
  std::vector<std::string> EnvText;
  for (const auto &[K, V] : Merged)
    EnvText.push_back(K + "=" + V);
  std::vector<char *> EnvP, ArgP;
  for (auto &S : EnvText)
    EnvP.push_back(S.data());
  EnvP.push_back(nullptr);
  std::vector<std::string> ArgCopy = Argv;
  for (auto &S : ArgCopy)
    ArgP.push_back(S.data());
  ArgP.push_back(nullptr);
  std::string Failed = "lockstep: error: cannot run '" + Argv[0] + "': ";
  pid_t Parent = getpid();

  pid_t Pid = fork();
  if (Pid < 0)
    return Error(std::string("fork: ") + std::strerror(errno));
  if (Pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != Parent)
      _exit(127);
    int Null = open("/dev/null", O_RDONLY);
    dup2(Null, 0);
    dup2(Out[1], 1);
    dup2(Err[1], 2);
    signal(SIGPIPE, SIG_DFL);
    execvpe(ArgP[0], ArgP.data(), EnvP.data());
    std::string Message = Failed + std::strerror(errno) + "\n";
    ssize_t Ignored = write(2, Message.data(), Message.size());
    (void)Ignored;
    _exit(127);
  }
  setpgid(Pid, Pid); // also here: whichever runs first, the group exists before any kill
  close(Out[1]);
  close(Err[1]);
  Kids.push_back({Pid, Rank, false, 0, 0});
  for (auto [Fd, To] : {std::pair{Out[0], 1}, std::pair{Err[0], 2}}) {
    net::setNonBlocking(Fd);
    Streams.push_back({Fd, To, Rank, How, {}});
  }
  return Error::success();
}

void Processes::pollSet(std::vector<pollfd> &Fds,
                        std::vector<std::function<void(short)>> &Handlers) {
  for (size_t I = 0; I < Streams.size(); ++I)
    if (Streams[I].Fd >= 0) {
      Fds.push_back({Streams[I].Fd, POLLIN, 0});
      Handlers.push_back([this, I](short) { drain(Streams[I]); });
    }
}

void Processes::emit(Stream &S, const std::string &Line) {
  std::string Text;
  if (S.How == Prefix::Rank) {
    Text = "[rank " + std::to_string(S.Rank) + "] " + Line;
  } else if (S.How == Prefix::MpiTagged) {
    static const std::regex Tag(R"(^\[\d+,(\d+)\]<std(out|err)>:)");
    std::smatch M;
    if (!std::regex_search(Line, M, Tag) && Held.size() < MaxHeld) {
      Held.emplace_back(S.Out, Line + '\n');
      return;
    }
    Text = M.empty() ? Line : "[rank " + M[1].str() + "] " + M.suffix().str();
  } else {
    Text = Line;
  }
  writeText(S.Out, Text + '\n');
}

void Processes::writeText(int Fd, const std::string &Text) {
  for (size_t Done = 0; Done < Text.size();) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Done += size_t(N);
  }
}

void Processes::releaseLauncherLines(bool Show) {
  if (Show)
    for (const auto &[Fd, Line] : Held)
      writeText(Fd, Line);
  Held.clear();
}

void Processes::drain(Stream &S) {
  char Buf[65536];
  for (;;) {
    ssize_t N = read(S.Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return; // EAGAIN: nothing more now
    if (N == 0) {
      if (!S.Partial.empty())
        emit(S, S.Partial);
      S.Partial.clear();
      close(S.Fd);
      S.Fd = -1;
      return;
    }
    S.Partial.append(Buf, size_t(N));
    size_t Start = 0;
    for (size_t End; (End = S.Partial.find('\n', Start)) != std::string::npos; Start = End + 1)
      emit(S, S.Partial.substr(Start, End - Start));
    S.Partial.erase(0, Start);
  }
}

void Processes::flush() {
  for (Stream &S : Streams)
    if (S.Fd >= 0) {
      drain(S);
      if (S.Fd >= 0) { // a grandchild still holds the pipe: stop waiting for it
        if (!S.Partial.empty())
          emit(S, S.Partial);
        close(S.Fd);
        S.Fd = -1;
      }
    }
}

void Processes::reap(const std::function<void(const Child &)> &OnExit) {
  for (Child &C : Kids) {
    if (C.Reaped)
      continue;
    int Status;
    if (waitpid(C.Pid, &Status, WNOHANG) == C.Pid) {
      C.Reaped = true;
      C.Status = Status;
      C.ReapedNs = net::monotonicNs();
      // The leader is gone; whatever it left in its group goes too.
      killpg(C.Pid, SIGKILL);
      OnExit(C);
    }
  }
}

void Processes::terminate(int DelayMs, int GraceMs) {
  if (TermAtNs)
    return;
  TermAtNs = net::monotonicNs() + uint64_t(DelayMs) * 1000000;
  KillAtNs = TermAtNs + uint64_t(GraceMs) * 1000000;
  escalate(net::monotonicNs());
}

void Processes::escalate(uint64_t NowNs) {
  if (!TermAtNs || NowNs < TermAtNs)
    return;
  int Signal = NowNs >= KillAtNs ? SIGKILL : SIGTERM;
  if (Signal == SIGTERM && Termed)
    return;
  Termed = true;
  for (const Child &C : Kids)
    if (!C.Reaped)
      killpg(C.Pid, Signal);
}

bool Processes::allReaped() const {
  for (const Child &C : Kids)
    if (!C.Reaped)
      return false;
  return true;
}

std::string Processes::describe(int Status) {
  if (WIFEXITED(Status))
    return "exited with code " + std::to_string(WEXITSTATUS(Status));
  if (WIFSIGNALED(Status)) {
    const char *Abbrev = sigabbrev_np(WTERMSIG(Status));
    return std::string("killed by ") +
           (Abbrev ? "SIG" + std::string(Abbrev) : "signal " + std::to_string(WTERMSIG(Status)));
  }
  return "stopped";
}

int Processes::exitCode(int Status) {
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return 1;
}

} // namespace lockstep::run
