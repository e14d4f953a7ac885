// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Callables handed to a call that runs them: a library algorithm
// (`std::for_each`, `std::call_once`, `std::visit`) or a function of the
// translation unit that calls its callable parameter, or keeps it to run
// later (a hook registry's `add`). The collectives of what the call is
// passed are the call's, so a call made on some ranks only is reported
// there. A library call that keeps a callable (`push_back`, assignment) is
// judged where the callable runs.
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <mutex>
#include <variant>
#include <vector>

// Positive: only rank 0 runs the lambda's barrier, once per element.
void sync_each_on_root(std::vector<int> &buckets, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    std::for_each(buckets.begin(), buckets.end(), [&](int) { MPI_Barrier(comm); });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'std::for_each' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:62: note: 'MPI_Barrier' is called here, inside 'std::for_each'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'std::for_each' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: every rank runs the algorithm; the root's own pass has no
// collective.
void sync_each_everywhere(std::vector<int> &buckets, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::for_each(buckets.begin(), buckets.end(), [&](int) { MPI_Barrier(comm); });
  if (rank == 0)
    std::for_each(buckets.begin(), buckets.end(), [](int &b) { b = 0; });
  std::sort(buckets.begin(), buckets.end(), [](int a, int b) { return a < b; });
}

static std::once_flag warmed_up;

// Positive: the one-time warm-up broadcast runs on rank 0 only.
void warm_up_on_root(double *w, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    std::call_once(warmed_up, [&] { MPI_Bcast(w, n, MPI_DOUBLE, 0, comm); });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'std::call_once' (which calls 'MPI_Bcast') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:37: note: 'MPI_Bcast' is called here, inside 'std::call_once'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'std::call_once' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

struct Dense { int rows; };
struct Sparse { int nnz; };

// Positive: a generic visitor's allreduce, on the ranks whose rank is odd.
void reduce_visited(std::variant<Dense, Sparse> &m, double *x, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2)
    std::visit([&](auto &) { MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, comm); }, m);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'std::visit' (which calls 'MPI_Allreduce') runs only on ranks where 'rank % 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:30: note: 'MPI_Allreduce' is called here, inside the lambda, which 'std::visit' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank % 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'std::visit' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

static void with_retries(const std::function<void()> &step) { step(); }

// Positive: a function that runs its parameter, called on rank 0 with a
// barrier.
void retry_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    with_retries([&] { MPI_Barrier(comm); });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'with_retries' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:24: note: 'MPI_Barrier' is called here, inside 'with_retries'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'with_retries' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same function runs a local update on rank 0 and the
// barrier on every rank; what each call passes is what it runs.
void retry_everywhere(std::vector<int> &log, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  with_retries([&] { MPI_Barrier(comm); });
  if (rank == 0)
    with_retries([&] { log.push_back(1); });
}

// Negative: rank 0 only keeps the callable; every rank runs the same one.
void keep_for_later(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::function<void()> sync = [&] { MPI_Barrier(comm); };
  std::vector<std::function<void()>> kept;
  if (rank == 0) {
    kept.push_back([&] { MPI_Barrier(comm); });
    sync = [&] { MPI_Barrier(comm); };
  }
  sync();
}

class HookRegistry {
public:
  using Hook = std::function<void(int)>;
  void add(Hook hook) { hooks_.emplace_back(std::move(hook)); }
  void fire(int step) const {
    for (const Hook &hook : hooks_)
      hook(step);
  }

private:
  std::vector<Hook> hooks_;
};

// Positive: a hook that keeps a collective is registered on rank 0 only;
// the registry runs it there alone.
void register_on_root(HookRegistry &hooks, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    hooks.add([comm](int) { MPI_Barrier(comm); });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hooks.add' (which keeps a callable that calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'MPI_Barrier' is called here, in the callable 'hooks.add' keeps; it runs wherever that callable is called later
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'hooks.add' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: every rank registers the collective hook; rank 0 adds a
// logging hook of its own.
void register_everywhere(HookRegistry &hooks, MPI_Comm comm, std::vector<int> &log) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  hooks.add([comm](int) { MPI_Barrier(comm); });
  if (rank == 0)
    hooks.add([&log](int step) { log.push_back(step); });
  hooks.fire(1);
}

// A hook a factory of the file builds holds what the factory returns.
static HookRegistry::Hook make_logger(MPI_Comm comm) {
  return [comm](int step) {
    int total = 0;
    MPI_Reduce(&step, &total, 1, MPI_INT, MPI_SUM, 0, comm);
  };
}

static HookRegistry::Hook make_printer(int rank) {
  return [rank](int step) { std::printf("%d: step %d\n", rank, step); };
}

// Positive: rank 0 alone registers the logger, whose reduce then runs there
// alone.
void register_logger_on_root(HookRegistry &hooks, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    hooks.add(make_logger(comm));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hooks.add' (which keeps a callable that calls 'MPI_Reduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-16]]:5: note: 'MPI_Reduce' is called here, in the callable 'hooks.add' keeps; it runs wherever that callable is called later
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'hooks.add' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  hooks.fire(1);
}

