// A rank-0-only barrier that the rank-branch fix-it moves out of the branch.
#include <mpi.h>

void train(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Barrier(comm);
}
