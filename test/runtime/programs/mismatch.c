/* Collectives that every rank calls, with arguments that differ by rank:
 * the call completes (or hangs) with wrong results. MODE: root, count,
 * datatype, op, or fixed. */
#include "common.h"

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  const char *mode = argc > 1 ? argv[1] : "fixed";
  float weights[8] = {0};
  if (rank == 0)
    for (int i = 0; i < 8; ++i)
      weights[i] = (float)i;
  MPI_Bcast(weights, 8, MPI_FLOAT, 0, MPI_COMM_WORLD);
  if (!fixed && strcmp(mode, "root") == 0) {
    int root = rank == 0 ? 0 : 1; /* each rank thinks it knows the root */
    MPI_Bcast(weights, 4, MPI_FLOAT, root, MPI_COMM_WORLD); /* LOCKSTEP-SITE: bcast-root */
  } else if (!fixed && strcmp(mode, "count") == 0) {
    int count = rank == 0 ? 4 : 8; /* a shorter message fits a longer buffer: no error */
    MPI_Bcast(weights, count, MPI_FLOAT, 0, MPI_COMM_WORLD); /* LOCKSTEP-SITE: bcast-count */
  } else {
    MPI_Bcast(weights, 4, MPI_FLOAT, 0, MPI_COMM_WORLD); /* LOCKSTEP-SITE: bcast */
  }
  /* Every mode: in place at the root, whose own count and type MPI ignores
   * (the root passes 0 and MPI_DATATYPE_NULL); rules/mpi.json's "in_place"
   * makes the runtime compare its receive side instead, so this is no mismatch. */
  int share = rank, all[64] = {0};
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(&share, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Scatter(all, 1, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, &share, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int step = 3;
  if (!fixed && strcmp(mode, "datatype") == 0 && rank == 1) {
    float as_float = 3.0f; /* same size, another type: silently wrong */
    MPI_Allreduce(MPI_IN_PLACE, &as_float, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: reduce-float */
  } else {
    MPI_Op op = (!fixed && strcmp(mode, "op") == 0 && rank == 1) ? MPI_MAX : MPI_SUM;
    MPI_Allreduce(MPI_IN_PLACE, &step, 1, MPI_INT, op, MPI_COMM_WORLD); /* LOCKSTEP-SITE: reduce-step */
  }
  printf("weights %.0f %.0f step %d\n", weights[1], weights[7], step);
  MPI_Finalize();
  return 0;
}
