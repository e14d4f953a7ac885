// Does not compile (a fatal "file not found"): reported as failed, without
// crashing, while the other units are analysed.
#include <mpi.h>
#include "lockstep_no_such_header.h"

void uses_missing(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    missing_helper(comm);
}
