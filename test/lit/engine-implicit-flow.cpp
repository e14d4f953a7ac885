// RUN: %clang_tidy --checks='-*,lockstep-rank-loop,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, values assigned under a rank condition: such a value differs
// between ranks only if it can hold different values on the ranks that go on
// to use it. The same constant assigned in both arms is uniform; a value set
// only on the members of a communicator (the condition is the membership
// test alone) is uniform among those members, and a collective on that
// communicator, reached by the members only, sees the same value everywhere.
// Different constants in the two arms, a value set on some members only, or
// a value used by every rank on a world-wide communicator, still differ.
#include <mpi.h>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

void log_line(const char *msg);

// Negative: the members of 'sub' (ranks 0-3) set the count to 8 and only they
// use it, on 'sub'.
void members_only_count(MPI_Comm world, double *v) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub;
  MPI_Comm_split(world, rank < 4 ? 0 : MPI_UNDEFINED, rank, &sub);
  int count = 0;
  if (sub != MPI_COMM_NULL) {
    count = 8;
    log_line("member");
  }
  if (sub != MPI_COMM_NULL) {
    MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_SUM, sub);
    for (int i = 0; i < count; ++i)
      MPI_Barrier(sub);
    MPI_Comm_free(&sub);
  }
}

// Positive: the same count used on the world: the members pass 8 and the
// others 0, and the members run 8 barriers the others never join.
void members_count_on_world(MPI_Comm world, double *v) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub;
  MPI_Comm_split(world, rank < 4 ? 0 : MPI_UNDEFINED, rank, &sub);
  int count = 0;
  if (sub != MPI_COMM_NULL) {
    count = 8;
    log_line("member");
  }
  MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_SUM, world);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:34: note: 'count' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:34: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  for (int i = 0; i < count; ++i)
    MPI_Barrier(world);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < count' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-21]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: both arms assign the same constant; n is 4 on every rank.
void same_constant_both_arms(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    n = 4;
    log_line("root sets the step count");
  } else {
    n = 4;
  }
  for (int i = 0; i < n; ++i)
    MPI_Barrier(comm);
  MPI_Bcast(&rank, n - 3, MPI_INT, 0, comm);
}

