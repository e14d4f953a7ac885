// The interposer's process-wide state: whether this process is a rank of a
// lockstep job, its communicator table and the record ring that the
// background sender drains. Everything here is safe to call from any thread;
// the hot path (recordEvent) takes no lock on a communicator it has seen.
#pragma once

#include "../common/Wire.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace lockstep::rt {

using wire::Api;

/// Datatype and operator ids carry their API in the top bits, so names from
/// MPI and NCCL never collide; bit 29 marks an id computed from a size.
constexpr uint32_t ApiShift = 30;
constexpr uint32_t Derived = 1u << 29;
inline uint32_t makeId(Api A, uint32_t Value) { return uint32_t(A) << ApiShift | Value; }

/// A communicator as this process knows it. Slots are never freed: a handle
/// that MPI or NCCL reuses gets its slot rebound.
struct CommSlot {
  std::atomic<uint64_t> Id{0};
  std::atomic<uint64_t> Seq{0};
  std::atomic<uint64_t> Returned{0}; // calls on it that returned: Seq - Returned are inside
  std::atomic<bool> Tracked{false};
};

/// What a generated wrapper knows about its function, from rules/.
struct FunctionSpec {
  const char *Name;
  const char *Operation;
  uint64_t Flags; // wire::HostBlocking, wire::NonblockingCall
};
/// The generated table (Wrappers.generated.cpp).
extern const FunctionSpec Functions[];
extern const uint32_t FunctionCount;

/// One record of the ring: an event or a communicator registration.
struct Record {
  enum Kind : uint32_t { Event = 1, Comm = 2 } K;
  uintptr_t Address; // events: the call site's return address minus one
  union {
    wire::Event E;
    wire::Comm C;
  };
  Record() : K(Event), Address(0), E() {}
};

/// True when this process reports to a coordinator. The first call reads
/// the environment and starts the sender; a process without
/// LOCKSTEP_COORDINATOR (or a forked child) is never enabled.
bool enabled();

/// Guards against counting calls that MPI or NCCL make internally.
class Guard {
public:
  Guard();
  ~Guard();
  bool nested() const { return Nested; }

private:
  bool Nested;
};

/// The slot of \p Handle, or null when the handle is unknown.
CommSlot *findComm(Api A, uintptr_t Handle);
/// Binds \p Handle to a communicator and queues its registration.
/// \p Tracked false: events on it are not reported (size-one or
/// intercommunicators, unknown origin).
CommSlot *bindComm(uintptr_t Handle, const wire::Comm &Info, bool Tracked);

/// Queues one event; returns its sequence number on \p Slot (0 when the
/// slot is not tracked).
uint64_t recordEvent(CommSlot &Slot, uint32_t Func, int64_t Count, uint32_t Datatype, uint32_t Op,
                     int32_t Root, uint32_t Flags, const void *ReturnAddress);

/// The call numbered by recordEvent() returned.
inline void returnedEvent(CommSlot &Slot) { Slot.Returned.fetch_add(1, std::memory_order_relaxed); }

/// NCCL group nesting of the calling thread.
int &groupDepth();

/// Prints "lockstep: warning: <Message>" once per distinct message.
void warnOnce(const std::string &Message);

/// This job's rank and world size (from the launcher's environment).
int jobRank();
int jobWorldSize();

/// 64-bit FNV-1a, for job-wide communicator identities.
uint64_t hashBytes(uint64_t Seed, const void *Data, size_t Size);

} // namespace lockstep::rt
