// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Membership tests through accessors of communicator wrappers that another
// object owns: a smart pointer (`io->member()`), or a field of the class
// that uses it (`if (leaders_)` of an `explicit operator bool`). Ranks that
// fail the test are not members, so a collective on the same wrapper's
// communicator after it is made by exactly its members; one on the whole
// job, or on another wrapper held in another field, is not.
#include <mpi.h>
#include <memory>

class SubComm {
public:
  SubComm(MPI_Comm parent, int color, int key) { MPI_Comm_split(parent, color, key, &comm_); }
  bool member() const { return comm_ != MPI_COMM_NULL; }
  MPI_Comm get() const { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Negative: a local smart pointer owns the even ranks' wrapper; only they
// pass the test, and they gather on it.
void gather_on_owned(MPI_Comm world, double e, double *all) {
  int rank;
  MPI_Comm_rank(world, &rank);
  auto io = std::make_unique<SubComm>(world, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank);
  if (!io->member())
    return;
  MPI_Gather(&e, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, io->get());
}

// Positive beside it: the odd ranks leave before a gather on the whole job.
void gather_on_world(MPI_Comm world, double e, double *all) {
  int rank;
  MPI_Comm_rank(world, &rank);
  auto io = std::make_unique<SubComm>(world, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank);
  if (!io->member())
    return;
  MPI_Gather(&e, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, world);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Gather' is never reached on ranks where '!io->member()', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where '!io->member()' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: '!io->member()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-30]]:50: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-31]]:32: note: parameter 'color' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: let every rank reach 'MPI_Gather' before leaving, or make the decision to leave the same on every rank
}

class Snapshots {
public:
  explicit Snapshots(MPI_Comm world) : world_(world) {
    MPI_Comm_rank(world_, &rank_);
    io_ = std::make_unique<SubComm>(world_, rank_ % 2 == 0 ? 0 : MPI_UNDEFINED, rank_);
  }
  // Negative: the wrapper is a field of this class, made in its constructor.
  void write(double e, double *all) {
    if (!io_->member())
      return;
    MPI_Gather(&e, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, io_->get());
  }
  // Positive beside it.
  void report(double e, double *all) {
    if (!io_->member())
      return;
    MPI_Gather(&e, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, world_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Gather' is never reached on ranks where '!io_->member()', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!io_->member()' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!io_->member()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-56]]:50: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
    // CHECK-MESSAGES: :[[@LINE-57]]:32: note: parameter 'color' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-46]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: let every rank reach 'MPI_Gather' before leaving, or make the decision to leave the same on every rank
  }

private:
  MPI_Comm world_;
  int rank_ = 0;
  std::unique_ptr<SubComm> io_;
};

// A value wrapper filled by a factory, tested by its `operator bool`.
class Comm {
public:
  Comm() = default;
  explicit Comm(MPI_Comm c) : c_(c) {}
  static Comm split(MPI_Comm parent, int color, int key) {
    MPI_Comm out;
    MPI_Comm_split(parent, color, key, &out);
    return Comm(out);
  }
  explicit operator bool() const { return c_ != MPI_COMM_NULL; }
  MPI_Comm raw() const { return c_; }

private:
  MPI_Comm c_ = MPI_COMM_NULL;
};

class TwoLevelAllreduce {
public:
  TwoLevelAllreduce(MPI_Comm world, int per_node) : world_(world) {
    int rank;
    MPI_Comm_rank(world, &rank);
    leaders_ = Comm::split(world, rank % per_node == 0 ? 0 : MPI_UNDEFINED, rank);
  }
  // Negative: the node leaders, and only they, sum across nodes.
  void across_nodes(float *v, int n) {
    if (leaders_)
      MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, leaders_.raw());
  }
  // Positive beside it: the same test around a barrier of the whole job.
  void fence() {
    if (leaders_)
      MPI_Barrier(world_);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'leaders_'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'leaders_' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-31]]:26: note: parameter 'c' receives a rank-dependent value from a caller
      // CHECK-MESSAGES: :[[@LINE-29]]:5: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
      // CHECK-MESSAGES: :[[@LINE-32]]:42: note: parameter 'color' receives a rank-dependent value from a caller
      // CHECK-MESSAGES: :[[@LINE-17]]:5: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-7]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }

private:
  MPI_Comm world_;
  Comm leaders_;
};

// Two wrappers of one class held in fields of one object: each field stands
// for its own communicator, so the leaders' test does not cover the node's.
class Hierarchy {
public:
  explicit Hierarchy(MPI_Comm world)
      : world_(world), rank_(rankIn(world)), node_(world, rank_ / 4, rank_) {
    leaders_ = std::make_unique<SubComm>(world, rank_ % 4 == 0 ? 0 : MPI_UNDEFINED, rank_);
  }
  // Negative: leaders sum across nodes, then every rank takes its node's sum.
  void allreduce(double *v) {
    if (leaders_->member())
      MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, leaders_->get());
    MPI_Bcast(v, 1, MPI_DOUBLE, 0, node_.get());
  }
  // Positive: the ranks that lead no node skip their node's broadcast.
  void broadcast_from_leaders(double *v) {
    if (!leaders_->member())
      return;
    MPI_Bcast(v, 1, MPI_DOUBLE, 0, node_.get());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' is never reached on ranks where '!leaders_->member()', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!leaders_->member()' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!leaders_->member()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-137]]:50: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
    // CHECK-MESSAGES: :[[@LINE-138]]:32: note: parameter 'color' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-127]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
  }

private:
  static int rankIn(MPI_Comm c) {
    int r;
    MPI_Comm_rank(c, &r);
    return r;
  }
  MPI_Comm world_;
  int rank_;
  SubComm node_;
  std::unique_ptr<SubComm> leaders_;
};
