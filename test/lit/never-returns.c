// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Helpers of this file that never return, though not declared `noreturn`:
// every way through them ends in `exit`, `abort` or another such helper
// (`static void usage(void) { fprintf(stderr, ...); exit(1); }`). A rank that
// calls one leaves there, as it would at a plain `exit`; a helper that may
// return does not make its callers leave.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void usage(const char *program) {
  fprintf(stderr, "usage: %s FILE\n", program);
  exit(2);
}

static void quit(int code) {
  if (code != 0)
    exit(code);
  else
    abort();
}

static void cleanup_and_quit(int code) {
  fflush(stderr);
  quit(code);
}

// Positive: rank 0 checks the arguments and leaves through the helper.
int check_arguments_on_root(int argc, char **argv) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && argc < 2)
    usage(argv[0]);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'rank == 0 && argc < 2', which call 'usage' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0 && argc < 2' call 'usage' here
  // CHECK-MESSAGES: never-returns.c:{{[0-9]+}}:3: note: 'usage' does not return: every way through it ends in a call that does not return, as 'exit' here
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'rank == 0 && argc < 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
  return n;
}

// Negative: every rank checks the arguments; all of them leave or none.
int check_arguments_everywhere(int argc, char **argv) {
  int n = 0;
  if (argc < 2)
    usage(argv[0]);
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return n;
}

// Positive: a helper of a helper whose both arms end the process.
void drain(double *v, int n, int bad) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 3 && bad)
    cleanup_and_quit(1);
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'rank == 3 && bad', which call 'cleanup_and_quit' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 3 && bad' call 'cleanup_and_quit' here
  // CHECK-MESSAGES: never-returns.c:{{[0-9]+}}:3: note: 'cleanup_and_quit' does not return: every way through it ends in a call that does not return, as 'quit' here
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'rank == 3 && bad' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
}

// A helper that leaves only when told to; otherwise it warns and returns.
static void warn_or_quit(int fatal, const char *message) {
  fprintf(stderr, "%s\n", message);
  if (fatal)
    exit(1);
}

// Negative: rank 0 warns and goes on to the allreduce with the others.
void drain_with_warning(double *v, int n, int slow) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && slow)
    warn_or_quit(0, "slow");
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
