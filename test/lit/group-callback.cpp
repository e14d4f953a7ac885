// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Groups closed and reopened by a callback inside an open group (issue 14,
// pattern 7): a helper that ends the group, waits and starts it again leaves
// the caller's group open, whether called directly or through a pointer, so
// the calls still pair up. A helper that only ends the group, or the same
// flush on some ranks only, is reported.
#include <cuda_runtime.h>
#include <nccl.h>

static void flush(cudaStream_t s) {
  ncclGroupEnd();
  cudaStreamSynchronize(s);
  ncclGroupStart();
}

// Negative: the flush every eighth peer, on every rank.
void exchange(float **bufs, int n, int peers, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  for (int p = 0; p < peers; ++p) {
    ncclSend(bufs[p], n, ncclFloat, p, comm, s);
    ncclRecv(bufs[p], n, ncclFloat, p, comm, s);
    if (p % 8 == 7)
      flush(s);
  }
  ncclGroupEnd();
}

typedef void (*Hook)(cudaStream_t);
struct Context {
  Hook hook;
};
void install(Context &c) { c.hook = flush; }

// Negative: the same flush through a field holding a function pointer.
void exchange_hooked(Context &c, float **bufs, int n, int peers, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  for (int p = 0; p < peers; ++p) {
    ncclSend(bufs[p], n, ncclFloat, p, comm, s);
    if (p % 8 == 7)
      c.hook(s);
  }
  ncclGroupEnd();
}

static void close_only(cudaStream_t s) {
  ncclGroupEnd();
  cudaStreamSynchronize(s);
}

// Positive: the helper ends the group without starting it again.
void exchange_closed(float **bufs, int n, int peers, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  for (int p = 0; p < peers; ++p) {
    ncclSend(bufs[p], n, ncclFloat, p, comm, s);
    if (p % 8 == 7)
      close_only(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'close_only' ends a group that is not open on every path through 'exchange_closed'; the group calls no longer pair up [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: start the group on the same paths that end it
  }
  ncclGroupEnd();
}

// Positive: the flush on rank 0 only groups its operations differently.
void exchange_rank(float **bufs, int n, int peers, ncclComm_t comm, cudaStream_t s, int rank) {
  ncclGroupStart();
  for (int p = 0; p < peers; ++p) {
    ncclSend(bufs[p], n, ncclFloat, p, comm, s);
    if (rank == 0)
      flush(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'flush' (which calls 'ncclGroupEnd') runs only on ranks where 'rank == 0'; the ranks group their operations differently and the job can hang [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-60]]:3: note: 'ncclGroupEnd' is called here, inside 'flush'
    // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:89: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: make the same group calls on every rank; keep only the rank-specific operations under the condition
  }
  ncclGroupEnd();
}
