// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A call that may run functions with different collectives (overrides of a
// virtual method, lambdas stored in a std::function) is a rank branch when
// what picks the function differs between ranks: the object or the callable
// was chosen under a rank-dependent condition.
#include <mpi.h>
#include <functional>
#include <memory>
#include <vector>

struct Logger {
  virtual ~Logger() = default;
  virtual void log(double loss, MPI_Comm comm) = 0;
};
struct NullLogger : Logger {
  void log(double, MPI_Comm) override {}
};
struct GlobalLogger : Logger {
  explicit GlobalLogger(int level = 0) : level(level) {}
  void log(double loss, MPI_Comm comm) override {
    double mean = 0;
    MPI_Allreduce(&loss, &mean, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
  int level;
};

void logger_by_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Logger> logger;
  if (rank == 0)
    logger = std::make_unique<GlobalLogger>();
  else
    logger.reset(new NullLogger());
  logger->log(1.0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'logger->log' may run 'GlobalLogger::log', which calls 'MPI_Allreduce', or 'NullLogger::log', which calls none, and 'logger' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-15]]:5: note: 'MPI_Allreduce' is called here, inside 'GlobalLogger::log', which 'logger->log' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'logger' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-25]]:8: note: 'NullLogger::log' calls no collective
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'logger' the same on every rank, or have every function 'logger->log' may run call the same collectives
}

// Negative: both arms store the same class; only its settings differ.
void same_class_either_way(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Logger *logger;
  if (rank == 0)
    logger = new GlobalLogger(2);
  else
    logger = new GlobalLogger(0);
  logger->log(1.0, comm);
  delete logger;
}

// Negative: an empty smart pointer, then the same class on either arm.
void same_class_in_smart_pointer(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Logger> logger;
  if (rank == 0)
    logger = std::make_unique<GlobalLogger>(2);
  else
    logger = std::make_unique<GlobalLogger>(0);
  logger->log(1.0, comm);
}

// Negative: an object built from the rank is still of one class everywhere.
void built_from_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Logger> logger = std::make_unique<GlobalLogger>(rank);
  logger->log(1.0, comm);
}

// Negative: the class is chosen by the world size, the same on every rank.
void chosen_by_size(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  std::unique_ptr<Logger> logger;
  if (size > 1)
    logger = std::make_unique<GlobalLogger>();
  else
    logger = std::make_unique<NullLogger>();
  logger->log(1.0, comm);
}

void post_by_rank(double *x, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> post = [] {};
  if (rank == 0)
    post = [&] { MPI_Bcast(x, n, MPI_DOUBLE, 0, comm); };
  post();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'post' may run the lambda on line [[@LINE-2]], which calls 'MPI_Bcast', or the lambda on line [[@LINE-4]], which calls none, and 'post' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'MPI_Bcast' is called here, inside the lambda, which 'post' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'post' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-9]]:32: note: the lambda on line [[@LINE-9]] calls no collective
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'post' the same on every rank, or have every function 'post' may run call the same collectives
}

// Negative: every lambda 'post' may hold runs the same collective.
void post_same_either_way(double *x, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> post = [&] { MPI_Bcast(x, n, MPI_DOUBLE, 0, comm); };
  if (rank == 0)
    post = [&] { MPI_Bcast(x, n, MPI_DOUBLE, 0, comm); };
  post();
}

// Each holder runs a collective, but not the same one.
void sync_by_rank(double *x, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> sync = [&] { MPI_Barrier(comm); };
  if (rank % 2)
    sync = [&] { MPI_Bcast(x, n, MPI_DOUBLE, 0, comm); };
  sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'sync' may run the lambda on line [[@LINE-4]], which calls 'MPI_Barrier', or the lambda on line [[@LINE-2]], which calls 'MPI_Bcast', and 'sync' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-5]]:38: note: 'MPI_Barrier' is called here, inside the lambda, which 'sync' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'sync' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: 'MPI_Bcast' is called here, inside the lambda on line [[@LINE-7]]
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'sync' the same on every rank, or have every function 'sync' may run call the same collectives
}

