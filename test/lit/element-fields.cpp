// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A field of a container's element is the element: the fields of one
// element are not told apart. Which element a rank writes or reads counts
// as much as the value: `buckets[owner].touched = true` with a per-rank
// `owner` leaves the elements different between ranks, although every rank
// writes `true`. A constant or agreed index does not.
#include <mpi.h>
#include <random>
#include <vector>

struct Bucket {
  int count = 0;
  bool touched = false;
};

static void reduce_touched(std::vector<Bucket> &buckets, MPI_Comm comm) {
  for (Bucket &b : buckets) {
    if (!b.touched)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, &b.count, 1, MPI_INT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where '!b.touched', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!b.touched' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!b.touched' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:49: note: parameter 'buckets' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Positive: each rank marks the bucket its own sample falls in.
void mark_sampled(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Bucket> buckets(8);
  std::mt19937 gen(17 + rank);
  for (int t = 0; t < 6; ++t)
    buckets[gen() % 8].touched = true;
  reduce_touched(buckets, comm);
}

// Negative: every rank marks the same buckets.
void mark_every_other(MPI_Comm comm) {
  std::vector<Bucket> buckets(8);
  for (size_t i = 0; i < buckets.size(); i += 2)
    buckets[i].touched = true;
  buckets[1].touched = true;
  reduce_touched(buckets, comm);
}

// Positive: a read at a per-rank index.
void owner_decides(MPI_Comm comm, const std::vector<Bucket> &buckets) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (buckets[rank % 8].touched)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'buckets[rank % 8].touched'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'buckets[rank % 8].touched' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the index is agreed first.
void root_decides(MPI_Comm comm, const std::vector<Bucket> &buckets) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int owner = rank % 8;
  MPI_Bcast(&owner, 1, MPI_INT, 0, comm);
  if (buckets[owner].touched)
    MPI_Barrier(comm);
}
