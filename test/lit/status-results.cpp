// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Status results are not data (issue 14, item 2): what a call returns, and
// what it writes through its arguments, differs between ranks only when the
// rules or the callee's summary say so, or when a library function of the
// system computes it from per-rank inputs. A function of another file given
// the rank does not make its status, count or flag per-rank; a number or an
// object it computes from the rank is (the end of this file).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mpi.h>

#define CHECK(cmd)                                                             \
  do {                                                                         \
    if ((cmd) != 0)                                                            \
      std::exit(1);                                                            \
  } while (0)

int work(int *buf, int n, int rank);      // defined in another file
void shard_size(int *out, int rank);      // idem

// Negative: the status of a function of another file, given the rank.
void checked_external(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  CHECK(work(buf, n, rank));
  MPI_Barrier(comm);
}

// Negative: what it writes through its argument follows the same rule.
void external_out_param(MPI_Comm comm) {
  int rank, n = 0;
  MPI_Comm_rank(comm, &rank);
  shard_size(&n, rank);
  if (n > 0)
    MPI_Barrier(comm);
}

// Positive: a function of this file whose summary returns a rank's value.
int shards_of(int rank) { return rank % 2 ? 3 : 4; }

void local_summary(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (shards_of(rank) > 3)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'shards_of(rank) > 3'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'shards_of(rank) > 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the same through an out-parameter.
void shard_of(int rank, int *out) { *out = rank % 4; }

void local_out_param(MPI_Comm comm) {
  int rank, shard = 0;
  MPI_Comm_rank(comm, &rank);
  shard_of(rank, &shard);
  if (shard == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'shard == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'shard == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: library functions compute their results from their inputs, the
// return value (std::min) as what they write (snprintf into `name`, here from
// a parameter that receives the rank).
void per_rank_name(MPI_Comm comm, int shard) {
  char name[32];
  std::snprintf(name, sizeof name, "shard%d", shard);
  if (std::strlen(name) > 6)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'std::strlen(name) > 6'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'std::strlen(name) > 6' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:39: note: parameter 'shard' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void library_transfer(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  per_rank_name(comm, rank);
  if (std::min(rank, 1) == 1)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'std::min(rank, 1) == 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'std::min(rank, 1) == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same library calls on uniform inputs.
void uniform_name(MPI_Comm comm, int steps) {
  char name[32];
  std::snprintf(name, sizeof name, "run%d", steps);
  if (std::strlen(name) > 6 && std::min(steps, 1) == 1)
    MPI_Barrier(comm);
}

// Not statuses: a number or an object that a function whose body no file
// shows computes from the rank differs between ranks (a shard's validation
// loss, a batch). Integers, flags and handles keep the rule above.
double val_loss_of_shard(int shard); // defined in another file
struct Batch {
  int rows;
};
Batch next_batch(int rank, int step); // idem

// Positive: early stopping on the local loss.
void unseen_number(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int epoch = 0; epoch < 50; ++epoch) {
    if (val_loss_of_shard(rank) < 0.1)
      break;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'val_loss_of_shard(rank) < 0.1', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'val_loss_of_shard(rank) < 0.1' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'val_loss_of_shard(rank) < 0.1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:9: note: 'val_loss_of_shard' is given a value that differs between ranks; its body is not visible, so its result is taken to differ as well
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// Positive: a field of the object it returns.
void unseen_object(MPI_Comm comm, int step) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Batch b = next_batch(rank, step);
  if (b.rows > 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'b.rows > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'b.rows > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: 'next_batch' is given a value that differs between ranks; its body is not visible, so its result is taken to differ as well
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same functions given values every rank shares.
void unseen_uniform(MPI_Comm comm, int step) {
  if (val_loss_of_shard(step) < 0.1 && next_batch(0, step).rows > 0)
    MPI_Barrier(comm);
}
