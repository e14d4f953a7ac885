// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A split's handle copied only where it is not null holds what the split
// hands out: each member's part, and no communicator on the other ranks.
// Copying something else there (the world) is a choice the ranks make apart.
#include <mpi.h>

// Negative: the copy is null exactly where the split's handle is.
void copied_where_member(double x) {
  int rank;
  MPI_Comm part, sub = MPI_COMM_NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank > 0 ? 0 : MPI_UNDEFINED, rank, &part);
  if (part != MPI_COMM_NULL)
    sub = part;
  if (sub != MPI_COMM_NULL)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, sub);
}

// Positive: the other ranks reduce over the whole job meanwhile.
void world_where_not_member(double x) {
  int rank;
  MPI_Comm part, sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank > 0 ? 0 : MPI_UNDEFINED, rank, &part);
  if (part != MPI_COMM_NULL)
    sub = part;
  else
    sub = MPI_COMM_WORLD;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, sub);
  // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: the communicator of 'MPI_Allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:59: note: 'sub' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:59: note: pick the communicator by a value that is the same on every rank, or call 'MPI_Allreduce' on each communicator in a branch that all of its members take
}

// Negative: the copy's members are the split's, and exactly they reduce.
void copy_on_members(double x) {
  int rank;
  MPI_Comm part, sub = MPI_COMM_NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank > 0 ? 0 : MPI_UNDEFINED, rank, &part);
  if (part != MPI_COMM_NULL)
    sub = part;
  if (rank > 0)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, sub);
}

// Positive: rank 1 is a member and never reduces.
void copy_on_some_members(double x) {
  int rank;
  MPI_Comm part, sub = MPI_COMM_NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank > 0 ? 0 : MPI_UNDEFINED, rank, &part);
  if (part != MPI_COMM_NULL)
    sub = part;
  if (rank > 1)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, sub);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'rank > 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank > 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 2 calls 'MPI_Allreduce' and rank 1 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A C accessor handed the struct (`is_leader(&t)`, reading `t->node_rank`)
// is the colour field it reads, in the split's colour and in the test
// alike (probe52): only the leaders reduce on the leaders' communicator
// (negative); an accessor of another per-rank field picks ranks apart
// (positive).
typedef struct {
  MPI_Comm node, leaders;
  int node_rank, slot;
} topo_t;

static int is_leader(const topo_t *t) { return t->node_rank == 0; }
static int has_slot(const topo_t *t) { return t->slot > 2; }

void leaders_sum(double *v) {
  topo_t t;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &t.node);
  MPI_Comm_rank(t.node, &t.node_rank);
  t.slot = rank % 5;
  MPI_Comm_split(MPI_COMM_WORLD, is_leader(&t) ? 0 : MPI_UNDEFINED, rank, &t.leaders);
  if (is_leader(&t))
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_SUM, t.leaders);
  if (has_slot(&t))
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'has_slot(&t)'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'has_slot(&t)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-16]]:35: note: parameter 't->slot' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
