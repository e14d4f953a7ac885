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

// A pipeline stage whose data-parallel communicator is split by the stage
// number: an accessor on `this` comparing that colour with a field no rank
// sets differently picks whole communicators.
class Stage {
public:
  Stage(MPI_Comm world, int stages) : stages_(stages) {
    int rank, size;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    stage_ = rank / (size / stages_);
    MPI_Comm_split(world, stage_, rank, &dp_);
    world_ = world;
  }
  bool is_last() const { return stage_ == stages_ - 1; }
  // Negative: every member of the last stage's communicator reduces the loss.
  void loss(double *l) {
    if (is_last())
      MPI_Allreduce(MPI_IN_PLACE, l, 1, MPI_DOUBLE, MPI_SUM, dp_);
  }
  // Positive beside it: the same test before a collective on the whole job.
  void report(double *l) {
    if (is_last())
      MPI_Allreduce(MPI_IN_PLACE, l, 1, MPI_DOUBLE, MPI_SUM, world_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs only on ranks where 'is_last()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'is_last()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-18]]:5: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }

private:
  MPI_Comm dp_, world_;
  int stages_, stage_;
};

// A method comparing the colour with a field nothing writes a per-rank
// value into (`stage == pp - 1`), of an object the function fills in: the
// same on the members of the stage's communicator.
struct PipelineRank {
  int rank, world, pp, stage;
  MPI_Comm stage_comm;
  bool last() const { return stage == pp - 1; }
  bool leads() const { return stage == rank; }
};
void last_stage_loss(double *loss) {
  PipelineRank r{};
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.world);
  r.pp = 2;
  r.stage = r.rank / (r.world / r.pp);
  MPI_Comm_split(MPI_COMM_WORLD, r.stage, r.rank, &r.stage_comm);
  // Negative: the last stage's members reduce among themselves.
  if (r.last())
    MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, r.stage_comm);
  // Positive: on the whole job, the other stages never call it.
  if (r.last())
    MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'r.last()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'r.last()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Positive: the rank differs between the members of a stage.
  if (r.leads())
    MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, r.stage_comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'r.leads()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'r.leads()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the object is copied whole from a table of settings, a
// different one per rank, so `pp` differs between the stage's members.
struct StageSettings {
  int pp, stage;
  bool last() const { return stage == pp - 1; }
};
static const StageSettings kSettings[2] = {{2, 0}, {4, 0}};
void last_stage_from_table(double *loss) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm stage_comm;
  StageSettings s;
  s = kSettings[rank % 2];
  s.stage = rank / 2;
  MPI_Comm_split(MPI_COMM_WORLD, s.stage, rank, &stage_comm);
  if (s.last())
    MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, stage_comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 's.last()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 's.last()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