// Overrides compare by what means the same in both: the operation, the
// constants, the call's own arguments by position; not the names of their
// locals.
struct Role {
  virtual ~Role() = default;
  virtual void round(std::vector<double> &w, MPI_Comm c) = 0;
};
struct Coordinator : Role {
  void round(std::vector<double> &w, MPI_Comm c) override {
    std::vector<double> sum(w.size());
    MPI_Reduce(w.data(), sum.data(), (int)sum.size(), MPI_DOUBLE, MPI_SUM, 0, c);
  }
};
struct Worker : Role {
  void round(std::vector<double> &w, MPI_Comm comm) override {
    std::vector<double> g(w.size());
    MPI_Reduce(g.data(), nullptr, (int)g.size(), MPI_DOUBLE, MPI_SUM, 0, comm);
  }
};
struct Straggler : Role {
  void round(std::vector<double> &w, MPI_Comm c) override {
    MPI_Reduce(w.data(), nullptr, (int)w.size(), MPI_DOUBLE, MPI_SUM, 1, c);
  }
};

// Negative: both reduce to rank 0 on the communicator passed in.
void roles_by_rank(std::vector<double> &w, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Role> role;
  if (rank == 0)
    role.reset(new Coordinator);
  else
    role.reset(new Worker);
  role->round(w, comm);
}

void roles_with_another_root(std::vector<double> &w, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Role> role;
  if (rank == 0)
    role.reset(new Coordinator);
  else
    role.reset(new Straggler);
  role->round(w, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'role->round' may run 'Coordinator::round', which calls 'MPI_Reduce', or 'Straggler::round', which calls 'MPI_Reduce' with other arguments, and 'role' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-37]]:5: note: 'MPI_Reduce' is called here, inside 'Coordinator::round', which 'role->round' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'role' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-30]]:5: note: 'MPI_Reduce' is called here, inside 'Straggler::round'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'role' the same on every rank, or have every function 'role->round' may run call the same collectives
}

// A function pointer picked by a rank-dependent `?:` holds either function.
static void skip_sync(MPI_Comm) {}
static void barrier_sync(MPI_Comm comm) { MPI_Barrier(comm); }
static void other_barrier_sync(MPI_Comm comm) { MPI_Barrier(comm); }

void pointer_by_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  void (*sync)(MPI_Comm) = rank == 0 ? barrier_sync : skip_sync;
  sync(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'sync' may run 'barrier_sync', which calls 'MPI_Barrier', or 'skip_sync', which calls none, and 'sync' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-9]]:43: note: 'MPI_Barrier' is called here, inside 'barrier_sync', which 'sync' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'sync' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-13]]:13: note: 'skip_sync' calls no collective
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: make 'sync' the same on every rank, or have every function 'sync' may run call the same collectives
  // Negative: either function calls the same barrier.
  void (*same)(MPI_Comm) = rank == 0 ? barrier_sync : other_barrier_sync;
  same(comm);
}

// A factory that picks the type by the rank it is given: its result differs
// between ranks as if the caller had branched.
struct Optimizer {
  virtual ~Optimizer() = default;
  virtual void step() = 0;
};
struct ShardedAdam : Optimizer {
  void step() override { MPI_Barrier(MPI_COMM_WORLD); }
};
struct PlainSgd : Optimizer {
  void step() override {}
};

static std::unique_ptr<Optimizer> make_optimizer(int rank, int sharded) {
  if (rank < sharded)
    return std::make_unique<ShardedAdam>();
  return std::make_unique<PlainSgd>();
}

void factory_by_rank(int sharded) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto opt = make_optimizer(rank, sharded);
  opt->step();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'opt->step' may run 'ShardedAdam::step', which calls 'MPI_Barrier', or 'PlainSgd::step', which calls none, and 'opt' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-18]]:26: note: 'MPI_Barrier' is called here, inside 'ShardedAdam::step', which 'opt->step' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'opt' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-19]]:8: note: 'PlainSgd::step' calls no collective
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'opt' the same on every rank, or have every function 'opt->step' may run call the same collectives
  // Negative: the same factory given a value every rank agrees on.
  auto same = make_optimizer(sharded - 1, sharded);
  same->step();
}

