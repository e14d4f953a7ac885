// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefixes=CHECK-MESSAGES,CUT
// RUN: %clang_tidy --checks='-*,lockstep-*' --config="{CheckOptions: {ErrorPathsAsExits: true}}" \
// RUN:   %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefixes=CHECK-MESSAGES,EXITS
//
// Error paths in NCCL and CUDA code (issue 14, pattern 1): check macros that
// return the error, exit or throw when a call fails are no rank exit and
// leave no group open. ErrorPathsAsExits (for every check here) brings them
// back: the EXITS lines; CUT lines hold only while they are cut.
#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <nccl.h>
#include <stdexcept>

#define NCCLCHECK(cmd)                                                         \
  do {                                                                         \
    ncclResult_t r_ = (cmd);                                                   \
    if (r_ != ncclSuccess)                                                     \
      return r_;                                                               \
  } while (0)

#define NCCLCHECK_EXIT(cmd)                                                    \
  do {                                                                         \
    ncclResult_t r_ = (cmd);                                                   \
    if (r_ != ncclSuccess) {                                                   \
      std::printf("NCCL failure %s\n", ncclGetErrorString(r_));                \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define CUDACHECK(cmd)                                                         \
  do {                                                                         \
    cudaError_t e_ = cmd;                                                      \
    if (e_ != cudaSuccess)                                                     \
      throw std::runtime_error(cudaGetErrorString(e_));                        \
  } while (0)

// Negative: every call of the group checked, the error returned.
ncclResult_t exchange(float *s, float *r, size_t n, int peer, ncclComm_t comm, cudaStream_t st) {
  NCCLCHECK(ncclGroupStart());
  NCCLCHECK(ncclSend(s, n, ncclFloat, peer, comm, st));
  NCCLCHECK(ncclRecv(r, n, ncclFloat, peer, comm, st));
  NCCLCHECK(ncclGroupEnd());
  return ncclSuccess;
}
// EXITS: :[[@LINE-6]]:13: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'exchange'
// EXITS: :[[@LINE-5]]:3: note: the group is still open at this 'return'
// EXITS: :[[@LINE-29]]:7: note: expanded from macro 'NCCLCHECK'
// EXITS: :[[@LINE-9]]:13: note: end the group on every path, or hold it in an RAII guard whose destructor ends it

// Positive: a group really left open, on rank 0 only.
ncclResult_t root_leaves_group(float *s, size_t n, int rank, ncclComm_t comm, cudaStream_t st) {
  NCCLCHECK(ncclGroupStart());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'root_leaves_group'
  // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the group is still open at this 'return'
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  NCCLCHECK(ncclAllReduce(s, s, n, ncclFloat, ncclSum, comm, st));
  if (rank == 0)
    return ncclSuccess;
  NCCLCHECK(ncclGroupEnd());
  return ncclSuccess;
}

// Negative: the canonical bootstrap; rank 0 makes the id, exits if it fails.
ncclComm_t bootstrap(int nranks) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ncclUniqueId id;
  if (rank == 0)
    NCCLCHECK_EXIT(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'rank == 0', which call 'exit' before it
  // EXITS: :[[@LINE-3]]:5: note: ranks where 'rank == 0' call 'exit' here
  // EXITS: :[[@LINE-47]]:7: note: expanded from macro 'NCCLCHECK_EXIT'
  // EXITS: :[[@LINE-6]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
  ncclComm_t comm;
  NCCLCHECK_EXIT(ncclCommInitRank(&comm, nranks, id, rank));
  return comm;
}

// Negative: CUDA error checks inside the arms of a rank branch.
void stage(float *buf, size_t n, int rank, ncclComm_t comm, cudaStream_t st) {
  float *tmp = nullptr;
  if (rank == 0) {
    CUDACHECK(cudaMalloc(&tmp, n * sizeof(float)));
    CUDACHECK(cudaMemcpy(tmp, buf, n * sizeof(float), cudaMemcpyDefault));
  } else {
    CUDACHECK(cudaMemset(buf, 0, n * sizeof(float)));
  }
  NCCLCHECK_EXIT(ncclBroadcast(buf, buf, n, ncclFloat, 0, comm, st));
  // EXITS: :[[@LINE-1]]:18: warning: 'ncclBroadcast' is never reached on ranks where 'rank == 0' is false, which throw before it
  // EXITS: :[[@LINE-4]]:5: note: ranks where 'rank == 0' is false throw here
  // EXITS: :[[@LINE-60]]:7: note: expanded from macro 'CUDACHECK'
  // EXITS: :[[@LINE-10]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-13]]:38: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // EXITS: :[[@LINE-6]]:18: note: let every rank reach 'ncclBroadcast' before leaving, or make the decision to leave the same on every rank
}

// Negative: a throw on the collective's own result, under a rank branch.
void reduce_to_root(float *buf, size_t n, int rank, ncclComm_t comm, cudaStream_t st) {
  if (rank == 0) {
    if (ncclReduce(buf, buf, n, ncclFloat, ncclSum, 0, comm, st) != ncclSuccess)
      throw std::runtime_error("reduce failed");
  } else if (ncclReduce(buf, nullptr, n, ncclFloat, ncclSum, 0, comm, st) != ncclSuccess) {
    throw std::runtime_error("reduce failed");
  }
  NCCLCHECK_EXIT(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, st));
  // EXITS: :[[@LINE-1]]:18: warning: 'ncclAllReduce' is never reached on ranks where 'rank == 0' is false, which throw before it
  // EXITS: :[[@LINE-4]]:5: note: ranks where 'rank == 0' is false throw here
  // EXITS: :[[@LINE-9]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-11]]:47: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // EXITS: :[[@LINE-5]]:18: note: let every rank reach 'ncclAllReduce' before leaving, or make the decision to leave the same on every rank
}

// Positive: a real rank exit before a checked collective.
ncclResult_t root_skips(float *buf, size_t n, int rank, ncclComm_t comm, cudaStream_t st) {
  if (rank == 0)
    return ncclSuccess;
  NCCLCHECK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, st));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'ncclAllReduce' is never reached on ranks where 'rank == 0', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:51: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: let every rank reach 'ncclAllReduce' before leaving, or make the decision to leave the same on every rank
  return ncclSuccess;
}

