// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// An object a constructor of the file makes holds what the constructor
// leaves in each field, in the declaration's terms: a communicator the
// constructor splits off is that split wherever the object's field goes
// (into a helper too), a constant field is the same on every rank whatever
// the constructor was handed, and a field set from the rank differs.
#include <mpi.h>
#include <memory>
#include <random>

// Called with each part's own handle (grid_sums) and with a communicator
// picked by the rank (picked_sums): the second is reported.
static void sum(double *x, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: the communicator of 'MPI_Allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:58: note: 'comm' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:37: note: parameter 'comm' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+37]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:58: note: pick the communicator by a value that is the same on every rank, or call 'MPI_Allreduce' on each communicator in a branch that all of its members take
}

struct Grid {
  MPI_Comm row, col;
  int steps;
  Grid(MPI_Comm world, int rank, int q) : steps(10) {
    MPI_Comm_split(world, rank / q, rank, &row);
    MPI_Comm_split(world, rank % q, rank, &col);
  }
};

// Negative: each rank passes its own row and column, which its part of each
// split shares; the step count is the constructor's constant.
void grid_sums(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Grid g(MPI_COMM_WORLD, rank, 2);
  for (int i = 0; i < g.steps; ++i) {
    sum(x, g.row);
    sum(x, g.col);
  }
}

struct Picked {
  MPI_Comm comm;
  int root;
  int steps;
  Picked(MPI_Comm a, MPI_Comm b, int rank)
      : comm(rank == 0 ? a : b), root(rank), steps(rank + 1) {}
};

