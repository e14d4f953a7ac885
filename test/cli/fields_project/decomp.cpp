#include "decomp.h"

Decomposition decomp;

void decompose(MPI_Comm comm, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  decomp.global_n = n;
  decomp.nprocs = size;
  decomp.local_n = n / size + (rank < n % size ? 1 : 0);
}