// Negative: a checking helper that throws when a status reports a failure,
// inside a group: the throw reports the error, it leaves no group open.
static void nccl_throw(ncclResult_t r) {
  if (r != ncclSuccess)
    throw std::runtime_error(ncclGetErrorString(r));
}

void fused_reduce(float **grads, int buckets, size_t n, ncclComm_t comm, cudaStream_t st) {
  nccl_throw(ncclGroupStart());
  for (int b = 0; b < buckets; ++b)
    nccl_throw(ncclAllReduce(grads[b], grads[b], n, ncclFloat, ncclSum, comm, st));
  nccl_throw(ncclGroupEnd());
}
// EXITS: :[[@LINE-5]]:14: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'fused_reduce'
// EXITS: :[[@LINE-6]]:3: note: the group is still open if 'nccl_throw' throws here
// EXITS: :[[@LINE-7]]:14: note: end the group on every path, or hold it in an RAII guard whose destructor ends it

// Positive: a helper that throws on a size, not a status, inside a group.
static void check_bucket(size_t n, size_t cap) {
  if (n > cap)
    throw std::length_error("bucket too large");
}

void capped_reduce(float *grad, size_t n, size_t cap, ncclComm_t comm, cudaStream_t st) {
  nccl_throw(ncclGroupStart());
  check_bucket(n, cap);
  nccl_throw(ncclAllReduce(grad, grad, n, ncclFloat, ncclSum, comm, st));
  nccl_throw(ncclGroupEnd());
  // CHECK-MESSAGES: :[[@LINE-4]]:14: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'capped_reduce'
  // CUT: :[[@LINE-4]]:3: note: the group is still open if 'check_bucket' throws here
  // EXITS: :[[@LINE-6]]:3: note: the group is still open if 'nccl_throw' throws here
  // CHECK-MESSAGES: :[[@LINE-7]]:14: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
}

// Negative: after the canonical bootstrap, whose check exits on rank 0 only
// when it fails, every rank goes on alike: the size the trainer stores is
// the same everywhere.
struct Trainer {
  void init(size_t numel) { numel_ = numel; }
  void step() { ncclAllReduce(grads_, grads_, numel_, ncclFloat, ncclSum, comm_, stream_); }
  size_t numel_ = 0;
  float *grads_ = nullptr;
  ncclComm_t comm_;
  cudaStream_t stream_;
};

void bootstrap_then_train(int rank) {
  ncclUniqueId id;
  if (rank == 0)
    NCCLCHECK_EXIT(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  Trainer t;
  t.init(1 << 20);
  t.step();
}
// EXITS: :[[@LINE-16]]:47: warning: the count of 'ncclAllReduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
// EXITS: :[[@LINE-17]]:47: note: 'numel_' differs between ranks
// EXITS: :[[@LINE-11]]:31: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
// EXITS: :[[@LINE-19]]:47: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
// EXITS: :[[@LINE-9]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'rank == 0', which call 'exit' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
// EXITS: :[[@LINE-11]]:5: note: ranks where 'rank == 0' call 'exit' here
// EXITS: :[[@LINE-164]]:7: note: expanded from macro 'NCCLCHECK_EXIT'
// EXITS: :[[@LINE-14]]:7: note: 'rank == 0' differs between ranks
// EXITS: :[[@LINE-17]]:31: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
// EXITS: :[[@LINE-14]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank

// Positive: only rank 0 sets the size.
struct RootTrainer {
  void init(size_t numel) { numel_ = numel; }
  void step() { ncclAllReduce(grads_, grads_, numel_, ncclFloat, ncclSum, comm_, stream_); }
  size_t numel_ = 0;
  float *grads_ = nullptr;
  ncclComm_t comm_;
  cudaStream_t stream_;
};

void root_sizes(int rank) {
  RootTrainer t;
  if (rank == 0)
    t.init(1 << 20);
  t.step();
  // CHECK-MESSAGES: :[[@LINE-12]]:47: warning: the count of 'ncclAllReduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-13]]:47: note: 'numel_' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-15]]:47: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}
