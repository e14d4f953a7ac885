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
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values), or run the loop under a join protocol that shadows 'MPI_Allreduce'
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
