// Defines the routine that hides a barrier; train.cpp calls it on rank 0 only.
#include <mpi.h>

void save_checkpoint(MPI_Comm comm) {
  MPI_Barrier(comm);
}

void log_line(const char *) {}
