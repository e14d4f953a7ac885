// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// What a function reads through a pointer to numbers is what its caller's
// buffer holds there: a helper's dot product of a per-rank buffer is
// per-rank, and so is a convergence test on it, until a collective agrees.
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

static double local_dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

// Positive: the loop ends on this rank's own residual.
void cg_local_residual(int n, double tol) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double *r = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    r[i] = rank * n + i;
  for (int it = 0; it < 100; ++it) {
    double rr_loc = local_dot(r, r, n), rr = 0.0;
    MPI_Allreduce(&rr_loc, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+3]]:9: note: 'sqrt(rr_loc) < tol' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    if (sqrt(rr_loc) < tol)
      break;
    for (int i = 0; i < n; ++i)
      r[i] *= 0.5;
  }
  free(r);
}

// Negative: the same loop ends on the allreduced residual.
void cg_global_residual(int n, double tol) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double *r = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    r[i] = rank * n + i;
  for (int it = 0; it < 100; ++it) {
    double rr_loc = local_dot(r, r, n), rr = 0.0;
    MPI_Allreduce(&rr_loc, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (sqrt(rr) < tol)
      break;
    for (int i = 0; i < n; ++i)
      r[i] *= 0.5;
  }
  free(r);
}

// Negative: a buffer every rank fills alike.
void cg_same_start(int n, double tol) {
  double *r = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    r[i] = i;
  for (int it = 0; it < 100; ++it) {
    double rr_loc = local_dot(r, r, n);
    MPI_Barrier(MPI_COMM_WORLD);
    if (sqrt(rr_loc) < tol)
      break;
    for (int i = 0; i < n; ++i)
      r[i] *= 0.5;
  }
  free(r);
}

// A generator that fills a buffer and hands it over through a pointer to
// the caller's pointer: the caller's buffer holds what the generator wrote.
typedef struct {
  double px, m;
} Track;

static int generate_tracks(int rank, Track **out) {
  Track *t = malloc(16 * sizeof(Track));
  for (int i = 0; i < 16; ++i) {
    t[i].px = 1.0 + 3.0 * rank; // later ranks see a harder spectrum
    t[i].m = 0.139;
  }
  *out = t;
  return 16;
}

static int generate_calibration(int n, Track **out) {
  Track *t = malloc(n * sizeof(Track));
  for (int i = 0; i < n; ++i) {
    t[i].px = 1.0 + 0.5 * i;
    t[i].m = 0.139;
  }
  *out = t;
  return n;
}

