/* Shared by the runtime test programs: MPI set up so that a mismatch
 * hangs or corrupts silently, as in production, instead of aborting. */
#ifndef LOCKSTEP_TEST_COMMON_H
#define LOCKSTEP_TEST_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int setup(int *argc, char ***argv, int *rank, int *size) {
  MPI_Init(argc, argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  setvbuf(stdout, NULL, _IOLBF, 0);
  return *argc > 1 && strcmp((*argv)[1], "fixed") == 0;
}

#endif
