// REQUIRES: cuda, nccl
// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit' %s -- %cuda_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// CUDA: kernels and launches parsed host-side against the real nccl.h.
#include <cuda_runtime.h>
#include <nccl.h>
#include <cstdio>
#include <cstdlib>

#define NCCLCHECK(cmd)                                                         \
  do {                                                                         \
    ncclResult_t r_ = (cmd);                                                   \
    if (r_ != ncclSuccess) {                                                   \
      std::printf("nccl error %s\n", ncclGetErrorString(r_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void scale(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void step(float *grad, size_t n, int rank, ncclComm_t comm, cudaStream_t s) {
  scale<<<(n + 255) / 256, 256, 0, s>>>(grad, (int)n, 0.5f);
  // Negative: error-check macros around collectives on every rank.
  NCCLCHECK(ncclAllReduce(grad, grad, n, ncclFloat, ncclSum, comm, s));
  if (rank == 0)
    NCCLCHECK(ncclBroadcast(grad, grad, n, ncclFloat, 0, comm, s));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'ncclBroadcast' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:38: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: call 'ncclBroadcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void user_rank(ncclComm_t comm, float *buf, cudaStream_t s) {
  int me = 0;
  NCCLCHECK(ncclCommUserRank(comm, &me));
  if (me % 2 == 1)
    return;
  NCCLCHECK(ncclAllGather(buf, buf, 16, ncclFloat, comm, s));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'ncclAllGather' is never reached on ranks where 'me % 2 == 1', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'me % 2 == 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'me % 2 == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:13: note: the rank comes from 'ncclCommUserRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: let every rank reach 'ncclAllGather' before leaving, or make the decision to leave the same on every rank
}

// Negative: send and receive with rank-dependent peers are point-to-point.
void ring(float *buf, int rank, int nranks, ncclComm_t comm, cudaStream_t s) {
  NCCLCHECK(ncclGroupStart());
  NCCLCHECK(ncclSend(buf, 16, ncclFloat, (rank + 1) % nranks, comm, s));
  NCCLCHECK(ncclRecv(buf, 16, ncclFloat, (rank + nranks - 1) % nranks, comm, s));
  NCCLCHECK(ncclGroupEnd());
}

// Negative: balanced arms with the same root.
void balanced(float *buf, int rank, ncclComm_t comm, cudaStream_t s) {
  if (rank == 0) {
    cudaMemsetAsync(buf, 0, 64, s);
    ncclBroadcast(buf, buf, 16, ncclFloat, 0, comm, s);
  } else {
    ncclBroadcast(buf, buf, 16, ncclFloat, 0, comm, s);
  }
}
