// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Values agreed by a collective (issue 14, pattern 3): a flag agreed in the
// loop before its condition is tested, and a length broadcast through a
// wrapper that takes `void *` and broadcasts it in chunks, are the same on
// every rank, also when the wrapper broadcasts through a local pointer into
// its buffer. A flag agreed after the test or on one path only, a wrapper
// that only sends, and one whose pointer moved elsewhere, agree nothing.
#include <algorithm>
#include <mpi.h>
#include <string>
#include <vector>

bool converged(const float *v, int n);

// Negative: each rank's verdict, agreed (the minimum) before the test.
void until_all_pass(MPI_Comm comm, float *v, int n) {
  int pass = 0;
  while (!pass) {
    pass = converged(v, n) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &pass, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, comm);
  }
}

// Positive: the verdict is agreed, then overwritten by the rank's own.
void agreed_too_early(MPI_Comm comm, float *v, int n, int rank) {
  int pass = 0;
  while (!pass) {
    MPI_Allreduce(MPI_IN_PLACE, &pass, 1, MPI_INT, MPI_MIN, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: '!pass' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:59: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    pass = rank % 2;
  }
}

// Positive: agreed on one path only.
void agreed_sometimes(MPI_Comm comm, float *v, int n, int rank) {
  int pass = 0;
  while (!pass) {
    pass = rank % 2;
    if (n > 3)
      MPI_Allreduce(MPI_IN_PLACE, &pass, 1, MPI_INT, MPI_MIN, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:10: note: '!pass' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:59: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}

const long Chunk = 1 << 20;

// Broadcasts `n` elements of `t` from rank 0, a chunk at a time.
void bcast(void *p, int n, MPI_Datatype t, MPI_Comm comm) {
  int size;
  MPI_Type_size(t, &size);
  for (long off = 0; off < long(n) * size; off += Chunk)
    MPI_Bcast(static_cast<char *>(p) + off, int(std::min(Chunk, long(n) * size - off)), MPI_BYTE,
              0, comm);
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'off < long(n) * size' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:25: note: parameter 'n' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+11]]:3: note: 'p' is what this rank receives from 'MPI_Gather'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // CHECK-MESSAGES: :[[@LINE-7]]:45: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-8]]:45: note: 'int(std::min(Chunk, long(n) * size - off))' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:25: note: parameter 'n' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: 'p' is what this rank receives from 'MPI_Gather'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-11]]:45: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Gathers `n` elements of `t` on rank 0: the others only send.
void gather(void *p, int n, MPI_Datatype t, MPI_Comm comm) {
  MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, p, n, t, 0, comm);
}

// Negative: the length is broadcast before it sizes the second broadcast.
void share(MPI_Comm comm, const std::string &s) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int len = rank == 0 ? int(s.size()) : 0;
  bcast(&len, 1, MPI_INT, comm);
  std::vector<char> v(s.begin(), s.end());
  v.resize(len);
  bcast(v.data(), len, MPI_CHAR, comm);
}

// Positive: the length only went to the root (the count of the wrapper's
// MPI_Bcast above).
void share_gathered(MPI_Comm comm, const std::string &s) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int len = rank == 0 ? int(s.size()) : 0;
  gather(&len, 1, MPI_INT, comm);
  std::vector<char> v(s.begin(), s.end());
  v.resize(len);
  bcast(v.data(), len, MPI_CHAR, comm);
}

// A wrapper that broadcasts through a local pointer into its buffer, a chunk
// at a time: the caller's storage is agreed as well (pattern 3b, through an
// alias).
void bcast_bytes(void *p, int bytes, MPI_Comm comm) {
  char *at = static_cast<char *>(p);
  for (int off = 0; off < bytes; off += 4) {
    char *chunk = at + off;
    MPI_Bcast(chunk, 4, MPI_BYTE, 0, comm);
  }
}

// The same, but the local pointer moves to a scratch buffer first: what the
// caller passed is not what is broadcast.
void bcast_scratch(void *p, int bytes, MPI_Comm comm) {
  static char scratch[64];
  char *at = static_cast<char *>(p);
  at = scratch;
  MPI_Bcast(at, bytes, MPI_BYTE, 0, comm);
}

// Negative: the length is agreed through the wrapper's alias.
void share_bytes(MPI_Comm comm, const std::string &s) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int len = rank == 0 ? int(s.size()) : 0;
  bcast_bytes(&len, 4, comm);
  std::vector<char> v(s.begin(), s.end());
  MPI_Bcast(v.data(), len, MPI_CHAR, 0, comm);
}

