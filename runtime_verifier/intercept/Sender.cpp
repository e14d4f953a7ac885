// The background sender: drains the record ring, names what the records
// refer to (functions, datatypes, operators, call sites) the first time
// each is used, and streams frames to the coordinator. It also listens for
// the coordinator's stop order. Nothing here runs on the program's threads.
//
// The hand-off from the ring has no wake-up to lose: the program's threads
// never signal, the sender looks at the ring at least every millisecond.
// Every record either reaches the coordinator or is counted in
// State::Dropped, and a heartbeat every 100 ms carries that count and the
// rank's own per-communicator call counts, so the coordinator knows where a
// rank is even when some of its records never arrive.
#include "../common/ExitCodes.h"
#include "Names.h"
#include "State.h"

#include <cstdio>
#include <dlfcn.h>
#include <link.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lockstep::rt {

namespace {

class Sender {
public:
  explicit Sender(State &S) : S(S) {}
  void run();

private:
  void stream();
  bool connect();
  void encode(const Record &R);
  uint32_t site(uintptr_t Address);
  void define(wire::DefKind Kind, uint32_t Id);
  bool flush(int TimeoutMs);
  void readOrders();
  void beat();
  void lost(const char *Why);

  State &S;
  int Fd = -1;
  std::vector<uint8_t> Out;
  std::unordered_map<uintptr_t, uint32_t> Sites;
  std::unordered_set<uint64_t> Defined; // kind << 32 | id
  wire::FrameSplitter In;
  bool Lost = false;
  uint64_t LastBeatNs = 0;
  uint64_t Taken = 0; // records popped from the ring
};

constexpr uint64_t BeatNs = 100'000'000;

bool Sender::connect() {
  // The coordinator listens before any rank starts; retries only cover a
  // loaded machine's accept backlog.
  Expected<int> Connected = net::connectTo(S.Env.Coordinator);
  for (int Attempt = 1; Attempt < 50 && !Connected; ++Attempt) {
    usleep(100 * 1000);
    Connected = net::connectTo(S.Env.Coordinator);
  }
  if (!Connected) {
    std::fprintf(stderr, "lockstep: error: rank %d: %s; collectives are not verified\n", S.Env.Rank,
                 Connected.takeError().message().c_str());
    return false;
  }
  Fd = *Connected;
  S.Socket.store(Fd);
  wire::Hello H;
  std::copy(std::begin(S.Env.Token), std::end(S.Env.Token), H.Token);
  H.Role = wire::Role::Rank;
  H.Rank = S.Env.Rank;
  H.WorldSize = S.Env.WorldSize;
  H.Pid = getpid();
  H.ClockNs = net::monotonicNs();
  char Host[256] = {};
  gethostname(Host, sizeof Host - 1);
  H.Host = Host;
  wire::encode(H, Out);
  return true;
}

void Sender::define(wire::DefKind Kind, uint32_t Id) {
  if (!Defined.insert(uint64_t(Kind) << 32 | Id).second)
    return;
  wire::Def D;
  D.K = Kind;
  D.Id = Id;
  if (Kind == wire::DefKind::Function) {
    const FunctionSpec &F = Functions[Id];
    D.First = F.Name;
    D.Second = F.Operation;
    D.Aux = F.Flags;
  } else {
    D.First = Kind == wire::DefKind::Datatype ? datatypeName(Id) : opName(Id);
  }
  wire::encode(D, Out);
}

/// Call sites travel as (module, offset from its load bias): the offset is
/// what a symbolizer reads from the module's DWARF, whatever ASLR did.
uint32_t Sender::site(uintptr_t Address) {
  auto [It, New] = Sites.emplace(Address, uint32_t(Sites.size()));
  if (!New)
    return It->second;
  struct Found {
    uintptr_t Address;
    std::string Module;
    uintptr_t Bias = 0;
  } F{Address, {}};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *F = static_cast<Found *>(Data);
        for (int I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
          if (P.p_type == PT_LOAD && F->Address >= Start && F->Address < Start + P.p_memsz) {
            F->Module = Info->dlpi_name ? Info->dlpi_name : "";
            F->Bias = Info->dlpi_addr;
            return 1;
          }
        }
        return 0;
      },
      &F);
  if (F.Module.empty()) { // the main program has no name in the link map
    char Path[4096];
    ssize_t N = readlink("/proc/self/exe", Path, sizeof Path - 1);
    F.Module = N > 0 ? std::string(Path, size_t(N)) : "?";
  }
  wire::Def D;
  D.K = wire::DefKind::Site;
  D.Id = It->second;
  D.Aux = Address - F.Bias;
  D.First = F.Module;
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(Address), &Info) && Info.dli_sname)
    D.Second = Info.dli_sname;
  wire::encode(D, Out);
  return It->second;
}

