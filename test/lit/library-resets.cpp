// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A standard library method that sets its object's whole state from its
// arguments (`seed`, `reset`, `store`), or empties a container (`clear()`,
// a bitset's `reset()`), leaves what the arguments hold: a generator seeded
// by rank and reseeded with a constant draws alike on every rank, one
// reseeded with the rank does not. A stream's `clear()` resets its flags,
// not what it reads.
#include <mpi.h>
#include <atomic>
#include <bitset>
#include <fstream>
#include <optional>
#include <random>
#include <string>

// Negative: the generator seeded per rank is reseeded with a constant.
void reseeded_alike(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::mt19937 gen(1234 + rank);
  gen.seed(42);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  if (coin(gen) < 0.5)
    MPI_Barrier(comm);
}

// Positive: a shared seed replaced by the rank.
void reseeded_by_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::mt19937 gen(42);
  gen.seed(rank);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  if (coin(gen) < 0.5)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'coin(gen) < 0.5'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'coin(gen) < 0.5' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: only rank 0 sets the optional, and every rank resets it.
void optional_reset(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::optional<int> best;
  if (rank == 0)
    best = 3;
  best.reset();
  if (best)
    MPI_Barrier(comm);
}

// Positive: without the reset, rank 0 alone holds a value.
void optional_kept(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::optional<int> best;
  if (rank == 0)
    best = 3;
  if (best)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'best'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'best' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: a counter started at the rank is stored a constant.
void atomic_stored(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::atomic<int> pending(rank);
  pending.store(0);
  for (int i = 0; i < pending.load(); ++i)
    MPI_Barrier(comm);
}

// Negative: the bit this rank set is cleared with all the others.
void bits_reset(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::bitset<8> owned;
  owned.set(rank % 8);
  owned.reset();
  if (owned.none())
    MPI_Barrier(comm);
}

// Positive: one bit reset leaves the bit this rank set.
void one_bit_reset(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::bitset<8> owned;
  owned.set(rank % 8);
  owned.reset(0);
  if (owned.none())
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'owned.none()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'owned.none()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: clearing a stream's flags keeps the file this rank reads.
void stream_flags_cleared(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::ifstream in("shard" + std::to_string(rank) + ".txt");
  in.clear();
  int batches = 0;
  in >> batches;
  for (int b = 0; b < batches; ++b)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'b < batches' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Positive: a distribution's reset() forgets what it cached, not its
// per-rank range.
void distribution_reset(MPI_Comm comm, std::mt19937 &gen) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::uniform_int_distribution<int> pick(0, rank);
  pick.reset();
  for (int i = 0; i < pick(gen); ++i)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < pick(gen)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}
