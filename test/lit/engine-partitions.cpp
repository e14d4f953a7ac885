// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, partitions: branches that together make every rank call the
// same collectives in the same order are correct however they are written,
// and stay quiet. v2 decides this over a symbolic rank and size
// (0 <= rank < size, size >= 1), not by comparing the shapes of CFG paths;
// most negatives here are correct programs that v1 warns about.
//
// Each positive beside a negative differs from it slightly and really leaves
// some rank out (or makes it call twice). Where it is reported (as v1 reports
// a single branch): each branch arm that takes part in the gap gets one
// warning, at its first collective; so n partial branches give n warnings.
// The wording of these new findings is v2's choice ({{.*}}); a branch that
// alone excludes ranks keeps the v1 message word for word.
#include <cstdlib>
#include <mpi.h>

void pack(double *buf, int n);
void unpack(double *buf, int n);
void read_config(int *cfg, int n);

// Negative: odd ranks take the first barrier, even ranks the second; every
// rank calls MPI_Barrier exactly once.
void parity_halves(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2)
    MPI_Barrier(comm);
  if (!(rank % 2))
    MPI_Barrier(comm);
}

// Negative: the same halves tested as 'rank % 2 == 1' and 'rank % 2 == 0';
// complementary only because a rank is never negative.
void parity_halves_compared(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2 == 0)
    MPI_Barrier(comm);
  if (rank % 2 == 1)
    MPI_Barrier(comm);
}

// Positive: 'rank % 3 == 0' is not the complement of 'rank % 2': rank 2 calls
// no barrier and rank 3 calls two.
void parity_not_partition(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank % 3 == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 3 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the job insists on exactly four ranks (the size test is the same
// on every rank), and the two branches cover ranks 0-1 and 2-3.
void four_ranks(MPI_Comm comm, double *grad, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size != 4)
    return;
  if (rank == 0 || rank == 1)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  if (rank == 2 || rank == 3)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
}

// Positive: rank 3 of the four takes neither branch.
void four_ranks_missing_one(MPI_Comm comm, double *grad, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size != 4)
    return;
  if (rank == 0 || rank == 1)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0 || rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 4 ranks, rank 1 calls 'MPI_Allreduce' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 2)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 4 ranks, rank 2 calls 'MPI_Allreduce' and rank 0 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the branches of four_ranks without the size guard; on five or
// more ranks, ranks 4 and up take neither branch.
void four_ranks_unguarded(MPI_Comm comm, double *grad, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 || rank == 1)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0 || rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 1 calls 'MPI_Allreduce' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 2 || rank == 3)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 2 || rank == 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 4 ranks, rank 3 calls 'MPI_Allreduce' and rank 0 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the source, the destination when it is not the source, and every
// other rank synchronise once each; src and dst are the same on every rank
// (command-line arguments), and may be equal.
void relay(MPI_Comm comm, int argc, char **argv, double *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int src = argc > 2 ? std::atoi(argv[1]) : 0;
  int dst = argc > 2 ? std::atoi(argv[2]) : 1;
  if (rank == src) {
    pack(buf, n);
    MPI_Barrier(comm);
  }
  if (rank == dst && rank != src) {
    MPI_Barrier(comm);
    unpack(buf, n);
  }
  if (rank != dst && rank != src)
    MPI_Barrier(comm);
}

// Positive: the source arm also excludes the destination, so when src == dst
// that rank takes none of the three branches.
void relay_same_endpoint(MPI_Comm comm, int argc, char **argv, double *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int src = argc > 2 ? std::atoi(argv[1]) : 0;
  int dst = argc > 2 ? std::atoi(argv[2]) : 1;
  if (rank == src && rank != dst) {
    pack(buf, n);
    MPI_Barrier(comm);
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == src && rank != dst' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == dst && rank != src) {
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == dst && rank != src' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    unpack(buf, n);
  }
  if (rank != dst && rank != src)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank != dst && rank != src' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-23]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same three-way split with constant endpoints.
void relay_fixed(MPI_Comm comm, double *buf, int n) {
  const int src = 0, dst = 3;
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == src)
    MPI_Bcast(buf, n, MPI_DOUBLE, 0, comm);
  if (rank == dst && rank != src)
    MPI_Bcast(buf, n, MPI_DOUBLE, 0, comm);
  if (rank != dst && rank != src)
    MPI_Bcast(buf, n, MPI_DOUBLE, 0, comm);
}

// Negative: conditions that hold on every rank, since 0 <= rank < size.
void tautologies(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (!(rank >= size))
    MPI_Barrier(comm);
  if (rank < size)
    MPI_Barrier(comm);
  if (rank >= 0)
    MPI_Barrier(comm);
  if (size > rank)
    MPI_Barrier(comm);
}

// Positive: excludes the last rank.
void near_tautology_last(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (!(rank >= size - 1))
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where '!(rank >= size - 1)'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: '!(rank >= size - 1)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: excludes rank 0.
void near_tautology_first(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank > 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: 'size > rank + 1' excludes the last rank too.
void near_tautology_swapped(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size > rank + 1)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'size > rank + 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'size > rank + 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: an else-if chain whose tests together cover every rank.
void root_or_rest(MPI_Comm comm, int *cfg, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    read_config(cfg, n);
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
  } else if (rank > 0) {
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
  }
}

// Negative: first, middle and last rank; the last test is the only case left.
void first_middle_last(MPI_Comm comm, int *cfg, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank == 0)
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
  else if (rank < size - 1)
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
  else if (rank == size - 1)
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
}