void Sender::encode(const Record &R) {
  if (R.K == Record::Comm) {
    wire::encode(R.C, Out);
    return;
  }
  wire::Event E = R.E;
  define(wire::DefKind::Function, E.Func);
  if (E.Datatype != wire::None)
    define(wire::DefKind::Datatype, E.Datatype);
  if (E.Op != wire::None)
    define(wire::DefKind::Op, E.Op);
  E.Site = site(R.Address);
  wire::encode(E, Out);
}

bool Sender::flush(int TimeoutMs) {
  if (Out.empty())
    return true;
  bool Ok = net::writeAll(Fd, Out.data(), Out.size(), TimeoutMs);
  Out.clear();
  return Ok;
}

void Sender::beat() {
  wire::Beat B;
  B.Dropped = S.Dropped.load(std::memory_order_relaxed);
  countLanes(B.Lanes);
  wire::encode(B, Out);
  LastBeatNs = net::monotonicNs();
}

void Sender::lost(const char *Why) {
  if (S.Env.Managed) {
    // Started by `lockstep run`, which is gone: do not outlive it.
    std::fprintf(stderr, "lockstep: rank %d: lost the coordinator (%s); exiting\n", S.Env.Rank,
                 Why);
    _exit(ExitSetup); // not a divergence
  }
  if (!Lost)
    std::fprintf(stderr,
                 "lockstep: warning: rank %d: lost the coordinator (%s); "
                 "collectives are no longer verified\n",
                 S.Env.Rank, Why);
  Lost = true;
  if (Fd >= 0 && S.Socket.exchange(-1) >= 0)
    close(Fd);
  Fd = -1;
}

void Sender::readOrders() {
  uint8_t Buf[4096];
  for (;;) {
    ssize_t N = recv(Fd, Buf, sizeof Buf, MSG_DONTWAIT);
    if (N == 0)
      return lost("connection closed");
    if (N < 0)
      return;
    In.feed(Buf, size_t(N));
    wire::Type T;
    std::vector<uint8_t> Payload;
    while (In.next(T, Payload)) {
      wire::Reader Rd(Payload.data(), Payload.size());
      wire::Stop Order;
      if (T != wire::Type::Stop || wire::decode(Rd, Order))
        return lost("unexpected message");
      if (!S.Env.Managed)
        std::fprintf(stderr, "lockstep: rank %d stopped by the coordinator: %s\n", S.Env.Rank,
                     Order.Reason.c_str());
      // An MPI job is ended from inside, so that mpirun tears it down and
      // exits on its own instead of being killed mid-way.
      mpiAbortJob(ExitDiverged);
      _exit(ExitDiverged);
    }
    if (In.takeError())
      return lost("malformed message");
  }
}

void Sender::run() {
  if (connect())
    stream();
  else
    lost("no connection");
  while (Lost) { // keep draining so that the program never notices
    for (Record R; S.Records.pop(R);) {
    }
    if (S.ShuttingDown.load())
      return;
    usleep(10 * 1000);
  }
}

void Sender::stream() {
  while (!Lost) {
    bool Stopping = S.ShuttingDown.load(std::memory_order_acquire);
    size_t Drained = 0;
    for (Record R; Drained < 4096 && S.Records.pop(R); ++Drained)
      encode(R);
    // After the drain: the counts it carries cover every record before it.
    uint64_t Asked = S.BeatsAsked.load(std::memory_order_acquire);
    if (Stopping || Asked != S.BeatsDone.load() || net::monotonicNs() - LastBeatNs >= BeatNs)
      beat();
    if (!flush(Stopping ? 2000 : 30000))
      return lost("write failed");
    Taken += Drained;
    S.Shipped.store(Taken, std::memory_order_release);
    S.BeatsDone.store(Asked, std::memory_order_release);
    pollfd P{Fd, POLLIN, 0};
    if (poll(&P, 1, Drained ? 0 : 1) > 0) // 1 ms idle latency, no wake-up cost on the hot path
      readOrders();
    if (Stopping && Drained == 0 && !Lost) {
      uint8_t Flags = (mpiLeftOpen() ? wire::LeftMpiOpen : 0) |
                      (S.MpiUnverified.load() ? wire::MpiUnverified : 0);
      wire::encode(wire::Bye{S.Dropped.load(), Flags}, Out);
      flush(2000);
      shutdown(Fd, SHUT_WR);
      return;
    }
  }
}

} // namespace

void startSender(State &S) {
  S.Sender = std::thread([&S] { Sender(S).run(); });
}

void stopSender(State &S) {
  S.ShuttingDown.store(true, std::memory_order_release);
  if (S.Sender.joinable())
    S.Sender.join();
}

} // namespace lockstep::rt
