// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-argument,lockstep-rank-loop' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Splits a helper hands back: a function that splits a communicator and
// returns the handle, or writes it through a pointer or reference
// parameter. The caller's handle is the part the helper's colour names, so
// a collective exactly its members make is quiet there too, and one that
// only some members make is still reported. Freeing the handle after its
// collectives (`MPI_Comm_free(&c)`) leaves what they were given alone.

#include <memory>
#include <mpi.h>

// Splits by parity; the rank comes from the communicator split.
static MPI_Comm make_half(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm half;
  MPI_Comm_split(world, rank % 2, rank, &half);
  return half;
}

// Negative: only the even half reduces, on the even half's communicator.
void even_half_reduces(double *v) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half = make_half(MPI_COMM_WORLD);
  if (rank % 2 == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Comm_free(&half);
}

// Positive: rank 0 alone of the even half.
void first_of_half_reduces(double *v) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half;
  half = make_half(MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, half);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 0 calls 'MPI_Allreduce' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Comm_free(&half);
}

// Ranks below 'leaders' get a communicator, the others MPI_COMM_NULL; the
// colour is the caller's rank, passed in.
static void split_leaders(MPI_Comm world, int rank, int leaders, MPI_Comm *out) {
  MPI_Comm_split(world, rank < leaders ? 0 : MPI_UNDEFINED, rank, out);
}

static void split_leaders_ref(MPI_Comm world, int rank, MPI_Comm &out) {
  MPI_Comm_split(world, rank < 2 ? 0 : MPI_UNDEFINED, rank, &out);
}

// Negative: the leaders alone meet, tested by rank or by null handle.
void leaders_meet(int leaders) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm lead;
  split_leaders(MPI_COMM_WORLD, rank, leaders, &lead);
  if (rank < leaders)
    MPI_Barrier(lead);
  if (lead != MPI_COMM_NULL)
    MPI_Barrier(lead);
}

// Positive: one leader fewer than the communicator holds.
void leaders_but_last_meet(int leaders) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm lead;
  split_leaders(MPI_COMM_WORLD, rank, leaders, &lead);
  if (rank < leaders - 1)
    MPI_Barrier(lead);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < leaders - 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < leaders - 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-MESSAGES: :[[@LINE-5]]:17: warning: 'MPI_Barrier' is called on 'lead' by ranks that are not its members; there 'lead' is MPI_COMM_NULL and the call fails [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-32]]:3: note: 'MPI_Comm_split' gives 'lead' no communicator on the ranks whose colour 'rank < leaders ? 0 : MPI_UNDEFINED' is MPI_UNDEFINED
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-8]]:17: note: call 'MPI_Barrier' only where 'lead != MPI_COMM_NULL', or give every rank a colour
}

// Negative: through a reference parameter.
void pair_meets() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm pair;
  split_leaders_ref(MPI_COMM_WORLD, rank, pair);
  if (rank < 2)
    MPI_Barrier(pair);
}

// Positive: the world, not the helper's split, is what rank 0 waits on.
void pair_meets_on_world() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm pair;
  split_leaders_ref(MPI_COMM_WORLD, rank, pair);
  if (rank < 2)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 1 calls 'MPI_Barrier' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A helper that returns either its split or the world hands back no part:
// positive, as with an unknown handle.
static MPI_Comm maybe_half(MPI_Comm world, bool split) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm half;
  MPI_Comm_split(world, rank % 2, rank, &half);
  if (!split)
    return world;
  return half;
}

void even_half_of_maybe(double *v, bool split) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half = maybe_half(MPI_COMM_WORLD, split);
  if (rank % 2 == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, half);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'rank % 2 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// An RAII communicator whose constructor splits: the caller reads the handle
// through accessors and makes the collectives itself.
class SubComm {
public:
  SubComm(MPI_Comm parent, int color, int key) { MPI_Comm_split(parent, color, key, &comm_); }
  ~SubComm() {
    if (comm_ != MPI_COMM_NULL)
      MPI_Comm_free(&comm_);
  }
  bool valid() const { return comm_ != MPI_COMM_NULL; }
  MPI_Comm get() const { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Negative: every fourth rank writes; the writers alone reduce on their
// communicator, tested by the accessor, by the handle, or by the rank.
void writers_reduce(double x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool is_writer = rank % 4 == 0;
  SubComm writers(MPI_COMM_WORLD, is_writer ? 0 : MPI_UNDEFINED, rank);
  if (writers.valid())
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, writers.get());
  if (writers.get() != MPI_COMM_NULL)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, writers.get());
  if (is_writer)
    MPI_Barrier(writers.get());
}

