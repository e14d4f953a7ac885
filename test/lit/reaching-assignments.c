// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A local assigned more than once (C89 style: declared first, assigned
// later) is what the assignment reaching each read stored, chosen by the
// branches that decide which assignment ran (gated SSA). So tests of it line
// up with each other and with the rank, as the test suites of MPI libraries
// write them.
#include <mpi.h>

// Negative: `dest` and `src` are 0 and 1 wherever they are read; the three
// arms are three classes of ranks, each running two barriers (MPICH's
// cancelrecv).
void three_classes(void) {
  int rank, dest, src;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  dest = 0;
  src = 1;
  if (rank == dest) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == src) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank != src && rank != dest) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Positive: with `src` 0 too, rank 0 runs four barriers and the others two.
void overlapping_classes(void) {
  int rank, dest, src;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  dest = 0;
  src = 0;
  if (rank == dest) {
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == dest'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == dest' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == src) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank != src && rank != dest) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Negative: at most four ranks take part, on a communicator of exactly
// those; `participants` is 4 where the split runs and the size elsewhere
// (MPICH's coll4).
void capped_participants(int *table) {
  int rank, size, participants;
  MPI_Comm comm;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 4) {
    participants = 4;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 4, rank, &comm);
  } else {
    participants = size;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  }
  if (rank < participants)
    MPI_Bcast(table, 4, MPI_INT, 0, comm);
  MPI_Comm_free(&comm);
}

// Positive: without the split, the last rank of a small job is left out of
// the duplicate every rank is a member of.
void one_short(int *table) {
  int rank, size, participants;
  MPI_Comm comm;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 4) {
    participants = 4;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 4, rank, &comm);
  } else {
    participants = size - 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  }
  if (rank < participants)
    MPI_Bcast(table, 4, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs only on ranks where 'rank < participants'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < participants' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Comm_free(&comm);
}

// Negative: an else-if chain picks each rank's role once; the two tests of
// it split the ranks in two.
void roles(void) {
  int rank, role;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    role = 0;
  else if (rank < 3)
    role = 1;
  else
    role = 2;
  if (role == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  if (role != 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Positive: the ranks of role 1 run no barrier.
void roles_missing_one(void) {
  int rank, role;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    role = 0;
  else if (rank < 3)
    role = 1;
  else
    role = 2;
  if (role == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'role == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'role == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (role == 2)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'role == 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'role == 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:12: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: for example, in a job of 4 ranks, rank 3 calls 'MPI_Barrier' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: an assignment inside a loop is not followed; the flag is the
// rank's own.
void assigned_in_loop(int n) {
  int rank, mine, i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mine = 0;
  for (i = 0; i < n; i++)
    if (rank == i)
      mine = 1;
  if (mine)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'mine'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'mine' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:9: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: a loop entered at two places (`goto`): the assignment after the
// test reaches it on the next pass, so `n` is the rank there.
void entered_twice(int start_late) {
  int rank, n, i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  n = 0;
  i = 0;
  if (start_late)
    goto late;
early:
  if (n == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: remark: lockstep: analysis of 'entered_twice' incomplete: collectives run in a cycle entered other than through its head (a goto into a loop); how many times each rank runs them is not compared [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'n == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  n = rank;
late:
  i = i + 1;
  if (i < 3)
    goto early;
}


// Negative: `rows += 2` runs on every member of a row or on none of them,
// so every member tests the same `rows` (an update is the value before it,
// updated).
void update_by_row(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm row;
  MPI_Comm_split(world, rank / 4, rank, &row);
  int rows = 8;
  if (rank / 4 == 0)
    rows += 2;
  if (rows > 9)
    MPI_Barrier(row);
}

// Positive: the even members of a row add two, the odd ones do not.
void update_by_parity(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm row;
  MPI_Comm_split(world, rank / 4, rank, &row);
  int rows = 8;
  if (rank % 2 == 0)
    rows += 2;
  if (rows > 9)
    MPI_Barrier(row);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rows > 9'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rows > 9' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: sixteen updates, each under a test of the job size, leave every
// rank the same count. Each read's choice is made once, so the chain costs
// its length, not twice as much per update.
void counted_by_size(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  int n = 0;
  if (size > 1)
    n += 1;
  if (size > 2)
    n += 1;
  if (size > 3)
    n += 1;
  if (size > 4)
    n += 1;
  if (size > 5)
    n += 1;
  if (size > 6)
    n += 1;
  if (size > 7)
    n += 1;
  if (size > 8)
    n += 1;
  if (size > 9)
    n += 1;
  if (size > 10)
    n += 1;
  if (size > 11)
    n += 1;
  if (size > 12)
    n += 1;
  if (size > 13)
    n += 1;
  if (size > 14)
    n += 1;
  if (size > 15)
    n += 1;
  if (size > 16)
    n += 1;
  if (n > 3)
    MPI_Barrier(comm);
}

// Positive: the last update tests the rank.
void counted_by_rank(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int n = 0;
  if (size > 1)
    n += 1;
  if (size > 2)
    n += 1;
  if (size > 3)
    n += 1;
  if (size > 4)
    n += 1;
  if (size > 5)
    n += 1;
  if (size > 6)
    n += 1;
  if (size > 7)
    n += 1;
  if (size > 8)
    n += 1;
  if (size > 9)
    n += 1;
  if (size > 10)
    n += 1;
  if (size > 11)
    n += 1;
  if (size > 12)
    n += 1;
  if (size > 13)
    n += 1;
  if (size > 14)
    n += 1;
  if (size > 15)
    n += 1;
  if (rank == 0)
    n += 1;
  if (n > 3)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'n > 3'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n > 3' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-40]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: for example, in a job of 4 ranks, rank 0 calls 'MPI_Barrier' and rank 2 does not
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
