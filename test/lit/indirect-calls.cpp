// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Calls that name no single function: virtual calls through pointers,
// references and smart pointers run any override the translation unit
// defines; a std::function or a function pointer runs what the code stored
// in it. The finding names the call as written and notes the override (or
// lambda) that performs the collective.
#include <mpi.h>
#include <functional>
#include <memory>
#include <map>
#include <string>

struct Hook {
  virtual ~Hook() = default;
  virtual void on_step(int step) = 0;
};

struct AllreduceHook : Hook {
  explicit AllreduceHook(MPI_Comm c) : comm(c) {}
  void on_step(int step) override; // below, after the calls it is noted for
  MPI_Comm comm;
};

struct PrintHook : Hook {
  void on_step(int step) override { (void)step; }
};

class Trainer {
public:
  Trainer(MPI_Comm comm, std::unique_ptr<Hook> hook) : hook_(std::move(hook)) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    is_main_ = rank == 0;
  }
  void step(int s) {
    if (is_main_)
      hook_->on_step(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'hook_->on_step' (which calls 'MPI_Allreduce') runs only on ranks where 'is_main_'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE+24]]:3: note: 'MPI_Allreduce' is called here, inside 'AllreduceHook::on_step', which 'hook_->on_step' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'is_main_' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:5: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'hook_->on_step' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }

private:
  std::unique_ptr<Hook> hook_;
  bool is_main_ = false;
};

