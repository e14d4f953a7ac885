/* Real NCCL under the harness (two or more ranks, one GPU is enough). MODE:
 * fixed; count (rank 1 reduces 8 elements at step 3, the others 4); branch
 * (rank 0 broadcasts at step 3 where the others reduce). Ends with two
 * allreduces fused in a group. */
#include <cuda_runtime.h>
#include <nccl.h>
#include <stdio.h>
#include <string.h>

#include <lockstep/harness.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "fixed";
  lockstep_job job;
  ncclComm_t comm;
  if (lockstep_nccl_init(&job, &comm) != 0)
    return 1;
  cudaStream_t stream;
  float *buf;
  cudaStreamCreate(&stream);
  cudaMalloc((void **)&buf, 16 * sizeof(float));
  cudaMemset(buf, 0, 16 * sizeof(float));
  for (int step = 1; step <= 4; ++step) {
    size_t count = strcmp(mode, "count") == 0 && job.rank == 1 && step == 3 ? 8 : 4;
    if (strcmp(mode, "branch") == 0 && job.rank == 0 && step == 3)
      ncclBroadcast(buf, buf, 4, ncclFloat32, 0, comm, stream); /* LOCKSTEP-SITE: bcast */
    else
      ncclAllReduce(buf, buf, count, ncclFloat32, ncclSum, comm, stream); /* LOCKSTEP-SITE: allreduce */
    cudaStreamSynchronize(stream);
    printf("step %d\n", step);
  }
  ncclGroupStart();
  ncclAllReduce(buf, buf, 4, ncclFloat32, ncclSum, comm, stream);
  ncclAllReduce(buf + 8, buf + 8, 4, ncclFloat32, ncclMax, comm, stream);
  ncclGroupEnd();
  cudaStreamSynchronize(stream);
  printf("rank %d of %d done\n", job.rank, job.world_size);
  ncclCommDestroy(comm);
  return 0;
}