// Positive: different constants in the arms: 4 barriers on rank 0, 5 on the
// others, and broadcasts of 1 and 2 elements.
void different_constants(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    n = 4;
    log_line("root sets the step count");
  } else {
    n = 5;
  }
  for (int i = 0; i < n; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  MPI_Bcast(&rank, n - 3, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: 'n - 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-16]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Positive: the members do not all take the arm (only the first one does),
// so the count differs among the members of 'sub' too.
void first_member_count(MPI_Comm world, double *v) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub;
  MPI_Comm_split(world, rank < 4 ? 0 : MPI_UNDEFINED, rank, &sub);
  int count = 0;
  if (sub != MPI_COMM_NULL && rank == 0) {
    count = 8;
    log_line("first member");
  }
  if (sub != MPI_COMM_NULL)
    MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_SUM, sub);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: 'count' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:31: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A call that writes through a reference (or fills a container) on some
// ranks only is an assignment under the condition too: `fill(n)` on rank 0
// leaves 5 there and 0 elsewhere, whatever the callee writes.
static void fill(int &x) { x = 5; }
static void show(int &x) { (void)x; }
static void add(std::vector<int> &todo) { todo.push_back(1); }

void written_by_callee(MPI_Comm comm) {
  int rank, n = 0, m = 0, k = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    fill(n);
  for (int i = 0; i < n; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  std::vector<int> todo;
  if (rank == 0)
    todo.push_back(1);
  for (int t : todo)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: 'todo' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // Negative: a callee that only reads, a value agreed after the call, and a
  // container every rank fills.
  if (rank == 0)
    show(m);
  for (int i = 0; i < m; ++i)
    MPI_Barrier(comm);
  if (rank == 0)
    fill(k);
  MPI_Bcast(&k, 1, MPI_INT, 0, comm);
  for (int i = 0; i < k; ++i)
    MPI_Barrier(comm);
  std::vector<int> all;
  add(all);
  for (int t : all)
    MPI_Barrier(comm);
}

// Negative: a call under the condition writes only what its callee writes
// (a field), not every part of the object it is handed.
struct TrainState {
  std::vector<float> grads;
  int step = 0;
};
static void note_step(TrainState &s) { s.step = 1; }

void hook_under_rank(MPI_Comm comm, TrainState &st) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    note_step(st);
  MPI_Allreduce(MPI_IN_PLACE, st.grads.data(), (int)st.grads.size(), MPI_FLOAT, MPI_SUM, comm);
}

// A callee that may leave its parameter as it was keeps the caller's value.
static void maybe_fill(int &x, bool b) {
  if (b)
    x = 5;
}

void kept_when_not_written(MPI_Comm comm, bool b) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int n = rank;
  maybe_fill(n, b);
  for (int i = 0; i < n; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// A helper that fills some fields of its argument, called on rank 0 only:
// those fields differ afterwards, even when what it reads is the same file.
struct Schedule {
  int warmup_steps;
  int total_steps;
  float peak_lr;
};

static void parse_schedule(const char *path, Schedule &s) {
  FILE *f = std::fopen(path, "r");
  if (!f)
    return;
  std::fscanf(f, "%d %d", &s.warmup_steps, &s.total_steps);
  std::fclose(f);
}

void rank0_reads_schedule(MPI_Comm comm, const char *path) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Schedule s{100, 1000, 1e-3f};
  if (rank == 0)
    parse_schedule(path, s);
  for (int step = 0; step < s.total_steps; ++step)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'step < s.total_steps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // Negative: a field the helper does not write keeps its value everywhere.
  for (float lr = 0; lr < s.peak_lr; lr += 1e-4f)
    MPI_Barrier(comm);
}

// Negative: every rank reads the schedule.
void every_rank_reads_schedule(MPI_Comm comm, const char *path) {
  Schedule s{100, 1000, 1e-3f};
  parse_schedule(path, s);
  for (int step = 0; step < s.total_steps; ++step)
    MPI_Barrier(comm);
}

// A message the root formats: its length differs on the other ranks.
void announce(MPI_Comm comm, const char *run_name) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  char msg[512] = {0};
  if (rank == 0)
    std::snprintf(msg, sizeof msg, "starting run %s", run_name);
  MPI_Bcast(msg, (int)std::strlen(msg) + 1, MPI_CHAR, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: '(int)std::strlen(msg) + 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:18: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  // Negative: the whole buffer, the same size everywhere.
  MPI_Bcast(msg, sizeof msg, MPI_CHAR, 0, comm);
  // Negative: after the broadcast every rank holds the root's message.
  MPI_Bcast(msg, (int)std::strlen(msg) + 1, MPI_CHAR, 0, comm);
}

// A range returned as a struct and bound by name: each rank's own shard.
struct Range {
  long begin, end;
};

static std::pair<long, long> count_offset(long n, int w, int r) { return {n / w, n / w * r}; }

static Range shard_of(long n, int r, int w) {
  long per = n / w;
  return {r * per, (r + 1) * per};
}

void bound_shard(long n, MPI_Comm comm) {
  int rank, world;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &world);
  auto [first, last] = shard_of(n, rank, world);
  for (long i = first; i < last; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: 'i < last' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // Negative: the shard's length is the same on every rank.
  auto [lo, hi] = shard_of(n, 0, world);
  for (long i = lo; i < hi; ++i)
    MPI_Barrier(comm);
  // Negative: the count of a count and an offset is the same on every rank.
  auto [count, offset] = count_offset(n, world, rank);
  for (long i = 0; i < count; ++i)
    MPI_Barrier(comm);
  // The offset of a pair's is this rank's own.
  for (long i = 0; i < offset; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: 'i < offset' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-22]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: a helper on rank 0 that rescales the elements of a field's
// vector, even by a per-rank factor, leaves its size as it was.
struct Trainer {
  MPI_Comm comm;
  int rank;
  std::vector<float> grads;
};

static void scale_grads(float *buf, int n, float by) {
  for (int k = 0; k < n; ++k)
    buf[k] *= by;
}

static void rank0_scales(Trainer &t) {
  scale_grads(t.grads.data(), (int)t.grads.size(), 0.5f);
  scale_grads(t.grads.data(), (int)t.grads.size(), 1.0f + t.rank);
}

void rescale_then_reduce(Trainer &t) {
  if (t.rank == 0)
    rank0_scales(t);
  MPI_Allreduce(MPI_IN_PLACE, t.grads.data(), (int)t.grads.size(), MPI_FLOAT, MPI_SUM, t.comm);
}

// A field assigned on some ranks only differs afterwards, in the function
// that assigns it and in the callers of a helper that does; its other
// fields do not.
struct Election {
  int chief = 0;
  int level = 1;
};
static void elect(Election &e, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    e.chief = 1;
}

void chief_in_place(MPI_Comm comm, int *x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Election e;
  if (rank == 0)
    e.chief = 1;
  MPI_Bcast(x, 1, MPI_INT, e.chief, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:28: note: 'e.chief' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:28: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  // Negative: no rank assigns it.
  MPI_Bcast(x, 1, MPI_INT, e.level, comm);
}

void chief_by_helper(MPI_Comm comm, int *x) {
  Election e;
  elect(e, comm);
  MPI_Bcast(x, 1, MPI_INT, e.chief, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:28: note: 'e.chief' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-26]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-28]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:28: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  // Negative: no rank assigns it.
  MPI_Bcast(x, 1, MPI_INT, e.level, comm);
}

// Negative: an element a helper writes on some ranks leaves the size of its
// container alone.
static void mark_first(TrainState &s, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    s.grads[0] = 1.0f;
}

void size_after_element_write(MPI_Comm comm, TrainState &st) {
  mark_first(st, comm);
  MPI_Allreduce(MPI_IN_PLACE, st.grads.data(), (int)st.grads.size(), MPI_FLOAT, MPI_SUM, comm);
}

// Positive: a counter that a loop bumps only where a per-rank flag is set.
// The flags were written in an earlier loop; the merge at the first loop's
// header stands for both definitions of `n`, so the arm's `n++` is a
// different value.
void count_flags_set_in_loop(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> has(3);
  for (int i = 0; i < 3; ++i)
    has[i] = rank;
  int n = 0;
  for (int j = 0; j < 3; ++j)
    if (has[j])
      n++;
  std::vector<float> buf(3);
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:43: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:9: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:43: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the same loops over flags every rank sets alike.
void count_flags_set_alike(MPI_Comm comm, int step) {
  std::vector<int> has(3);
  for (int i = 0; i < 3; ++i)
    has[i] = step;
  int n = 0;
  for (int j = 0; j < 3; ++j)
    if (has[j])
      n++;
  std::vector<float> buf(3);
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, comm);
}

// A write under a rank test and a test after it (`rank == 1 && level < 2`)
// runs on some ranks only, like one under the rank test alone; so does a
// count a loop of two tests (`&&`) keeps.
void raised_by_one_rank(MPI_Comm comm, int level) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 1 && level < 2)
    level = 2;
  for (int i = 0; i < level; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < level' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

template <int Levels> void v_cycle(MPI_Comm comm) {
  for (int l = 0; l < Levels; ++l)
    MPI_Barrier(comm);
}

void levels_by_grid(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int n = rank == 0 ? 64 : 16, levels = 1;
  while (n % 2 == 0 && n / 2 >= 16) {
    n /= 2;
    ++levels;
  }
  if (levels == 1)
    v_cycle<1>(comm);
  else
    v_cycle<2>(comm);
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'v_cycle<1>' (which calls 'MPI_Barrier') runs once on ranks where 'levels == 1' but 2 times on the other ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-16]]:5: note: 'MPI_Barrier' is called here, inside 'v_cycle<1>'
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'levels == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:24: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: the other ranks run their loop of 'MPI_Barrier' here
  // CHECK-MESSAGES: :[[@LINE-9]]:5: note: run the same number of iterations on every rank
}

