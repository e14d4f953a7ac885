// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-group-balance,lockstep-rank-branch,lockstep-rank-argument' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, NCCL groups: a group that holds a single operation launches
// exactly that operation, so ranks that wrap it in ncclGroupStart/End and
// ranks that call it bare do the same thing; nested groups count as one.
// Ranks that batch several operations into one group while the others issue
// them one by one group their operations differently, which can hang.
#include <nccl.h>

// Negative: rank 0 wraps its allreduce in a group of one.
void group_of_one(float *buf, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (rank == 0) {
    ncclGroupStart();
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
    ncclGroupEnd();
  } else {
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  }
}

// Negative: a group of one inside another group is still one operation.
void nested_group_of_one(float *buf, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (rank % 2) {
    ncclGroupStart();
    ncclGroupStart();
    ncclBroadcast(buf, buf, n, ncclFloat, 0, comm, s);
    ncclGroupEnd();
    ncclGroupEnd();
  } else {
    ncclBroadcast(buf, buf, n, ncclFloat, 0, comm, s);
  }
}

// Positive: rank 0 batches two allreduces into one group; the other ranks
// issue them one by one.
void group_of_two(float *grad, float *loss, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (rank == 0) {
    ncclGroupStart();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclGroupStart' runs only on ranks where 'rank == 0'; the ranks group their operations differently and the job can hang [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'ncclCommUserRank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: make the same group calls on every rank; keep only the rank-specific operations under the condition
    ncclAllReduce(grad, grad, n, ncclFloat, ncclSum, comm, s);
    ncclAllReduce(loss, loss, 1, ncclFloat, ncclSum, comm, s);
    ncclGroupEnd();
  } else {
    ncclAllReduce(grad, grad, n, ncclFloat, ncclSum, comm, s);
    ncclAllReduce(loss, loss, 1, ncclFloat, ncclSum, comm, s);
  }
}

// Negative: pipeline stages group only their point-to-point transfers, each
// under the condition that says it has that neighbour; the groups hold no
// collective, so they change nothing the other ranks must match.
void pipeline_neighbours(float *a, float *b, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0, nranks = 1;
  ncclCommUserRank(comm, &rank);
  ncclCommCount(comm, &nranks);
  if (rank > 0) {
    ncclGroupStart();
    ncclRecv(b, n, ncclFloat, rank - 1, comm, s);
    ncclGroupEnd();
  }
  if (rank < nranks - 1) {
    ncclGroupStart();
    ncclSend(a, n, ncclFloat, rank + 1, comm, s);
    ncclGroupEnd();
  }
}

// Positive: the same stage group also holds an allreduce that the first
// stage never joins.
void pipeline_with_collective(float *a, float *b, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (rank > 0) {
    ncclGroupStart();
    ncclRecv(b, n, ncclFloat, rank - 1, comm, s);
    ncclAllReduce(a, a, n, ncclFloat, ncclSum, comm, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclAllReduce' runs only on ranks where 'rank > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank > 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'ncclCommUserRank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'ncclAllReduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    ncclGroupEnd();
  }
}
