// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Collectives in the initializer of a function's static local run once per
// process, on the first call: a lazily built cache. Once a call that every
// path passes has run it, later calls run no collective, on whichever ranks
// make them. A call that only some ranks make runs it there alone.
#include <mpi.h>
#include <vector>

struct Layout {
  std::vector<long> rows;
  long total = 0;
};

static const Layout &global_layout(long mine) {
  static const Layout layout = [mine] {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Layout l;
    l.rows.resize(size);
    MPI_Allgather(&mine, 1, MPI_LONG, l.rows.data(), 1, MPI_LONG, MPI_COMM_WORLD);
    for (long r : l.rows)
      l.total += r;
    return l;
  }();
  return layout;
}

static int owner_of(long row, long mine) {
  const Layout &l = global_layout(mine);
  int r = 0;
  for (long first = 0; row >= first + l.rows[r]; first += l.rows[r])
    ++r;
  return r;
}

static long world_total(long mine) {
  static long total = [mine] {
    long sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return sum;
  }();
  return total;
}

// Negative: every rank builds the layout first; later calls, in a loop of
// per-rank length or on rank 0 alone, find it built.
long count_remote(long mine) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long first = global_layout(mine).rows[0] * rank;
  long remote = 0;
  for (long row = first; row < first + mine; ++row)
    if (owner_of(row + 300, mine) != rank)
      ++remote;
  if (rank == 0)
    remote += global_layout(mine).total;
  return remote;
}

// Positive: only rank 0 ever calls it, so only rank 0 runs the allreduce of
// the initializer.
long report_total(long mine) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long total = 0;
  if (rank == 0)
    total = world_total(mine);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'world_total' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-30]]:5: note: 'MPI_Allreduce' is called here, inside 'world_total'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: call 'world_total' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return total;
}

// A collective on every call besides the cached one.
static long refreshed_total(long mine) {
  long now = 0;
  MPI_Allreduce(&mine, &now, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  return world_total(mine) + now;
}

// Positive: the allreduce of refreshed_total runs on every call, so the
// later call on rank 0 alone is a collective the others never make.
long report_refreshed(long mine) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long t = refreshed_total(mine);
  if (rank == 0)
    t += refreshed_total(mine);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'refreshed_total' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: 'MPI_Allreduce' is called here, inside 'refreshed_total'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: call 'refreshed_total' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return t;
}

// A call that may return before its static: the initializer waits for a
// later call.
static long total_if(long mine, bool need) {
  if (!need)
    return 0;
  return world_total(mine);
}

// Positive: the first call skips the initializer, so the call on rank 0
// alone still runs the allreduce.
long report_needed(long mine) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long t = total_if(mine, false);
  if (rank == 0)
    t += total_if(mine, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'total_if' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-77]]:5: note: 'MPI_Allreduce' is called here, inside 'total_if'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: call 'total_if' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return t;
}

struct Stage {
  virtual ~Stage() = default;
  virtual void run() {}
};
struct SyncStage : Stage {
  void run() override { MPI_Barrier(MPI_COMM_WORLD); }
};

// Its static runs once, but the stage it runs may synchronise every time.
static long advance(Stage &stage, long mine) {
  long t = world_total(mine);
  stage.run();
  return t;
}

// Positive: rank 0 advances once more than the others.
long advance_twice_on_root(Stage &stage, long mine) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long t = advance(stage, mine);
  if (rank == 0)
    t += advance(stage, mine);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'advance' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-107]]:5: note: 'MPI_Allreduce' is called here, inside 'advance'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: call 'advance' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return t;
}
