// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// C's out-parameters and methods. A helper that sets the number its pointer
// points to on every path, to a value the same on every rank (a constant,
// a copy of what a broadcast agreed), leaves the caller's variable the same
// on every rank, whatever it held before; one that sets it on some paths
// only, or adds to it, does not. And a helper handed a struct by pointer
// reads the fields the caller left per-rank, by a write or by the arms of a
// rank-dependent branch, and runs the callbacks registered in it (a table of
// compound literals, `(hook_t){fn, every}`).
#include <mpi.h>

static void reset(int *n) { *n = 0; }

static void share_flag(int *ok, MPI_Comm comm) {
  int tmp = *ok;
  MPI_Bcast(&tmp, 1, MPI_INT, 0, comm);
  *ok = tmp;
}

static void reset_if(int *n, int when) {
  if (when)
    *n = 0;
}

static void bump(int *n) { *n += 1; }

// Negative: every rank holds 0 after the call.
void reset_per_rank_count(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  n = rank;
  reset(&n);
  if (n)
    MPI_Barrier(comm);
}

// Negative: the flag comes back from the broadcast through a local copy.
int share_then_leave(MPI_Comm comm, int argc) {
  int rank, ok = 1;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    ok = argc < 3;
  share_flag(&ok, comm);
  if (!ok)
    return 2;
  MPI_Barrier(comm);
  return 0;
}

// Positive: when `when` is 0 the count stays the rank.
void reset_some_paths(MPI_Comm comm, int when) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  n = rank;
  reset_if(&n, when);
  if (n)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: adding one keeps it per-rank.
void bump_per_rank_count(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  n = rank;
  bump(&n);
  if (n)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: only rank 0 resets it.
void reset_on_root(MPI_Comm comm) {
  int rank, n = 5;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    reset(&n);
  if (n)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

static void reset_through(int *n) { reset(n); }

static int scratch;
static void reset_scratch(int *n) {
  n = &scratch;
  *n = 0;
}

// Negative: a wrapper hands its pointer on to the reset.
void reset_through_wrapper(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  n = rank;
  reset_through(&n);
  if (n)
    MPI_Barrier(comm);
}

// Positive: the helper resets what it points to after pointing elsewhere.
void reset_elsewhere(MPI_Comm comm) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  n = rank;
  reset_scratch(&n);
  if (n)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: which variable is reset differs between ranks.
void reset_chosen_by_rank(MPI_Comm comm) {
  int rank, a, b;
  MPI_Comm_rank(comm, &rank);
  a = b = rank;
  int *target = &a;
  if (rank > 0)
    target = &b;
  reset(target);
  if (a)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'a'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'a' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

typedef struct {
  int ncallbacks;
} engine_t;

static void engine_advance(engine_t *e, MPI_Comm comm) {
  for (int i = 0; i < e->ncallbacks; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < e->ncallbacks' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:38: note: parameter 'e->ncallbacks' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+10]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first
}

// Positive: only rank 0 registers a callback; the helper loops over them.
void register_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  engine_t e = {0};
  if (rank == 0)
    e.ncallbacks++;
  engine_advance(&e, comm);
}

typedef struct {
  int nsteps;
} plan_t;

static void plan_run(const plan_t *p, MPI_Comm comm) {
  for (int i = 0; i < p->nsteps; ++i)
    MPI_Barrier(comm);
}

// Negative: the root's step count is broadcast before the helper reads it.
void plan_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  plan_t p = {0};
  if (rank == 0)
    p.nsteps = 4;
  MPI_Bcast(&p.nsteps, 1, MPI_INT, 0, comm);
  plan_run(&p, comm);
}

// A registry of callbacks kept in a struct, filled with compound literals.
typedef void (*hook_fn)(MPI_Comm comm);
typedef struct {
  hook_fn fn;
  int every;
} hook_t;
typedef struct {
  hook_t hooks[4];
  int nhooks;
} hooks_t;

static void hooks_add(hooks_t *h, hook_fn fn, int every) {
  h->hooks[h->nhooks++] = (hook_t){fn, every};
}

static void sum_hook(MPI_Comm comm) {
  double x = 1.0;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, comm);
}

static void hooks_run(hooks_t *h, MPI_Comm comm) {
  for (int i = 0; i < h->nhooks; ++i)
    h->hooks[i].fn(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h->hooks[i].fn' (which calls 'MPI_Allreduce') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'MPI_Allreduce' is called here, inside 'sum_hook', which 'h->hooks[i].fn' may run
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: 'i < h->nhooks' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:32: note: parameter 'h->nhooks' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+15]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE+12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: agree on the trip count first
}

static void hooks_run_each(hooks_t *h, MPI_Comm comm) {
  for (int i = 0; i < h->nhooks; ++i)
    h->hooks[i].fn(comm);
}

// Positive: only rank 0 registers the hook that reduces.
void hooks_on_root(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  hooks_t h = {0};
  if (rank == 0)
    hooks_add(&h, sum_hook, 1);
  hooks_run(&h, comm);
}

// Negative: every rank registers it.
void hooks_everywhere(MPI_Comm comm) {
  hooks_t h = {0};
  hooks_add(&h, sum_hook, 1);
  hooks_run_each(&h, comm);
}
