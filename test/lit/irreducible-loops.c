// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A `goto` into a loop's body makes a cycle with two ways in, which is no
// natural loop; a `goto` out of a loop to a label before it closes an outer
// one. Both are analysed to an end: the walks stop at the edge that goes
// back, and judge what lies past the cycle from the values it leaves.
#include <mpi.h>

// Positive: the count of passes through the body differs between ranks,
// so `x` does too.
void into_body(MPI_Comm comm, int n) {
  int rank, x = 0, i = 0;
  MPI_Comm_rank(comm, &rank);
  if (n)
    goto mid;
  while (i < rank) {
    x += 3;
  mid:
    i++;
  }
  if (x == 3)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'x == 3'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'x == 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:10: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same cycle with a bound every rank shares.
void into_body_uniform(MPI_Comm comm, int n, int m) {
  int x = 0, i = 0;
  if (n)
    goto mid;
  while (i < m) {
    x += 3;
  mid:
    i++;
  }
  if (x == 3)
    MPI_Barrier(comm);
}

// Positive: some ranks go back to the label, and skip the barrier.
void back_to_label(MPI_Comm comm, int n) {
  int i = 0, rank;
  MPI_Comm_rank(comm, &rank);
retry:
  i++;
  while (i < n) {
    if (i == rank)
      goto retry;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'i == rank', which jump away with goto before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'i == rank' jump away with goto here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'i == rank' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
    i += 2;
  }
}

// Negative: every rank goes back at the same step.
void back_to_label_uniform(MPI_Comm comm, int n) {
  int i = 0;
retry:
  i++;
  while (i < n) {
    if (i == 5)
      goto retry;
    MPI_Barrier(comm);
    i += 2;
  }
}

// A barrier inside such a cycle, gone round again by some ranks: how many
// times each rank calls it is not compared, and the function says so.
void barrier_in_cycle(MPI_Comm comm, int n, int m) {
  int rank, t = 0, s = 0;
  MPI_Comm_rank(comm, &rank);
  if (m)
    goto mid;
  while (s < n) {
    t += 1;
  mid:
    s++;
  }
  MPI_Barrier(comm);
  if (rank == 2 && t < 100)
    goto mid;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: remark: lockstep: analysis of 'barrier_in_cycle' incomplete: collectives run in a cycle entered other than through its head (a goto into a loop); how many times each rank runs them is not compared [lockstep-rank-branch]
}
