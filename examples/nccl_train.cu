// A training step on NCCL with a CUDA kernel, buggy and fixed.
#include <cuda_runtime.h>
#include <nccl.h>
#include <cstdio>
#include <cstdlib>

#define NCCLCHECK(cmd)                                                         \
  do {                                                                         \
    ncclResult_t r_ = (cmd);                                                   \
    if (r_ != ncclSuccess) {                                                   \
      std::fprintf(stderr, "NCCL failure %s\n", ncclGetErrorString(r_));      \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

__global__ void sgd(float *w, const float *g, int n, float lr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] -= lr * g[i];
}

struct Trainer {
  ncclComm_t comm;
  cudaStream_t stream;
  int rank = 0;
  float *weights = nullptr, *grads = nullptr;
  int n = 1 << 20;

  void init(ncclUniqueId id, int nranks) {
    rank = std::atoi(std::getenv("RANK"));
    NCCLCHECK(ncclCommInitRank(&comm, nranks, id, rank));
  }

  // BUG: rank 0 re-broadcasts the weights for logging; the others never join.
  void step_buggy(int step) {
    NCCLCHECK(ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, stream));
    sgd<<<(n + 255) / 256, 256, 0, stream>>>(weights, grads, n, 0.1f);
    if (rank == 0 && step % 10 == 0)
      NCCLCHECK(ncclBroadcast(weights, weights, n, ncclFloat, 0, comm, stream));
  }

  // FIXED: every rank takes part in the broadcast.
  void step_fixed(int step) {
    NCCLCHECK(ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, stream));
    sgd<<<(n + 255) / 256, 256, 0, stream>>>(weights, grads, n, 0.1f);
    if (step % 10 == 0)
      NCCLCHECK(ncclBroadcast(weights, weights, n, ncclFloat, 0, comm, stream));
  }
};
