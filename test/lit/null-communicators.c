// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A split hands no communicator (MPI_COMM_NULL) to the ranks whose colour
// is MPI_UNDEFINED: a collective they reach on that handle fails there.
// Only the members may call it: a test for null, or a condition that keeps
// exactly the ranks the colour gives a part, is quiet.
#include <mpi.h>

static double local_sum(double x) { return 2 * x; }

// Positive: every rank reduces on a handle only the first two hold.
void reduce_on_leaders(double x) {
  int rank;
  double s;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
  x = local_sum(x);
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'MPI_Allreduce' is called on 'sub' by ranks that are not its members; there 'sub' is MPI_COMM_NULL and the call fails [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'MPI_Comm_split' gives 'sub' no communicator on the ranks whose colour 'rank < 2 ? 0 : MPI_UNDEFINED' is MPI_UNDEFINED
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:49: note: for example, in a job of 3 ranks, rank 2 reaches the call outside 'sub'
  // CHECK-MESSAGES: :[[@LINE-5]]:49: note: call 'MPI_Allreduce' only where 'sub != MPI_COMM_NULL', or give every rank a colour
}

// Negative: only the members reduce.
void reduce_on_members(double x) {
  int rank;
  double s;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
  if (sub != MPI_COMM_NULL) {
    MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
    MPI_Comm_free(&sub);
  }
}

// Positive: the guard lets rank 2 through, which the split left out.
void guard_one_too_wide(double x) {
  int rank;
  double s;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
  if (rank < 3)
    MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'MPI_Allreduce' is called on 'sub' by ranks that are not its members; there 'sub' is MPI_COMM_NULL and the call fails [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'MPI_Comm_split' gives 'sub' no communicator on the ranks whose colour 'rank < 2 ? 0 : MPI_UNDEFINED' is MPI_UNDEFINED
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:51: note: for example, in a job of 3 ranks, rank 2 reaches the call outside 'sub'
    // CHECK-MESSAGES: :[[@LINE-5]]:51: note: call 'MPI_Allreduce' only where 'sub != MPI_COMM_NULL', or give every rank a colour
}

// Negative: the guard is the colour's own condition.
void guard_as_colour(double x) {
  int rank;
  double s;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
  if (rank < 2)
    MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
}

// Positive: the colour is set in a variable, the leaders' barrier and free
// run on every rank.
void leaders_by_variable(void) {
  int rank, color = MPI_UNDEFINED;
  MPI_Comm leaders;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 4 == 0)
    color = 0;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &leaders);
  MPI_Barrier(leaders);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'MPI_Barrier' is called on 'leaders' by ranks that are not its members; there 'leaders' is MPI_COMM_NULL and the call fails [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'MPI_Comm_split' gives 'leaders' no communicator on the ranks whose colour 'color' is MPI_UNDEFINED
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:15: note: for example, in a job of 2 ranks, rank 1 reaches the call outside 'leaders'
  // CHECK-MESSAGES: :[[@LINE-6]]:15: note: call 'MPI_Barrier' only where 'leaders != MPI_COMM_NULL', or give every rank a colour
  MPI_Comm_free(&leaders);
}

// Negative: tested on the colour variable itself.
void leaders_tested_by_colour(void) {
  int rank, color = MPI_UNDEFINED;
  MPI_Comm leaders;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 4 == 0)
    color = 0;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &leaders);
  if (color != MPI_UNDEFINED) {
    MPI_Barrier(leaders);
    MPI_Comm_free(&leaders);
  }
}

// Negative: every rank gets a colour (0 or 1), so every rank is a member.
void halves(double x) {
  int rank;
  double s;
  MPI_Comm half;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Comm_free(&half);
}

// Negative: a helper handed the handle runs only where its caller tested it.
static void reduce_in(MPI_Comm comm, double x) {
  double s;
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, comm);
}

void helper_for_members(double x) {
  int rank;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &sub);
  if (sub == MPI_COMM_NULL)
    return;
  reduce_in(sub, x);
  MPI_Comm_free(&sub);
}
