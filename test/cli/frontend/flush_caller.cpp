// Calls a function whose barrier lies in a header another unit reaches
// through a relative -I: the note must name that header wherever lockstep runs.
#include <mpi.h>

void vendor_flush(MPI_Comm comm);

void flush_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    vendor_flush(comm);
}
