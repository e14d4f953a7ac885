// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Ranks that clean up on their way out (`MPI_Finalize(); return 1;`) before
// a collective the others reach: one hang, reported once, where the others
// wait, with the remedy for the early exit (not "move MPI_Finalize out of
// the branch").
#include <mpi.h>
#include <stdio.h>

int read_count(const char *path, int *n);

int setup_exit(const char *path) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (read_count(path, &n) != 0) {
      fprintf(stderr, "cannot read %s\n", path);
      MPI_Finalize();
      return 1;
    }
  }
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'rank == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: ranks where 'rank == 0' return here
  // CHECK-MESSAGES: :[[@LINE-10]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
  return n;
}

// Negative: rank 0 shares whether the read worked; every rank leaves or none.
int setup_agreed_exit(const char *path) {
  int rank, n = 0, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    failed = read_count(path, &n) != 0;
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (failed) {
    MPI_Finalize();
    return 1;
  }
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return n;
}

// A collective on the way out that is not the cleanup: still one hang,
// reported where the others wait.
int leave_after_barrier(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == steps) {
    MPI_Barrier(comm);
    return 0;
  }
  MPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_INT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'rank == steps', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: ranks where 'rank == steps' return here
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'rank == steps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  return steps;
}

// Positive beside it: the arm does not leave, so its collective is the one
// only some ranks run.
int barrier_then_stay(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == steps)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == steps'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == steps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_INT, MPI_SUM, comm);
  return steps;
}
