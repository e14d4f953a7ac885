// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Globals in call order (issue 14, pattern 5): a global that run() assigns
// under a rank condition is still its initial value, the same on every
// rank, where main tests it before calling run(); after the call it differs.
// The same holds for a call through a function pointer, which may run what
// the pointer holds.
#include <mpi.h>

int g_mode = 0;

void run(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    g_mode = 1;
}

// g_phase is written on rank 0 by advance(), which main calls through a
// function pointer only.
int g_phase = 0;

void advance(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    g_phase = 1;
}

void log_only(MPI_Comm) {}

void (*g_step)(MPI_Comm) = advance;

// Written per rank by tune(), which main calls last.
int g_retry = 3;

void tune(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  g_retry = rank;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // Negative: run() has not written it yet.
  if (g_mode)
    MPI_Barrier(MPI_COMM_WORLD);
  run(MPI_COMM_WORLD);
  // Positive: run() wrote it on rank 0 only.
  if (g_mode)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_mode'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g_mode' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-39]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-41]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Negative: through a pointer to a function that writes no global.
  void (*quiet)(MPI_Comm) = log_only;
  quiet(MPI_COMM_WORLD);
  if (g_phase)
    MPI_Barrier(MPI_COMM_WORLD);
  // Positive: the pointer's target wrote g_phase on rank 0 only.
  g_step(MPI_COMM_WORLD);
  if (g_phase)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_phase'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g_phase' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-42]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-44]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // g_retry still holds its initializer: rank 0 writing the same value again
  // leaves it the same everywhere (negative), another value does not
  // (positive).
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    g_retry = 3;
  if (g_retry > 1)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    g_retry = 4;
  if (g_retry > 1)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_retry > 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g_retry > 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  tune(MPI_COMM_WORLD);
  MPI_Finalize();
}


// A function that advances a global defines it where it is called, whatever
// value it writes: called on every rank, the global stays the same on all
// (negative); called on some ranks only, it differs after the call
// (positive), as does a field of a global struct.
static int g_steps = 0;
static int g_wet_steps = 0;
void advance_dynamics() { g_steps++; }
void advance_moisture() { g_wet_steps = g_wet_steps + 1; }

void step_column(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  advance_dynamics();
  if (g_steps % 10 == 0)
    MPI_Barrier(comm);
  if (rank % 3 == 0)
    advance_moisture();
  if (g_wet_steps % 10 == 0)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_wet_steps % 10 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g_wet_steps % 10 == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

struct CallStats {
  int calls;
  int faults;
};
CallStats g_stats;
void count_call() { g_stats.calls++; }

void tally(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    count_call();
  if (g_stats.faults > 0)
    MPI_Barrier(comm);
  if (g_stats.calls > 100)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_stats.calls > 100'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g_stats.calls > 100' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Two calls that leave the same constant write it alike, whichever function
// makes them (negative); a value the callers pass is theirs, so different
// values in the two arms differ (positive).
static int g_solve_phase = 0;
static int g_level = 0;
static void write_header(const char *path) {
  (void)path;
  g_solve_phase = 2;
}
static void skip_header() { g_solve_phase = 2; }
static void set_level(int level) { g_level = level; }

void start_solve(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    write_header("out.txt");
  else
    skip_header();
  if (g_solve_phase == 2)
    MPI_Barrier(comm);
  int level;
  if (rank == 0) {
    level = 3;
    set_level(level);
  } else {
    level = 1;
    set_level(level);
  }
  if (g_level > 2)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_level > 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g_level > 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-11]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A second call of the same function writes anew: a hook added on every
// rank and then once more on rank 0 leaves the count differing (probe52),
// and a call through the global array of hooks runs what was stored there.
typedef void (*StepHook)(MPI_Comm);
static struct {
  StepHook fn[8];
  int count;
} g_hooks;

static void add_hook(StepHook fn) {
  if (g_hooks.count >= 8)
    return;
  g_hooks.fn[g_hooks.count] = fn;
  g_hooks.count++;
}

static void energy_hook(MPI_Comm comm) { MPI_Barrier(comm); }

static void run_hooks(MPI_Comm comm) {
  for (int h = 0; h < g_hooks.count; ++h)
    g_hooks.fn[h](comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'g_hooks.fn[h]' (which calls 'MPI_Barrier') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-6]]:42: note: 'MPI_Barrier' is called here, inside 'energy_hook', which 'g_hooks.fn[h]' may run
    // CHECK-MESSAGES: :[[@LINE-4]]:19: note: 'h < g_hooks.count' differs between ranks
    // CHECK-MESSAGES: :[[@LINE+9]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE+6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void install_hooks(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  add_hook(energy_hook);
  if (rank == 0)
    add_hook(energy_hook);
  run_hooks(comm);
}
