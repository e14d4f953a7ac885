// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Membership through accessors (issue 14, pattern 6): a cross-node
// communicator split by the local rank and returned by an accessor is used
// only by the ranks of one local rank each; under `homogeneous ||
// local_rank() == 0` its members all call it or all skip it. The same test
// before a collective on the whole job leaves ranks behind.
#include <mpi.h>

static MPI_Comm g_cross = MPI_COMM_NULL;
static int g_local_rank = 0;

void init_comms(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g_local_rank);
  MPI_Comm_split(world, g_local_rank, rank, &g_cross);
}

MPI_Comm cross_node_comm() { return g_cross; }
int local_rank() { return g_local_rank; }

// Negative: only the members of one cross-node communicator meet in it.
void sync_across_nodes(bool homogeneous, float *v, int n) {
  if (homogeneous || local_rank() == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, cross_node_comm());
}

// Positive: every rank of the job takes part in MPI_COMM_WORLD.
void sync_world(bool homogeneous, float *v, int n) {
  if (homogeneous || local_rank() == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'homogeneous || local_rank() == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'homogeneous || local_rank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