// A table of callables indexed by a per-rank value: the entry each rank
// picks runs its own collectives.
static void average_weights() { MPI_Barrier(MPI_COMM_WORLD); }
static void keep_local() {}
using EpochAction = void (*)();
static const EpochAction kActions[2] = {average_weights, keep_local};

struct StrategyTable {
  EpochAction fns[2] = {keep_local, average_weights};
};

void action_tables(int uniform) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EpochAction on_epoch_end = kActions[rank & 1];
  on_epoch_end();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'on_epoch_end' may run 'average_weights', which calls 'MPI_Barrier', or 'keep_local', which calls none, and 'on_epoch_end' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-15]]:33: note: 'MPI_Barrier' is called here, inside 'average_weights', which 'on_epoch_end' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'on_epoch_end' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-17]]:13: note: 'keep_local' calls no collective
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: make 'on_epoch_end' the same on every rank, or have every function 'on_epoch_end' may run call the same collectives
  StrategyTable table;
  EpochAction reduce = table.fns[rank % 2];
  reduce();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'reduce' may run 'average_weights', which calls 'MPI_Barrier', or 'keep_local', which calls none, and 'reduce' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-24]]:33: note: 'MPI_Barrier' is called here, inside 'average_weights', which 'reduce' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'reduce' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-26]]:13: note: 'keep_local' calls no collective
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: make 'reduce' the same on every rank, or have every function 'reduce' may run call the same collectives
  // Negative: an entry every rank agrees on.
  EpochAction agreed = kActions[uniform & 1];
  agreed();
}

// Hooks registered on some ranks only: the loop that fires them runs their
// collectives a different number of times.
void hooks_on_some_ranks(int steps) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::function<void()>> hooks, everywhere;
  if (rank == 0)
    hooks.push_back([] { MPI_Barrier(MPI_COMM_WORLD); });
  everywhere.push_back([] { MPI_Barrier(MPI_COMM_WORLD); });
  for (int s = 0; s < steps; ++s) {
    for (auto &h : hooks)
      h();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'h' (which calls 'MPI_Barrier') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-6]]:26: note: 'MPI_Barrier' is called here, inside the lambda, which 'h' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:20: note: 'hooks' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    // Negative: hooks every rank registered.
    for (auto &h : everywhere)
      h();
  }
}

// An object picked by a rank-dependent `?:` runs the overrides of its type.
void optimizer_by_choice(bool sharded_everywhere) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::unique_ptr<Optimizer> opt = rank < 2 ? std::unique_ptr<Optimizer>(new ShardedAdam)
                                            : std::unique_ptr<Optimizer>(new PlainSgd);
  opt->step();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'opt->step' may run 'ShardedAdam::step', which calls 'MPI_Barrier', or 'PlainSgd::step', which calls none, and 'opt' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-97]]:26: note: 'MPI_Barrier' is called here, inside 'ShardedAdam::step', which 'opt->step' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'opt' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:36: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-98]]:8: note: 'PlainSgd::step' calls no collective
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'opt' the same on every rank, or have every function 'opt->step' may run call the same collectives
  // Negative: the same choice made by a value every rank agrees on.
  std::unique_ptr<Optimizer> same = sharded_everywhere ? std::unique_ptr<Optimizer>(new ShardedAdam)
                                                       : std::unique_ptr<Optimizer>(new PlainSgd);
  same->step();
}

// A method that is not virtual, run on an object the rank picks, whose body
// makes a virtual call on its own object: the object's type picks that
// override as if it were called here.
class Stepper {
public:
  virtual ~Stepper() = default;
  void run(MPI_Comm comm, int steps) {
    for (int s = 0; s < steps; ++s) {
      MPI_Barrier(comm);
      on_step_end(comm, s);
    }
  }

protected:
  virtual void on_step_end(MPI_Comm, int) {}
};

class ChiefStepper : public Stepper {
protected:
  void on_step_end(MPI_Comm comm, int step) override {
    if (step % 10 == 0)
      MPI_Bcast(&step, 1, MPI_INT, 0, comm);
  }
};

static std::unique_ptr<Stepper> make_stepper(int role) {
  if (role == 0)
    return std::make_unique<ChiefStepper>();
  return std::make_unique<Stepper>();
}