void by_reference(Hook &h, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    h.on_step(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h.on_step' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: 'MPI_Allreduce' is called here, inside 'AllreduceHook::on_step', which 'h.on_step' may run
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'h.on_step' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void AllreduceHook::on_step(int step) {
  MPI_Allreduce(MPI_IN_PLACE, &step, 1, MPI_INT, MPI_MAX, comm);
}

// Negative: every rank runs the hook, whatever it does.
void by_pointer_everywhere(Hook *h, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  h->on_step(rank);
}

// Negative: no override of Logger performs a collective.
struct Logger {
  virtual ~Logger() = default;
  virtual void log(int) {}
};
struct FileLogger : Logger {
  void log(int x) override { (void)x; }
};

void log_on_root(Logger *logger, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    logger->log(1);
}

class Callbacks {
public:
  explicit Callbacks(MPI_Comm comm); // below, after the calls it is noted for
  void epoch() {
    if (rank_ == 0)
      on_epoch_();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'on_epoch_' (which calls 'MPI_Barrier') runs only on ranks where 'rank_ == 0'
    // CHECK-MESSAGES: :[[@LINE+19]]:24: note: 'MPI_Barrier' is called here, inside the lambda, which 'on_epoch_' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'rank_ == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE+16]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'on_epoch_' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  // Negative: the stored lambda runs no collective.
  void log() {
    if (rank_ == 0)
      on_log_();
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::function<void()> on_epoch_, on_log_;
};

Callbacks::Callbacks(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  on_epoch_ = [this] { MPI_Barrier(comm_); };
  on_log_ = [] {};
}

void sync_world() { MPI_Barrier(MPI_COMM_WORLD); }
void note_world() {}

void through_pointers(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  void (*sync)() = &sync_world;
  void (*note)() = note_world;
  if (rank == 0)
    sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sync' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE-11]]:21: note: 'MPI_Barrier' is called here, inside 'sync_world', which 'sync' may run
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 0)
    note(); // Negative: the function it holds performs no collective.
}

// What a virtual call returns is what its overrides return: an object
// picked by the rank returns another value there; objects every rank
// builds alike, one of them from per-rank data, return the same.
struct Schedule {
  virtual ~Schedule() = default;
  virtual int stages() const = 0;
};
struct Short : Schedule {
  int stages() const override { return 3; }
};
struct Long : Schedule {
  int stages() const override { return 5; }
};
struct Seeded : Schedule {
  explicit Seeded(int s) : seed(s) {}
  int seed;
  int stages() const override { return 4; }
};

void by_schedule(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<Schedule> picked;
  if (rank == 0)
    picked = std::make_unique<Short>();
  else
    picked = std::make_unique<Long>();
  if (picked->stages() > 3)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'picked->stages() > 3'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'picked->stages() > 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Negative: every rank holds a Seeded and a Short.
  std::unique_ptr<Schedule> alike[] = {std::make_unique<Seeded>(rank), std::make_unique<Short>()};
  for (auto &s : alike)
    if (s->stages() > 3)
      MPI_Barrier(comm);
}

// A call through a function pointer kept in a struct returns what the
// functions stored there return.
struct Layout {
  MPI_Comm comm;
  int shard;
};
struct VectorOps {
  double (*dot)(const Layout &, double);
  double (*norm)(const Layout &, double);
};
static double agreed_dot(const Layout &l, double x) {
  double sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, l.comm);
  return sum;
}
static double local_norm(const Layout &l, double x) { return x * l.shard; }
const VectorOps kAgreed = {agreed_dot, agreed_dot};
const VectorOps kLocal = {agreed_dot, local_norm};

// Negative: the residual is an allreduce's result, the same on every rank,
// though what each rank adds in differs.
void check_agreed(const Layout &l, const VectorOps &ops) {
  int rank;
  MPI_Comm_rank(l.comm, &rank);
  if (ops.dot(l, 0.5 * rank) < 1e-6)
    MPI_Barrier(l.comm);
}

// Positive: 'local_norm' may run, and returns each rank's own value.
void check_local(const Layout &l, const VectorOps &ops) {
  int rank;
  MPI_Comm_rank(l.comm, &rank);
  if (ops.norm(l, 0.5 * rank) < 1e-6)
    MPI_Barrier(l.comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'ops.norm(l, 0.5 * rank) < 1e-6'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'ops.norm(l, 0.5 * rank) < 1e-6' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void check_both(const Layout &l) {
  check_agreed(l, kAgreed);
  check_local(l, kLocal);
}

// A map of callbacks holding function objects: each runs its call operator.
struct NormMonitor {
  MPI_Comm comm;
  void operator()(double g) const {
    double sum = 0;
    MPI_Allreduce(&g, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
};
struct HookMap {
  std::map<std::string, std::function<void(double)>> all;
  void add(const std::string &name, std::function<void(double)> cb) {
    all.emplace(name, std::move(cb));
  }
  void run(double g) {
    for (auto &[name, cb] : all)
      cb(g);
  }
};

// Negative: every rank registers the monitor.
void monitor_everywhere(MPI_Comm comm) {
  HookMap hooks;
  hooks.add("norm", NormMonitor{comm});
  hooks.run(1.0);
}

// Positive: only rank 0 registers it, and only rank 0 reduces.
void monitor_on_root(MPI_Comm comm) {
  HookMap hooks;
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    hooks.add("norm", NormMonitor{comm});
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hooks.add' (which keeps a callable that calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-29]]:5: note: 'MPI_Allreduce' is called here, in the callable 'hooks.add' keeps; it runs wherever that callable is called later
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'hooks.add' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  hooks.run(1.0);
}

// A function object built from one argument is that object, not its argument.
class CommMonitor {
public:
  explicit CommMonitor(MPI_Comm comm) : comm_(comm) {}
  void operator()(double g) const {
    double sum = 0;
    MPI_Allreduce(&g, &sum, 1, MPI_DOUBLE, MPI_SUM, comm_);
  }

private:
  MPI_Comm comm_;
};

// Positive: only rank 0 registers it.
void comm_monitor_on_root(MPI_Comm comm) {
  HookMap hooks;
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    hooks.add("norm", CommMonitor(comm));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hooks.add' (which keeps a callable that calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-15]]:5: note: 'MPI_Allreduce' is called here, in the callable 'hooks.add' keeps; it runs wherever that callable is called later
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'hooks.add' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  hooks.run(1.0);
}

// A std::function field of a struct filled by braces (`{name, lambda}`):
// `sum.fn()` runs what the braces gave that object.
struct Deferred {
  std::string name;
  std::function<double()> fn;
};

static double global_sum(double x, MPI_Comm comm) {
  double total = 0.0;
  MPI_Allreduce(&x, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

// Positive: only rank 0 runs the deferred global sum. Negative beside it:
// `local` was given a lambda without collectives.
void deferred_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Deferred sum{"sum", [comm]() { return global_sum(1.0, comm); }};
  Deferred local{"local", []() { return 1.0; }};
  if (rank == 0)
    sum.fn();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sum.fn' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: 'MPI_Allreduce' is called here, inside the lambda, which 'sum.fn' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'sum.fn' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 0)
    local.fn();
}

// Pointers to member functions: `(solver.*step)()` runs what `step` holds.
struct Solver {
  MPI_Comm comm;
  void synchronized_step() { MPI_Barrier(comm); }
  void local_step() {}
  void checked_step() { MPI_Barrier(comm); }
};

// Positive: the rank picks the step; only rank 0's synchronizes.
void member_step_chosen_by_rank(Solver &solver) {
  int rank;
  MPI_Comm_rank(solver.comm, &rank);
  void (Solver::*step)() = rank == 0 ? &Solver::synchronized_step : &Solver::local_step;
  (solver.*step)();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '(solver.*step)' may run 'Solver::synchronized_step', which calls 'MPI_Barrier', or 'Solver::local_step', which calls none, and 'step' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-12]]:30: note: 'MPI_Barrier' is called here, inside 'Solver::synchronized_step', which '(solver.*step)' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'step' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-14]]:8: note: 'Solver::local_step' calls no collective
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: make 'step' the same on every rank, or have every function '(solver.*step)' may run call the same collectives
}

// Negative: both steps the rank may pick synchronize the same way.
void member_step_both_synchronize(Solver &solver) {
  int rank;
  MPI_Comm_rank(solver.comm, &rank);
  void (Solver::*step)() = rank == 0 ? &Solver::synchronized_step : &Solver::checked_step;
  (solver.*step)();
}

// Positive: every rank holds the synchronizing step, but only rank 0 runs it.
void member_step_on_root(Solver *solver) {
  int rank;
  MPI_Comm_rank(solver->comm, &rank);
  void (Solver::*step)() = &Solver::synchronized_step;
  if (rank == 0)
    (solver->*step)();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '(solver->*step)' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-35]]:30: note: 'MPI_Barrier' is called here, inside 'Solver::synchronized_step', which '(solver->*step)' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call '(solver->*step)' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: only rank 0 runs the step, but the one it holds is local.
void member_local_step_on_root(Solver *solver) {
  int rank;
  MPI_Comm_rank(solver->comm, &rank);
  void (Solver::*step)() = &Solver::local_step;
  if (rank == 0)
    (solver->*step)();
}

// Positive: the member pointer is a parameter; only rank 0 hands over the
// synchronizing step. Negative beside it: the local step.
static void run_step(Solver &solver, void (Solver::*step)()) { (solver.*step)(); }

void member_step_passed_on_root(Solver &solver) {
  int rank;
  MPI_Comm_rank(solver.comm, &rank);
  if (rank == 0)
    run_step(solver, &Solver::synchronized_step);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Solver::synchronized_step' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-60]]:30: note: 'MPI_Barrier' is called here, inside 'Solver::synchronized_step'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Solver::synchronized_step' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 0)
    run_step(solver, &Solver::local_step);
}

// Positive: a pointer to a virtual method runs the override of the object.
struct Phase {
  virtual ~Phase() = default;
  virtual void finish() {}
};
struct SyncedPhase : Phase {
  MPI_Comm comm = MPI_COMM_WORLD;
  void finish() override { MPI_Barrier(comm); }
};

void virtual_member_step_on_root(Phase &phase) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  void (Phase::*end)() = &Phase::finish;
  if (rank == 0)
    (phase.*end)();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '(phase.*end)' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-10]]:28: note: 'MPI_Barrier' is called here, inside 'SyncedPhase::finish', which '(phase.*end)' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call '(phase.*end)' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: a pointer to the virtual method handed to a helper runs the
