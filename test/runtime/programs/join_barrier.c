/* Seed 001: rank 1 has one more input than rank 0. Each input costs a
 * gradient allreduce; a barrier follows the loop. Without a join, rank 0's
 * barrier meets rank 1's extra allreduce (NCCL would even match them: its
 * barrier is a one-element allreduce). The fixed variant joins: every
 * round, ranks agree on who still has input, and joined ranks shadow the
 * gradient allreduce with zeros. */
#include "common.h"

#define INPUTS 3

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  int inputs = INPUTS + rank;
  int seen = 0;
  if (!fixed) {
    for (int i = 0; i < inputs; ++i, ++seen) {
      float grad = 1.0f;
      MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: backward */
    }
  } else {
    for (;;) {
      int active = seen < inputs;
      MPI_Allreduce(MPI_IN_PLACE, &active, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* not joined yet */
      if (active == 0)
        break;
      float grad = seen < inputs ? 1.0f : 0.0f; /* joined ranks shadow with zeros */
      MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      if (seen < inputs)
        ++seen;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD); /* LOCKSTEP-SITE: barrier */
  printf("rank %d has exhausted all %d of its inputs\n", rank, seen);
  MPI_Finalize();
  return 0;
}
