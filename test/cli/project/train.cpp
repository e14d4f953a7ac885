// Calls save_checkpoint() under a rank test, and tests node_rank(): both of
// other files, found with their summaries.
#include <mpi.h>

void save_checkpoint(MPI_Comm comm);
void log_line(const char *);

void train(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    save_checkpoint(comm);
  if (rank == 0)
    log_line("saved"); // no collective in checkpoint.cpp: silent
}

int node_rank(MPI_Comm comm);

void report(MPI_Comm comm) {
  if (node_rank(comm) == 0)
    MPI_Barrier(comm);
}
