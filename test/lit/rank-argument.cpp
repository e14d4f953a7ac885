// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// lockstep-rank-argument: arguments every rank must pass identically (root,
// count, datatype, operator, communicator, a file size) that differ between ranks, and
// balanced arms calling one collective with different arguments.
#include <mpi.h>
#include <c10d/ProcessGroup.hpp>
#include <vector>

static int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void root_is_rank(MPI_Comm comm) {
  int x = 0, rank = world_rank();
  MPI_Bcast(&x, 1, MPI_INT, rank, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'rank' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

void count_per_rank(MPI_Comm comm, std::vector<double> &grads) {
  int rank = world_rank();
  int n = 1024 + rank % 2;
  MPI_Allreduce(MPI_IN_PLACE, grads.data(), n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: the count of 'MPI_Allreduce' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:45: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the count agreed first; the v-variant's own count may differ.
void counts_agreed(MPI_Comm comm, std::vector<int> &out, int *sizes, int *displs) {
  int rank = world_rank(), n = 0, mine = 10 + rank;
  MPI_Allreduce(&mine, &n, 1, MPI_INT, MPI_MIN, comm);
  std::vector<int> in(n);
  MPI_Reduce(in.data(), out.data(), n, MPI_INT, MPI_SUM, 0, comm);
  MPI_Gatherv(in.data(), mine, MPI_INT, out.data(), sizes, displs, MPI_INT, 0, comm);
}

void arms_disagree(MPI_Comm comm) {
  int rank = world_rank(), x = 0;
  if (rank % 2)
    MPI_Bcast(&x, 1, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' gets root '0' on ranks where 'rank % 2' but '1' on the other ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-38]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '1' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the root so that it is the same on every rank, and call 'MPI_Bcast' once, outside the branch
  else
    MPI_Bcast(&x, 1, MPI_INT, 1, comm);
}

void reduce_op(MPI_Comm comm, double *v) {
  MPI_Op op = world_rank() == 0 ? MPI_MAX : MPI_SUM;
  MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, op, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: the operator of 'MPI_Allreduce' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-2]]:49: note: 'op' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-50]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:49: note: compute the operator from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the operator is chosen by a condition every rank evaluates alike.
void reduce_op_uniform(MPI_Comm comm, double *v) {
  int size;
  MPI_Comm_size(comm, &size);
  MPI_Op op = size > 4 ? MPI_MAX : MPI_SUM;
  MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, op, comm);
}

void datatype_per_rank(MPI_Comm comm, void *buf) {
  MPI_Datatype type = world_rank() == 0 ? MPI_DOUBLE : MPI_FLOAT;
  MPI_Bcast(buf, 1, type, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the datatype of 'MPI_Bcast' differs between ranks; every rank must pass the same datatype or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: 'type' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-67]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: compute the datatype from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the datatype is chosen by a condition every rank evaluates alike.
void datatype_uniform(MPI_Comm comm, void *buf) {
  int size;
  MPI_Comm_size(comm, &size);
  MPI_Datatype type = size > 4 ? MPI_DOUBLE : MPI_FLOAT;
  MPI_Bcast(buf, 1, type, 0, comm);
}
// c10d options carry the root: BroadcastOptions{rootRank}.
void c10d_root(c10d::ProcessGroup &pg, std::vector<at::Tensor> &t) {
  pg.broadcast(t, c10d::BroadcastOptions{pg.getRank()})->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: the root of 'c10d::ProcessGroup::broadcast' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-2]]:42: note: 'pg.getRank()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-3]]:42: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:42: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  pg.broadcast(t, c10d::BroadcastOptions{0})->wait();
}

// Negative: predefined handles passed to a call lockstep does not know stay
// the same on every rank, even next to a rank-dependent argument.
void probe_then_reduce(double *v) {
  MPI_Status st;
  MPI_Probe(world_rank() ^ 1, 0, MPI_COMM_WORLD, &st);
  MPI_Datatype pair;
  MPI_Type_contiguous(world_rank() + 1, MPI_DOUBLE, &pair);
  MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Negative: a hook of another file, handed the state under a rank test, is
// not assumed to make the state's fields differ between ranks.
struct State {
  MPI_Comm comm;
  int rank;
  std::vector<float> grads;
};
static void sync_grads(MPI_Comm comm, float *buf, int n) {
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, comm);
}
void on_step(State &st, int s);
static void step(State &st, int s) {
  sync_grads(st.comm, st.grads.data(), (int)st.grads.size());
  if (st.rank == 0)
    on_step(st, s);
}
void orchestrate(State &st, int s) {
  if (st.rank == 0)
    step(st, s);
  else
    step(st, s);
  sync_grads(st.comm, st.grads.data(), (int)st.grads.size());
}

// Positive: a process group picked by the rank, bound to a reference; the
// communicator is named as written ('group', not its 'operator->').
void group_by_rank(c10::intrusive_ptr<c10d::ProcessGroup> world,
                   c10::intrusive_ptr<c10d::ProcessGroup> dp, std::vector<at::Tensor> &t) {
  const int rank = world->getRank();
  auto &group = rank < 4 ? dp : world;
  group->allreduce(t)->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the communicator of 'c10d::ProcessGroup::allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'group' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-6]]:20: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: pick the communicator by a value that is the same on every rank, or call 'c10d::ProcessGroup::allreduce' on each communicator in a branch that all of its members take
}

// Negative: the smart pointers copied into the ?: above are no reason to
// take every process group as per-rank (a copy carries its source's state).
void groups_as_given(c10::intrusive_ptr<c10d::ProcessGroup> world,
                     c10::intrusive_ptr<c10d::ProcessGroup> dp, std::vector<at::Tensor> &t) {
  dp->allreduce(t)->wait();
  world->allreduce(t)->wait();
}

// Negative: every rank built every tensor-parallel group and picks its own by
// the rank (Megatron's layout); the ranks that pick one group are its members.
struct ParallelGroups {
  std::vector<c10::intrusive_ptr<c10d::ProcessGroup>> tp_groups;
  int tp_size = 4;
  int rank = 0;
  const c10::intrusive_ptr<c10d::ProcessGroup> &tp() const { return tp_groups[rank / tp_size]; }
};

void own_group_from_list(c10::intrusive_ptr<c10d::ProcessGroup> world, ParallelGroups &st,
                         std::vector<at::Tensor> &t) {
  st.rank = world->getRank();
  st.tp()->allreduce(t)->wait();
  auto &mine = st.tp_groups[st.rank / st.tp_size];
  mine->allreduce(t)->wait();
}

// A process group a function of another file makes from the rank is the one
// group every rank joins (negative); options it computes from the rank are
// per-rank (positive).
c10::intrusive_ptr<c10d::ProcessGroup> create_group(int rank, int world); // defined elsewhere
c10d::BroadcastOptions options_for(int rank);                              // idem
void joined_group(int rank, int world, std::vector<at::Tensor> &weights) {
  auto pg = create_group(rank, world);
  pg->allreduce(weights)->wait();
  pg->barrier()->wait();
  c10d::BroadcastOptions opts = options_for(rank);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: the root of 'c10d::ProcessGroup::broadcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: 'options_for(rank)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:23: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  pg->broadcast(weights, opts)->wait();
}

// Negative: on an intercommunicator the root group passes MPI_ROOT at the
// root and MPI_PROC_NULL elsewhere, the other group the root's rank: roots
// that differ by design, here through a wrapper (MPICH's icbcast).
static int wrapped_bcast(int *buf, int n, int root, MPI_Comm comm) {
  return MPI_Bcast(buf, n, MPI_INT, root, comm);
}

void intercomm_bcast(MPI_Comm inter, int *buf, int n, int in_root_group) {
  int rank;
  MPI_Comm_rank(inter, &rank);
  if (in_root_group)
    wrapped_bcast(buf, n, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  else
    wrapped_bcast(buf, n, 0, inter);
  MPI_Reduce(buf, buf, n, MPI_INT, MPI_SUM, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
}

// Negative: the same, with the groups told apart by the rank (even world
// ranks simulate, odd ones analyse), in two arms or through a variable.
void intercomm_roles(MPI_Comm inter, MPI_Comm local, int *buf, int n) {
  int world, lrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(local, &lrank);
  if (world % 2 == 0)
    MPI_Bcast(buf, n, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  else
    MPI_Bcast(buf, n, MPI_INT, 0, inter);
  if (world % 2 == 0)
    wrapped_bcast(buf, n, 0, inter);
  else
    wrapped_bcast(buf, n, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  int root; // MPICH's comm_idup_nb
  if (world % 2 == 0)
    root = lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
  else
    root = 0;
  MPI_Bcast(buf, n, MPI_INT, root, inter);
}

// Negative: each group loops over its side of the broadcasts, as many
// times as the other.
void intercomm_loops(MPI_Comm inter, MPI_Comm local, int *buf) {
  int world, lrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(local, &lrank);
  if (world % 2 == 0)
    for (int i = 0; i < 3; ++i)
      MPI_Bcast(buf, 1, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  else
    for (int i = 0; i < 3; ++i)
      MPI_Bcast(buf, 1, MPI_INT, 0, inter);
}

// Positive: the receiving group loops once more.
void intercomm_loops_uneven(MPI_Comm inter, MPI_Comm local, int *buf) {
  int world, lrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(local, &lrank);
  if (world % 2 == 0)
    for (int i = 0; i < 3; ++i)
      MPI_Bcast(buf, 1, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  else
    for (int i = 0; i < 4; ++i)
      MPI_Bcast(buf, 1, MPI_INT, 0, inter);
  // CHECK-MESSAGES: :[[@LINE-4]]:7: warning: 'MPI_Bcast' runs 3 times on ranks where 'world % 2 == 0' but 4 times on the other ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'world % 2 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the other ranks run their loop of 'MPI_Bcast' here
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: run the same number of iterations on every rank
}

// Positive: without the markers, the arms name two different roots.
void roots_by_role(MPI_Comm comm, int *buf, int n) {
  int world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  if (world % 2 == 0)
    MPI_Bcast(buf, n, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' gets root '0' on ranks where 'world % 2 == 0' but '1' on the other ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'world % 2 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '1' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the root so that it is the same on every rank, and call 'MPI_Bcast' once, outside the branch
  else
    MPI_Bcast(buf, n, MPI_INT, 1, comm);
}

// Positive: through the same kind of wrapper, each rank names itself.
static int other_bcast(int *buf, int n, int root, MPI_Comm comm) {
  return MPI_Bcast(buf, n, MPI_INT, root, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:37: note: 'root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:45: note: parameter 'root' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:37: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

void self_rooted(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  other_bcast(buf, n, rank, comm);
}

// Three roles chosen by a switch: the trainers and the logger reduce the
// gradients, the evaluators one metric; the warning names the evaluators'
// case, not "the other ranks", since the trainers agree with the logger.
enum class Role { Trainer, Evaluator, Logger };

static Role role_of(int rank, int size) {
  if (rank == size - 1)
    return Role::Logger;
  return rank % 4 == 3 ? Role::Evaluator : Role::Trainer;
}

void role_step(float *grad, int n, float *metric, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  switch (role_of(rank, size)) {
  case Role::Trainer:
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_FLOAT, MPI_SUM, comm);
    break;
  case Role::Evaluator:
    MPI_Allreduce(MPI_IN_PLACE, metric, 1, MPI_FLOAT, MPI_SUM, comm);
    break;
  case Role::Logger:
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_FLOAT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' gets count 'n' on ranks where 'role_of(rank, size)' is Role::Logger or Role::Trainer but '1' on ranks where 'role_of(rank, size)' is Role::Evaluator; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-10]]:11: note: 'role_of(rank, size)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-20]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: ranks where 'role_of(rank, size)' is Role::Evaluator pass '1' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: compute the count so that it is the same on every rank, and call 'MPI_Allreduce' once, outside the branch
    break;
  }
}

// Negative: the rank's own group copied out of the list every rank built
// (an intrusive_ptr is copied by value in PyTorch style).
void own_group_copied(c10::intrusive_ptr<c10d::ProcessGroup> world,
                      std::vector<c10::intrusive_ptr<c10d::ProcessGroup>> &stage_groups,
                      std::vector<at::Tensor> &t) {
  int stage = world->getRank() / 2;
  c10::intrusive_ptr<c10d::ProcessGroup> mine = stage_groups[stage];
  mine->allreduce(t)->wait();
}

// Positive: a copy of a group the rank chooses between two others.
void chosen_group_copied(c10::intrusive_ptr<c10d::ProcessGroup> world,
                         c10::intrusive_ptr<c10d::ProcessGroup> dp, std::vector<at::Tensor> &t) {
  c10::intrusive_ptr<c10d::ProcessGroup> chosen = world->getRank() < 4 ? dp : world;
  chosen->allreduce(t)->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the communicator of 'c10d::ProcessGroup::allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'chosen' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-5]]:51: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: pick the communicator by a value that is the same on every rank, or call 'c10d::ProcessGroup::allreduce' on each communicator in a branch that all of its members take
}

// Options a helper makes, passed as the call returns them.
static c10d::AllreduceOptions reduce_options(bool average) {
  c10d::AllreduceOptions o;
  o.reduceOp = average ? c10d::ReduceOp::AVG : c10d::ReduceOp::SUM;
  return o;
}
static c10d::BroadcastOptions broadcast_from(int root) {
  c10d::BroadcastOptions o;
  o.rootRank = root;
  return o;
}

// Positive: the operator and the root come from the rank.
void inline_options_per_rank(c10d::ProcessGroup &pg, std::vector<at::Tensor> &m) {
  pg.allreduce(m, reduce_options(pg.getRank() == 0))->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the operator of 'c10d::ProcessGroup::allreduce' differs between ranks; every rank must pass the same operator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: 'reduce_options(pg.getRank() == 0)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: compute the operator from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  pg.broadcast(m, broadcast_from(pg.getRank()))->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the root of 'c10d::ProcessGroup::broadcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: 'broadcast_from(pg.getRank())' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the same helpers given values every rank shares.
void inline_options_shared(c10d::ProcessGroup &pg, std::vector<at::Tensor> &m) {
  pg.allreduce(m, reduce_options(pg.getSize() > 8))->wait();
  pg.broadcast(m, broadcast_from(0))->wait();
}

// Positive: the copy of the rank's own group is replaced on some ranks.
void own_group_replaced(c10::intrusive_ptr<c10d::ProcessGroup> world,
                        std::vector<c10::intrusive_ptr<c10d::ProcessGroup>> &stage_groups,
                        std::vector<at::Tensor> &t) {
  c10::intrusive_ptr<c10d::ProcessGroup> mine = stage_groups[world->getRank() / 2];
  if (world->getRank() < 4)
    mine = world;
  mine->allreduce(t)->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the communicator of 'c10d::ProcessGroup::allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: 'mine' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:62: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: pick the communicator by a value that is the same on every rank, or call 'c10d::ProcessGroup::allreduce' on each communicator in a branch that all of its members take
}

// A private field the one constructor sets to the rank's own group from the
// list (probe49) is that group, as a local bound to it is (negative); one a
// method sets again to a group the rank chooses is not (positive).
using GroupPtr = c10::intrusive_ptr<c10d::ProcessGroup>;
class TensorParallelLinear {
public:
  TensorParallelLinear(const std::vector<GroupPtr> &tp, int rank, int tp_size)
      : tp_(tp[rank / tp_size]) {}
  void forward(std::vector<at::Tensor> &t) { tp_->allreduce(t)->wait(); }

private:
  GroupPtr tp_;
};

class ReboundLinear {
public:
  ReboundLinear(const std::vector<GroupPtr> &tp, int rank, int tp_size)
      : tp_(tp[rank / tp_size]) {}
  void rebind(const GroupPtr &spare, int rank) {
    if (rank % 2)
      tp_ = spare;
  }
  void forward(std::vector<at::Tensor> &t) { tp_->allreduce(t)->wait(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: the communicator of 'c10d::ProcessGroup::allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:46: note: 'tp_' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+11]]:29: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:46: note: pick the communicator by a value that is the same on every rank, or call 'c10d::ProcessGroup::allreduce' on each communicator in a branch that all of its members take

private:
  GroupPtr tp_;
};

void tensor_parallel_step(GroupPtr world, const std::vector<GroupPtr> &tp,
                          std::vector<at::Tensor> &t) {
  TensorParallelLinear layer(tp, world->getRank(), 4);
  layer.forward(t);
  ReboundLinear rebound(tp, world->getRank(), 4);
  rebound.rebind(world, world->getRank());
  rebound.forward(t);
}

// A protected field a subclass may set again is not followed to the
// constructor's pick (positive).
class ShardedBase {
public:
  ShardedBase(const std::vector<GroupPtr> &tp, int rank) : tp_(tp[rank / 4]) {}
  void sync(std::vector<at::Tensor> &t) { tp_->allreduce(t)->wait(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: the communicator of 'c10d::ProcessGroup::allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:43: note: 'tp_' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:52: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+16]]:29: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:43: note: pick the communicator by a value that is the same on every rank, or call 'c10d::ProcessGroup::allreduce' on each communicator in a branch that all of its members take

protected:
  GroupPtr tp_;
};
class ReshardedLinear : public ShardedBase {
public:
  using ShardedBase::ShardedBase;
  void rebind(const GroupPtr &spare, int rank) {
    if (rank % 2)
      tp_ = spare;
  }
};

void resharded_step(GroupPtr world, const std::vector<GroupPtr> &tp, std::vector<at::Tensor> &t) {
  ReshardedLinear layer(tp, world->getRank());
  layer.rebind(world, world->getRank());
  layer.sync(t);
}

// A file's new size is agreed like a count: each rank's own end offset is
// not the file's size (positive); the largest end, agreed first, is.
struct Block {
  long long first, nlocal;
};
static Block block_of(long long n, int rank, int size) {
  return {n / size * rank, rank + 1 == size ? n - n / size * rank : n / size};
}
void presize_own_end(MPI_File fh, long long n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Block b = block_of(n, rank, size);
  MPI_File_set_size(fh, (b.first + b.nlocal) * 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the size of 'MPI_File_set_size' differs between ranks; every rank must pass the same size or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: '(b.first + b.nlocal) * 8' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: compute the size from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the size every rank agreed on with a reduction.
void presize_agreed_end(MPI_File fh, long long n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Block b = block_of(n, rank, size);
  long long end = b.first + b.nlocal;
  MPI_Allreduce(MPI_IN_PLACE, &end, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_File_set_size(fh, end * 8);
  MPI_File_preallocate(fh, n * 8);
}

// Negative: only the ranks of nodes with two ranks reach the broadcast, so
// all that reach it pass 2 (leaving early is lockstep-rank-exit's).
void bcast_pinned_count(double *buf) {
  int rank, n;
  MPI_Comm node;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &n);
  if (n != 2)
    goto out;
  MPI_Bcast(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'n != 2', which jump away with goto before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'n != 2' jump away with goto here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'n != 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'n' is the size of 'node' from 'MPI_Comm_size'; only the ranks that share one 'node' agree on it
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: each part of the split by 'MPI_Comm_split_type' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: 'node' is the communicator of the ranks placed with this one from 'MPI_Comm_split_type'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
out:
  MPI_Comm_free(&node);
}

// Positive: the ranks that reach it still pass different counts.
void bcast_bounded_count(double *buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = rank + 1;
  if (n < 2)
    return;
  MPI_Bcast(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'n < 2', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'n < 2' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'n < 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
  // CHECK-MESSAGES: :[[@LINE-6]]:18: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-9]]:18: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}
