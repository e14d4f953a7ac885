// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// No silent limits: a region with more distinct collective sequences than
// the engine keeps (limits::MaxSequences) gets a remark saying the analysis
// of the function is incomplete, instead of a quiet "no finding".
#include <mpi.h>

struct Flags {
  bool a, b, c, d, e, f, g;
};

// Seven independent optional collectives on one arm: 128 sequences.
void many_choices(MPI_Comm comm, const Flags &o, int *x) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: remark: lockstep: analysis of 'many_choices' incomplete: more than 64 distinct collective sequences; its callers see one opaque call [lockstep-rank-branch]
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: remark: lockstep: analysis of 'many_choices' incomplete: more than 64 distinct collective sequences follow this branch [lockstep-rank-branch]
    if (o.a) MPI_Barrier(comm);
    if (o.b) MPI_Bcast(x, 1, MPI_INT, 0, comm);
    if (o.c) MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, comm);
    if (o.d) MPI_Reduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, 0, comm);
    if (o.e) MPI_Bcast(x, 2, MPI_INT, 0, comm);
    if (o.f) MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_INT, MPI_MAX, comm);
    if (o.g) MPI_Barrier(MPI_COMM_WORLD);
  } else {
    if (o.a) MPI_Barrier(comm);
  }
}

// Negative: five optional collectives (32 sequences), the same on both arms:
// decided, balanced, no remark.
void some_choices(MPI_Comm comm, const Flags &o, int *x) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    if (o.a) MPI_Barrier(comm);
    if (o.b) MPI_Bcast(x, 1, MPI_INT, 0, comm);
    if (o.c) MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, comm);
    if (o.d) MPI_Reduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, 0, comm);
    if (o.e) MPI_Bcast(x, 2, MPI_INT, 0, comm);
  } else {
    if (o.a) MPI_Barrier(comm);
    if (o.b) MPI_Bcast(x, 1, MPI_INT, 0, comm);
    if (o.c) MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, comm);
    if (o.d) MPI_Reduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, 0, comm);
    if (o.e) MPI_Bcast(x, 2, MPI_INT, 0, comm);
  }
}

// A variable 40 branches may assign: past limits::MaxReachingBranches its read
// is an unknown per-rank value, and the remark says so.
void many_assignments() {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: remark: lockstep: analysis of 'many_assignments' incomplete: a variable assigned on paths that merge more than 32 times before a read was taken as an unknown value [lockstep-rank-branch]
  int rank, chosen;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  chosen = 0;
  if (rank == 1)
    chosen = 1;
  if (rank == 2)
    chosen = 2;
  if (rank == 3)
    chosen = 3;
  if (rank == 4)
    chosen = 4;
  if (rank == 5)
    chosen = 5;
  if (rank == 6)
    chosen = 6;
  if (rank == 7)
    chosen = 7;
  if (rank == 8)
    chosen = 8;
  if (rank == 9)
    chosen = 9;
  if (rank == 10)
    chosen = 10;
  if (rank == 11)
    chosen = 11;
  if (rank == 12)
    chosen = 12;
  if (rank == 13)
    chosen = 13;
  if (rank == 14)
    chosen = 14;
  if (rank == 15)
    chosen = 15;
  if (rank == 16)
    chosen = 16;
  if (rank == 17)
    chosen = 17;
  if (rank == 18)
    chosen = 18;
  if (rank == 19)
    chosen = 19;
  if (rank == 20)
    chosen = 20;
  if (rank == 21)
    chosen = 21;
  if (rank == 22)
    chosen = 22;
  if (rank == 23)
    chosen = 23;
  if (rank == 24)
    chosen = 24;
  if (rank == 25)
    chosen = 25;
  if (rank == 26)
    chosen = 26;
  if (rank == 27)
    chosen = 27;
  if (rank == 28)
    chosen = 28;
  if (rank == 29)
    chosen = 29;
  if (rank == 30)
    chosen = 30;
  if (rank == 31)
    chosen = 31;
  if (rank == 32)
    chosen = 32;
  if (rank == 33)
    chosen = 33;
  if (rank == 34)
    chosen = 34;
  if (rank == 35)
    chosen = 35;
  if (rank == 36)
    chosen = 36;
  if (rank == 37)
    chosen = 37;
  if (rank == 38)
    chosen = 38;
  if (rank == 39)
    chosen = 39;
  if (rank == 40)
    chosen = 40;
  if (chosen == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'chosen == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'chosen == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-84]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-87]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (chosen != 0)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'chosen != 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'chosen != 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-91]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-94]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
