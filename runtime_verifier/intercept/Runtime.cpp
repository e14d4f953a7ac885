#include "State.h"
#include "UserApi.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>
#include <set>
#include <unistd.h>
#include <unordered_map>

namespace lockstep::rt {

namespace {

// 0: not decided yet, 1: enabled, -1: disabled for good.
std::atomic<int> Status{0};
State *Global = nullptr;
std::once_flag InitOnce;

__attribute__((tls_model("initial-exec"))) thread_local int Depth = 0;
__attribute__((tls_model("initial-exec"))) thread_local int GroupDepth = 0;

struct CommTable {
  std::mutex Lock;
  std::unordered_map<uintptr_t, CommSlot *> Slots;
  std::atomic<uint64_t> Generation{0};
};
CommTable &comms() {
  static CommTable *T = new CommTable; // never destroyed: wrappers may run during exit
  return *T;
}

/// The last communicator this thread used: most programs use one or two, so
/// this spares the table lock on nearly every call.
struct CommCache {
  uintptr_t Handle = 0;
  uint8_t Api = 0;
  CommSlot *Slot = nullptr;
  uint64_t Generation = ~0ull;
};
__attribute__((tls_model("initial-exec"))) thread_local CommCache Cache;

uintptr_t tableKey(Api A, uintptr_t Handle) {
  // MPI and NCCL handles are distinct pointers; the API bit keeps integer
  // handles (MPICH) apart from NCCL pointers as well.
  return Handle ^ (uintptr_t(A) << 62);
}

int envInt(const char *const Names[], size_t Count) {
  for (size_t I = 0; I < Count; ++I)
    if (const char *V = getenv(Names[I]); V && *V) {
      char *End = nullptr;
      long N = strtol(V, &End, 10);
      if (*End == '\0' && N >= 0 && N < (1L << 30))
        return int(N);
    }
  return -1;
}

void onForkChild() {
  // The child is not a rank: it has no sender, and must not keep the
  // parent's connection open (the coordinator detects exits by its close).
  Status.store(-1);
  if (Global)
    if (int Fd = Global->Socket.exchange(-1); Fd >= 0)
      close(Fd);
}

void initialize() {
  auto *S = new State;
  Expected<bool> InJob = readJobEnv(S->Env);
  if (!InJob || !*InJob) {
    if (!InJob)
      std::fprintf(stderr, "lockstep: error: %s; collectives of this process are not verified\n",
                   InJob.takeError().message().c_str());
    delete S;
    Status.store(-1);
    return;
  }
  Global = S;
  pthread_atfork(nullptr, nullptr, onForkChild);
  startSender(*S);
  installCrashFlush(*S);
  Status.store(1);
}

__attribute__((destructor)) void finish() {
  if (Status.load() == 1 && Global)
    stopSender(*Global);
}

} // namespace

Expected<bool> readJobEnv(JobEnv &Env) {
  const char *Coordinator = getenv(net::CoordinatorVar);
  if (!Coordinator || !*Coordinator)
    return false;
  if (Error E = net::parseCoordinator(Coordinator, Env.Token, Env.Coordinator))
    return Error(std::string(net::CoordinatorVar) + ": " + E.message());
  // torchrun, Open MPI, PMIx, MPICH/Hydra and Slurm, in that order.
  static const char *const Ranks[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                      "SLURM_PROCID"};
  static const char *const Sizes[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                      "SLURM_NTASKS"};
  static const char *const LocalRanks[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                           "MPI_LOCALRANKID", "SLURM_LOCALID"};
  static const char *const LocalSizes[] = {"LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                           "MPI_LOCALNRANKS"};
  Env.Rank = envInt(Ranks, std::size(Ranks));
  Env.WorldSize = envInt(Sizes, std::size(Sizes));
  if (Env.Rank < 0 || Env.WorldSize <= 0 || Env.Rank >= Env.WorldSize)
    return Error("no rank and world size in the environment (RANK/WORLD_SIZE, "
                 "OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE or SLURM_PROCID/NTASKS)");
  Env.LocalRank = envInt(LocalRanks, std::size(LocalRanks));
  Env.LocalWorldSize = envInt(LocalSizes, std::size(LocalSizes));
  if (Env.LocalRank < 0)
    Env.LocalRank = Env.Rank;
  if (Env.LocalWorldSize <= 0)
    Env.LocalWorldSize = Env.WorldSize;
  const char *Managed = getenv("LOCKSTEP_MANAGED");
  Env.Managed = Managed && std::string(Managed) == "1";
  return true;
}

size_t ringCapacity() {
  const char *Text = getenv("LOCKSTEP_RING_RECORDS");
  unsigned long N = Text ? strtoul(Text, nullptr, 10) : 0;
  if (N >= 1024 && N <= (1ul << 22) && (N & (N - 1)) == 0)
    return N;
  if (Text)
    std::fprintf(stderr,
                 "lockstep: warning: LOCKSTEP_RING_RECORDS=%s is not a power of two from "
                 "1024 to 4194304; using 16384\n",
                 Text);
  return 1u << 14;
}

State *state() { return Status.load(std::memory_order_acquire) == 1 ? Global : nullptr; }

bool enabled() {
  int S = Status.load(std::memory_order_acquire);
  if (S != 0)
    return S == 1;
  std::call_once(InitOnce, initialize);
  return Status.load() == 1;
}

Guard::Guard() : Nested(Depth++ > 0) {}
Guard::~Guard() { --Depth; }

int &groupDepth() { return GroupDepth; }

int jobRank() { return Global ? Global->Env.Rank : -1; }
int jobWorldSize() { return Global ? Global->Env.WorldSize : 0; }

CommSlot *findComm(Api A, uintptr_t Handle) {
  CommTable &T = comms();
  uint64_t Gen = T.Generation.load(std::memory_order_acquire);
  if (Cache.Handle == Handle && Cache.Api == uint8_t(A) && Cache.Generation == Gen)
    return Cache.Slot;
  std::lock_guard<std::mutex> L(T.Lock);
  auto It = T.Slots.find(tableKey(A, Handle));
  if (It == T.Slots.end())
    return nullptr;
  Cache = {Handle, uint8_t(A), It->second, Gen};
  return It->second;
}

CommSlot *bindComm(uintptr_t Handle, const wire::Comm &Info, bool Tracked) {
  CommTable &T = comms();
  CommSlot *Slot;
  {
    std::lock_guard<std::mutex> L(T.Lock);
    CommSlot *&Entry = T.Slots[tableKey(Api(Info.Api), Handle)];
    if (!Entry)
      Entry = new CommSlot;
    Slot = Entry;
    Slot->Id.store(Info.Id);
    Slot->Seq.store(0);
    Slot->Returned.store(0);
    Slot->Tracked.store(Tracked);
    T.Generation.fetch_add(1, std::memory_order_release);
  }
  if (State *S = state(); S && Tracked) {
    Record R;
    R.K = Record::Comm;
    R.C = Info;
    if (!S->Records.push(R))
      S->Dropped.fetch_add(1, std::memory_order_relaxed);
  }
  return Slot;
}

void countLanes(std::vector<wire::Beat::Lane> &Out) {
  CommTable &T = comms();
  std::lock_guard<std::mutex> L(T.Lock);
  for (const auto &[Key, Slot] : T.Slots)
    if (Slot->Tracked.load(std::memory_order_relaxed) && Out.size() < wire::Beat::MaxLanes) {
      // Returned first: read the other way round, a call could seem to
      // have returned before it was made.
      uint64_t Returned = Slot->Returned.load(std::memory_order_relaxed);
      Out.push_back({Slot->Id.load(std::memory_order_relaxed),
                     std::max(Returned, Slot->Seq.load(std::memory_order_relaxed)), Returned});
    }
}

uint64_t recordEvent(CommSlot &Slot, uint32_t Func, int64_t Count, uint32_t Datatype, uint32_t Op,
                     int32_t Root, uint32_t Flags, const void *ReturnAddress) {
  State *S = state();
  if (!S || !Slot.Tracked.load(std::memory_order_relaxed))
    return 0;
  Record R;
  R.K = Record::Event;
  R.Address = reinterpret_cast<uintptr_t>(ReturnAddress) - 1; // inside the call instruction
  R.E.Comm = Slot.Id.load(std::memory_order_relaxed);
  R.E.Seq = Slot.Seq.fetch_add(1, std::memory_order_relaxed) + 1;
  R.E.Func = Func;
  R.E.Count = Count;
  R.E.Datatype = Datatype;
  R.E.Op = Op;
  R.E.Root = Root;
  R.E.Flags = Flags;
  R.E.TimeNs = net::monotonicNs();
  if (!S->Records.push(R))
    S->Dropped.fetch_add(1, std::memory_order_relaxed);
  return R.E.Seq;
}

void *nextSymbol(const char *Name) {
  if (void *P = dlsym(RTLD_NEXT, Name))
    return P;
  std::fprintf(stderr, "lockstep: error: cannot find the real '%s' after the interposer\n", Name);
  std::exit(127);
}

void warnOnce(const std::string &Message) {
  static std::mutex Lock;
  static std::set<std::string> *Seen = new std::set<std::string>;
  std::lock_guard<std::mutex> L(Lock);
  if (Seen->insert(Message).second)
    std::fprintf(stderr, "lockstep: warning: rank %d: %s\n", jobRank(), Message.c_str());
}

uint64_t hashBytes(uint64_t Seed, const void *Data, size_t Size) {
  uint64_t H = Seed ^ 0xcbf29ce484222325ull;
  const auto *P = static_cast<const uint8_t *>(Data);
  for (size_t I = 0; I < Size; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

} // namespace lockstep::rt
