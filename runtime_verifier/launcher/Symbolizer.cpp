#include "Symbolizer.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace lockstep::run {

namespace {

std::string findTool(const char *Name) {
  if (std::string(Name).find('/') != std::string::npos)
    return access(Name, X_OK) == 0 ? Name : "";
  const char *Path = getenv("PATH");
  std::stringstream Dirs(Path ? Path : "/usr/bin:/bin");
  for (std::string Dir; std::getline(Dirs, Dir, ':');)
    if (!Dir.empty() && access((Dir + "/" + Name).c_str(), X_OK) == 0)
      return Dir + "/" + Name;
  return "";
}

/// Runs \p Argv and returns its standard output (empty after 10 s or on
/// failure: symbolizing is best effort and must not hang a report).
std::string capture(const std::vector<std::string> &Argv) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    return "";
  std::vector<char *> Args;
  std::vector<std::string> Copy = Argv;
  for (auto &A : Copy)
    Args.push_back(A.data());
  Args.push_back(nullptr);
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(Pipe[1], 1);
    int Null = open("/dev/null", O_RDWR);
    dup2(Null, 0);
    dup2(Null, 2);
    execv(Args[0], Args.data());
    _exit(127);
  }
  close(Pipe[1]);
  std::string Out;
  char Buf[8192];
  for (int Waited = 0; Pid > 0 && Waited < 10000;) {
    pollfd P{Pipe[0], POLLIN, 0};
    int Rc = poll(&P, 1, 100);
    if (Rc == 0) {
      Waited += 100;
      continue;
    }
    ssize_t N = read(Pipe[0], Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Out.append(Buf, size_t(N));
  }
  close(Pipe[0]);
  if (Pid > 0) {
    kill(Pid, SIGKILL);
    waitpid(Pid, nullptr, 0);
  }
  return Out;
}

std::string hex(uint64_t V) {
  std::ostringstream S;
  S << "0x" << std::hex << V;
  return S.str();
}

/// "file:line[:column]" into a frame (false for "??:0").
bool parseLocation(const std::string &Text, Frame &F) {
  size_t Colon = Text.rfind(':');
  if (Colon == std::string::npos)
    return false;
  std::string Last = Text.substr(Colon + 1);
  std::string Head = Text.substr(0, Colon);
  size_t Colon2 = Head.rfind(':');
  if (Colon2 != std::string::npos &&
      Head.find_first_not_of("0123456789", Colon2 + 1) == std::string::npos &&
      Colon2 + 1 < Head.size()) {
    F.Line = unsigned(std::strtoul(Head.c_str() + Colon2 + 1, nullptr, 10));
    F.Column = unsigned(std::strtoul(Last.c_str(), nullptr, 10));
    F.File = Head.substr(0, Colon2);
  } else {
    F.Line = unsigned(std::strtoul(Last.c_str(), nullptr, 10));
    F.File = Head;
  }
  size_t Discriminator = F.File.find(" (discriminator");
  if (Discriminator != std::string::npos)
    F.File.resize(Discriminator);
  return F.Line > 0 && F.File != "??";
}

/// llvm-symbolizer: per address, (function, location) pairs, a blank line.
void readLlvm(const std::string &Out, const std::vector<uint32_t> &Ids,
              std::vector<Location> &Into) {
  std::istringstream In(Out);
  size_t Index = 0;
  std::string Function, Where;
  while (Index < Ids.size() && std::getline(In, Function)) {
    if (Function.empty()) {
      ++Index;
      continue;
    }
    if (!std::getline(In, Where))
      break;
    Frame F;
    F.Function = Function;
    if (parseLocation(Where, F))
      Into[Ids[Index]].Frames.push_back(F);
  }
}

/// addr2line -a -f -i: per address, the address line then (function, location) pairs.
void readAddr2line(const std::string &Out, const std::vector<uint32_t> &Ids,
                   std::vector<Location> &Into) {
  std::istringstream In(Out);
  long Index = -1;
  std::string Line, Where;
  while (std::getline(In, Line)) {
    if (Line.rfind("0x", 0) == 0) {
      ++Index;
      continue;
    }
    if (Index < 0 || size_t(Index) >= Ids.size() || !std::getline(In, Where))
      break;
    Frame F;
    F.Function = Line;
    if (parseLocation(Where, F))
      Into[Ids[size_t(Index)]].Frames.push_back(F);
  }
}

} // namespace

std::string Location::text() const {
  if (Frames.empty())
    return Fallback;
  const Frame &F = Frames.front();
  std::string File = F.File;
  char Cwd[PATH_MAX];
  if (getcwd(Cwd, sizeof Cwd)) {
    std::string Prefix = std::string(Cwd) + "/";
    if (File.rfind(Prefix, 0) == 0)
      File = File.substr(Prefix.size());
  }
  return File + ":" + std::to_string(F.Line) + (F.Column ? ":" + std::to_string(F.Column) : "");
}

std::string Location::brief() const {
  if (Frames.empty())
    return Fallback.substr(Fallback.rfind('/') == std::string::npos ? 0 : Fallback.rfind('/') + 1);
  const Frame &F = Frames.front();
  return F.File.substr(F.File.rfind('/') + 1) + ":" + std::to_string(F.Line);
}

std::vector<Location> symbolize(const Names &Names) {
  std::vector<Location> Result(Names.siteCount());
  std::map<std::string, std::vector<uint32_t>> ByModule;
  for (uint32_t Id = 0; Id < Names.siteCount(); ++Id) {
    const Site &S = Names.site(Id);
    Result[Id].Fallback =
        S.Module + "+" + hex(S.Offset) + (S.Symbol.empty() ? "" : " (" + S.Symbol + ")");
    ByModule[S.Module].push_back(Id);
  }
  std::string Llvm;
  const char *Override = getenv("LOCKSTEP_SYMBOLIZER");
  for (const char *Candidate : {Override, static_cast<const char *>("llvm-symbolizer-22"),
                                static_cast<const char *>("llvm-symbolizer"),
                                static_cast<const char *>("/usr/lib/llvm-22/bin/llvm-symbolizer")})
    if (Candidate && *Candidate && (Llvm = findTool(Candidate)) != "")
      break;
  std::string Addr2line = Llvm.empty() ? findTool("addr2line") : "";
  if (Llvm.empty() && Addr2line.empty())
    return Result;
  for (const auto &[Module, Ids] : ByModule) {
    if (access(Module.c_str(), R_OK) != 0)
      continue; // another host's file (attach mode): keep the fallback
    std::vector<std::string> Argv;
    if (!Llvm.empty())
      Argv = {Llvm, "--obj=" + Module, "--inlines", "--functions=short"};
    else
      Argv = {Addr2line, "-e", Module, "-a", "-f", "-i", "-C"};
    for (uint32_t Id : Ids)
      Argv.push_back(hex(Names.site(Id).Offset));
    std::string Out = capture(Argv);
    if (!Llvm.empty())
      readLlvm(Out, Ids, Result);
    else
      readAddr2line(Out, Ids, Result);
  }
  return Result;
}

} // namespace lockstep::run
