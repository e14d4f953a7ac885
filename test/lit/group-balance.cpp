// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- -x c++ -std=c++17 %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// lockstep-group-balance against the real nccl.h: groups left open on an
// early exit, ends without starts, group calls under a rank condition; RAII
// guards and balanced groups with rank-dependent peers stay silent.
#include <nccl.h>
#include <stdexcept>

int step_failed();

void early_return(float *buf, int peer, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'early_return'; the operations queued in it are never launched and the other ranks hang [lockstep-group-balance]
  // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the group is still open at this 'return'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  ncclSend(buf, 16, ncclFloat, peer, comm, s);
  if (step_failed())
    return;
  ncclRecv(buf, 16, ncclFloat, peer, comm, s);
  ncclGroupEnd();
}

void thrown(float *buf, int peer, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'thrown'
  // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the group is still open at this 'throw'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  ncclSend(buf, 16, ncclFloat, peer, comm, s);
  if (step_failed()) // not a status check: nccl-error-paths.cpp has those
    throw std::runtime_error("send failed");
  ncclGroupEnd();
}

void broken_loop(float **bufs, int n, ncclComm_t comm, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    ncclGroupStart();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'broken_loop'
    // CHECK-MESSAGES: :[[@LINE+3]]:7: note: the group is still open at this 'break'
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
    if (!bufs[i])
      break;
    ncclAllReduce(bufs[i], bufs[i], 16, ncclFloat, ncclSum, comm, s);
    ncclGroupEnd();
  }
}

void end_without_start(float *buf, bool fused, ncclComm_t comm, cudaStream_t s) {
  if (fused)
    ncclGroupStart();
  ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, comm, s);
  ncclGroupEnd();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclGroupEnd' ends a group that is not open on every path through 'end_without_start'; the group calls no longer pair up [lockstep-group-balance]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: start the group on the same paths that end it
}

void exchange(float *buf, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclGroupStart' opens a group that 'exchange' never ends
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: end the group before 'exchange' returns
  ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, comm, s);
}

// Rank 0 fuses two operations into one group; the others issue them apart.
// (A group of one operation is that operation: see engine-nccl-group.cpp.)
void rank_dependent_group(float *buf, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (rank == 0) {
    ncclGroupStart();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclGroupStart' runs only on ranks where 'rank == 0'; the ranks group their operations differently and the job can hang [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'ncclCommUserRank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: make the same group calls on every rank; keep only the rank-specific operations under the condition
    ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, comm, s);
    ncclBroadcast(buf, buf, 16, ncclFloat, 0, comm, s);
    ncclGroupEnd();
  } else {
    ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, comm, s);
    ncclBroadcast(buf, buf, 16, ncclFloat, 0, comm, s);
  }
}

// Negative: an RAII guard ends the group on every path, throws included.
struct GroupGuard {
  GroupGuard() { ncclGroupStart(); }
  ~GroupGuard() { ncclGroupEnd(); }
};
void guarded(float *buf, int peer, ncclComm_t comm, cudaStream_t s) {
  GroupGuard group;
  ncclSend(buf, 16, ncclFloat, peer, comm, s);
  if (step_failed())
    return;
  ncclRecv(buf, 16, ncclFloat, peer, comm, s);
}

// Negative (hard): send/recv with rank-dependent peers in a balanced group.
void ring(float *buf, ncclComm_t comm, cudaStream_t s) {
  int rank = 0, nranks = 1;
  ncclCommUserRank(comm, &rank);
  ncclCommCount(comm, &nranks);
  ncclGroupStart();
  if (rank % 2 == 0) {
    ncclSend(buf, 16, ncclFloat, (rank + 1) % nranks, comm, s);
    ncclRecv(buf, 16, ncclFloat, (rank + nranks - 1) % nranks, comm, s);
  } else {
    ncclRecv(buf, 16, ncclFloat, (rank + nranks - 1) % nranks, comm, s);
    ncclSend(buf, 16, ncclFloat, (rank + 1) % nranks, comm, s);
  }
  ncclGroupEnd();
}

// Negative: helpers that only start or only end a group, used in pairs.
void begin_batch() { ncclGroupStart(); }
void end_batch() { ncclGroupEnd(); }
void batched(float *buf, ncclComm_t comm, cudaStream_t s) {
  begin_batch();
  ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, comm, s);
  end_batch();
}

// Positive: a callee that may throw while the group is open leaves it open.
static void enqueue(float *buf, size_t n, size_t cap, ncclComm_t comm, cudaStream_t s) {
  if (n > cap)
    throw n;
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
}

void reduce_bucket(float *buf, size_t n, size_t cap, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  enqueue(buf, n, cap, comm, s);
  ncclGroupEnd();
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'reduce_bucket'; the operations queued in it are never launched and the other ranks hang [lockstep-group-balance]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the group is still open if 'enqueue' throws here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
}

// Negative: the same callee called before the group opens.
void reduce_bucket_checked(float *buf, size_t n, size_t cap, ncclComm_t comm, cudaStream_t s) {
  enqueue(buf, n, cap, comm, s);
  ncclGroupStart();
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  ncclGroupEnd();
}
