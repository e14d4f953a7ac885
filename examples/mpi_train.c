/* A data-parallel training step in C with MPI, in a buggy and a fixed form.
 * lockstep reports the buggy functions and stays silent on the fixed ones. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NPARAMS 1024

static void save_checkpoint(const float *params, int step, MPI_Comm comm) {
  char path[64];
  snprintf(path, sizeof path, "ckpt-%d.bin", step);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(params, sizeof(float), NPARAMS, f);
    fclose(f);
  }
  MPI_Barrier(comm); /* everyone waits until the file exists */
}

static float local_loss(const float *grad) { return grad[0] * 0.5f; }

/* BUG: the checkpoint (and its barrier) runs on rank 0 only. */
void train_step_buggy(float *params, float *grad, int step, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Allreduce(MPI_IN_PLACE, grad, NPARAMS, MPI_FLOAT, MPI_SUM, comm);
  for (int i = 0; i < NPARAMS; ++i)
    params[i] -= 0.01f * grad[i];
  if (rank == 0 && step % 100 == 0)
    save_checkpoint(params, step, comm);
}

/* BUG: ranks without a validation shard leave before the metric reduction. */
int evaluate_buggy(const float *grad, int num_val_shards, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  float loss = local_loss(grad), total = 0.0f;
  if (rank >= num_val_shards) {
    fprintf(stderr, "rank %d: no validation shard\n", rank);
    return -1;
  }
  MPI_Allreduce(&loss, &total, 1, MPI_FLOAT, MPI_SUM, comm);
  if (rank == 0)
    printf("loss %f\n", total);
  return 0;
}

/* FIXED: every rank takes part in the checkpoint; only rank 0 writes. */
void train_step_fixed(float *params, float *grad, int step, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Allreduce(MPI_IN_PLACE, grad, NPARAMS, MPI_FLOAT, MPI_SUM, comm);
  for (int i = 0; i < NPARAMS; ++i)
    params[i] -= 0.01f * grad[i];
  if (step % 100 == 0) {
    if (rank == 0) {
      FILE *f = fopen("ckpt.bin", "wb");
      if (f)
        fclose(f);
    }
    MPI_Barrier(comm);
  }
}

/* FIXED: ranks without a shard contribute zero and stay in step. */
int evaluate_fixed(const float *grad, int num_val_shards, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  float loss = rank < num_val_shards ? local_loss(grad) : 0.0f, total = 0.0f;
  MPI_Allreduce(&loss, &total, 1, MPI_FLOAT, MPI_SUM, comm);
  if (rank == 0)
    printf("loss %f\n", total);
  return 0;
}
