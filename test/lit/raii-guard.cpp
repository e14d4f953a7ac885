// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// RAII guards: a collective in the destructor of a local object runs where
// the object goes out of scope. The finding is reported at the guard's
// declaration, with a note where the destructor runs. An object made on the
// heap (`new`, `std::make_unique`) or in a `std::optional` (`emplace`) runs
// its destructor's collectives wherever it is destroyed later, on the ranks
// that made it: those are compared where it is made; a `delete` runs them
// where it is written.
#include <mpi.h>
#include <memory>
#include <optional>

class BarrierGuard {
public:
  explicit BarrierGuard(MPI_Comm comm) : comm_(comm) {}
  ~BarrierGuard() { MPI_Barrier(comm_); }

private:
  MPI_Comm comm_;
};

class Timer {
public:
  Timer() : start_(MPI_Wtime()) {}
  ~Timer() { elapsed = MPI_Wtime() - start_; }
  double elapsed = 0;

private:
  double start_;
};

void guarded_on_root(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    BarrierGuard sync(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the destructor of 'sync' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    if (n > 3)
      return;
    ++n;
  }
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: 'sync' is destroyed here; its destructor calls 'MPI_Barrier'
  // CHECK-MESSAGES: :[[@LINE-27]]:21: note: 'MPI_Barrier' is called here, inside 'BarrierGuard::~BarrierGuard'
  // CHECK-MESSAGES: :[[@LINE-9]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-10]]:18: note: declare 'sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the guard is declared on every rank; the ranks that return early
// destroy it there and run the same barrier.
void guarded_everywhere(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  BarrierGuard sync(comm);
  if (rank == 0)
    return;
  ++n;
}

// Negative: a guard whose destructor runs no collective.
void timed_on_root(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    Timer t;
    ++n;
  }
  MPI_Barrier(comm);
}

class ProfilerSession {
public:
  explicit ProfilerSession(MPI_Comm comm) : comm_(comm) {}
  ~ProfilerSession() { MPI_Barrier(comm_); }

private:
  MPI_Comm comm_;
};

// Positive: only rank 0 makes the session; resetting it runs the barrier
// there alone.
void profile_on_root(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<ProfilerSession> profiler;
  if (rank == 0)
    profiler = std::make_unique<ProfilerSession>(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'ProfilerSession::~ProfilerSession' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-15]]:24: note: 'MPI_Barrier' is called here, inside 'ProfilerSession::~ProfilerSession'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:16: note: make the 'ProfilerSession' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  for (int s = 0; s < steps; ++s)
    if (s == 3)
      profiler.reset();
}

// Negative: every rank makes the session, and deletes one made with new.
void profile_everywhere(MPI_Comm comm, int steps) {
  auto profiler = std::make_unique<ProfilerSession>(comm);
  ProfilerSession *raw = new ProfilerSession(comm);
  for (int s = 0; s < steps; ++s)
    if (s == 3)
      profiler.reset();
  delete raw;
}


// Positive: the optional scope is filled on the profiled ranks only; its
// destructor reduces the timings at the end of the epoch there alone.
void epoch_profiled_on_root(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::optional<ProfilerSession> scope;
  if (rank == 0)
    scope.emplace(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ProfilerSession::~ProfilerSession' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-44]]:24: note: 'MPI_Barrier' is called here, inside 'ProfilerSession::~ProfilerSession'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: make the 'ProfilerSession' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  for (int s = 0; s < steps; ++s)
    MPI_Barrier(comm);
}

// Negative: every rank fills the optional scope.
void epoch_profiled_everywhere(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::optional<ProfilerSession> scope;
  scope.emplace(comm);
  for (int s = 0; s < steps; ++s)
    MPI_Barrier(comm);
  if (rank == 0)
    MPI_Comm_rank(comm, &rank);
}

// Positive: every rank makes the session with `new`; only rank 0 deletes it.
void profile_deleted_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  ProfilerSession *profiler = new ProfilerSession(comm);
  if (rank == 0)
    delete profiler;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ProfilerSession::~ProfilerSession' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-72]]:24: note: 'MPI_Barrier' is called here, inside 'ProfilerSession::~ProfilerSession'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: destroy the 'ProfilerSession' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Barrier(comm);
}
