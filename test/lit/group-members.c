// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-loop' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A communicator created for the members of an MPI group (MPI_Comm_create,
// rules' "member_group") holds exactly the ranks the group lists
// (MPI_Group_incl, MPI_Group_range_incl, their _excl forms; rules'
// "rank_sets"); the other ranks get MPI_COMM_NULL. A collective on it under
// a rank test that selects those members is made by every member.
#include <mpi.h>

// Negative: the first half of the ranks, by a range, and the same test.
void lower_half(void) {
  int rank, size;
  MPI_Group world, lower;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size / 2 - 1, 1}};
  MPI_Group_range_incl(world, 1, range, &lower);
  MPI_Comm_create(MPI_COMM_WORLD, lower, &sub);
  if (rank < size / 2)
    MPI_Barrier(sub);
}

// Positive: the range holds one rank more than the test lets in.
void lower_half_but_one(void) {
  int rank, size;
  MPI_Group world, lower;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size / 2, 1}};
  MPI_Group_range_incl(world, 1, range, &lower);
  MPI_Comm_create(MPI_COMM_WORLD, lower, &sub);
  if (rank < size / 2)
    MPI_Barrier(sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < size / 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < size / 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: two listed ranks, assigned one by one, and the test of both;
// the array is used again for a second group.
void two_pairs(void) {
  int rank, ranks[2], a = 4, b = 2, c = 3, d = 5;
  MPI_Group world = MPI_GROUP_NULL, first = MPI_GROUP_NULL, second = MPI_GROUP_NULL;
  MPI_Comm one = MPI_COMM_NULL, two = MPI_COMM_NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  ranks[0] = a;
  ranks[1] = b;
  MPI_Group_incl(world, 2, ranks, &first);
  MPI_Comm_create(MPI_COMM_WORLD, first, &one);
  ranks[0] = c;
  ranks[1] = d;
  MPI_Group_incl(world, 2, ranks, &second);
  MPI_Comm_create(MPI_COMM_WORLD, second, &two);
  if (rank == a || rank == b)
    MPI_Barrier(one);
  else if (rank == c || rank == d)
    MPI_Barrier(two);
}

// Positive: only one of the two listed ranks makes the barrier.
void one_of_two(void) {
  int rank, ranks[2] = {0, 1};
  MPI_Group world, pair;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 2, ranks, &pair);
  MPI_Comm_create(MPI_COMM_WORLD, pair, &sub);
  if (rank == 0)
    MPI_Barrier(sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: every rank but 0, and every even rank by a stride.
void excluded_and_strided(void) {
  int rank, size, root[1] = {0};
  MPI_Group world, others, evens;
  MPI_Comm rest, even;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_excl(world, 1, root, &others);
  MPI_Comm_create(MPI_COMM_WORLD, others, &rest);
  int every_other[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, every_other, &evens);
  MPI_Comm_create(MPI_COMM_WORLD, evens, &even);
  if (rank != 0)
    MPI_Barrier(rest);
  if (rank % 2 == 0)
    MPI_Barrier(even);
}

// Positive: rank 1 is no member of the group without rank 0, yet it is
// the one that skips; the strided group holds rank 2, which skips too.
void excluded_and_strided_wrong(void) {
  int rank, size, root[1] = {0};
  MPI_Group world, others, evens;
  MPI_Comm rest, even;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_excl(world, 1, root, &others);
  MPI_Comm_create(MPI_COMM_WORLD, others, &rest);
  int every_other[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, every_other, &evens);
  MPI_Comm_create(MPI_COMM_WORLD, evens, &even);
  if (rank > 1)
    MPI_Barrier(rest);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank > 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank > 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 2 calls 'MPI_Barrier' and rank 1 does not
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank % 4 == 0)
    MPI_Barrier(even);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank % 4 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 4 == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 0 calls 'MPI_Barrier' and rank 2 does not
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: a list filled in a loop is not followed; only the null test
// tells the members.
void filled_in_loop(int n) {
  int rank, ranks[8];
  MPI_Group world, first;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  for (int i = 0; i < n && i < 8; ++i)
    ranks[i] = i;
  MPI_Group_incl(world, n < 8 ? n : 8, ranks, &first);
  MPI_Comm_create(MPI_COMM_WORLD, first, &sub);
  if (rank < n)
    MPI_Barrier(sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < n'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < n' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (sub != MPI_COMM_NULL)
    MPI_Barrier(sub);
}

// Positive: the group of every rank makes a communicator of every rank.
void whole_world(void) {
  int rank;
  MPI_Group world;
  MPI_Comm copy;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm_create(MPI_COMM_WORLD, world, &copy);
  if (rank == 0)
    MPI_Barrier(copy);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the list is changed through a pointer after its initializer:
// the members are unknown, and the test of the initial ones proves nothing.
void list_written_through_pointer(void) {
  int rank, ranks[2] = {0, 1};
  MPI_Group world, pair;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int *second = &ranks[1];
  *second = 2;
  MPI_Group_incl(world, 2, ranks, &pair);
  MPI_Comm_create(MPI_COMM_WORLD, pair, &sub);
  if (rank < 2)
    MPI_Barrier(sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the group is replaced by every rank's before the communicator
// is created from it.
void group_replaced(void) {
  int rank, ranks[2] = {0, 1};
  MPI_Group world, pair;
  MPI_Comm sub;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 2, ranks, &pair);
  MPI_Group_union(world, world, &pair);
  MPI_Comm_create(MPI_COMM_WORLD, pair, &sub);
  if (rank < 2)
    MPI_Barrier(sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < 2'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