// Positive: the first writer alone.
void first_writer_reduces(double x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SubComm writers(MPI_COMM_WORLD, rank % 4 == 0 ? 0 : MPI_UNDEFINED, rank);
  if (writers.valid() && rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, writers.get());
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'writers.valid() && rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'writers.valid() && rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 5 ranks, rank 0 calls 'MPI_Allreduce' and rank 4 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// The same wrapper owned through a pointer (`std::make_unique`, `new`), its
// colour a field of a topology struct: the stage's members alone reduce on
// it (negative); the first data-parallel rank of each stage alone does not
// (positive).
struct Topology {
  int rank = 0, stage = 0, dp_rank = 0;
};

void stage_reduces(double x, int world_size) {
  Topology topo;
  MPI_Comm_rank(MPI_COMM_WORLD, &topo.rank);
  topo.stage = topo.rank / (world_size / 2);
  topo.dp_rank = topo.rank % (world_size / 2);
  const bool last = topo.stage == 1;
  auto stage = std::make_unique<SubComm>(MPI_COMM_WORLD, topo.stage, topo.rank);
  SubComm *same = new SubComm(MPI_COMM_WORLD, topo.stage, topo.rank);
  if (last) {
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, stage->get());
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, same->get());
  }
  if (topo.dp_rank == 0)
    MPI_Barrier(stage->get());
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'topo.dp_rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'topo.dp_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  delete same;
}

// A struct that keeps a leaders' communicator beside the fields its colour
// is computed from, through an accessor: tests of those fields, in any
// function and through the accessor, line up with the split.
struct Hierarchy {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm leaders = MPI_COMM_NULL;
  int world_rank = 0;
  int node_rank = 0;
  bool is_leader() const { return node_rank == 0; }
};

static Hierarchy make_hierarchy() {
  Hierarchy h;
  MPI_Comm_rank(MPI_COMM_WORLD, &h.world_rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, h.world_rank, MPI_INFO_NULL, &h.node);
  MPI_Comm_rank(h.node, &h.node_rank);
  int color = h.is_leader() ? 0 : MPI_UNDEFINED;
  MPI_Comm_split(MPI_COMM_WORLD, color, h.world_rank, &h.leaders);
  return h;
}

// Negative: the node leaders count the nodes on their communicator.
int count_nodes(const Hierarchy &h) {
  int nodes = 0, one = 1;
  if (h.is_leader())
    MPI_Allreduce(&one, &nodes, 1, MPI_INT, MPI_SUM, h.leaders);
  if (h.node_rank == 0)
    MPI_Allreduce(&one, &nodes, 1, MPI_INT, MPI_SUM, h.leaders);
  MPI_Bcast(&nodes, 1, MPI_INT, 0, h.node);
  return nodes;
}

// Positive: the first leader alone.
int count_nodes_on_first(const Hierarchy &h) {
  int nodes = 0, one = 1;
  if (h.world_rank == 0)
    MPI_Allreduce(&one, &nodes, 1, MPI_INT, MPI_SUM, h.leaders);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'h.world_rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'h.world_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:43: note: parameter 'h.world_rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-27]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return nodes;
}

void run_hierarchy() {
  Hierarchy h = make_hierarchy();
  count_nodes(h);
  count_nodes_on_first(h);
}

// A helper that returns no communicator to non-members and a group's
// communicator to members; the caller frees it after using it.
static MPI_Comm make_capable(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  if (rank == 0)
    return MPI_COMM_NULL; // the login rank takes no part
  MPI_Group all;
  MPI_Comm_group(world, &all);
  MPI_Comm capable = MPI_COMM_NULL;
  MPI_Comm_create_group(world, all, 77, &capable);
  MPI_Group_free(&all);
  return capable;
}

// Negative: only members use it and free it; the free does not make the
// handle they reduce on differ.
void use_capable() {
  MPI_Comm capable = make_capable(MPI_COMM_WORLD);
  double work = 1.0, total = 0.0;
  if (capable != MPI_COMM_NULL) {
    MPI_Allreduce(&work, &total, 1, MPI_DOUBLE, MPI_SUM, capable);
    MPI_Comm_free(&capable);
  }
}

// Positive beside it: a collective of the whole job among them.
void use_capable_world() {
  MPI_Comm capable = make_capable(MPI_COMM_WORLD);
  if (capable != MPI_COMM_NULL) {
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'capable != MPI_COMM_NULL'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'capable != MPI_COMM_NULL' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-28]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-30]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Comm_free(&capable);
  }
}
