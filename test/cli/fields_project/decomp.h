// The domain decomposition, filled in decomp.cpp and read in solve.cpp.
#pragma once
#include <mpi.h>

struct Decomposition {
  int global_n; // the same on every rank
  int local_n;  // this rank's share
  int nprocs;   // the world size
};

extern Decomposition decomp;

void decompose(MPI_Comm comm, int n);
void solve(MPI_Comm comm, double *residual);
