#include "decomp.h"

#include <cstdio>

void solve(MPI_Comm comm, double *residual) {
  for (int i = 0; i < decomp.global_n; ++i)
    MPI_Allreduce(MPI_IN_PLACE, residual, 1, MPI_DOUBLE, MPI_SUM, comm);
  for (int i = 0; i < decomp.local_n; ++i)
    MPI_Allreduce(MPI_IN_PLACE, residual, 1, MPI_DOUBLE, MPI_SUM, comm);
}

// Quiet: every rank synchronises when the uniform global_n says so, rank 0
// after logging; a field another file may write per rank changes nothing
// that holds without it.
void report(MPI_Comm comm, int rank, double residual) {
  if (rank == 0) {
    std::printf("residual %g\n", residual);
    if (decomp.global_n > 0)
      MPI_Barrier(comm);
  } else if (decomp.global_n > 0) {
    MPI_Barrier(comm);
  }
}

// Reported in every way: the second caller passes a bound from the rank
// itself, so the first caller's field (uniform in the end) decides nothing.
static void sweep(MPI_Comm comm, int steps) {
  for (int s = 0; s < steps; ++s)
    MPI_Barrier(comm);
}

void sweeps(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  sweep(comm, decomp.global_n);
  sweep(comm, rank + 1);
}

// Reported in every way: the condition mixes the field with a rank the
// caller passes.
static void threshold(MPI_Comm comm, int r) {
  if (r + decomp.global_n > 3)
    MPI_Barrier(comm);
}

void thresholds(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  threshold(comm, rank);
}

// Quiet in every way: a rank is always below the world size, whichever file
// fills the field named so.
void every_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank < decomp.nprocs)
    MPI_Barrier(comm);
}

// Quiet in every way: r is the rank on both paths, so `r >= 0` always holds;
// a branch on a field another file may write changes nothing here.
void still_the_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int r = rank;
  if (decomp.global_n > 4)
    r = rank;
  if (r >= 0)
    MPI_Barrier(comm);
}
