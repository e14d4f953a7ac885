// RUN: not %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A unit with a fatal "file not found" error: no crash; the functions that
// still compile are analysed, the others are skipped.
#include <mpi.h>
#include "lockstep_no_such_header.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'lockstep_no_such_header.h' file not found [clang-diagnostic-error]

void uses_missing(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    missing_helper(comm);
  MPI_Barrier(comm);
}

void still_analysed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'
}
