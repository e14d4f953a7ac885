// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-loop,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// MPI_Comm_split_type parts the ranks by where they run (rules'
// "parts_by_placement"): every rank passes MPI_COMM_TYPE_SHARED, yet each
// node gets its own communicator, and nodes may hold different numbers of
// ranks. The size of a node communicator is the same on its members only.
#include <mpi.h>

// Positive: nodes with a single rank skip the barrier every other rank makes.
void barrier_on_shared_nodes(void) {
  int rank, node_size;
  MPI_Comm node;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  if (node_size > 1)
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'node_size > 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'node_size > 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'node_size' is the size of 'node' from 'MPI_Comm_size'; only the ranks that share one 'node' agree on it
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: each part of the split by 'MPI_Comm_split_type' here gets its own communicator
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: 'node' is the communicator of the ranks placed with this one from 'MPI_Comm_split_type'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: each node broadcasts from each of its own ranks; the members of
// a node agree on its size.
void broadcast_within_node(double *x) {
  int rank, node_size;
  MPI_Comm node;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  for (int r = 0; r < node_size; ++r)
    MPI_Bcast(x, 1, MPI_DOUBLE, r, node);
  MPI_Barrier(MPI_COMM_WORLD);
}

// Positive: the node size sets the count of a reduction over the world.
void count_from_node_size(double *x) {
  int rank, node_size;
  MPI_Comm node;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  MPI_Allreduce(MPI_IN_PLACE, x, node_size, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:34: note: 'node_size' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'node_size' is the size of 'node' from 'MPI_Comm_size'; only the ranks that share one 'node' agree on it
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: each part of the split by 'MPI_Comm_split_type' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'node' is the communicator of the ranks placed with this one from 'MPI_Comm_split_type'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-6]]:34: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the same count over the node's own communicator.
void count_from_node_size_on_node(double *x) {
  int rank, node_size;
  MPI_Comm node;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  MPI_Allreduce(MPI_IN_PLACE, x, node_size, MPI_DOUBLE, MPI_SUM, node);
}