// Positive: 'rank > 1' leaves rank 1 out of the chain.
void root_or_rest_but_one(MPI_Comm comm, int *cfg, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    read_config(cfg, n);
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  } else if (rank > 1) {
    MPI_Bcast(cfg, n, MPI_INT, 0, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'rank > 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:14: note: for example, in a job of 3 ranks, rank 2 calls 'MPI_Bcast' and rank 1 does not
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
}

// Negative: 'n > 5' and 'n >= 6' are one test of the uniform 'n': when it
// holds, every rank calls one barrier, else none. A rank's path is judged with
// one value of 'n' throughout, whatever constants each condition names.
void halves_under_one_uniform(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2 == 0 && n > 5)
    MPI_Barrier(comm);
  if (rank % 2 == 1 && n >= 6)
    MPI_Barrier(comm);
}

// Positive: 'n >= 5' also holds for n == 5, where only the odd ranks call it.
void halves_under_two_uniform_tests(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2 == 0 && n > 5)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2 == 0 && n > 5' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank % 2 == 1 && n >= 5)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2 == 1 && n >= 5' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Accessors: a call whose body is one `return` over its parameters and its
// object's fields is that expression, so two tests through it line up.
struct Topology {
  int world_rank;
  int stages;
  bool first() const { return stage() == 0; }
  bool last() const { return stage() == stages - 1; }
  int stage() const { return world_rank % stages; }
};
Topology make_topology(MPI_Comm comm);
static bool is_root(int r) { return r == 0; }

// Negative: 'topo.first()' and '!topo.first()' split the ranks in two, and
// 'is_root(rank)' is 'rank == 0'.
void accessor_halves(MPI_Comm comm) {
  const Topology topo = make_topology(comm);
  if (topo.first())
    MPI_Barrier(comm);
  if (!topo.first())
    MPI_Barrier(comm);
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (is_root(rank))
    MPI_Barrier(comm);
  if (rank != 0)
    MPI_Barrier(comm);
}

// Positive: the first and the last stage are not every rank.
void accessor_ends(MPI_Comm comm) {
  const Topology topo = make_topology(comm);
  if (topo.first())
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'topo.first()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-32]]:7: note: 'world_rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (topo.last())
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'topo.last()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-38]]:7: note: 'world_rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the object changes between the two tests, so they are two
// different splits of the ranks.
void accessor_of_changed_object(MPI_Comm comm) {
  Topology topo = make_topology(comm);
  if (topo.first())
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'topo.first()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-50]]:7: note: 'world_rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  topo = make_topology(MPI_COMM_SELF);
  if (!topo.first())
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: '!topo.first()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-57]]:7: note: 'world_rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: one element of a local array, read twice where one write left
// it, is one value: every rank takes exactly one of the two barriers.
void flag_element_halves(MPI_Comm comm, int n) {
  int rank, flags[2];
  MPI_Comm_rank(comm, &rank);
  flags[0] = rank % 3 == 0;
  flags[1] = n;
  if (flags[0])
    MPI_Barrier(comm);
  if (!flags[0])
    MPI_Barrier(comm);
}

// Positive: the element is written again between the two tests; rank 3
// takes both barriers and rank 4 neither.
void flag_element_rewritten(MPI_Comm comm) {
  int rank, flags[2];
  MPI_Comm_rank(comm, &rank);
  flags[0] = rank % 3 == 0;
  if (flags[0])
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'flags[0]'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'flags[0]' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  flags[0] = rank % 2 == 0;
  if (!flags[0])
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where '!flags[0]'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: '!flags[0]' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A rank within a node (from the communicator MPI_Comm_split_type makes) is
// never negative either: `== 1`, `== 0` and `> 1` on it cover every rank of
// a node, so every member of the node's window fences once (MPICH's
// rma/fence_shm.c).
void node_partition_fences() {
  int rank, node_rank, *base;
  MPI_Comm node;
  MPI_Win win;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &node_rank);
  MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &base, &win);
  if (node_rank == 1)
    MPI_Win_fence(0, win);
  if (node_rank == 0)
    MPI_Win_fence(0, win);
  if (node_rank > 1)
    MPI_Win_fence(0, win);
  MPI_Win_free(&win);
}

// Positive beside it: the ranks after the first two of a node never fence.
void node_pair_fences() {
  int rank, node_rank, *base;
  MPI_Comm node;
  MPI_Win win;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &node_rank);
  MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &base, &win);
  if (node_rank == 1)
    MPI_Win_fence(0, win);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Win_fence' runs only on ranks where 'node_rank == 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'node_rank == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Win_fence' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (node_rank == 0)
    MPI_Win_fence(0, win);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Win_fence' runs only on ranks where 'node_rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'node_rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Win_fence' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Win_free(&win);
}
