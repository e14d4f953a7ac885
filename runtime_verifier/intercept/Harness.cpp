// Entry points for lockstep/harness.h, exported with C linkage so that a
// test program finds them with dlsym in the preloaded interposer and needs
// no link-time dependency on lockstep.
#include "State.h"

#include <cstdio>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lockstep::rt {

Expected<int> connectHarness(const JobEnv &Env) {
  Expected<int> Connected = net::connectTo(Env.Coordinator);
  if (!Connected)
    return Connected;
  const int Fd = *Connected;
  wire::Hello H;
  std::copy(std::begin(Env.Token), std::end(Env.Token), H.Token);
  H.Role = wire::Role::Harness;
  H.Rank = Env.Rank;
  H.WorldSize = Env.WorldSize;
  H.Pid = getpid();
  H.ClockNs = net::monotonicNs();
  auto Frame = wire::frame(H);
  if (!net::writeAll(Fd, Frame.data(), Frame.size(), 5000)) {
    close(Fd);
    return Error("cannot send to the coordinator");
  }
  return Fd;
}

namespace {

bool jobEnv(JobEnv &Env) {
  Expected<bool> InJob = readJobEnv(Env);
  if (InJob && *InJob)
    return true;
  std::fprintf(stderr, "lockstep: harness: %s\n",
               InJob ? "not running under 'lockstep run' (LOCKSTEP_COORDINATOR is not set)"
                     : InJob.takeError().message().c_str());
  return false;
}

/// One request on a fresh connection; for a get, waits for the answer.
int request(wire::Type T, const char *Key, const void *Data, size_t Size, void *Out,
            size_t Capacity, size_t *OutSize, int TimeoutSeconds) {
  JobEnv Env;
  if (!jobEnv(Env))
    return -1;
  wire::Kv Message;
  Message.Key = Key ? Key : "";
  if (Message.Key.empty() || Message.Key.size() > 255 || Size > wire::MaxKvValue) {
    std::fprintf(stderr,
                 "lockstep: harness: a key must have 1 to 255 characters and a value at "
                 "most %zu bytes\n",
                 wire::MaxKvValue);
    return -1;
  }
  if (Data)
    Message.Value.assign(static_cast<const uint8_t *>(Data),
                         static_cast<const uint8_t *>(Data) + Size);
  Expected<int> Connected = connectHarness(Env);
  if (!Connected) {
    std::fprintf(stderr, "lockstep: harness: %s\n", Connected.takeError().message().c_str());
    return -1;
  }
  const int Fd = *Connected;
  auto Frame = wire::frame(T, Message);
  int Rc = net::writeAll(Fd, Frame.data(), Frame.size(), 5000) ? 0 : -1;
  if (Rc == 0 && T == wire::Type::KvGet) {
    Rc = -1;
    wire::FrameSplitter In;
    uint64_t Deadline = net::monotonicNs() + uint64_t(TimeoutSeconds) * 1000000000ull;
    for (;;) {
      wire::Type Got;
      std::vector<uint8_t> Payload;
      if (In.next(Got, Payload)) {
        wire::Reader R(Payload.data(), Payload.size());
        wire::Kv Answer;
        if (Got == wire::Type::KvValue && !wire::decode(R, Answer) &&
            Answer.Value.size() <= Capacity) {
          std::copy(Answer.Value.begin(), Answer.Value.end(), static_cast<uint8_t *>(Out));
          *OutSize = Answer.Value.size();
          Rc = 0;
        }
        break;
      }
      uint64_t Now = net::monotonicNs();
      pollfd P{Fd, POLLIN, 0};
      if (Now >= Deadline || poll(&P, 1, int((Deadline - Now) / 1000000) + 1) <= 0)
        break;
      uint8_t Buf[8192];
      ssize_t N = recv(Fd, Buf, sizeof Buf, 0);
      if (N <= 0)
        break;
      In.feed(Buf, size_t(N));
    }
    if (Rc != 0)
      std::fprintf(stderr, "lockstep: harness: no value for '%s' from the coordinator\n", Key);
  }
  close(Fd);
  return Rc;
}

} // namespace
} // namespace lockstep::rt

extern "C" {

__attribute__((visibility("default"))) int lockstep_job_info(int *Rank, int *WorldSize,
                                                             int *LocalRank, int *LocalWorldSize) {
  lockstep::rt::JobEnv Env;
  if (!lockstep::rt::jobEnv(Env))
    return -1;
  *Rank = Env.Rank;
  *WorldSize = Env.WorldSize;
  *LocalRank = Env.LocalRank;
  *LocalWorldSize = Env.LocalWorldSize;
  return 0;
}

__attribute__((visibility("default"))) int lockstep_kv_put(const char *Key, const void *Data,
                                                           size_t Size) {
  return lockstep::rt::request(lockstep::wire::Type::KvPut, Key, Data, Size, nullptr, 0, nullptr,
                               0);
}

__attribute__((visibility("default"))) int
lockstep_kv_get(const char *Key, void *Out, size_t Capacity, size_t *Size, int TimeoutSeconds) {
  return lockstep::rt::request(lockstep::wire::Type::KvGet, Key, nullptr, 0, Out, Capacity, Size,
                               TimeoutSeconds);
}
}