// Negative: rank 0 alone registers a printer, which runs no collective.
void register_printer_on_root(HookRegistry &hooks, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    hooks.add(make_printer(rank));
  hooks.fire(1);
}

template <class... Ts> struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts> Overloaded(Ts...) -> Overloaded<Ts...>;

struct CacheHit {
  int records;
};
struct CacheMiss {
  int expected;
};
using ShardSource = std::variant<CacheHit, CacheMiss>;

static ShardSource probe_cache(int rank) {
  if (rank % 2)
    return CacheHit{3};
  return CacheMiss{4};
}

static void materialize(const ShardSource &source, MPI_Comm comm) {
  std::visit(Overloaded{[&](const CacheHit &) {},
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'std::visit' may run the lambda on line [[@LINE+8]], which calls 'MPI_Bcast', or the lambda on line [[@LINE-1]], which calls none, and 'source' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE+9]]:27: note: 'MPI_Bcast' is called here, inside the lambda, which 'std::visit' may run
  // CHECK-MESSAGES: :[[@LINE+10]]:14: note: 'source' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:44: note: parameter 'source' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-11]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE+14]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:25: note: the lambda on line [[@LINE-7]] calls no collective
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: make 'source' the same on every rank, or have every function 'std::visit' may run call the same collectives
                        [&](const CacheMiss &miss) {
                          int n = miss.expected;
                          MPI_Bcast(&n, 1, MPI_INT, 0, comm);
                        }},
             source);
}

// Positive: which alternative the variant holds differs between ranks, and
// only one of the visitor's lambdas broadcasts.
void materialize_probed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  materialize(probe_cache(rank), comm);
}

// Negative: every rank visits the same alternative.
void materialize_missing(MPI_Comm comm) { materialize(ShardSource{CacheMiss{4}}, comm); }


// A helper that runs its callback on a value it was handed.
static void with_value(int value, const std::function<void(int)> &callback) { callback(value); }

// Positive: the callback leaves early on the ranks the value it receives,
// the rank, picks.
void step_with_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto step = [&](int v) {
    if (v == 1)
      return;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'v == 1', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'v == 1' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'v == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:23: note: parameter 'v' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  };
  with_value(rank, step);
}

// Negative: the same callback handed the world size, the same everywhere.
void step_with_size(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  auto step = [&](int v) {
    if (v == 1)
      return;
    MPI_Barrier(comm);
  };
  with_value(size, step);
}

// Negative: a helper that counts the steps itself hands its callback the
// same step on every rank, whatever else its caller passes.
static void run_steps(int shard, int steps, const std::function<void(int)> &on_step) {
  std::printf("shard %d\n", shard);
  for (int s = 0; s < steps; ++s)
    on_step(s);
}

void log_every_fifty(MPI_Comm comm, double *loss) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  run_steps(rank, 1000, [&](int step) {
    if (step % 50 == 0)
      MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
  });
}
