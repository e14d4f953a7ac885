// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-argument,lockstep-rank-loop' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Collectives no rank waits in ("synchronizes": false in the rules):
// `MPI_Comm_free` is collective, but implementations make it local, as the
// standard anticipates. A rank that frees a communicator elsewhere, in
// another order, or never, stalls no one; the shapes below come from
// MPICH's own test suite. Communicator creation does wait for every member,
// so the same shapes with `MPI_Comm_dup` are still reported.

#include <mpi.h>

// Negative: the last rank frees its duplicates before the world barrier,
// the others after it (MPICH comm/cmfree.c).
void free_around_barrier(MPI_Comm tmp[4]) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int dest = size - 1;
  if (rank == dest)
    for (int i = 0; i < 4; ++i)
      MPI_Comm_free(&tmp[i]);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != dest)
    for (int i = 0; i < 4; ++i)
      MPI_Comm_free(&tmp[i]);
}

// Positive: duplicating is collective and synchronizing, so the last rank
// waits in it before the barrier while the others wait in the barrier.
void dup_around_barrier(MPI_Comm tmp[4]) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int dest = size - 1;
  if (rank == dest)
    MPI_Comm_dup(MPI_COMM_WORLD, &tmp[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Comm_dup' runs only on ranks where 'rank == dest'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == dest' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Comm_dup' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != dest)
    MPI_Comm_dup(MPI_COMM_WORLD, &tmp[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Comm_dup' runs only on ranks where 'rank != dest'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank != dest' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Comm_dup' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: only rank 0 frees the sub-grid it made on its own, before the
// others free theirs (MPICH topo/cartsuball.c), and a rank that returns
// early skips a free (MPICH topo/dgraph_unwgt.c).
bool validate(MPI_Comm c);
int free_on_one_rank(MPI_Comm sub, MPI_Comm graph) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Comm_free(&sub);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0)
    MPI_Comm_free(&sub);
  if (rank == 1 && !validate(graph))
    return 1;
  MPI_Comm_free(&graph);
  return 0;
}

// Positive: the early return skips a collective that does wait.
int return_before_reduce(MPI_Comm graph, double *v) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1 && !validate(graph))
    return 1;
  MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, graph);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'rank == 1 && !validate(graph)', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 1 && !validate(graph)' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 1 && !validate(graph)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  MPI_Comm_free(&graph);
  return 0;
}

// Negative: a per-rank number of frees in a loop (MPICH comm/ctxsplit.c),
// and the handle each rank frees differs.
void free_per_rank(MPI_Comm *comms, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n + rank; ++i)
    MPI_Comm_free(&comms[i]);
  MPI_Comm_free(&comms[rank]);
}
