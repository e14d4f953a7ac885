/* A long run of tiny allreduces, faster than records can be shipped on a
 * loaded machine: rank 1 calls a barrier instead at call DIVERGE (0: never).
 * usage: stress CALLS DIVERGE */
#include "common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  setup(&argc, &argv, &rank, &size);
  long calls = argc > 1 ? atol(argv[1]) : 100000, diverge = argc > 2 ? atol(argv[2]) : 0;
  int x = 1;
  for (long i = 1; i <= calls; ++i) {
    if (i == diverge && rank == 1)
      MPI_Barrier(MPI_COMM_WORLD); /* LOCKSTEP-SITE: barrier */
    else
      MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: allreduce */
  }
  printf("done %ld calls\n", calls);
  MPI_Finalize();
  return 0;
}
