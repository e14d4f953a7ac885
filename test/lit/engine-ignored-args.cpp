// RUN: %clang_tidy --checks='-*,lockstep-rank-argument,lockstep-rank-branch' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, arguments that MPI ignores (described by "in_place" and the
// choice of count and datatype in rules/mpi.json): rooted collectives read some
// arguments only at the root (the receive buffer, count and type of
// MPI_Gather; the send buffer, count and type of MPI_Scatter), and
// MPI_IN_PLACE at the root makes its own send arguments meaningless. Arms
// that differ only in ignored arguments call the same collective; arguments
// that every rank must pass identically (root, communicator, the counts
// that pair up between root and non-roots) still have to agree.
#include <cstddef>
#include <mpi.h>

// Negative: the root gathers in place; the others pass no receive buffer
// and a zero receive count, which MPI ignores on non-roots.
void gather_in_place(MPI_Comm comm, int root, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, n, MPI_INT, buf, n, MPI_INT, root, comm);
  else
    MPI_Gather(buf, n, MPI_INT, NULL, 0, MPI_INT, root, comm);
}

// Negative: with MPI_IN_PLACE the root's send count and type are ignored
// too, so the root may pass 0 and MPI_DATATYPE_NULL (MPICH's tests pass -1).
void gather_in_place_no_send(MPI_Comm comm, int root, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n, MPI_INT, root, comm);
  else
    MPI_Gather(buf, n, MPI_INT, NULL, 0, MPI_INT, root, comm);
}

// Positive: the non-roots send n / 2 elements where the root receives n from
// each; the type signatures no longer match. Reported at the first arm, as
// arms that disagree are.
void gather_short_send(MPI_Comm comm, int root, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, n, MPI_INT, buf, n, MPI_INT, root, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass 'n / 2' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the count so that it is the same on every rank, and call 'MPI_Gather' once, outside the branch
  else
    MPI_Gather(buf, n / 2, MPI_INT, NULL, 0, MPI_INT, root, comm);
}

// Positive: the arms name different roots.
void gather_two_roots(MPI_Comm comm, int root, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, n, MPI_INT, buf, n, MPI_INT, root, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Gather' gets root 'root' on ranks where 'rank == root' but '0' on the other ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '0' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the root so that it is the same on every rank, and call 'MPI_Gather' once, outside the branch
  else
    MPI_Gather(buf, n, MPI_INT, NULL, 0, MPI_INT, 0, comm);
}

// Negative: the send buffer and send count of MPI_Scatter are read at the
// root only; the others pass nothing.
void scatter_from_root(MPI_Comm comm, const int *all, int *mine, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, 0, comm);
  else
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, mine, n, MPI_INT, 0, comm);
}

// Negative: the root keeps its own share in place, so its receive count and
// type are ignored; what it hands each rank is its send count and type.
void scatter_in_place(MPI_Comm comm, int *all, int *mine, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Scatter(all, n, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, comm);
  else
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, mine, n, MPI_INT, 0, comm);
}

// Positive: the receive count is read on every rank; the non-roots expect
// half of what the root's own receive (and every rank's share) is.
void scatter_short_receive(MPI_Comm comm, int *all, int *mine, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Scatter' gets count 'n' on ranks where 'rank == 0' but 'n / 2' on the other ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass 'n / 2' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the count so that it is the same on every rank, and call 'MPI_Scatter' once, outside the branch
  else
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, mine, n / 2, MPI_INT, 0, comm);
}

// Negative: the usual in-place reduce; the receive buffer is ignored on
// non-roots and the root reduces in place.
void reduce_in_place(MPI_Comm comm, double *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : buf, buf, n, MPI_DOUBLE, MPI_SUM, 0, comm);
}

// Positive: the count is read on every rank; the root reduces n elements,
// the others n / 2.
void reduce_count_per_rank(MPI_Comm comm, double *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : buf, buf, rank == 0 ? n : n / 2, MPI_DOUBLE, MPI_SUM, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: the count of 'MPI_Reduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:51: note: 'rank == 0 ? n : n / 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Positive: every rank names itself as the root.
void bcast_from_self(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Bcast(buf, n, MPI_INT, rank, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:30: note: 'rank' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:30: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the root is the same everywhere, even though the rank decides
// which buffer the root fills first.
void bcast_from_root(MPI_Comm comm, int root, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    for (int i = 0; i < n; ++i)
      buf[i] = i;
  MPI_Bcast(buf, n, MPI_INT, root, comm);
}

// Negative: the root receives n doubles from each rank, each other rank
// sends one vector of n doubles: different counts of different datatypes
// that carry the same data (MPICH's gather2).
void gather_vectors(MPI_Comm comm, double *in, double *out, int n, int root) {
  int rank;
  MPI_Datatype vec;
  MPI_Comm_rank(comm, &rank);
  MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, out, n, MPI_DOUBLE, root, comm);
  else
    MPI_Gather(in, 1, vec, NULL, -1, MPI_DATATYPE_NULL, root, comm);
  MPI_Type_free(&vec);
}

// Positive: n doubles against one double.
void gather_short(MPI_Comm comm, double *in, double *out, int n, int root) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, out, n, MPI_DOUBLE, root, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Gather' gets count 'n' on ranks where 'rank == root' but '1' on the other ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '1' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the count so that it is the same on every rank, and call 'MPI_Gather' once, outside the branch
  else
    MPI_Gather(in, 1, MPI_DOUBLE, NULL, -1, MPI_DATATYPE_NULL, root, comm);
}

// Positive: two ints against one double; predefined types have fixed
// signatures, so both counts and datatypes tell.
void gather_mistyped(MPI_Comm comm, int *in, double *out, int root) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root)
    MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, out, 1, MPI_DOUBLE, root, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Gather' gets count '1' on ranks where 'rank == root' but '2' on the other ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks pass '2' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: compute the count so that it is the same on every rank, and call 'MPI_Gather' once, outside the branch
  else
    MPI_Gather(in, 2, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, root, comm);
}
