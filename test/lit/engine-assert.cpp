// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' \
// RUN:   --config="{CheckOptions: {lockstep-rank-exit.AssertionsAsExits: true}}" %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefixes=CHECK-MESSAGES,ASSERTS
//
// Engine v2, assertions: a failed assert aborts the process, and the MPI
// launcher then takes the whole job down; no rank is left waiting in a
// collective. An assert under a rank condition is therefore no early exit,
// and an assert on a condition that holds on every rank (0 <= rank) never
// fails at all. A plain return under the same condition leaves the others
// waiting and is still reported. AssertionsAsExits takes failing assertions as
// exits again (the ASSERTS lines). `MPI_Abort` (rules' job_aborts) ends every
// process of the job itself: what follows it runs nowhere, under either
// setting, while `exit` ends one process only. So does a call to a function
// of this file every way through which ends the job (`die()`), but not one
// that may return, or ends its own process only.
#include <cassert>
#include <cstdlib>
#include <mpi.h>

// Negative: rank 0 validates the input before everyone synchronises.
void validate_on_root(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    assert(x > 0);
  MPI_Barrier(comm);
  // ASSERTS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which call '__assert_fail' before it
  // ASSERTS: :[[@LINE-3]]:5: note: ranks where 'rank == 0' call '__assert_fail' here
  // ASSERTS: {{.*}}assert.h:{{[0-9]+}}:{{[0-9]+}}: note: expanded from macro 'assert'
  // ASSERTS: :[[@LINE-6]]:7: note: 'rank == 0' differs between ranks
  // ASSERTS: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // ASSERTS: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Positive: the same check written as an early return: rank 0 leaves and the
// others wait in the barrier.
void validate_on_root_return(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && x < 0)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where {{.*}}, which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where {{.*}} return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0 && x < 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: an assertion on the rank that holds on every rank.
void rank_in_range(MPI_Comm comm, double *v, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  assert(rank >= 0);
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, comm);
}

// Negative: the assertion names the rank in its condition.
void last_rank_owns_tail(MPI_Comm comm, int tail) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  assert(rank != size - 1 || tail >= 0);
  MPI_Bcast(&tail, 1, MPI_INT, size - 1, comm);
  // ASSERTS: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where {{.*}}, which call '__assert_fail' before it
  // ASSERTS: :[[@LINE-3]]:3: note: ranks where 'static_cast<bool>(rank != size - 1 || tail >= 0)' is false call '__assert_fail' here
  // ASSERTS: {{.*}}assert.h:{{[0-9]+}}:{{[0-9]+}}: note: expanded from macro 'assert'
  // ASSERTS: :[[@LINE-5]]:3: note: 'static_cast<bool>(rank != size - 1 || tail >= 0)' differs between ranks
  // ASSERTS: {{.*}}assert.h:{{[0-9]+}}:{{[0-9]+}}: note: expanded from macro 'assert'
  // ASSERTS: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // ASSERTS: :[[@LINE-7]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
}

// Positive: the validation spelled out with a return inside the rank branch.
void validate_nested_return(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    if (!(x > 0))
      return;
  }
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where {{.*}}, which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: {{.*}} return here
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: rank 0 aborts the job on bad input; the return after the abort
// never runs (MPICH's topo tests).
int abort_on_root(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && x < 0) {
    MPI_Abort(comm, 1);
    return 1;
  }
  MPI_Barrier(comm);
  return 0;
}

// Positive: `exit` ends rank 0's process alone; the others wait.
int exit_on_root(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && x < 0)
    exit(1);
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0 && x < 0', which call 'exit' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0 && x < 0' call 'exit' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0 && x < 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// The usual error helpers: every way through them aborts the job.
[[noreturn]] static void die(const char *message) {
  (void)message;
  MPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

static void fatal(MPI_Comm comm, int code) {
  if (code == 0)
    MPI_Abort(comm, 99);
  else
    MPI_Abort(comm, code);
}

static void check_or_die(bool ok, const char *what) {
  if (!ok)
    die(what);
}

static void fail_twice(const char *what) { die(what); }

// Negative: rank 0 dies through helpers, with or without a return after.
int die_on_root(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && x < 0)
    die("negative input");
  if (rank == 1 && x > 100) {
    fatal(comm, 2);
    return 1;
  }
  if (rank == 2 && x == 7)
    fail_twice("seven");
  check_or_die(rank != 3 || x != 0, "zero on rank 3");
  MPI_Barrier(comm);
  return 0;
}

// Positive: a helper that aborts only when asked to returns otherwise, and
// its caller returns before the barrier.
static void maybe_abort(bool really) {
  if (really)
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int return_after_maybe_abort(MPI_Comm comm, bool really) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    maybe_abort(really);
    return 1;
  }
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: ranks where 'rank == 0' return here
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// Positive: a helper that ends its own process only.
[[noreturn]] static void quit(int code) { exit(code); }

int quit_on_root(MPI_Comm comm, int x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && x < 0)
    quit(1);
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0 && x < 0', which call 'quit' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0 && x < 0' call 'quit' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0 && x < 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}
