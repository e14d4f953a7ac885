// Returns the rank: a condition on it in another file is seen with the
// summaries of a previous run (--summaries).
#include <mpi.h>

int node_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
