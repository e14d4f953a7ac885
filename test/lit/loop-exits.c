// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// What a loop computes is the same on every rank in each iteration they
// both run (`step` in its 40th iteration is 40 everywhere), however many
// iterations each runs; it differs only once the loop is left, where each
// rank holds its own last iteration's value. A loop whose test or `break`
// differs between ranks is the trip count's business inside, and taints
// what it writes where it is left.
#include <mpi.h>

// Negative: each member of `sub` runs the same number of steps, and the
// energy check every 20 steps is made by all of them alike.
void member_steps(void) {
  int rank;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &sub);
  int nsteps = 60 + 35 * (rank % 3);
  double energy = 1, total;
  for (int step = 0; step < nsteps; ++step)
    if (step % 20 == 0 || step == nsteps - 1)
      MPI_Allreduce(&energy, &total, 1, MPI_DOUBLE, MPI_SUM, sub);
  MPI_Comm_free(&sub);
}

// Positive: the same loop on the whole job is reported for its trip count,
// not for the test on the step.
void world_steps(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int nsteps = 60 + 35 * (rank % 3);
  double energy = 1, total;
  for (int step = 0; step < nsteps; ++step)
    if (step % 20 == 0)
      MPI_Allreduce(&energy, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'step < nsteps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Positive: after a loop of per-rank length, its sum is per-rank.
void after_loop(MPI_Comm comm) {
  int rank, sum = 0;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < rank + 1; i++)
    sum += i;
  if (sum > 5)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'sum > 5'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'sum > 5' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:19: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: a `break` on the rank ends the count at a per-rank value; the
// loop has no test of its own.
void after_break(MPI_Comm comm) {
  int rank, tries = 0;
  MPI_Comm_rank(comm, &rank);
  while (1) {
    if (tries * rank > 7)
      break;
    tries++;
  }
  if (tries > 2)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'tries > 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'tries > 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:9: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same loop, left on a value every rank agrees on.
void after_agreed_break(MPI_Comm comm, int limit) {
  int tries = 0;
  while (1) {
    if (tries * limit > 7)
      break;
    tries++;
  }
  if (tries > 2)
    MPI_Barrier(comm);
}

// Positive: the ranks that enter the loop return from inside it; the
// others wait in the barrier.
int leave_inside(MPI_Comm comm, long bytes) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < rank; i++)
    if (bytes > 100)
      return 1;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'i < rank', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'i < rank' return here
  // CHECK-MESSAGES: :[[@LINE-6]]:19: note: 'i < rank' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// Negative: a loop of the same length everywhere returns on every rank or
// on none.
int leave_inside_uniform(MPI_Comm comm, long bytes, int n) {
  for (int i = 0; i < n; i++)
    if (bytes > 100)
      return 1;
  MPI_Barrier(comm);
  return 0;
}

// A global written by a helper the loop calls: each rank keeps the value of
// its own last iteration.
static int last_seen;
static void note_seen(int v) { last_seen = v; }

// Positive: nothing in the function wrote `last_seen` before the loop.
void helper_after_loop(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < rank; i++)
    note_seen(i);
  if (last_seen == 2)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'last_seen == 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'last_seen == 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:19: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

static int last_step;
static void note_step(int v) { last_step = v; }

// Negative: the same helper on a loop every rank runs alike.
void helper_after_uniform_loop(MPI_Comm comm, int steps) {
  for (int i = 0; i < steps; i++)
    note_step(i);
  if (last_step == 2)
    MPI_Barrier(comm);
}

// Positive: two per-rank ways out in the two arms of a test every rank
// makes alike; `last` is written just before one of them, and each rank
// leaves holding its own.
void exits_in_both_arms(MPI_Comm comm) {
  int rank, last = 0, t = 0;
  MPI_Comm_rank(comm, &rank);
  for (;;) {
    t++;
    if (t & 1) {
      if (t * (rank + 1) > 9)
        break;
    } else {
      last = t;
      if (t * (rank + 1) > 7)
        break;
    }
  }
  if (last > 2)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'last > 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'last > 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:11: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same loop left where every rank agrees.
void exits_in_both_arms_agreed(MPI_Comm comm, int limit) {
  int last = 0, t = 0;
  for (;;) {
    t++;
    if (t & 1) {
      if (t > limit)
        break;
    } else {
      last = t;
      if (t > limit - 2)
        break;
    }
  }
  if (last > 2)
    MPI_Barrier(comm);
}
