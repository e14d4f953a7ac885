// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Diagnostics read as the user wrote the code: communicators and arguments
// in their own spelling (`MPI_COMM_WORLD`, not Open MPI's expansion of it),
// and the whole deciding condition (`rank == 0 || rank == 1`), not the one
// operand of `||` or `&&` that a CFG block tests.
#include <mpi.h>

#define SYNC_WORLD() MPI_Barrier(MPI_COMM_WORLD)
#define ROOT 0

static int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void order_on_world(int *x) {
  int rank = world_rank();
  if (rank % 2) {
    MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' on 'MPI_COMM_WORLD' runs first on ranks where 'rank % 2', but the other ranks run 'MPI_Barrier' on 'MPI_COMM_WORLD' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+5]]:5: note: the other ranks start with 'MPI_Barrier' on 'MPI_COMM_WORLD' here
    // CHECK-MESSAGES: :[[@LINE-17]]:22: note: expanded from macro 'SYNC_WORLD'
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: issue the collectives in the same order on every rank
    SYNC_WORLD();
  } else {
    SYNC_WORLD();
    MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

// Negative: the same order on both arms, one of them through the macro.
void same_order_on_world(int *x) {
  int rank = world_rank();
  if (rank % 2) {
    MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    SYNC_WORLD();
  } else {
    MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

void root_as_written(int *x) {
  int rank = world_rank();
  if (rank == 0)
    MPI_Bcast(x, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' gets root 'ROOT' on ranks where 'rank == 0' but '1' on the other ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-39]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '1' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the root so that it is the same on every rank, and call 'MPI_Bcast' once, outside the branch
  else
    MPI_Bcast(x, 1, MPI_INT, 1, MPI_COMM_WORLD);
}

// Negative: the roots are spelled differently but are the same value.
void root_same_value(int *x) {
  int rank = world_rank();
  if (rank == 0)
    MPI_Bcast(x, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
  else
    MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

void two_ranks(double *grad, int n) {
  int rank = world_rank();
  if (rank == 0 || rank == 1)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'rank == 0 || rank == 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0 || rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-61]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 1 calls 'MPI_Allreduce' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: both arms of the same condition run the allreduce.
void two_ranks_both_arms(double *grad, int n) {
  int rank = world_rank();
  if (rank == 0 || rank == 1)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

void others_than_two(double *grad, int n) {
  int rank = world_rank();
  if (rank == 0 || rank == 1) {
  } else {
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'rank == 0 || rank == 1' is false; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0 || rank == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-82]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: for example, in a job of 3 ranks, rank 2 calls 'MPI_Allreduce' and rank 1 does not
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
}

void leave_early(double *grad, int n, bool resume) {
  int rank = world_rank();
  if (resume && rank != 0)
    return;
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'resume && rank != 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'resume && rank != 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'resume && rank != 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-96]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
}

// Negative: every rank leaves together when the uniform flag says so.
void leave_together(double *grad, int n, bool resume) {
  int rank = world_rank();
  if (resume || rank < 0)
    return;
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

// Functions are named as they can be written: `average`, not
// `(anonymous namespace)::average`; a namespace the user names stays.
namespace {
void average(double *grad, int n) {
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
} // namespace

namespace ddp {
void average(double *grad, int n) {
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}
} // namespace ddp

void average_on_leaders(double *grad, int n) {
  int rank = world_rank();
  if (rank % 8 == 0)
    average(grad, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'average' (which calls 'MPI_Allreduce') runs only on ranks where 'rank % 8 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-15]]:3: note: 'MPI_Allreduce' is called here, inside 'average'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank % 8 == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-129]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'average' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank % 8 == 0)
    ddp::average(grad, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ddp::average' (which calls 'MPI_Allreduce') runs only on ranks where 'rank % 8 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-16]]:3: note: 'MPI_Allreduce' is called here, inside 'ddp::average'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank % 8 == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-136]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'ddp::average' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
