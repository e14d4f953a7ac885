// RUN: %clang_tidy --checks='-*,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A container's own state (its size) apart from its elements: refilling it
// on one rank with its own size (`v.assign(v.size(), x)`,
// `v.resize(v.size())`) changes its elements there, not its size; refilling
// it with another count makes the size differ between ranks. Resizing it
// to a length every rank agrees on (`v.resize(len)` after broadcasting
// `len`) makes its size the same everywhere again, also in an object held
// by a `std::unique_ptr`.
#include <mpi.h>
#include <memory>
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

struct Checkpoint {
  std::vector<double> weights;
};

// Negative: only the root reads the weights, then every rank resizes to
// the broadcast length.
void load_weights(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto ckpt = std::make_unique<Checkpoint>();
  if (rank == 0)
    ckpt->weights.resize(1024);
  int len = (int)ckpt->weights.size();
  MPI_Bcast(&len, 1, MPI_INT, 0, comm);
  ckpt->weights.resize(len);
  MPI_Bcast(ckpt->weights.data(), (int)ckpt->weights.size(), MPI_DOUBLE, 0, comm);
}

// Positive: the length is not broadcast first.
void load_weights_unagreed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto ckpt = std::make_unique<Checkpoint>();
  if (rank == 0)
    ckpt->weights.resize(1024);
  int len = (int)ckpt->weights.size();
  ckpt->weights.resize(len);
  MPI_Bcast(ckpt->weights.data(), (int)ckpt->weights.size(), MPI_DOUBLE, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: note: '(int)ckpt->weights.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:35: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}
