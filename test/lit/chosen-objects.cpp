// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Objects whose class the rank picks. What a virtual call on one returns
// differs between ranks when a factory picked the class from the rank, as
// when the caller's own branch did; and a call that runs different
// collectives on different classes is balanced when the ranks that share the
// communicators of those collectives all picked the same class.
#include <mpi.h>
#include <memory>

struct Solver {
  virtual ~Solver() = default;
  virtual int checkInterval() const { return 10; }
};
struct BoundarySolver : Solver {
  int checkInterval() const override { return 5; }
};
struct TunedSolver : Solver {
  explicit TunedSolver(int rank) : rank_(rank) {}
  int rank_;
};

static std::unique_ptr<Solver> makeSolver(int rank, int size) {
  if (rank == 0 || rank == size - 1)
    return std::make_unique<BoundarySolver>();
  return std::make_unique<Solver>();
}

// Positive: the factory picks the class by the rank; the boundary ranks
// check every 5 steps, the others every 10.
void monitor_factory(int steps) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto solver = makeSolver(rank, size);
  double change = 1.0, total = 0.0;
  for (int step = 1; step <= steps; ++step)
    if (step % solver->checkInterval() == 0)
      MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs only on ranks where 'step % solver->checkInterval() == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'step % solver->checkInterval() == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-18]]:20: note: the value is assigned under this rank-dependent condition
      // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

static std::unique_ptr<Solver> makeTuned(int rank) {
  return std::make_unique<TunedSolver>(rank);
}

// Negative: the factory builds one class from the rank; every rank checks
// alike.
void monitor_one_class(int steps) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto solver = makeTuned(rank);
  double change = 1.0, total = 0.0;
  for (int step = 1; step <= steps; ++step)
    if (step % solver->checkInterval() == 0)
      MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

class StageComm {
public:
  StageComm(MPI_Comm world, int stage) { MPI_Comm_split(world, stage, 0, &comm_); }
  ~StageComm() { MPI_Comm_free(&comm_); }
  MPI_Comm comm() const { return comm_; }

private:
  MPI_Comm comm_;
};

struct Stage {
  virtual ~Stage() = default;
  virtual void sync(const StageComm &sc, double *w) = 0;
};
struct EmbeddingStage : Stage {
  void sync(const StageComm &sc, double *w) override { MPI_Bcast(w, 16, MPI_DOUBLE, 0, sc.comm()); }
};
struct HeadStage : Stage {
  void sync(const StageComm &sc, double *w) override {
    MPI_Reduce(MPI_IN_PLACE, w, 16, MPI_DOUBLE, MPI_SUM, 0, sc.comm());
  }
};
struct WorldHeadStage : Stage {
  void sync(const StageComm &, double *w) override {
    MPI_Reduce(MPI_IN_PLACE, w, 16, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
};

// Negative: each pipeline stage syncs on its own stage's communicator, and
// every member of a stage picked the same class.
void pipeline_by_stage(double *w) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int stageId = rank < size / 2 ? 0 : 1;
  StageComm sc(MPI_COMM_WORLD, stageId);
  std::unique_ptr<Stage> stage;
  if (stageId == 0)
    stage = std::make_unique<EmbeddingStage>();
  else
    stage = std::make_unique<HeadStage>();
  stage->sync(sc, w);
}

// Positive: the class is picked by the rank's parity, which the members of
// one stage do not share.
void pipeline_by_parity(double *w) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int stageId = rank < size / 2 ? 0 : 1;
  StageComm sc(MPI_COMM_WORLD, stageId);
  std::unique_ptr<Stage> stage;
  if (rank % 2 == 0)
    stage = std::make_unique<EmbeddingStage>();
  else
    stage = std::make_unique<HeadStage>();
  stage->sync(sc, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'stage->sync' may run 'EmbeddingStage::sync', which calls 'MPI_Bcast', or 'HeadStage::sync', which calls 'MPI_Reduce', and 'stage' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-44]]:56: note: 'MPI_Bcast' is called here, inside 'EmbeddingStage::sync', which 'stage->sync' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'stage' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-44]]:5: note: 'MPI_Reduce' is called here, inside 'HeadStage::sync'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'stage' the same on every rank, or have every function 'stage->sync' may run call the same collectives
}

// Positive: picked by the stage, but the head reduces over the whole job,
// which the embedding ranks never join.
void pipeline_world_head(double *w) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int stageId = rank < size / 2 ? 0 : 1;
  StageComm sc(MPI_COMM_WORLD, stageId);
  std::unique_ptr<Stage> stage;
  if (stageId == 0)
    stage = std::make_unique<EmbeddingStage>();
  else
    stage = std::make_unique<WorldHeadStage>();
  stage->sync(sc, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'stage->sync' may run 'EmbeddingStage::sync', which calls 'MPI_Bcast', or 'WorldHeadStage::sync', which calls 'MPI_Reduce', and 'stage' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-67]]:56: note: 'MPI_Bcast' is called here, inside 'EmbeddingStage::sync', which 'stage->sync' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'stage' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-62]]:5: note: 'MPI_Reduce' is called here, inside 'WorldHeadStage::sync'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'stage' the same on every rank, or have every function 'stage->sync' may run call the same collectives
}

// Negative: picked by a `?:` on the stage when the holder is made.
void pipeline_by_stage_choice(double *w) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int stageId = rank < size / 2 ? 0 : 1;
  StageComm sc(MPI_COMM_WORLD, stageId);
  std::unique_ptr<Stage> stage = stageId == 0 ? std::unique_ptr<Stage>(new EmbeddingStage)
                                              : std::unique_ptr<Stage>(new HeadStage);
  stage->sync(sc, w);
}

// Positive: rank 0 then swaps its stage for the other class.
void pipeline_choice_replaced(double *w) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int stageId = rank < size / 2 ? 0 : 1;
  StageComm sc(MPI_COMM_WORLD, stageId);
  std::unique_ptr<Stage> stage = stageId == 0 ? std::unique_ptr<Stage>(new EmbeddingStage)
                                              : std::unique_ptr<Stage>(new HeadStage);
  if (rank == 0)
    stage = std::make_unique<HeadStage>();
  stage->sync(sc, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'stage->sync' may run 'EmbeddingStage::sync', which calls 'MPI_Bcast', or 'HeadStage::sync', which calls 'MPI_Reduce', and 'stage' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-100]]:56: note: 'MPI_Bcast' is called here, inside 'EmbeddingStage::sync', which 'stage->sync' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'stage' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:34: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-100]]:5: note: 'MPI_Reduce' is called here, inside 'HeadStage::sync'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'stage' the same on every rank, or have every function 'stage->sync' may run call the same collectives
}
