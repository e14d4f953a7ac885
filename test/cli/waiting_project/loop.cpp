// A helper of this file performs a barrier and calls a function that no file
// of the project defines: the barrier is known here, whatever the other
// call turns out to do.
#include <mpi.h>

void prepare_batch(int step); // in a library outside the project

static void sync_batch(int step, MPI_Comm comm) {
  prepare_batch(step);
  MPI_Barrier(comm);
}

// Positive: each rank leaves the loop at its own step.
void drain(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int s = 0; s < steps; ++s) {
    sync_batch(s, comm);
    if (s == rank)
      break;
  }
}

// Negative: every rank runs every step.
void drain_all(MPI_Comm comm, int steps) {
  for (int s = 0; s < steps; ++s)
    sync_batch(s, comm);
}
