// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Arms that call one function with different values for a parameter that
// decides its collectives (a loop's trip count, a branch around a barrier,
// a recursion's depth): the ranks of each arm run different sequences
// through the same function.
#include <mpi.h>
#include <cstdio>

static void sync_rounds(int rounds, MPI_Comm comm) {
  for (int r = 0; r < rounds; ++r)
    MPI_Barrier(comm);
}

static void maybe_sync(bool sync, MPI_Comm comm) {
  if (sync)
    MPI_Barrier(comm);
}

// The parameter reaches the test through a local computed from it.
static void warmup(int epochs, MPI_Comm comm) {
  int steps = 4 * epochs;
  for (int s = 0; s < steps; ++s)
    MPI_Barrier(comm);
}

// Positive: the arms pass different trip counts.
void uneven_rounds(MPI_Comm comm, int half) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank < half)
    sync_rounds(3, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sync_rounds' (which calls 'MPI_Barrier') gets argument 'rounds' '3' on ranks where 'rank < half' but '5' on the other ranks; every rank must pass the same argument 'rounds' or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-22]]:5: note: 'MPI_Barrier' is called here, inside 'sync_rounds'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank < half' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '5' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: compute the argument 'rounds' so that it is the same on every rank, and call 'sync_rounds' once, outside the branch
  else
    sync_rounds(5, comm);
}

// Positive: a flag that decides whether the callee synchronises.
void flag_by_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    maybe_sync(true, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'maybe_sync' (which calls 'MPI_Barrier') gets argument 'sync' 'true' on ranks where 'rank == 0' but 'false' on the other ranks; every rank must pass the same argument 'sync' or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-33]]:5: note: 'MPI_Barrier' is called here, inside 'maybe_sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass 'false' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: compute the argument 'sync' so that it is the same on every rank, and call 'maybe_sync' once, outside the branch
  else
    maybe_sync(false, comm);
}

// Positive: through a local of the callee.
void uneven_warmup(MPI_Comm comm, int a, int b) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2)
    warmup(a, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'warmup' (which calls 'MPI_Barrier') gets argument 'epochs' 'a' on ranks where 'rank % 2' but 'b' on the other ranks; every rank must pass the same argument 'epochs' or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-42]]:5: note: 'MPI_Barrier' is called here, inside 'warmup'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank % 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass 'b' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: compute the argument 'epochs' so that it is the same on every rank, and call 'warmup' once, outside the branch
  else
    warmup(b, comm);
}

// Positive: a recursive split of the ranks that synchronises the world at
// every level. Unless the size is a power of two, the halves recurse to
// different depths and the shallower one stops calling the barrier first.
static void spread(double *v, int n, int lo, int hi, int rank, MPI_Comm world) {
  if (hi - lo <= 1)
    return;
  int mid = lo + (hi - lo) / 2;
  if (rank == lo)
    MPI_Send(v, n, MPI_DOUBLE, mid, 0, world);
  else if (rank == mid)
    MPI_Recv(v, n, MPI_DOUBLE, lo, 0, world, MPI_STATUS_IGNORE);
  MPI_Barrier(world);
  if (rank < mid)
    spread(v, n, lo, mid, rank, world);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'spread' (which calls 'MPI_Barrier') gets argument 'lo' 'lo' on ranks where 'rank < mid' but 'mid' on the other ranks; every rank must pass the same argument 'lo' or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'MPI_Barrier' is called here, inside 'spread'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank < mid' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:58: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass 'mid' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: compute the argument 'lo' so that it is the same on every rank, and call 'spread' once, outside the branch
  else
    spread(v, n, mid, hi, rank, world);
}

void broadcast_by_halves(double *v, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  spread(v, n, 0, size, rank, MPI_COMM_WORLD);
}

// Negative: both arms pass the same values.
void same_rounds(MPI_Comm comm, int rounds) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    sync_rounds(rounds, comm);
  else
    sync_rounds(rounds, comm);
}

// Negative: the parameter that differs only decides what is printed; the
// barrier runs either way.
static void sync_and_log(const char *tag, bool verbose, MPI_Comm comm) {
  if (verbose)
    std::printf("%s\n", tag);
  MPI_Barrier(comm);
}

void log_on_rank0(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    sync_and_log("leader", true, comm);
  else
    sync_and_log("worker", false, comm);
}

// Negative: the trip count is a parameter, but every rank passes the same
// value, whichever arm it takes.
void agreed_rounds(MPI_Comm comm, int rounds) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    std::printf("rounds: %d\n", rounds);
    sync_rounds(rounds, comm);
  } else {
    sync_rounds(rounds, comm);
  }
}

// Negative: the flag decides only which form of the same reduce the callee
// makes (the root's in place); its loop runs four times whatever is passed.
static void reduce_passes(bool root, float *x, MPI_Comm comm) {
  for (int pass = 0; pass < 4; ++pass)
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_FLOAT, MPI_SUM, comm);
  if (root)
    MPI_Reduce(MPI_IN_PLACE, x, 1, MPI_FLOAT, MPI_SUM, 0, comm);
  else
    MPI_Reduce(x, nullptr, 1, MPI_FLOAT, MPI_SUM, 0, comm);
}

void reduce_to_root(float *x, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    reduce_passes(true, x, comm);
  else
    reduce_passes(false, x, comm);
}
