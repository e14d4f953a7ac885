// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A branch decides how often a loop runs when it jumps out of the loop, and
// also when it sends some ranks back to the loop's head while the others
// can still get out before coming back (`continue` past the only `break`,
// `goto` from an inner loop to a label before it).
#include <mpi.h>

int data[10];
int done(void);

// Positive: the ranks that find themselves in `data` go round again.
void retry_from_inner_loop(void) {
  int rank, tries = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
retry:
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE+4]]:9: note: 'data[i] == rank && tries++ < 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE+3]]:9: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  for (int i = 0; i < 10; i++)
    if (data[i] == rank && tries++ < 3)
      goto retry;
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: every rank finds the same entry.
void retry_from_inner_loop_uniform(void) {
  int tries = 0;
retry:
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < 10; i++)
    if (data[i] == 7 && tries++ < 3)
      goto retry;
}

// Positive: rank 0 skips the test that lets the others stop.
void continue_past_break(void) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  while (1) {
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+4]]:9: note: 'rank == 0 && n < 5' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    n++;
    if (rank == 0 && n < 5)
      continue;
    if (done())
      break;
  }
}

// Negative: both arms reach the same test, which every rank makes alike.
void branch_before_break(void) {
  int rank, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  while (1) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      n += 2;
    if (done())
      break;
  }
}

// Negative: `continue` after the collective, in a loop that only its own
// test ends: every rank runs each iteration's barrier.
void continue_after_collective(int steps) {
  int rank, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int s = 0; s < steps; s++) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      continue;
    sum += s;
  }
  MPI_Send(&sum, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
}
