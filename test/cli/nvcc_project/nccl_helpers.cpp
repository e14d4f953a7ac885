// Host-only code compiled by g++ (with gcc-only warning flags) in the same
// target: every rank takes part in the all-reduce.
#include <nccl.h>

#include "train_config.h"

ncclResult_t average_gradients(float *grad, int n, ncclComm_t comm, cudaStream_t stream) {
  return ncclAllReduce(grad, grad, n, ncclFloat, ncclAvg, comm, stream);
}