// Negative: the same on a level and a grid every rank shares.
void same_levels(MPI_Comm comm, int level, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (level < 2 && n > 0)
    level = 2;
  for (int i = 0; i < level; ++i)
    MPI_Barrier(comm);
  int levels = 1;
  while (n % 2 == 0 && n / 2 >= 16) {
    n /= 2;
    ++levels;
  }
  if (levels == 1)
    v_cycle<1>(comm);
  else
    v_cycle<2>(comm);
}

// A value a callee writes through a pointer under a test of its parameter:
// per-rank where the caller passes the rank, the same where it passes a
// value every rank shares.
static void rows_of(int part, int parts, int *rows) {
  *rows = 4;
  if (part == parts - 1)
    *rows = 2;
}

void rows_by_rank(MPI_Comm comm, int parts) {
  int rank, rows, first_rows;
  MPI_Comm_rank(comm, &rank);
  rows_of(rank, parts, &rows);
  for (int i = 0; i < rows; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < rows' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // Negative: every rank asks for the first part's rows.
  rows_of(0, parts, &first_rows);
  for (int i = 0; i < first_rows; ++i)
    MPI_Barrier(comm);
}

static void run_steps(MPI_Comm comm, int n, bool warm) {
  if (warm)
    n = 0;
  for (int i = 0; i < n; ++i)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < n' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:42: note: parameter 'n' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Positive: a parameter reset on one path keeps the callers' per-rank value
// on the other, where the loop reads it.
void steps_per_rank(MPI_Comm comm, bool warm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  run_steps(comm, rank + 1, warm);
}

// Negative: the callers pass the same count everywhere.
void steps_everywhere(MPI_Comm comm, bool warm, int size) { run_steps(comm, size, warm); }
