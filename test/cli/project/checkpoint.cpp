// Defines the routine that hides a barrier; train.cpp calls it on rank 0 only.
#include <mpi.h>

void save_checkpoint(MPI_Comm world) {
  MPI_Barrier(world);
}

void log_line(const char *) {}