// Positive: only rank 0's stepper broadcasts at its step ends.
void run_by_role(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Stepper> t = make_stepper(rank);
  t->run(comm, 100);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 't->run' may run 'ChiefStepper::on_step_end', which calls 'MPI_Bcast', or 'Stepper::on_step_end', which calls none, and 't' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-17]]:7: note: 'MPI_Bcast' is called here, inside 'ChiefStepper::on_step_end', which 't->run' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 't' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-14]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-33]]:7: note: 't->run' calls the virtual 'on_step_end' on its object here; the type of 't' picks the override
  // CHECK-MESSAGES: :[[@LINE-29]]:16: note: 'Stepper::on_step_end' calls no collective
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: make 't' the same on every rank, or have every function 't->run' may run call the same collectives
}

// Negative: every rank makes the same stepper.
void run_same_role(MPI_Comm comm, int role) {
  std::unique_ptr<Stepper> t = make_stepper(role);
  t->run(comm, 100);
}

// Negative: an override in a final class that calls the base method by its
// qualified name (`PlacedOptimizer::gather()`) runs the base's collective, as the
// class that does not override it does.
struct PlacedOptimizer {
  virtual ~PlacedOptimizer() = default;
  void step() { gather(); }

protected:
  virtual void gather() { MPI_Barrier(MPI_COMM_WORLD); }
};
struct DevicePlaced final : PlacedOptimizer {};
struct HostPlaced final : PlacedOptimizer {
protected:
  void gather() override { PlacedOptimizer::gather(); }
};

void step_by_placement() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::unique_ptr<PlacedOptimizer> opt;
  if (rank % 2 == 0)
    opt = std::make_unique<DevicePlaced>();
  else
    opt = std::make_unique<HostPlaced>();
  opt->step();
}

// Negative: rank 0 coordinates, the others work; both roles run the same
// collectives, and whether to go on is what rank 0 broadcast, on every rank.
struct Duty {
  explicit Duty(MPI_Comm c) : comm(c) {}
  virtual ~Duty() = default;
  virtual void hand_out(int *task) = 0;
  virtual bool go_on(int round) = 0;
  MPI_Comm comm;
};

struct Leader : Duty {
  using Duty::Duty;
  void hand_out(int *task) override {
    task[0] = next++;
    MPI_Bcast(task, 1, MPI_INT, 0, comm);
  }
  bool go_on(int round) override {
    int go = round < 20 && best > 1e-9;
    MPI_Bcast(&go, 1, MPI_INT, 0, comm);
    return go != 0;
  }
  int next = 0;
  double best = 1.0;
};

struct Follower : Duty {
  using Duty::Duty;
  void hand_out(int *task) override { MPI_Bcast(task, 1, MPI_INT, 0, comm); }
  bool go_on(int) override {
    int go = 0;
    MPI_Bcast(&go, 1, MPI_INT, 0, comm);
    return go != 0;
  }
};

void master_worker(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Duty> role;
  if (rank == 0)
    role = std::make_unique<Leader>(comm);
  else
    role = std::make_unique<Follower>(comm);
  int task[1];
  int round = 0;
  do {
    role->hand_out(task);
    ++round;
  } while (role->go_on(round));
}

// Positive: the coordinator decides alone, without telling the workers.
struct Stage {
  explicit Stage(MPI_Comm c) : comm(c) {}
  virtual ~Stage() = default;
  virtual void hand_out(int *task) { MPI_Bcast(task, 1, MPI_INT, 0, comm); }
  virtual bool go_on(int round) = 0;
  MPI_Comm comm;
};

struct LoneCoordinator : Stage {
  using Stage::Stage;
  bool go_on(int round) override { return round < 20; }
};

struct LoneWorker : Stage {
  using Stage::Stage;
  bool go_on(int) override { return false; }
};

