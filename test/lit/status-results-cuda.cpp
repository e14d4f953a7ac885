// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Status results are not data, in CUDA (issue 14, item 2): the status a
// call returns for the local rank's device is the same kind of result on
// every rank, while the attribute it writes is device data (rules
// per_rank_sources), whatever the device argument.
#include <cuda_runtime.h>
#include <mpi.h>

// Negative: the status of selecting the local rank's device.
void select_device(MPI_Comm comm, int localRank) {
  cudaError_t status = cudaSetDevice(localRank);
  bool selected = status == cudaSuccess;
  if (selected)
    MPI_Barrier(comm);
}

// Positive: an attribute of the local rank's device decides the collectives.
void multicast(MPI_Comm comm, int localRank, float *v, int n) {
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, localRank);
  if (major >= 9) {
    MPI_Barrier(comm);
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, comm);
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Barrier' runs only on ranks where 'major >= 9'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'major >= 9' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'major' is a device attribute from 'cudaDeviceGetAttribute'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the attribute agreed (every rank takes the minimum) first.
void agreed_multicast(MPI_Comm comm, int localRank, float *v, int n) {
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, localRank);
  MPI_Allreduce(MPI_IN_PLACE, &major, 1, MPI_INT, MPI_MIN, comm);
  if (major >= 9) {
    MPI_Barrier(comm);
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, comm);
  }
}
