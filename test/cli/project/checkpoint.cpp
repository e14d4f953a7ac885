// Defines the routine that hides a barrier; train.cpp calls it on rank 0 only.
#include <mpi.h>

void save_checkpoint(MPI_Comm world) {
  MPI_Barrier(world);
}

void log_line(const char *) {}

// An error path: rank 0 returns the error of its send; reported only with
// --error-paths-as-exits.
int send_then_sync(MPI_Comm comm, int rank) {
  if (rank == 0) {
    int err = MPI_Send(&rank, 1, MPI_INT, 1, 0, comm);
    if (err != MPI_SUCCESS)
      return err;
  }
  return MPI_Barrier(comm);
}