void lone_master(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Stage> stage;
  if (rank == 0)
    stage = std::make_unique<LoneCoordinator>(comm);
  else
    stage = std::make_unique<LoneWorker>(comm);
  int task[1];
  int round = 0;
  do {
    stage->hand_out(task);
    ++round;
  } while (stage->go_on(round));
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'Stage::hand_out' (which calls 'MPI_Bcast') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-30]]:38: note: 'MPI_Bcast' is called here, inside 'Stage::hand_out'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'stage->go_on(round)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-16]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-8]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Positive: solvers built on the two parts of a split, chosen by the same
// test as the colour; the fluid's override reduces over the whole world.
struct Physics {
  explicit Physics(MPI_Comm part) : comm_(part) {}
  virtual ~Physics() = default;
  virtual void post_step(double &dt) { (void)dt; }
  virtual void sync(double &dt) { (void)dt; }
  MPI_Comm comm_;
};

struct Fluid : Physics {
  using Physics::Physics;
  void post_step(double &dt) override {
    double v = dt;
    MPI_Allreduce(&v, &dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  }
  void sync(double &dt) override { MPI_Bcast(&dt, 1, MPI_DOUBLE, 0, comm_); }
};

struct Solid : Physics {
  using Physics::Physics;
};

void coupled(int nfluid) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool fluid = rank < nfluid;
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, fluid ? 0 : 1, rank, &part);
  std::unique_ptr<Physics> solver;
  if (fluid)
    solver = std::make_unique<Fluid>(part);
  else
    solver = std::make_unique<Solid>(part);
  double dt = 0.01;
  for (int step = 0; step < 100; ++step) {
    solver->post_step(dt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'solver->post_step' may run 'Fluid::post_step', which calls 'MPI_Allreduce', or 'Physics::post_step', which calls none, and 'solver' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-24]]:5: note: 'MPI_Allreduce' is called here, inside 'Fluid::post_step', which 'solver->post_step' may run
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'solver' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
    // CHECK-MESSAGES: :[[@LINE-16]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-37]]:16: note: 'Physics::post_step' calls no collective
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: make 'solver' the same on every rank, or have every function 'solver->post_step' may run call the same collectives
    // Negative: the fluid's broadcast is on its own part, which only
    // fluid ranks belong to.
    solver->sync(dt);
  }
}

// Components built on the parts of a split keep the world beside their part.
// Positive: the ocean reduces over the world, which the atmosphere's ranks
// never do at that point. Negative: the ocean's barrier on its own part.
struct Component {
  Component(MPI_Comm world, MPI_Comm part) : world_(world), comm_(part) {}
  virtual ~Component() = default;
  virtual void step(double *mean) = 0;
  virtual void finish() {}
  MPI_Comm world_, comm_;
};

struct Ocean : Component {
  using Component::Component;
  void step(double *mean) override {
    MPI_Allreduce(MPI_IN_PLACE, mean, 1, MPI_DOUBLE, MPI_SUM, world_);
  }
  void finish() override { MPI_Barrier(comm_); }
};

struct Atmosphere : Component {
  using Component::Component;
  void step(double *mean) override {
    MPI_Allreduce(MPI_IN_PLACE, mean, 1, MPI_DOUBLE, MPI_SUM, comm_);
  }
};

void climate(int nocean) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool ocean = rank < nocean;
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, ocean ? 0 : 1, rank, &part);
  std::unique_ptr<Component> model;
  if (ocean)
    model = std::make_unique<Ocean>(MPI_COMM_WORLD, part);
  else
    model = std::make_unique<Atmosphere>(MPI_COMM_WORLD, part);
  double mean = 0;
  model->step(&mean);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'model->step' may run 'Ocean::step', which calls 'MPI_Allreduce' on 'world_', or 'Atmosphere::step', which calls 'MPI_Allreduce' on 'comm_', and 'model' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-26]]:5: note: 'MPI_Allreduce' is called here, inside 'Ocean::step', which 'model->step' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'model' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-22]]:5: note: 'MPI_Allreduce' is called here, inside 'Atmosphere::step'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'model' the same on every rank, or have every function 'model->step' may run call the same collectives
  // Negative: the ocean's barrier is on its own part, beside the world.
  model->finish();
}

