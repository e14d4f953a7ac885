/* D20: one rank meets a bad sample and leaves the training loop early;
 * the others keep calling the gradient allreduce. */
#include "common.h"

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  double loss = 1.0;
  for (int step = 1; step <= 6; ++step) {
    int bad = rank == 1 && step == 4; /* rank 1's shard holds a bad sample */
    if (fixed)
      MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* everyone agrees */
    if (bad) {
      printf("bad sample at step %d: leaving\n", step);
      break; /* LOCKSTEP-SITE: early-break */
    }
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: loss-allreduce */
    loss /= size;
    printf("step %d loss %.3f\n", step, loss);
  }
  MPI_Finalize();
  return 0;
}