// Positive: the bin count comes from this rank's own tracks.
void histogram_local_bins(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Track *tracks = NULL;
  int n = generate_tracks(rank, &tracks);
  if (!tracks)
    return;
  double emax = 0.0;
  for (int i = 0; i < n; ++i)
    emax = fmax(emax, tracks[i].px);
  int nbins = (int)ceil(emax / 0.05) + 1;
  long *hist = calloc(nbins, sizeof(long));
  MPI_Allreduce(MPI_IN_PLACE, hist, nbins, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:37: note: 'nbins' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:37: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  free(hist);
  free(tracks);
}

// Negative: the same tracks on every rank; the null test on the pointer
// the generator set is the same everywhere too.
void histogram_shared_bins(void) {
  Track *tracks = NULL;
  int n = generate_calibration(16, &tracks);
  if (!tracks)
    return;
  Track *view = tracks;
  double emax = 0.0;
  for (int i = 0; i < n; ++i)
    emax = fmax(emax, view[i].px);
  int nbins = (int)ceil(emax / 0.05) + 1;
  long *hist = calloc(nbins, sizeof(long));
  MPI_Allreduce(MPI_IN_PLACE, hist, nbins, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  free(hist);
  free(tracks);
}

// A struct holding a pointer to its buffer: a callee reads what the
// caller's buffer holds through it.
typedef struct {
  int rank;
  double *q;
} Patch;

static double source_sum(const Patch *p) {
  double acc = 0.0;
  for (int i = 0; i < 8; ++i)
    acc += p->q[i];
  return acc;
}

// Positive: only rank 0 holds the heater, and the sweep count follows the
// local sum.
void sweep_heated_patch(void) {
  Patch p;
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  p.q = calloc(8, sizeof(double));
  if (p.rank == 0)
    for (int i = 2; i < 6; ++i)
      p.q[i] = 5.0;
  for (double s = source_sum(&p); s > 0.0; s -= 1.0)
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:35: note: 's > 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  free(p.q);
}

// Negative: every rank holds the same source.
void sweep_uniform_patch(void) {
  Patch p;
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  p.q = calloc(8, sizeof(double));
  for (int i = 2; i < 6; ++i)
    p.q[i] = 5.0;
  for (double s = source_sum(&p); s > 0.0; s -= 1.0)
    MPI_Barrier(MPI_COMM_WORLD);
  free(p.q);
}

// What a function writes through a pointer before an early return is what
// the caller's object holds afterwards.
typedef struct {
  long histories, transmitted, absorbed;
} Tally;

static void follow(Tally *t, double u, double limit) {
  t->histories++;
  if (u < limit) {
    t->transmitted++;
    return;
  }
  t->absorbed++;
}

// Positive: each rank draws its own 'u', so the transmitted count is its own.
void tally_per_rank(int steps) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Tally t = {0, 0, 0};
  for (int i = 0; i < steps; ++i)
    follow(&t, 0.001 * ((rank * 7919 + i) % 1000), 0.3);
  if (t.transmitted > 10)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 't.transmitted > 10'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 't.transmitted > 10' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-20]]:27: note: parameter 't->transmitted' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: every rank draws the same 'u'. (Its own struct: a field written
// per rank anywhere is per-rank wherever it is read.)
typedef struct {
  long histories, transmitted, absorbed;
} Counts;

static void follow_shared(Counts *c, double u, double limit) {
  c->histories++;
  if (u < limit) {
    c->transmitted++;
    return;
  }
  c->absorbed++;
}

void tally_uniform(int steps) {
  Counts c = {0, 0, 0};
  for (int i = 0; i < steps; ++i)
    follow_shared(&c, 0.001 * ((i * 7919) % 1000), 0.3);
  if (c.transmitted > 10)
    MPI_Barrier(MPI_COMM_WORLD);
}

// What a helper writes where a struct's pointer field points (probe52):
// `fill_field(&d, rank)` gives `d.f[i]` per-rank values, which `field_sum(&d)`
// reads back, so a loop on that sum runs per-rank (positive); filled with a
// value the same everywhere, or agreed by an allreduce in place before the
// sum, it does not (negatives).
typedef struct {
  int n;
  double *f;
} field_t;

static void fill_field(field_t *d, int scale) {
  for (int i = 0; i < d->n; ++i)
    d->f[i] = (double)scale * i;
}

static double field_sum(const field_t *d) {
  double r = 0.0;
  for (int i = 0; i < d->n; ++i)
    r += d->f[i];
  return r;
}

void relax_field(field_t *d, int scale, double tol) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fill_field(d, scale);
  if (field_sum(d) > tol)
    MPI_Barrier(MPI_COMM_WORLD);
  fill_field(d, rank);
  MPI_Allreduce(MPI_IN_PLACE, d->f, d->n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (field_sum(d) > tol)
    MPI_Barrier(MPI_COMM_WORLD);
  fill_field(d, rank);
  double res = 1.0, global = 0.0;
  while (res > tol) {
    res = field_sum(d);
    MPI_Allreduce(&res, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:10: note: 'res > tol' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}

// A callback's `void *arg` copied into a pointer to const reads the
// caller's struct: its per-rank field decides the barrier (positive).
typedef struct {
  MPI_Comm comm;
  int leader;
} task_ctx;
static void run_task(void *arg) {
  const task_ctx *c = arg;
  if (c->leader == 0)
    MPI_Barrier(c->comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'c->leader == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'c->leader == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:28: note: parameter 'arg->leader' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
void start_task(MPI_Comm comm) {
  task_ctx ctx;
  ctx.comm = comm;
  MPI_Comm_rank(comm, &ctx.leader);
  run_task(&ctx);
}

// Negative: the same through a cast, on a field every rank agrees on.
typedef struct {
  MPI_Comm comm;
  int rounds;
} sync_ctx;
static void run_sync(void *arg) {
  const sync_ctx *c = (const sync_ctx *)arg;
  for (int i = 0; i < c->rounds; ++i)
    MPI_Barrier(c->comm);
}
void start_sync(MPI_Comm comm) {
  sync_ctx ctx;
  ctx.comm = comm;
  MPI_Comm_rank(comm, &ctx.rounds);
  MPI_Allreduce(MPI_IN_PLACE, &ctx.rounds, 1, MPI_INT, MPI_MAX, comm);
  run_sync(&ctx);
}