// Objects chosen by membership of a split (probe50): members get a solver
// that reduces on their part, the others a null object with no collective,
// so a member and a non-member share no communicator to disagree on
// (negative); a solver that reduces on the world instead is reached by the
// members only (positive).
struct CoarseSolver {
  virtual ~CoarseSolver() = default;
  virtual void solve(double *x) = 0;
};
struct DirectCoarse : CoarseSolver {
  explicit DirectCoarse(MPI_Comm c) : comm_(c) {}
  void solve(double *x) override { MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, comm_); }
  MPI_Comm comm_;
};
struct WorldCoarse : CoarseSolver {
  void solve(double *x) override {
    MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
};
struct IdleCoarse : CoarseSolver {
  void solve(double *) override {}
};

void coarse_cycle(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm coarse;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 4 == 0 ? 0 : MPI_UNDEFINED, rank, &coarse);
  std::unique_ptr<CoarseSolver> on_part, on_world;
  if (coarse != MPI_COMM_NULL)
    on_part = std::make_unique<DirectCoarse>(coarse);
  else
    on_part = std::make_unique<IdleCoarse>();
  on_part->solve(x);
  if (coarse != MPI_COMM_NULL)
    on_world = std::make_unique<WorldCoarse>();
  else
    on_world = std::make_unique<IdleCoarse>();
  on_world->solve(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'on_world->solve' may run 'WorldCoarse::solve', which calls 'MPI_Allreduce', or 'IdleCoarse::solve', which calls none, and 'on_world' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-24]]:5: note: 'MPI_Allreduce' is called here, inside 'WorldCoarse::solve', which 'on_world->solve' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'on_world' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-16]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-25]]:8: note: 'IdleCoarse::solve' calls no collective
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: make 'on_world' the same on every rank, or have every function 'on_world->solve' may run call the same collectives
}

// The warning names the first collective where the functions differ, after
// the ones they share: both phases reduce first, then one broadcasts where
// the other waits in a barrier, or returns.
struct Phase {
  virtual ~Phase() = default;
  virtual void run(double *v, MPI_Comm comm) = 0;
};
struct FullPhase : Phase {
  void run(double *v, MPI_Comm comm) override {
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Bcast(v, 4, MPI_DOUBLE, 0, comm);
  }
};
struct FencedPhase : Phase {
  void run(double *v, MPI_Comm comm) override {
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Barrier(comm);
  }
};
struct ReducePhase : Phase {
  void run(double *v, MPI_Comm comm) override {
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_SUM, comm);
  }
};

// Positive: the second collective differs.
void phases_differ_after_reduce(double *v, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Phase> phase;
  if (rank == 0)
    phase = std::make_unique<FullPhase>();
  else
    phase = std::make_unique<FencedPhase>();
  phase->run(v, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'phase->run' may run 'FullPhase::run', which then calls 'MPI_Bcast', or 'FencedPhase::run', which then calls 'MPI_Barrier', and 'phase' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-26]]:5: note: 'MPI_Bcast' is called here, inside 'FullPhase::run', which 'phase->run' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'phase' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-24]]:5: note: 'MPI_Barrier' is called here, inside 'FencedPhase::run'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'phase' the same on every rank, or have every function 'phase->run' may run call the same collectives
}

// Positive: the other phase returns after the reduction.
void phase_stops_after_reduce(double *v, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Phase> phase;
  if (rank == 0)
    phase = std::make_unique<ReducePhase>();
  else
    phase = std::make_unique<FullPhase>();
  phase->run(v, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'phase->run' may run 'FullPhase::run', which then calls 'MPI_Bcast', or 'ReducePhase::run', which returns instead, and 'phase' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-45]]:5: note: 'MPI_Bcast' is called here, inside 'FullPhase::run', which 'phase->run' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'phase' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-39]]:8: note: 'ReducePhase::run' returns after the collectives both call, without calling 'MPI_Bcast'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'phase' the same on every rank, or have every function 'phase->run' may run call the same collectives
}

// Negative: every rank runs the same phase type's collectives.
void same_phase_everywhere(double *v, MPI_Comm comm, bool fenced) {
  std::unique_ptr<Phase> phase;
  if (fenced)
    phase = std::make_unique<FencedPhase>();
  else
    phase = std::make_unique<FullPhase>();
  phase->run(v, comm);
}
