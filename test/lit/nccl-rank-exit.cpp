// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// NCCL from a C++ translation unit: communicator creation is collective too.
#include <nccl.h>
#include <cstdlib>

ncclComm_t make_comm(ncclUniqueId id, int nranks) {
  int rank = std::atoi(std::getenv("RANK"));
  ncclComm_t comm;
  if (rank >= nranks)
    return nullptr;
  if (rank == 2 && std::getenv("SKIP_INIT"))
    return nullptr;
  ncclCommInitRank(&comm, nranks, id, rank);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclCommInitRank' is never reached on ranks where 'rank == 2 && std::getenv("SKIP_INIT")', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 2 && std::getenv("SKIP_INIT")' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 2 && std::getenv("SKIP_INIT")' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:24: note: the rank comes from the environment variable 'RANK' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'ncclCommInitRank' before leaving, or make the decision to leave the same on every rank
  return comm;
}

// A function whose body is not visible reads the numbers a pointer it is
// handed points to: a norm of the shard this rank reduced differs, a norm of
// what every rank reduced alike does not.
float shard_sq_norm(const float *g, size_t n, cudaStream_t s);

void clip_own_shard(ncclComm_t comm, float *full, float *shard, size_t n, cudaStream_t s) {
  ncclReduceScatter(full, shard, n, ncclFloat, ncclSum, comm, s);
  if (shard_sq_norm(shard, n, s) > 1e6f)
    return;
  // Positive: each rank tests its own shard.
  ncclAllGather(shard, full, n, ncclFloat, comm, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclAllGather' is never reached on ranks where 'shard_sq_norm(shard, n, s) > 1e6f', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: ranks where 'shard_sq_norm(shard, n, s) > 1e6f' return here
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'shard_sq_norm(shard, n, s) > 1e6f' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'shard_sq_norm' is given a value that differs between ranks; its body is not visible, so its result is taken to differ as well
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: 'shard' is what this rank receives from 'ncclReduceScatter'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'ncclAllGather' before leaving, or make the decision to leave the same on every rank
}

void clip_whole(ncclComm_t comm, float *full, float *shard, size_t n, cudaStream_t s) {
  ncclAllReduce(full, full, n, ncclFloat, ncclSum, comm, s);
  if (shard_sq_norm(full, n, s) > 1e6f)
    return;
  // Negative: every rank tests the same sum.
  ncclAllGather(shard, full, n, ncclFloat, comm, s);
}