// Positive: the constructor picks the communicator, the root and the step
// count by the rank.
void picked_sums(double *x, MPI_Comm a, MPI_Comm b) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Picked p(a, b, rank);
  sum(x, p.comm);
  MPI_Bcast(x, 1, MPI_DOUBLE, p.root, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'p.root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:31: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  for (int i = 0; i < p.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < p.steps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// `std::make_unique<T>(args...)` hands its arguments to `T(args...)`: a
// configuration the constructor takes by const reference is still the same
// on every rank after it (negative); one it takes by non-const reference
// may have been written from the rank (positive).
struct Config {
  int steps = 100;
};

struct Trainer {
  Trainer(int rank, const Config &c) : rank_(rank), steps_(c.steps) {}
  void step() { MPI_Barrier(MPI_COMM_WORLD); }
  int rank_, steps_;
};

struct Tuner {
  Tuner(int rank, Config &c) { c.steps += rank; }
};

void made_unique(int rank) {
  Config kept, tuned;
  auto trainer = std::make_unique<Trainer>(rank, kept);
  for (int i = 0; i < kept.steps; ++i)
    trainer->step();
  auto tuner = std::make_unique<Tuner>(rank, tuned);
  for (int i = 0; i < tuned.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < tuned.steps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:22: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// A field the initializer list binds holds, part by part, what it was bound
// to: `layout_(layout)` makes `layout_.rank` the caller's rank and
// `layout_.size` the caller's size. A generator seeded from the first draws
// differently on every rank (positive), one seeded from the second alike
// (negative), and so do tests of them in the constructor's body.
struct Layout {
  int rank = 0, size = 1;
};

static void fill_layout(Layout &layout) {
  MPI_Comm_rank(MPI_COMM_WORLD, &layout.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &layout.size);
}

struct RankSeeded {
  explicit RankSeeded(Layout &layout) : layout_(layout) {
    gen_.seed(1000u + layout_.rank);
    if (layout_.rank == 0)
      MPI_Barrier(MPI_COMM_WORLD);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'layout_.rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'layout_.rank == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-6]]:31: note: parameter 'layout.rank' receives a rank-dependent value from a caller
      // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  void epoch(float *x) {
    std::uniform_real_distribution<float> coin(0.0f, 1.0f);
    for (int b = 0; b < 8; ++b) {
      if (coin(gen_) > 0.5f)
        continue;
      MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' is never reached on ranks where 'coin(gen_) > 0.5f', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: ranks where 'coin(gen_) > 0.5f' continue with the next iteration here
      // CHECK-MESSAGES: :[[@LINE-5]]:11: note: 'coin(gen_) > 0.5f' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-24]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
    }
  }
  Layout &layout_;
  std::mt19937 gen_;
};

struct SizeSeeded {
  explicit SizeSeeded(Layout &layout) : layout_(layout), gen_(1000u + layout_.size) {
    if (layout_.size > 1)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  bool skipped() { return std::uniform_int_distribution<int>(0, 3)(gen_) == 0; }
  void step(float *x) {
    if (skipped())
      return;
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
  Layout &layout_;
  std::mt19937 gen_;
};

void seeded_epochs(float *x) {
  Layout layout;
  fill_layout(layout);
  RankSeeded by_rank(layout);
  by_rank.epoch(x);
  SizeSeeded by_size(layout);
  by_size.step(x);
}

// A library call that constructs an object in place runs its constructor
// there: `opt.emplace(...)`, `std::make_unique<T>(...)`,
// `v.emplace_back(...)` on one rank run the constructor's collectives there.
#include <optional>
#include <vector>

struct DupComm {
  explicit DupComm(MPI_Comm parent) { MPI_Comm_dup(parent, &comm); }
  MPI_Comm comm;
};

struct Counter {
  explicit Counter(int start) : value(start) {}
  int value;
};

void in_place_constructions(int rank) {
  std::optional<DupComm> lead;
  std::vector<DupComm> dups;
  std::optional<Counter> count;
  // Negative: every rank constructs the communicator; the constructor that
  // calls no collective may run on one rank.
  lead.emplace(MPI_COMM_WORLD);
  dups.emplace_back(MPI_COMM_WORLD);
  if (rank == 0)
    count.emplace(3);
  // Positive: only rank 0 duplicates the communicator.
  if (rank == 0)
    lead.emplace(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'DupComm::DupComm' (which calls 'MPI_Comm_dup') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-23]]:39: note: 'MPI_Comm_dup' is called here, inside 'DupComm::DupComm'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-16]]:33: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'DupComm::DupComm' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 1)
    auto owned = std::make_unique<DupComm>(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'DupComm::DupComm' (which calls 'MPI_Comm_dup') runs only on ranks where 'rank == 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-30]]:39: note: 'MPI_Comm_dup' is called here, inside 'DupComm::DupComm'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-23]]:33: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: call 'DupComm::DupComm' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 2)
    dups.emplace_back(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'DupComm::DupComm' (which calls 'MPI_Comm_dup') runs only on ranks where 'rank == 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-37]]:39: note: 'MPI_Comm_dup' is called here, inside 'DupComm::DupComm'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-30]]:33: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: for example, in a job of 3 ranks, rank 2 calls 'MPI_Comm_dup' and rank 1 does not
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'DupComm::DupComm' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: a copy of an object into a container runs no constructor of the
// class's own.
struct Session {
  explicit Session(MPI_Comm parent) { MPI_Comm_dup(parent, &comm); }
  MPI_Comm comm;
};

void keep_history(int rank) {
  Session session(MPI_COMM_WORLD);
  std::vector<Session> history;
  if (rank == 0)
    history.emplace_back(session);
  MPI_Barrier(MPI_COMM_WORLD);
}

// An object `new` makes holds, field by field, what its constructor leaves:
// the spacing is the same on every rank, the first index is not.
struct Level {
  int first;
  double h;
  Level(int first_, double h_) : first(first_), h(h_) {}
};

static double residual_norm(MPI_Comm comm) {
  double s = 1.0;
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, comm);
  return s;
}

// Negative: the loop stops on an agreed norm scaled by the shared spacing.
void coarse_solve(MPI_Comm comm, int rank) {
  Level *level = new Level(rank * 64, 0.5);
  for (int k = 0; k < 100; ++k)
    if (residual_norm(comm) * level->h * level->h < 1e-10)
      break;
  delete level;
}

// Positive: the stop test reads the rank's own first index.
void coarse_solve_offset(MPI_Comm comm, int rank) {
  Level *level = new Level(rank * 64, 0.5);
  for (int k = 0; k < 100; ++k)
    if (residual_norm(comm) * level->first < 1e-10)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'residual_norm' (which calls 'MPI_Allreduce') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-19]]:3: note: 'MPI_Allreduce' is called here, inside 'residual_norm'
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'residual_norm(comm) * level->first < 1e-10' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:45: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
      break;
  delete level;
}

