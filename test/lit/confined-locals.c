// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A field a function writes per rank into a struct local that no other code
// can reach stays in that local: the same field of the objects that other
// code reaches through pointers holds what their own writers put there. A
// local whose address is stored, or handed to a function that keeps it, is
// reached through that pointer too.
#include <mpi.h>
#include <string.h>

typedef struct {
  int n;
  double tol;
} cfg_t;

static void sweep(const cfg_t *c, MPI_Comm comm) {
  for (int i = 0; i < c->n; ++i)
    MPI_Barrier(comm);
}

// A scratch copy of the type, per rank, in a function of its own.
int local_estimate(MPI_Comm comm) {
  int rank;
  cfg_t mine;
  MPI_Comm_rank(comm, &rank);
  mine.n = rank;
  sweep(&(cfg_t){4, 0.0}, comm);
  return mine.n * 2;
}

// Negative: the count every rank sweeps was agreed before the call.
void sweep_agreed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  cfg_t c = {0, 1e-3};
  c.n = rank + 1;
  MPI_Allreduce(MPI_IN_PLACE, &c.n, 1, MPI_INT, MPI_MAX, comm);
  sweep(&c, comm);
}

// The positives use types of their own: what they write is reached through
// pointers, so it holds for every object of that type in the file.
typedef struct {
  int n;
} plan_t;

// Negative: zeroed by a library call that keeps nothing, then agreed.
void sweep_zeroed(MPI_Comm comm) {
  int rank;
  cfg_t c;
  memset(&c, 0, sizeof c);
  MPI_Comm_rank(comm, &rank);
  c.n = rank;
  MPI_Allreduce(MPI_IN_PLACE, &c.n, 1, MPI_INT, MPI_MAX, comm);
  sweep(&c, comm);
}

// Positive: the local's address is kept in a global, and the per-rank count
// written after is what the sweep through it reads.
static plan_t *current;

static void sweep_current(MPI_Comm comm) {
  for (int i = 0; i < current->n; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < current->n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void sweep_published(MPI_Comm comm) {
  int rank;
  plan_t c = {0};
  current = &c;
  MPI_Comm_rank(comm, &rank);
  c.n = rank + 1;
  sweep_current(comm);
}

typedef struct {
  int n;
} job_t;

// Positive: a registry keeps the pointer it is handed; the count written
// after registering is what the registered sweep reads.
static const job_t *registered;

static void register_job(const job_t *c) { registered = c; }

static void sweep_registered(MPI_Comm comm) {
  for (int i = 0; i < registered->n; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < registered->n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void sweep_after_register(MPI_Comm comm) {
  int rank;
  job_t c = {0};
  register_job(&c);
  MPI_Comm_rank(comm, &rank);
  c.n = rank + 1;
  sweep_registered(comm);
}

typedef struct {
  int n;
} snap_t;

// Positive: a library copy of the local into a global carries its per-rank
// count to whoever reads the global.
static snap_t last_snapshot;

static void replay(const snap_t *s) {
  for (int i = 0; i < s->n; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < s->n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void snapshot(MPI_Comm comm) {
  int rank;
  snap_t s;
  MPI_Comm_rank(comm, &rank);
  s.n = rank;
  memcpy(&last_snapshot, &s, sizeof s);
}

void replay_last(void) { replay(&last_snapshot); }

// Negative: a helper that only reads through the pointer keeps nothing; the
// object the shared sweep reads is another one, agreed.
static int describe(const cfg_t *c) { return c->n > 0 && c->tol > 0.0; }

static cfg_t shared_cfg;

void sweep_shared(MPI_Comm comm) {
  int rank;
  cfg_t probe = {0, 1e-3};
  MPI_Comm_rank(comm, &rank);
  probe.n = rank;
  if (describe(&probe))
    shared_cfg.tol = probe.tol;
  MPI_Bcast(&shared_cfg.n, 1, MPI_INT, 0, comm);
  sweep(&shared_cfg, comm);
}

// A struct inside the local reaches the callee part by part: the per-rank
// wait is read through the pointer, the agreed retry limit beside it is not.
typedef struct {
  int wait_rounds, max_tries;
} lease_t;
typedef struct {
  MPI_Comm comm;
  lease_t lease;
} worker_t;

// Positive: ranks wait a different number of rounds, each with a barrier.
static void acquire(const worker_t *w) {
  for (int round = 0; round < w->lease.wait_rounds; ++round)
    MPI_Barrier(w->comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'round < w->lease.wait_rounds' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:37: note: parameter 'w->lease.wait_rounds' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: the retry limit is the same everywhere.
static void retry(const worker_t *w) {
  for (int t = 0; t < w->lease.max_tries; ++t)
    MPI_Barrier(w->comm);
}

void lease_all(void) {
  worker_t w = {MPI_COMM_WORLD, {0, 3}};
  int rank;
  MPI_Comm_rank(w.comm, &rank);
  w.lease.wait_rounds = rank % 4;
  acquire(&w);
  retry(&w);
}

// Positive: the callee writes the count through one parameter and reads it
// through the other.
typedef struct {
  int n;
} span_t;

static void resize_and_sweep(const span_t *s, int *count, int rank) {
  *count = rank;
  for (int i = 0; i < s->n; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < s->n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void sweep_aliased(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  span_t s = {2};
  resize_and_sweep(&s, &s.n, rank);
}

// Positive: a library the file only declares may keep the pointer it is
// handed (a task queue, `pthread_create`): the task reads the count later.
typedef struct {
  int n;
} task_t;

int submit_task(void (*fn)(void *), void *arg);

static void run_task(void *arg) {
  task_t *t = (task_t *)arg;
  for (int i = 0; i < t->n; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < t->n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void submit(void) {
  int rank;
  task_t t;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  t.n = rank;
  submit_task(run_task, &t);
}
