// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Per-rank data sources (rules per_rank_sources): a clock, a random number,
// a host or device query, a received message. Each rank reads its own value,
// so a collective decided by it hangs, although the value never touched the
// rank; a collective that agrees on the value first makes it safe, and a
// value only logged decides nothing.
#include <mpi.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <unistd.h>

extern "C" int cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);

void deadline(MPI_Comm comm, double *grad, int n, int steps, double limit) {
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    if (MPI_Wtime() - t0 > limit)
      break;
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'MPI_Wtime() - t0 > limit', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'MPI_Wtime() - t0 > limit' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'MPI_Wtime() - t0 > limit' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:9: note: 'MPI_Wtime' returns a clock reading here; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: the elapsed time is agreed (the slowest rank's) before it decides.
void agreed_deadline(MPI_Comm comm, double *grad, int n, int steps, double limit) {
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    double elapsed = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (elapsed > limit)
      break;
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  }
}

// Negative: a clock read only for logging decides no collective.
void timed_step(MPI_Comm comm, double *grad, int n) {
  double t = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  std::printf("allreduce took %f s\n", MPI_Wtime() - t);
}

void chrono_budget(MPI_Comm comm, std::chrono::seconds budget) {
  auto start = std::chrono::steady_clock::now();
  auto now = std::chrono::steady_clock::now();
  if (now - start > budget)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'now - start > budget', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'now - start > budget' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'now - start > budget' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:14: note: 'now' is a clock reading from 'std::chrono::steady_clock::now'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

void sampled_sync(MPI_Comm comm) {
  if (std::rand() % 100 == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'std::rand() % 100 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'std::rand() % 100 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rand' returns a random number here; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: rank 0 draws, and every rank uses the broadcast draw.
void broadcast_sample(MPI_Comm comm) {
  int draw = std::rand();
  MPI_Bcast(&draw, 1, MPI_INT, 0, comm);
  if (draw % 100 == 0)
    MPI_Barrier(comm);
}

void host_leader(MPI_Comm comm) {
  char host[64];
  gethostname(host, sizeof host);
  if (host[0] == 'a')
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'host[0] == 'a''; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'host[0] == 'a'' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'host' is the host name from 'gethostname'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the host name is only printed.
void host_banner(MPI_Comm comm) {
  char host[64];
  gethostname(host, sizeof host);
  std::printf("running on %s\n", host);
  MPI_Barrier(comm);
}

void processor_name_count(MPI_Comm comm) {
  char host[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(host, &len);
  MPI_Bcast(host, len + 1, MPI_CHAR, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: 'len + 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'len' is the host name (or its length) from 'MPI_Get_processor_name'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the name's buffer size is the same everywhere.
void processor_name_buffer(MPI_Comm comm) {
  char host[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(host, &len);
  MPI_Bcast(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm);
}

void memory_chunks(MPI_Comm comm, float *buf) {
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  int chunks = static_cast<int>(free_bytes >> 30);
  MPI_Bcast(buf, chunks, MPI_FLOAT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: 'chunks' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'free_bytes' is the free device memory from 'cudaMemGetInfo'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the smallest free memory of all ranks sizes the chunks.
void agreed_memory_chunks(MPI_Comm comm, float *buf) {
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  unsigned long least = free_bytes;
  MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_UNSIGNED_LONG, MPI_MIN, comm);
  int chunks = static_cast<int>(least >> 30);
  MPI_Bcast(buf, chunks, MPI_FLOAT, 0, comm);
}

void received_flag(MPI_Comm comm, int peer) {
  int go = 0;
  MPI_Recv(&go, 1, MPI_INT, peer, 0, comm, MPI_STATUS_IGNORE);
  if (go)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'go'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'go' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'go' is a received message from 'MPI_Recv'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the status of the receive is the same on every rank.
void receive_status(MPI_Comm comm, int peer, int *data) {
  if (MPI_Recv(data, 1, MPI_INT, peer, 0, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return;
  MPI_Barrier(comm);
}

// A receive's status (which tag, which source) is each rank's own: a worker
// told to stop before any task leaves the workers' allreduce.
void stop_tag_leaves(MPI_Comm world, MPI_Comm workers, double *tally) {
  MPI_Status st;
  MPI_Recv(tally, 1, MPI_DOUBLE, 0, MPI_ANY_TAG, world, &st);
  if (st.MPI_TAG == 13)
    return;
  MPI_Allreduce(MPI_IN_PLACE, tally, 1, MPI_DOUBLE, MPI_SUM, workers);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'st.MPI_TAG == 13', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'st.MPI_TAG == 13' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'st.MPI_TAG == 13' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'st' is a received message from 'MPI_Recv'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
}

// Negative: the tag only ends the loop of receives; every worker reaches the
// allreduce after it.
void drain_until_stop(MPI_Comm world, MPI_Comm workers, double *tally) {
  MPI_Status st;
  for (;;) {
    MPI_Recv(tally, 1, MPI_DOUBLE, 0, MPI_ANY_TAG, world, &st);
    if (st.MPI_TAG == 13)
      break;
  }
  MPI_Allreduce(MPI_IN_PLACE, tally, 1, MPI_DOUBLE, MPI_SUM, workers);
}

// A polled request completes at a different moment on each rank.
void poll_then_reduce(MPI_Comm comm, MPI_Request req, double *x) {
  int done = 0;
  MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  if (done)
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'done'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'done' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'done' is a completion flag from 'MPI_Test'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: polled until it completes, on every rank.
void poll_until_done(MPI_Comm comm, MPI_Request req, double *x) {
  int done = 0;
  while (!done)
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, comm);
}

// What a collective hands each rank differs between ranks unless the rules
// call the buffer uniform: a reduce's result is on the root only, a
// scatter's part and a scan's prefix are each rank's own.
void reduce_then_test(MPI_Comm comm, double residual) {
  double sum = 0;
  MPI_Reduce(&residual, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  if (sum < 1e-6)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'sum < 1e-6', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'sum < 1e-6' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'sum < 1e-6' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'sum' is what this rank receives from 'MPI_Reduce'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

void scatter_then_loop(MPI_Comm comm, const int *plan) {
  int n = 0;
  MPI_Scatter(plan, 1, MPI_INT, &n, 1, MPI_INT, 0, comm);
  if (n > 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'n' is what this rank receives from 'MPI_Scatter'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  int before = 0, one = 1;
  MPI_Exscan(&one, &before, 1, MPI_INT, MPI_SUM, comm);
  if (before == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'before == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'before == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'before' is what this rank receives from 'MPI_Exscan'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the result every rank receives (an allreduce), or the root's
// result broadcast before it decides, or only printed at the root.
void reduce_then_agree(MPI_Comm comm, double residual) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double sum = 0, all = 0;
  MPI_Reduce(&residual, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  if (rank == 0)
    std::printf("residual %g\n", sum);
  MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, comm);
  MPI_Allreduce(&residual, &all, 1, MPI_DOUBLE, MPI_SUM, comm);
  if (sum < 1e-6 || all < 1e-6)
    return;
  MPI_Barrier(comm);
}

// A neighbour in a process grid differs between ranks: the ranks on the
// edge have none.
void edge_leaves(MPI_Comm grid, double *r) {
  int west, east;
  MPI_Cart_shift(grid, 1, 1, &west, &east);
  if (east == MPI_PROC_NULL)
    return;
  MPI_Allreduce(MPI_IN_PLACE, r, 1, MPI_DOUBLE, MPI_SUM, grid);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'east == MPI_PROC_NULL', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'east == MPI_PROC_NULL' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'east == MPI_PROC_NULL' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'east' is a neighbour in the process grid from 'MPI_Cart_shift'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  // Negative: the neighbours only address point-to-point messages.
  MPI_Sendrecv_replace(r, 1, MPI_DOUBLE, east, 0, west, 0, grid, MPI_STATUS_IGNORE);
  MPI_Barrier(grid);
}

// `std::random_device{}()` assigned (an operator call on the right of `=`):
// a seed drawn on every rank differs (positive); one drawn on rank 0 and
// broadcast is the same everywhere (negative).
void drawn_seed(MPI_Comm comm, double *grad, int n) {
  unsigned seed = 0;
  seed = std::random_device{}();
  std::mt19937 gen(seed);
  std::bernoulli_distribution skip(0.1);
  if (skip(gen))
    return;
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'skip(gen)', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'skip(gen)' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'skip(gen)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:30: note: 'seed' is a random number from 'std::random_device::operator()'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
}

void broadcast_seed(MPI_Comm comm, double *grad, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  unsigned seed = 0;
  if (rank == 0)
    seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UNSIGNED, 0, comm);
  std::mt19937 gen(seed);
  std::bernoulli_distribution skip(0.1);
  if (skip(gen))
    return;
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
}

// A function of the user's whose body no file shows computes the numbers it
// writes from what it is given, as it does its result: a loss computed from
// a per-rank batch is per-rank. Its other outputs (a count, a state object)
// keep their values.
struct Batch {
  const int *tokens;
  int size;
};
Batch shard_batch(int rank, int step);
void forward_backward(const Batch &b, float *grads, float *loss, int *tokens_seen);

// Positive: the batch's own loss decides the skip.
void skip_bad_batch(MPI_Comm comm, float *grads, int n, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int s = 0; s < steps; ++s) {
    float loss;
    int seen;
    forward_backward(shard_batch(rank, s), grads, &loss, &seen);
    if (loss != loss)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, grads, n, MPI_FLOAT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'loss != loss', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'loss != loss' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'loss != loss' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: 'forward_backward' is given a value that differs between ranks; its body is not visible, so what it writes to 'loss' is taken to differ as well
    // CHECK-MESSAGES: :[[@LINE-8]]:22: note: 'shard_batch' is given a value that differs between ranks; its body is not visible, so its result is taken to differ as well
    // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: the loss is agreed first, and a count it writes decides nothing
// per rank.
void skip_agreed(MPI_Comm comm, float *grads, int n, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int s = 0; s < steps; ++s) {
    float loss;
    int seen;
    forward_backward(shard_batch(rank, s), grads, &loss, &seen);
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_FLOAT, MPI_MAX, comm);
    if (loss != loss || seen < 0)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, grads, n, MPI_FLOAT, MPI_SUM, comm);
  }
}

// A scoped timer writes the time its scope took into the variable its
// constructor bound, when the scope ends.
class ScopedTimer {
public:
  explicit ScopedTimer(double &out) : out_(out), t0_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    out_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

private:
  double &out_;
  std::chrono::steady_clock::time_point t0_;
};

void compute_forces();

// Positive: only the ranks whose step took too long share their costs.
void rebalance_when_slow(double budget) {
  double elapsed = 0.0;
  {
    ScopedTimer t(elapsed);
    compute_forces();
  }
  if (elapsed > budget)
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'elapsed > budget'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'elapsed > budget' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-21]]:42: note: 'std::chrono::steady_clock::now' returns a clock reading here; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the slowest rank's time, agreed first, decides.
void rebalance_when_all_slow(double budget) {
  double elapsed = 0.0;
  {
    ScopedTimer t(elapsed);
    compute_forces();
  }
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (elapsed > budget)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: the time is only printed.
void report_step_time(int step) {
  double elapsed = 0.0;
  {
    ScopedTimer t(elapsed);
    compute_forces();
  }
  std::printf("step %d took %.3f s\n", step, elapsed);
  MPI_Barrier(MPI_COMM_WORLD);
}
