// A training step with a hang: only rank 0 calls the all-reduce, the other
// ranks wait in the next collective forever.
#include <cuda_runtime.h>
#include <nccl.h>
#if __has_include(<nccl_device.h>)
#include <nccl_device.h> // NCCL 2.28: tests `#if __CUDACC__`, empty in clang
#endif
#include <vendored_math.h>

#include "train_config.h"

#ifndef __CUDACC_RELAXED_CONSTEXPR__
#error "--expt-relaxed-constexpr did not reach the compiler"
#endif

const char *train_greeting() { return TRAIN_GREETING; }

// operator new in CUDA host code needs clang 22's own CUDA wrapper headers.
float *host_buffer(int n) { return new float[n]; }

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void train_step(float *grad, int n, int rank, ncclComm_t comm, cudaStream_t stream) {
  scale<<<vendored_blocks(n, TRAIN_BLOCK), TRAIN_BLOCK, 0, stream>>>(grad, 0.5f, n);
  if (rank == 0)
    ncclAllReduce(grad, grad, n, ncclFloat, ncclSum, comm, stream);
}
