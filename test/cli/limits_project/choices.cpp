// More distinct collective sequences than the engine keeps after one rank
// branch: `lockstep check` must say the analysis is incomplete (a note, the
// summary line, the JSON count), not report a quiet run.
#include <mpi.h>

struct Flags {
  bool a, b, c, d, e, f, g;
};

void many_choices(MPI_Comm comm, const Flags &o, int *x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    if (o.a) MPI_Barrier(comm);
    if (o.b) MPI_Bcast(x, 1, MPI_INT, 0, comm);
    if (o.c) MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, comm);
    if (o.d) MPI_Reduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, 0, comm);
    if (o.e) MPI_Bcast(x, 2, MPI_INT, 0, comm);
    if (o.f) MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_INT, MPI_MAX, comm);
    if (o.g) MPI_Barrier(MPI_COMM_WORLD);
  } else {
    if (o.a) MPI_Barrier(comm);
  }
}
