/* D22: a data loader whose length depends on the rank; a barrier ends the
 * epoch (seed 001, case 3). */
#include "common.h"

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  int batches = 4 + rank; /* uneven shards */
  if (fixed)
    MPI_Allreduce(MPI_IN_PLACE, &batches, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* drop_last */
  float grad = 0;
  for (int b = 0; b < batches; ++b) {
    grad = 1.0f + (float)b;
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: batch-allreduce */
    printf("batch %d grad %.1f\n", b, grad);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* LOCKSTEP-SITE: epoch-barrier */
  printf("epoch done after %d batches\n", batches);
  MPI_Finalize();
  return 0;
}
