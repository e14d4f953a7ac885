// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A callee that assigns a field of its caller's object on every path, with
// a value every rank agrees on (a broadcast's result), leaves that field the
// same on every rank, whatever the root alone read into it before; so does
// a collective that writes the field directly (`MPI_Bcast(&cfg.steps, ...)`).
// And a callee receives what its callers pass, not what it writes back
// itself.
#include <mpi.h>
#include <cstdio>

struct Params {
  int nrows = 0, ncols = 0;
  int status = 0;
};

Params read_params(const char *path) {
  Params p;
  if (!std::fopen(path, "r"))
    p.status = 1;
  return p;
}

// Every field is broadcast and assigned back.
void bcast_params(Params &p, MPI_Comm comm) {
  int ints[3] = {p.nrows, p.ncols, p.status};
  MPI_Bcast(ints, 3, MPI_INT, 0, comm);
  p.nrows = ints[0];
  p.ncols = ints[1];
  p.status = ints[2];
}

// The status is assigned back only when the sizes are set.
void bcast_sizes(Params &p, MPI_Comm comm) {
  int ints[3] = {p.nrows, p.ncols, p.status};
  MPI_Bcast(ints, 3, MPI_INT, 0, comm);
  p.nrows = ints[0];
  p.ncols = ints[1];
  if (ints[0] > 0)
    p.status = ints[2];
}

// Negative: the status every rank tests came with the broadcast.
void setup_agreed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Params p;
  if (rank == 0)
    p = read_params("params.txt");
  bcast_params(p, comm);
  if (p.status != 0)
    return;
  MPI_Barrier(comm);
}

// Positive: when the sizes are not set the root keeps the status it read.
void setup_partly_agreed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Params p;
  if (rank == 0)
    p = read_params("params.txt");
  bcast_sizes(p, comm);
  if (p.status != 0)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'p.status != 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'p.status != 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'p.status != 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-36]]:26: note: parameter 'p.status' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-10]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// A callee reads what its caller passed, before it writes its own value.
struct Plan {
  int steps = 4;
};

static void run_then_note(Plan &plan, MPI_Comm comm) {
  for (int s = 0; s < plan.steps; ++s)
    MPI_Barrier(comm);
  int rank;
  MPI_Comm_rank(comm, &rank);
  plan.steps = rank; // this rank's own note for later
}

// Negative: the steps every rank passes are the same.
void run_plan(MPI_Comm comm) {
  Plan plan;
  run_then_note(plan, comm);
}

// A helper that broadcasts into its caller's fields directly agrees them.
struct Config {
  int total_steps = 100;
  int log_every = 10;
  double lr = 0.1;
};

Config parse_config(const char *path);

static void broadcast_config(Config &cfg, MPI_Comm comm) {
  MPI_Bcast(&cfg.lr, 1, MPI_DOUBLE, 0, comm);
  MPI_Bcast(&cfg.total_steps, 1, MPI_INT, 0, comm);
}

static void broadcast_config_through(Config *cfg, MPI_Comm comm) {
  MPI_Bcast(&cfg->total_steps, 1, MPI_INT, 0, comm);
  MPI_Bcast(&cfg->log_every, 1, MPI_INT, 0, comm);
}

// Negative: the root's steps reach every rank before the loop.
void train_agreed_config(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Config cfg;
  if (rank == 0)
    cfg = parse_config("train.cfg");
  broadcast_config(cfg, comm);
  for (int step = 0; step < cfg.total_steps; ++step)
    MPI_Barrier(comm);
}

// Negative: the same through a pointer.
void train_agreed_config_pointer(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Config cfg;
  if (rank == 0)
    cfg = parse_config("train.cfg");
  broadcast_config_through(&cfg, comm);
  for (int step = 0; step < cfg.total_steps; step += cfg.log_every)
    MPI_Barrier(comm);
}

// Positive: the helper does not broadcast `log_every`; only the root read it.
void train_unagreed_interval(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Config cfg;
  if (rank == 0)
    cfg = parse_config("train.cfg");
  broadcast_config(cfg, comm);
  for (int step = 0; step < cfg.total_steps; ++step)
    if (step % cfg.log_every == 0)
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'step % cfg.log_every == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'step % cfg.log_every == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the value is assigned under this rank-dependent condition
      // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
