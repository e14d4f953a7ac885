// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Communicator membership (lockstep-rank-branch): a communicator split with a
// rank-dependent colour is only used by its members, so collectives on it
// under the condition that decides membership are fine.
#include <mpi.h>

void leaders_only(MPI_Comm world, double *v) {
  int rank, local_rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm leaders;
  int color = local_rank == 0 ? 0 : MPI_UNDEFINED;
  MPI_Comm_split(world, color, rank, &leaders);
  // Negative: the cross-node communicator of local-rank-0 processes.
  if (local_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, leaders);
  // Negative: the idiomatic null test.
  if (leaders != MPI_COMM_NULL)
    MPI_Barrier(leaders);
  // A different condition is not membership: rank 3 may not be a leader.
  if (rank == 3)
    MPI_Barrier(leaders);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 3'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // A collective on the parent communicator under the membership test hangs.
  if (local_rank == 0)
    MPI_Barrier(world);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'local_rank == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'local_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-22]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: halves by parity; each half runs its own sequence.
void halves(MPI_Comm world) {
  int rank, x = 0;
  MPI_Comm_rank(world, &rank);
  MPI_Comm half;
  MPI_Comm_split(world, rank % 2, rank, &half);
  if (rank % 2 == 0)
    MPI_Bcast(&x, 1, MPI_INT, 0, half);
  else
    MPI_Barrier(half);
}
