// The processes lockstep starts: each in its own process group (so a stop
// reaches everything it forked), killed if lockstep dies (PDEATHSIG), with
// its output streamed line by line under a rank prefix.
#pragma once

#include "Result.h"

#include <functional>
#include <map>
#include <poll.h>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lockstep::run {

/// How a child's output lines are labelled.
enum class Prefix {
  Rank,      // "[rank N] " (a rank lockstep started itself)
  MpiTagged, // mpirun --tag-output lines: "[1,N]<stdout>:" becomes "[rank N] "
  None,      // another launcher's own output
};

struct Child {
  pid_t Pid = -1;
  int Rank = -1; // -1: a launcher command
  bool Reaped = false;
  int Status = 0;
  uint64_t ReapedNs = 0;
};

class Processes {
public:
  ~Processes();

  /// Starts \p Argv with \p Env added to lockstep's environment.
  Error spawn(const std::vector<std::string> &Argv, const std::map<std::string, std::string> &Env,
              int Rank, Prefix How);

  void pollSet(std::vector<pollfd> &Fds, std::vector<std::function<void(short)>> &Handlers);
  /// Reaps exited children; calls \p OnExit for each.
  void reap(const std::function<void(const Child &)> &OnExit);
  /// SIGTERM to every live process group after \p DelayMs (time for ranks
  /// told to stop to exit and their launcher to pass on their last output),
  /// SIGKILL to what is left \p GraceMs later. escalate() sends them.
  void terminate(int DelayMs, int GraceMs);
  void escalate(uint64_t NowNs);
  bool allReaped() const;
  /// True once terminate() sent its first signal.
  bool signalled() const { return Termed; }
  /// Writes out partial lines and stops reading.
  void flush();
  /// Lines of a MpiTagged stream that are not a rank's are mpirun's own
  /// (its banners when a rank leaves or the job aborts): they are held back
  /// until the job is over, then shown (\p Show) or dropped, so that they
  /// never stand in for or bury lockstep's diagnosis.
  void releaseLauncherLines(bool Show);
  const std::vector<Child> &children() const { return Kids; }

  /// "exited with code 1", "killed by SIGKILL".
  static std::string describe(int Status);
  /// The code lockstep passes on for a child's wait status.
  static int exitCode(int Status);

private:
  struct Stream {
    int Fd = -1, Out = 1, Rank = -1;
    Prefix How = Prefix::None;
    std::string Partial;
  };
  void drain(Stream &S);
  void emit(Stream &S, const std::string &Line);
  static void writeText(int Fd, const std::string &Text);

  std::vector<Child> Kids;
  std::vector<Stream> Streams;
  uint64_t TermAtNs = 0, KillAtNs = 0;
  bool Termed = false;
  std::vector<std::pair<int, std::string>> Held; // (output fd, line) of mpirun's own
  static constexpr size_t MaxHeld = 1000;        // more are shown as they come
};

} // namespace lockstep::run
