// The callee in the same file: what the checks say directly.
#include <mpi.h>

static void sync_all(int n, MPI_Comm c) {
  MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT, MPI_SUM, c);
}

void step(MPI_Comm sub) {
  int rank;
  MPI_Comm_rank(sub, &rank);
  if (rank == 0)
    sync_all(1, sub);
}

void finish(MPI_Comm sub) {
  int rank;
  MPI_Comm_rank(sub, &rank);
  if (rank != 0)
    return;
  sync_all(1, sub);
}

void exchange(MPI_Comm sub) {
  int rank;
  MPI_Comm_rank(sub, &rank);
  if (rank == 0) {
    sync_all(1, sub);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    sync_all(1, sub);
  }
}
