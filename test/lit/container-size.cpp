// RUN: %clang_tidy --checks='-*,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A container's own state (its size) apart from its elements: refilling it
// on one rank with its own size (`v.assign(v.size(), x)`,
// `v.resize(v.size())`) changes its elements there, not its size; refilling
// it with another count makes the size differ between ranks.
#include <mpi.h>
#include <vector>

// Negative: only the root's values change; the count stays the same.
void bcast_root_values(std::vector<float> &small, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    small.assign(small.size(), 3.0f);
  MPI_Bcast(small.data(), (int)small.size(), MPI_FLOAT, 0, comm);
}

// Positive: the root refills the buffer with one element more.
void bcast_root_grown(std::vector<float> &small, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    small.assign(small.size() + 1, 3.0f);
  MPI_Bcast(small.data(), (int)small.size(), MPI_FLOAT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: '(int)small.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}
