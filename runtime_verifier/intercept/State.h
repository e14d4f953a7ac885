// Internal to the interposer: the process-wide state shared by the hot path
// (Runtime.cpp), the background sender (Sender.cpp) and the harness entry
// points (Harness.cpp).
#pragma once

#include "../common/Net.h"
#include "Ring.h"
#include "Runtime.h"

#include <atomic>
#include <thread>
#include <vector>

namespace lockstep::rt {

/// The job as the environment describes it.
struct JobEnv {
  uint8_t Token[wire::TokenBytes];
  net::Endpoint Coordinator;
  int Rank = -1, WorldSize = 0, LocalRank = -1, LocalWorldSize = 0;
  bool Managed = false; // started by `lockstep run`: quiet stop, exit with it
};

/// Reads LOCKSTEP_COORDINATOR and the launcher's rank variables: false when
/// this process is simply not part of a lockstep job; fails when the
/// environment is wrong.
Expected<bool> readJobEnv(JobEnv &Env);

/// Records the ring holds: LOCKSTEP_RING_RECORDS (a power of two from 1024
/// to 4194304), else 16384 (about 1.3 MiB).
size_t ringCapacity();

struct State {
  JobEnv Env;
  Ring<Record> Records{ringCapacity()};
  std::atomic<uint64_t> Dropped{0};
  std::atomic<bool> ShuttingDown{false};
  std::atomic<int> Socket{-1};
  /// Ring records taken by the sender and written to the socket: a crashing
  /// thread waits for this to pass what it queued, and for a heartbeat it
  /// asks for (BeatsAsked) to be written (BeatsDone).
  std::atomic<uint64_t> Shipped{0};
  std::atomic<uint64_t> BeatsAsked{0}, BeatsDone{0};
  std::atomic<bool> MpiUnverified{false}; // MPI_COMM_WORLD is not the job's: said in the bye
  std::thread Sender;
};

/// On a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), gives the
/// sender a moment to ship what the rank did before it dies, then lets the
/// previous handler or the default action run (CrashFlush.cpp).
void installCrashFlush(State &S);

/// Every tracked communicator's calls so far, for a heartbeat.
void countLanes(std::vector<wire::Beat::Lane> &Out);

/// True when MPI was initialized and not finalized: a rank that leaves so
/// breaks the job (MpiApi.cpp).
bool mpiLeftOpen();
/// Ends the whole MPI job from inside when MPI is initialized and not
/// finalized (MPI_Abort, so that mpirun ends on its own); returns otherwise.
void mpiAbortJob(int Code);

/// The state once enabled() returned true; null otherwise.
State *state();

/// Starts the sender thread (connects, says hello, streams records).
void startSender(State &S);
/// Flushes what is queued, says goodbye and joins the sender (bounded wait).
void stopSender(State &S);

/// Opens a connection for a harness request (hello with the harness role).
Expected<int> connectHarness(const JobEnv &Env);

} // namespace lockstep::rt
