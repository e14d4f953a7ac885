/* Rank 1 never reaches the barrier (it waits for something that never
 * comes) and never exits: only the stall timeout can name it. */
#include "common.h"

#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  int token = rank;
  MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 1 && !fixed)
    for (;;)
      pause();
  MPI_Barrier(MPI_COMM_WORLD); /* LOCKSTEP-SITE: barrier */
  printf("done\n");
  MPI_Finalize();
  return 0;
}
