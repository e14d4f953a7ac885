// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-loop' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, loops: what matters is how many times each rank calls the
// collective, not how the loop is written. Two arms of a rank branch whose
// loops run the same number of iterations are balanced, even when their
// counters, starts and bounds differ; a loop whose bound moves with the rank
// but whose trip count does not is uniform. Arms whose loops run different
// numbers of iterations hang: the extra calls on one side find no partner.
//
// Where a count mismatch between two arms is reported: once, at the
// collective in the first arm, with a note at the collective of the other
// arm (as lockstep-rank-argument reports arms that disagree). Either check may
// own it (rank-branch or rank-loop); the wording is v2's choice.
#include <mpi.h>
#include <vector>

void load_batch(int step);

// Positive: an off-by-one start on rank 0: 9 barriers against 10.
void warmup_off_by_one(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    int i = 1;
    while (i < 10) {
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: {{.*}}[lockstep-rank-{{branch|loop}}]
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE+7]]:7: note: {{.*}}
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: run the same number of iterations on every rank
      i++;
    }
  } else {
    int j = 10;
    while (j < 20) {
      MPI_Barrier(comm);
      j++;
    }
  }
}

// Negative: the same while loops, both running 10 iterations.
void warmup_equal(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    int i = 0;
    while (i < 10) {
      MPI_Barrier(comm);
      i++;
    }
  } else {
    int j = 10;
    while (j < 20) {
      MPI_Barrier(comm);
      j++;
    }
  }
}

// Positive: 3 allreduces on rank 0, 4 on the others.
void three_against_four(MPI_Comm comm, double *loss) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    for (int i = 0; i < 3; ++i)
      MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: {{.*}}[lockstep-rank-{{branch|loop}}]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: {{.*}}
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: run the same number of iterations on every rank
  } else {
    for (int i = 0; i < 4; ++i)
      MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
}

// Negative: 10 iterations in each arm, counted over different ranges.
void ten_each(MPI_Comm comm, double *loss) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    for (int i = 0; i < 10; ++i)
      MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
  } else {
    for (int j = 10; j < 20; ++j)
      MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
}

// Negative: counting down against counting up, 8 iterations each.
void eight_each(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2) {
    for (int k = 8; k > 0; --k)
      MPI_Barrier(comm);
  } else {
    for (int k = 0; k < 16; k += 2)
      MPI_Barrier(comm);
  }
}

// Negative: the bound moves with the rank, the trip count (4) does not.
void window_per_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = rank; i < rank + 4; ++i) {
    load_batch(i);
    MPI_Barrier(comm);
  }
}

// Positive: the start moves with the rank and the bound does not: rank r
// runs 4 - r iterations.
void window_from_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = rank; i < 4; ++i) {
    load_batch(i);
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:22: note: 'i < 4' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}

// Negative: a bound n that is the same on every rank, n iterations in each
// arm, counted from 0 and from 1.
void n_each(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    for (int i = 0; i < n; ++i)
      MPI_Barrier(comm);
  } else {
    for (int j = 1; j <= n; ++j)
      MPI_Barrier(comm);
  }
}

// Positive: '<=' on rank 0 runs one more iteration than '<' elsewhere.
void n_plus_one(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    for (int i = 0; i <= n; ++i)
      MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: {{.*}}[lockstep-rank-{{branch|loop}}]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: {{.*}}
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: run the same number of iterations on every rank
  } else {
    for (int j = 0; j < n; ++j)
      MPI_Barrier(comm);
  }
}

// Negative: rank 0 may resume at a later step, but every rank then runs ten
// steps from where it starts: the loop leaves 'start' alone.
void ten_from_resume_point(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int start = 0;
  if (rank == 0)
    start = 5;
  for (int step = start; step < start + 10; ++step)
    MPI_Barrier(comm);
}

// Positive: the same resume point, with a fixed end: rank 0 runs five steps
// fewer.
void to_fixed_end_from_resume_point(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int start = 0;
  if (rank == 0)
    start = 5;
  for (int step = start; step < 10; ++step)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:26: note: 'step < 10' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Positive: the loop moves its own end: the bound read in each test is not
// the start read before the loop.
void moving_end_from_resume_point(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int start = 0;
  if (rank == 0)
    start = 5;
  for (int step = start; step < start + 10; ++step) {
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:26: note: 'step < start + 10' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    start = step;
  }
}

// Negative: half of a schedule listed in braces is 2 on every rank, as the
// other arm's constant (probe27's coupler).
void listed_schedule(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  const std::vector<int> schedule = {1, 2, 3, 4};
  if (rank < 2) {
    for (int c = 0; c < 2; ++c)
      MPI_Barrier(comm);
  } else {
    const int rounds = (int)schedule.size() / 2;
    for (int c = 0; c < rounds; ++c)
      MPI_Barrier(comm);
  }
}

// Positive: a list of six makes three rounds against two.
void listed_schedule_longer(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  const std::vector<int> schedule = {1, 2, 3, 4, 5, 6};
  if (rank < 2) {
    for (int c = 0; c < 2; ++c)
      MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs 2 times on ranks where 'rank < 2' but 3 times on the other ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank < 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+5]]:7: note: the other ranks run their loop of 'MPI_Barrier' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: run the same number of iterations on every rank
  } else {
    const int rounds = (int)schedule.size() / 2;
    for (int c = 0; c < rounds; ++c)
      MPI_Barrier(comm);
  }
}

// Positive: a check every `every` iterations, with a period that the rank's
// share of the work picks (5 on ranks 0 and 1, 10 on the others): the ranks
// meet the allreduce a different number of times. The witness needs a rank
// of each kind and an iteration that is an odd multiple of 5.
void periodic_check_by_load(MPI_Comm comm, double *norm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int n = 100 + 37 * rank;
  int every = n > 150 ? 10 : 5;
  for (int it = 1; it <= 40; it++) {
    if (it % every == 0)
      MPI_Allreduce(MPI_IN_PLACE, norm, 1, MPI_DOUBLE, MPI_SUM, comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs only on ranks where 'it % every == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'it % every == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
}

// Negative: the period from the job size is the same on every rank.
void periodic_check_by_size(MPI_Comm comm, double *norm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int every = size > 150 ? 10 : 5;
  for (int it = 1; it <= 40; it++) {
    if (it % every == 0)
      MPI_Allreduce(MPI_IN_PLACE, norm, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
}
