// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A nonblocking MPI collective only starts the operation (rules'
// "starts_locally"): a rank waits for no one there, so its order against
// collectives on another communicator cannot hang the job. Other is known
// only for a communicator the function creates and keeps to itself.
#include <mpi.h>

// Negative: the MPICH idup test: rank 0 starts the allreduce first, the
// others the duplication; both complete in the MPI_Waitall.
void idup_and_iallreduce(void) {
  int rank, in = 1, out;
  MPI_Comm dup, copy;
  MPI_Request requests[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 0) {
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
    MPI_Comm_idup(dup, &copy, &requests[1]);
  } else {
    MPI_Comm_idup(dup, &copy, &requests[1]);
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
  }
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&dup);
}

// Negative: one side starts a barrier on the world before blocking on its
// own communicator, the other after.
void ibarrier_around_barrier(void) {
  int rank;
  MPI_Comm dup;
  MPI_Request request;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank % 2) {
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    MPI_Barrier(dup);
  } else {
    MPI_Barrier(dup);
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

// Positive: two blocking barriers on different communicators, swapped.
void swapped_barriers(void) {
  int rank;
  MPI_Comm dup;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' on 'MPI_COMM_WORLD' runs first on ranks where 'rank == 0', but the other ranks run 'MPI_Barrier' on 'dup' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Barrier' on 'dup' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Barrier(dup);
  } else {
    MPI_Barrier(dup);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Positive: nonblocking collectives on one communicator start in the same
// order on every rank, or they match the wrong operations.
void swapped_on_one_communicator(void) {
  int rank, in = 1, out;
  MPI_Comm dup;
  MPI_Request requests[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 0) {
    MPI_Ibarrier(dup, &requests[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Ibarrier' on 'dup' runs first on ranks where 'rank == 0', but the other ranks run 'MPI_Iallreduce' on 'dup' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Iallreduce' on 'dup' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, dup, &requests[1]);
  } else {
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, dup, &requests[1]);
    MPI_Ibarrier(dup, &requests[0]);
  }
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
}

// Positive: the communicator a caller passes may be the world itself.
void swapped_with_parameter(MPI_Comm comm) {
  int rank;
  MPI_Request request;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Ibarrier(comm, &request);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Ibarrier' on 'comm' runs first on ranks where 'rank == 0', but the other ranks run 'MPI_Barrier' on 'MPI_COMM_WORLD' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Barrier' on 'MPI_COMM_WORLD' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Ibarrier(comm, &request);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

// Positive: `alias` holds the same communicator as `dup`: on one
// communicator the order of the barriers matters.
void swapped_through_alias(void) {
  int rank;
  MPI_Comm dup;
  MPI_Request request;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm alias = dup;
  if (rank == 0) {
    MPI_Ibarrier(dup, &request);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Ibarrier' on 'dup' runs first on ranks where 'rank == 0', but the other ranks run 'MPI_Barrier' on 'alias' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Barrier' on 'alias' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Barrier(alias);
  } else {
    MPI_Barrier(alias);
    MPI_Ibarrier(dup, &request);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

void inspect(MPI_Comm comm);

// Negative: a split's leader starts its allreduce before duplicating the
// world, the others after; `inspect` is handed the duplicates by value,
// which leaves each handle holding its own communicator.
void split_and_world(void) {
  int rank, part_rank, in = 1, out;
  MPI_Comm part, copy;
  MPI_Request requests[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &part);
  MPI_Comm_rank(part, &part_rank);
  inspect(part);
  if (part_rank == 0) {
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, part, &requests[0]);
    MPI_Comm_idup(MPI_COMM_WORLD, &copy, &requests[1]);
  } else {
    MPI_Comm_idup(MPI_COMM_WORLD, &copy, &requests[1]);
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, part, &requests[0]);
  }
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  inspect(copy);
}

#define WORLD MPI_COMM_WORLD

// Positive: without `use_dup` the handle is the world it was initialised
// with, and the two starts on it come in different orders.
void world_unless_duplicated(int use_dup) {
  int rank, in = 1, out;
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Request requests[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (use_dup)
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  if (rank == 0) {
    MPI_Ibarrier(comm, &requests[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Ibarrier' on 'comm' runs first on ranks where 'rank == 0', but the other ranks run 'MPI_Iallreduce' on 'MPI_COMM_WORLD' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Iallreduce' on 'MPI_COMM_WORLD' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[1]);
  } else {
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[1]);
    MPI_Ibarrier(comm, &requests[0]);
  }
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
}

// Positive: one communicator, spelled two ways.
void world_spelled_twice(void) {
  int rank, in = 1, out;
  MPI_Request requests[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Ibarrier(WORLD, &requests[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Ibarrier' on 'WORLD' runs first on ranks where 'rank == 0', but the other ranks run 'MPI_Iallreduce' on 'MPI_COMM_WORLD' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Iallreduce' on 'MPI_COMM_WORLD' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[1]);
  } else {
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[1]);
    MPI_Ibarrier(WORLD, &requests[0]);
  }
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
}
