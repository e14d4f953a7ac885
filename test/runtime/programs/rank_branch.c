/* D21: a checkpoint routine that hides a barrier, called on rank 0 only. */
#include "common.h"

#define NPARAMS 4

static void save_checkpoint(const float *params, int step, MPI_Comm comm) {
  printf("checkpoint at step %d: %.1f\n", step, params[0]);
  MPI_Barrier(comm); /* LOCKSTEP-SITE: checkpoint-barrier */
}

static void train_step(float *params, float *grad, int step, int rank, int fixed, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, grad, NPARAMS, MPI_FLOAT, MPI_SUM, comm); /* LOCKSTEP-SITE: grad-allreduce */
  for (int i = 0; i < NPARAMS; ++i)
    params[i] -= 0.1f * grad[i];
  if (fixed) {
    if (step % 3 == 0) {
      if (rank == 0)
        printf("checkpoint at step %d: %.1f\n", step, params[0]);
      MPI_Barrier(comm);
    }
  } else if (rank == 0 && step % 3 == 0) {
    save_checkpoint(params, step, comm); /* LOCKSTEP-SITE: checkpoint-call */
  }
}

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  float params[NPARAMS] = {1, 1, 1, 1};
  for (int step = 1; step <= 7; ++step) {
    float grad[NPARAMS] = {1, 2, 3, 4};
    train_step(params, grad, step, rank, fixed, MPI_COMM_WORLD);
    printf("step %d done: %.2f\n", step, params[0]);
  }
  if (argc > 2) /* never true in the tests: a site that is not reached */
    MPI_Barrier(MPI_COMM_WORLD); /* LOCKSTEP-SITE: unreached */
  MPI_Finalize();
  return 0;
}