// Positive: the wrapper broadcasts its scratch buffer, not the length.
void share_scratch(MPI_Comm comm, const std::string &s) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int len = rank == 0 ? int(s.size()) : 0;
  bcast_scratch(&len, 4, comm);
  std::vector<char> v(s.begin(), s.end());
  MPI_Bcast(v.data(), len, MPI_CHAR, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: 'len' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:23: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A value combined over one part of a split is the same only on that
// part's ranks.
// Positive: an overflow flag agreed within each tensor-parallel group decides
// whether the rank joins a barrier of the whole job.
void group_flag_world_barrier(int rank, const double *grad) {
  MPI_Comm tp;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &tp);
  int overflow = grad[rank] > 1e9, any = 0; // this rank's own gradients
  MPI_Allreduce(&overflow, &any, 1, MPI_INT, MPI_MAX, tp);
  if (any)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'any', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'any' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'any' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'any' is the result over 'tp' from 'MPI_Allreduce'; only the ranks that share one 'tp' agree on it
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: the same flag decides a collective of that group only.
void group_flag_group_barrier(int rank, const double *grad) {
  MPI_Comm tp;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &tp);
  int overflow = grad[rank] > 1e9, any = 0; // this rank's own gradients
  MPI_Allreduce(&overflow, &any, 1, MPI_INT, MPI_MAX, tp);
  if (any)
    return;
  MPI_Barrier(tp);
}

// Negative: a two-dimensional allreduce, over the row then over the column,
// is the same on every rank.
void grid_allreduce(int rank, int q, double local) {
  MPI_Comm row, col;
  MPI_Comm_split(MPI_COMM_WORLD, rank / q, rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % q, rank, &col);
  double in_row = 0, total = 0;
  MPI_Allreduce(&local, &in_row, 1, MPI_DOUBLE, MPI_SUM, row);
  MPI_Allreduce(&in_row, &total, 1, MPI_DOUBLE, MPI_SUM, col);
  if (total > 1.0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: a broadcast within each node of a value every node leader holds
// alike (a hierarchical allreduce's last step).
void node_broadcast(int rank, int per_node, double local) {
  MPI_Comm node, leaders;
  MPI_Comm_split(MPI_COMM_WORLD, rank / per_node, rank, &node);
  MPI_Comm_split(MPI_COMM_WORLD, rank % per_node == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  double sum = local;
  if (leaders != MPI_COMM_NULL)
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, leaders);
  MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, node);
  if (sum > 1.0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: a helper that agrees over the communicator it is given, called
// with the whole job and with each group.
static int agree_max(MPI_Comm comm, int value) {
  int result = 0;
  MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, comm);
  return result;
}

void agreed_by_helper(int rank, int overflow) {
  if (agree_max(MPI_COMM_WORLD, overflow))
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm tp;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &tp);
  if (agree_max(tp, overflow))
    return;
  MPI_Barrier(tp);
}

// Negative: a two-dimensional allreduce of a vector, in place.
void grid_allreduce_vector(int rank, int q, std::vector<double> &grad) {
  MPI_Comm row, col;
  MPI_Comm_split(MPI_COMM_WORLD, rank / q, rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % q, rank, &col);
  MPI_Allreduce(MPI_IN_PLACE, grad.data(), (int)grad.size(), MPI_DOUBLE, MPI_SUM, row);
  MPI_Allreduce(MPI_IN_PLACE, grad.data(), (int)grad.size(), MPI_DOUBLE, MPI_SUM, col);
  if (grad[0] > 1.0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: a flag the whole job agreed on first, combined again per group.
void agreed_then_grouped(int rank, int overflow) {
  MPI_Comm tp;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &tp);
  int global = 0, any = 0;
  MPI_Allreduce(&overflow, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&global, &any, 1, MPI_INT, MPI_MAX, tp);
  if (any)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
}

// A buffer reached through a pointer, written per rank before a combination
// over a part of the job: the result is that part's alone.
void skip_on_part_flag(double *flag, int rank) {
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 4, rank % 4, &part);
  flag[0] = rank % 3;
  MPI_Allreduce(MPI_IN_PLACE, flag, 1, MPI_DOUBLE, MPI_MAX, part);
  // Negative: the members of 'part' agree on it.
  if (flag[0] > 0)
    MPI_Barrier(part);
  // Positive: the parts may decide differently.
  if (flag[0] > 0)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'flag[0] > 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'flag[0] > 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'flag[0] > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: 'flag' is the result over 'part' from 'MPI_Allreduce'; only the ranks that share one 'part' agree on it
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

void skip_on_job_flag(double *flag, int rank) {
  flag[0] = rank % 3;
  MPI_Allreduce(MPI_IN_PLACE, flag, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // Negative: every rank agrees on it.
  if (flag[0] > 0)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
}
