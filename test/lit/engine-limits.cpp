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
