// lockstep-fake-ranks: stands in for N ranks of one job on the loopback, to
// measure what one coordinator can take. Run it under
//
//   lockstep run -q -n N --attach -- lockstep-fake-ranks N RATE SECONDS [DIVERGE_AT]
//
// Each of the N connections says hello as rank r of N, registers
// MPI_COMM_WORLD and streams the fingerprints of an 8-float MPI_Allreduce
// (one call site, a heartbeat every 100 ms) at RATE calls/s per rank, all
// ranks at the same pace. At DIVERGE_AT seconds (default 80% of SECONDS)
// the last rank calls MPI_Barrier instead, and every rank stops, as a hung
// job would. Printed: the records/s reached, the coordinator's CPU and peak
// memory (lockstep is this process's parent), and the time from the
// injected divergence to the coordinator's stop order.
#include "Net.h"
#include "Wire.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace lockstep;

namespace {

constexpr int ThreadCount = 4;
constexpr uint64_t World = 1; // the interposer's id of a job-wide MPI_COMM_WORLD
constexpr uint64_t TickNs = 1000000;

struct Rank {
  int Fd = -1;
  uint64_t Sent = 0;        // the last sequence number sent
  std::vector<uint8_t> Out; // encoded, not yet written
};

/// The coordinator's CPU seconds (user + system) and peak RSS in KiB.
std::pair<double, long> usage(pid_t Pid) {
  std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
  std::string Text((std::istreambuf_iterator<char>(Stat)), {});
  std::istringstream Fields(Text.substr(Text.rfind(')') + 2));
  std::string Skip;
  unsigned long User = 0, System = 0;
  for (int I = 3; I <= 13; ++I)
    Fields >> Skip;
  Fields >> User >> System;
  long Peak = 0;
  std::ifstream Status("/proc/" + std::to_string(Pid) + "/status");
  for (std::string Line; std::getline(Status, Line);)
    if (Line.rfind("VmHWM:", 0) == 0)
      Peak = std::atol(Line.c_str() + 6);
  return {double(User + System) / double(sysconf(_SC_CLK_TCK)), Peak};
}

bool flush(Rank &R) {
  if (R.Out.empty())
    return true;
  ssize_t N = send(R.Fd, R.Out.data(), R.Out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  if (N < 0)
    return errno == EAGAIN || errno == EWOULDBLOCK;
  R.Out.erase(R.Out.begin(), R.Out.begin() + N);
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  const char *Coordinator = getenv(net::CoordinatorVar);
  if (Argc < 4 || !Coordinator) {
    std::fprintf(stderr, "usage: lockstep run -n N --attach -- %s N RATE SECONDS [DIVERGE_AT]\n",
                 Argv[0]);
    return 2;
  }
  const int World = std::atoi(Argv[1]);
  const double Rate = std::atof(Argv[2]), Seconds = std::atof(Argv[3]);
  const double DivergeAt = Argc > 4 ? std::atof(Argv[4]) : 0.8 * Seconds;
  const uint64_t DivergeSeq = std::max<uint64_t>(1, uint64_t(DivergeAt * Rate));
  rlimit Files;
  getrlimit(RLIMIT_NOFILE, &Files);
  Files.rlim_cur = Files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &Files);

  uint8_t Token[wire::TokenBytes];
  net::Endpoint At;
  if (lockstep::Error E = net::parseCoordinator(Coordinator, Token, At)) {
    std::fprintf(stderr, "fake-ranks: %s\n", E.message().c_str());
    return 2;
  }
  std::vector<Rank> Ranks(static_cast<size_t>(World));
  for (int R = 0; R < World; ++R) {
    lockstep::Expected<int> Fd = net::connectTo(At);
    if (!Fd) {
      std::fprintf(stderr, "fake-ranks: rank %d: %s\n", R, Fd.takeError().message().c_str());
      return 1;
    }
    Ranks[size_t(R)].Fd = *Fd;
    wire::Hello H;
    std::copy(std::begin(Token), std::end(Token), H.Token);
    H.Rank = R;
    H.WorldSize = World;
    H.Pid = getpid();
    H.ClockNs = net::monotonicNs();
    H.Host = "loopback";
    std::vector<uint8_t> &Out = Ranks[size_t(R)].Out;
    wire::encode(H, Out);
    wire::encode(wire::Comm{World, uint32_t(World), uint32_t(R), 0, 0, 1}, Out);
    wire::encode(
        wire::Def{wire::DefKind::Function, 0, wire::HostBlocking, "MPI_Allreduce", "allreduce"},
        Out);
    wire::encode(
        wire::Def{wire::DefKind::Function, 1, wire::HostBlocking, "MPI_Barrier", "barrier"}, Out);
    wire::encode(wire::Def{wire::DefKind::Datatype, 0, 0, "MPI_FLOAT", ""}, Out);
    wire::encode(wire::Def{wire::DefKind::Op, 0, 0, "MPI_SUM", ""}, Out);
    wire::encode(wire::Def{wire::DefKind::Site, 0, 0x1234, "/bench/train", "train_step"}, Out);
    net::writeAll(Ranks[size_t(R)].Fd, Out.data(), Out.size(), 10000);
    Out.clear();
  }

  pid_t Lockstep = getppid();
  auto [Cpu0, Peak0] = usage(Lockstep);
  (void)Peak0;
  std::atomic<uint64_t> Records{0}, StopNs{0}, InjectNs{0};
  std::atomic<bool> Done{false};
  const uint64_t Start = net::monotonicNs();
  auto Worker = [&](int First) {
    uint64_t LastBeat = 0;
    while (!Done.load()) {
      uint64_t Now = net::monotonicNs();
      uint64_t Due = std::min<uint64_t>(DivergeSeq, uint64_t(double(Now - Start) * Rate / 1e9));
      bool Beat = Now - LastBeat >= 100 * TickNs;
      for (int R = First; R < World; R += ThreadCount) {
        Rank &Me = Ranks[size_t(R)];
        // A full socket holds the rank back, as it would hold back a real sender.
        for (; Me.Sent < Due && Me.Out.size() < (64 << 10); ++Records) {
          wire::Event E;
          E.Comm = World;
          E.Seq = ++Me.Sent;
          bool Odd = E.Seq == DivergeSeq && R == World - 1;
          E.Func = Odd ? 1 : 0;
          E.Datatype = Odd ? wire::None : 0;
          E.Op = Odd ? wire::None : 0;
          E.Count = Odd ? wire::NoCount : 8;
          E.TimeNs = Now;
          wire::encode(E, Me.Out);
          if (Odd)
            InjectNs.store(Now);
        }
        if (Beat) {
          wire::Beat B;
          B.Lanes = {{World, Me.Sent, Me.Sent == DivergeSeq ? Me.Sent - 1 : Me.Sent}};
          wire::encode(B, Me.Out);
        }
        if (!flush(Me)) {
          Done.store(true);
          break;
        }
        uint8_t Buf[256];
        if (recv(Me.Fd, Buf, sizeof Buf, MSG_DONTWAIT) > 0) { // the only message: stop
          uint64_t Zero = 0;
          StopNs.compare_exchange_strong(Zero, net::monotonicNs());
          Done.store(true);
        }
      }
      if (Beat)
        LastBeat = Now;
      if (Now - Start > uint64_t((Seconds + 30) * 1e9))
        Done.store(true); // never stopped: a missed divergence
      usleep(1000);
    }
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < ThreadCount; ++T)
    Threads.emplace_back(Worker, T);
  for (auto &T : Threads)
    T.join();
  uint64_t End = net::monotonicNs();
  auto [Cpu1, Peak1] = usage(Lockstep);
  double Wall = double(std::min<uint64_t>(End, StopNs ? StopNs.load() : End) - Start) / 1e9;
  uint64_t Stop = StopNs.load(), Inject = InjectNs.load();
  rusage Self;
  getrusage(RUSAGE_SELF, &Self);
  double Mine = double(Self.ru_utime.tv_sec + Self.ru_stime.tv_sec) +
                double(Self.ru_utime.tv_usec + Self.ru_stime.tv_usec) / 1e6;
  // On a shared machine the generator and the coordinator compete for the
  // same cores: records per coordinator CPU second is what one core takes.
  std::printf("ranks %d  target %.0f calls/s/rank  records %llu  records/s %.0f  "
              "coordinator cpu %.0f%% (%.0f records per cpu-second)  peak rss %ld KiB  "
              "generator cpu %.0f%%  divergence->stop %s\n",
              World, Rate, static_cast<unsigned long long>(Records.load()),
              double(Records.load()) / Wall, 100 * (Cpu1 - Cpu0) / Wall,
              double(Records.load()) / std::max(1e-9, Cpu1 - Cpu0), Peak1, 100 * Mine / Wall,
              Stop && Inject
                  ? (std::to_string((Stop - std::min(Stop, Inject)) / 1000000) + " ms").c_str()
                  : "never (missed)");
  for (Rank &R : Ranks)
    close(R.Fd);
  return Stop ? 0 : 1;
}