// override there.
static void finish_with(Phase &phase, void (Phase::*end)()) { (phase.*end)(); }

void virtual_member_passed_on_root(Phase &phase) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    finish_with(phase, &Phase::finish);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'finish_with' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-26]]:28: note: 'MPI_Barrier' is called here, inside 'SyncedPhase::finish', which 'finish_with' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'finish_with' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
// A std::function a factory of the file returns holds what its returns hold.
static std::function<void()> make_sync(MPI_Comm comm, bool twice) {
  if (twice)
    return [comm] {
      MPI_Barrier(comm);
      MPI_Barrier(comm);
    };
  return [comm] { MPI_Barrier(comm); };
}

// Positive: rank 0 gets the hook that synchronizes twice.
void factory_hook_by_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> hook = make_sync(comm, rank == 0);
  hook();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hook' may run the lambda on line 438, which then calls 'MPI_Barrier', or the lambda on line 442, which returns instead, and 'hook' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-12]]:7: note: 'MPI_Barrier' is called here, inside the lambda, which 'hook' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'hook' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-17]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-14]]:10: note: the lambda on line 442 returns after the collectives both call, without calling 'MPI_Barrier'
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'hook' the same on every rank, or have every function 'hook' may run call the same collectives
}

// Negative: every rank gets the same hook.
void factory_hook_shared(MPI_Comm comm, bool twice) {
  std::function<void()> hook = make_sync(comm, twice);
  hook();
}

// Negative: whichever hook the rank gets, it synchronizes once.
static std::function<void()> make_logged_sync(MPI_Comm comm, bool verbose) {
  if (verbose)
    return [comm] { MPI_Barrier(comm); };
  return [comm] { MPI_Barrier(comm); };
}

void factory_hook_balanced(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> hook = make_logged_sync(comm, rank == 0);
  hook();
}

// Negative: the factory's helper lambda returns a hook of its own; the
// factory returns one that synchronizes once on every rank.
static std::function<void()> make_step(MPI_Comm comm, bool verbose) {
  auto twice = [comm]() -> std::function<void()> {
    return [comm] {
      MPI_Barrier(comm);
      MPI_Barrier(comm);
    };
  };
  (void)twice;
  if (verbose)
    return [comm] { MPI_Barrier(comm); };
  return [comm] { MPI_Barrier(comm); };
}

void factory_step(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> step = make_step(comm, rank == 0);
  step();
}
