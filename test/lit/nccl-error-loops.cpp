// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Status checks inside loops (issue 14, pattern 1): a check that fails in a
// loop's body jumps out of the loop to an error path, which is no way out of
// the loop for the ranks that go on.
#include <cstdio>
#include <cstdlib>
#include <nccl.h>

#define NCCLCHECK(cmd)                                                         \
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
    if (e_ != cudaSuccess) {                                                   \
      std::printf("CUDA failure %s\n", cudaGetErrorString(e_));                \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// Negative: rank 0 logs under its own checks; then every rank runs the
// checked loop and the allreduce after it.
void log_then_loop(float *buf, float *host, size_t n, int rank, ncclComm_t comm, cudaStream_t st) {
  if (rank == 0) {
    CUDACHECK(cudaMemcpyAsync(host, buf, sizeof(float), cudaMemcpyDeviceToHost, st));
    std::printf("loss %f\n", host[0]);
  }
  for (int micro = 0; micro < 4; ++micro) {
    CUDACHECK(cudaGetLastError());
    NCCLCHECK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, st));
  }
  NCCLCHECK(ncclAllReduce(buf, buf, 1, ncclFloat, ncclSum, comm, st));
}

// Positive beside it: the checked loop runs on rank 0 only.
void root_loops(float *buf, float *host, size_t n, int rank, ncclComm_t comm, cudaStream_t st) {
  if (rank == 0) {
    CUDACHECK(cudaMemcpyAsync(host, buf, sizeof(float), cudaMemcpyDeviceToHost, st));
    for (int micro = 0; micro < 4; ++micro)
      NCCLCHECK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, st));
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'ncclAllReduce' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:56: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:17: note: call 'ncclAllReduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  NCCLCHECK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, st));
}
