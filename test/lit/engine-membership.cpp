// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-argument,lockstep-rank-loop' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, communicator membership: a collective only involves the members
// of its communicator. v2 tracks, for each communicator, which ranks belong to
// it (a split by colour, MPI_UNDEFINED giving MPI_COMM_NULL, MPI_COMM_SELF
// holding the caller alone) and requires agreement only among those members:
// halves split by parity may order their own collectives differently from
// each other, and a condition that selects exactly the members is no
// divergence. A condition that selects some members but not all, or a
// different order on communicators that span every rank, still hangs.
#include <mpi.h>
#include <vector>

// Negative: each half reduces on its own communicator; the odd half does so
// before the world barrier and the even half after it. No rank waits for a
// rank of the other half inside a reduce, so both orders complete.
void halves_in_either_order(double *v, double *sum) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  if (rank % 2) {
    MPI_Reduce(v, sum, 1, MPI_DOUBLE, MPI_SUM, 0, half);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Reduce(v, sum, 1, MPI_DOUBLE, MPI_SUM, 0, half);
  }
  MPI_Comm_free(&half);
}

// Positive: the same two orders on two communicators that both span every
// rank: odd ranks wait in the first barrier, even ranks in the other.
void world_in_either_order(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm world2;
  MPI_Comm_dup(world, &world2);
  if (rank % 2) {
    MPI_Barrier(world);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' on 'world' runs first on ranks where 'rank % 2', but the other ranks run 'MPI_Barrier' on 'world2' first; each side waits for the other and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Barrier' on 'world2' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Barrier(world2);
  } else {
    MPI_Barrier(world2);
    MPI_Barrier(world);
  }
  MPI_Comm_free(&world2);
}

// Positive: rank 0 is in the even half, but so are ranks 2, 4, ...; they never
// call the barrier that rank 0 waits in.
void one_member_of_half(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm half;
  MPI_Comm_split(world, rank % 2, rank, &half);
  if (rank == 0)
    MPI_Barrier(half);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 0 calls 'MPI_Barrier' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Comm_free(&half);
}

// Negative: the colour 'rank < P' puts the first P ranks in one communicator
// (colour 1) and the rest in another (colour 0); only the first P scatter,
// on the communicator that holds exactly them.
void scatter_to_workers(int P, const int *all, int *mine, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm workers;
  MPI_Comm_split(MPI_COMM_WORLD, rank < P, rank, &workers);
  if (rank < P)
    MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, 0, workers);
  MPI_Comm_free(&workers);
}

// Positive: 'rank < P - 1' leaves the last worker out of the scatter.
void scatter_to_workers_but_last(int P, const int *all, int *mine, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm workers;
  MPI_Comm_split(MPI_COMM_WORLD, rank < P, rank, &workers);
  if (rank < P - 1)
    MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, 0, workers);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Scatter' runs only on ranks where 'rank < P - 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < P - 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Scatter' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Comm_free(&workers);
}

// Negative: ranks 0 and 1 get a communicator, the others MPI_COMM_NULL; the
// null test selects exactly the members.
void pair_barrier(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm pair;
  MPI_Comm_split(world, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
  if (pair != MPI_COMM_NULL) {
    MPI_Barrier(pair);
    MPI_Comm_free(&pair);
  }
}

// Negative: a window on MPI_COMM_SELF involves the calling rank alone.
void self_window(double *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Win win;
    MPI_Win_create(buf, n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_SELF, &win);
    MPI_Win_free(&win);
  }
}

// Negative: a routine written for any communicator, run on one rank over
// MPI_COMM_SELF; positive: the same routine over the world on that rank.
static double global_sum(double x, MPI_Comm comm) {
  double sum;
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sum;
}

void self_reuse(double x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double all = global_sum(x, MPI_COMM_WORLD);
  if (rank == 0)
    all += global_sum(x, MPI_COMM_SELF);
  if (rank == 0)
    all += global_sum(x, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'global_sum' (which calls 'MPI_Allreduce') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: 'MPI_Allreduce' is called here, inside 'global_sum'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: call 'global_sum' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the same window on MPI_COMM_WORLD needs every rank.
void world_window_on_root(double *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Win win;
    MPI_Win_create(buf, n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Win_create' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Win_create' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Win_free(&win);
  }
}

// Negative: a two-rank communicator (colour 'rank < 2'); rank 0 exposes its
// buffer, rank 1 an empty window. Both members create the window.
void pair_window(MPI_Comm world, double *buf, int n) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm pair;
  MPI_Comm_split(world, rank < 2, rank, &pair);
  MPI_Win win;
  if (rank == 0) {
    MPI_Win_create(buf, n * sizeof(double), sizeof(double), MPI_INFO_NULL, pair, &win);
    MPI_Win_free(&win);
  } else if (rank == 1) {
    MPI_Win_create(nullptr, 0, sizeof(double), MPI_INFO_NULL, pair, &win);
    MPI_Win_free(&win);
  }
  MPI_Comm_free(&pair);
}

// Positive: colour 'rank < 3' makes a three-rank communicator, but only
// ranks 0 and 1 create the window on it; rank 2 never does. Each arm is
// reported at its first collective, as in engine-partitions.cpp.
void trio_window(MPI_Comm world, double *buf, int n) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm trio;
  MPI_Comm_split(world, rank < 3, rank, &trio);
  MPI_Win win;
  if (rank == 0) {
    MPI_Win_create(buf, n * sizeof(double), sizeof(double), MPI_INFO_NULL, trio, &win);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Win_create' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Win_free(&win);
  } else if (rank == 1) {
    MPI_Win_create(nullptr, 0, sizeof(double), MPI_INFO_NULL, trio, &win);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'rank == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:14: note: for example, in a job of 3 ranks, rank 1 calls 'MPI_Win_create' and rank 2 does not
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Win_create' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Win_free(&win);
  }
  MPI_Comm_free(&trio);
}

// Hands out the communicators a test runs on, one per call, as MPICH's
// MTestGetIntracomm does: the world, a duplicate, halves by parity, and one
// that only ranks 0 and 1 belong to (MPI_COMM_NULL elsewhere). Every rank
// makes the same calls, in the same order, and gets 0 after the last.
static int next_comm(MPI_Comm *comm) {
  static int which = 0;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (which++) {
  case 0:
    *comm = MPI_COMM_WORLD;
    return 1;
  case 1:
    MPI_Comm_dup(MPI_COMM_WORLD, comm);
    return 1;
  case 2:
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, comm);
    return 1;
  case 3:
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 1 : MPI_UNDEFINED, rank, comm);
    return 1;
  default:
    which = 0;
    *comm = MPI_COMM_NULL;
    return 0;
  }
}

static void free_comm(MPI_Comm *comm) {
  if (*comm != MPI_COMM_WORLD && *comm != MPI_COMM_NULL)
    MPI_Comm_free(comm);
}

// Negative: the MPICH test-suite idiom (coll/allgather2.c). Ranks outside the
// current communicator skip to the next one; the members all run the same
// message-size sweep on it (count doubles up to N). The send arguments are
// ignored with MPI_IN_PLACE, and the result check is local.
void allgather_sweep(int N) {
  MPI_Comm comm;
  int errs = 0;
  while (next_comm(&comm)) {
    if (comm == MPI_COMM_NULL)
      continue;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int count = 1; count < N; count *= 2) {
      double *vecout = new double[size * count];
      for (int i = 0; i < count; i++)
        vecout[rank * count + i] = rank * count + i;
      MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, vecout, count, MPI_DOUBLE, comm);
      for (int i = 0; i < count * size; i++)
        if (vecout[i] != i)
          errs++;
      delete[] vecout;
    }
    free_comm(&comm);
  }
}

// Positive: skipping by world rank instead of by membership: on the world,
// its duplicate and the halves, ranks 2 and up skip the allgather that ranks
// 0 and 1 wait in. Reported once, at the first collective they skip.
void allgather_sweep_first_two(int N) {
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm comm;
  while (next_comm(&comm)) {
    if (comm == MPI_COMM_NULL || wrank >= 2)
      continue;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int count = 1; count < N; count *= 2) {
      double *vecout = new double[size * count];
      for (int i = 0; i < count; i++)
        vecout[rank * count + i] = rank * count + i;
      MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, vecout, count, MPI_DOUBLE, comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allgather' is never reached on ranks where 'comm == MPI_COMM_NULL || wrank >= 2', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
      // CHECK-MESSAGES: :[[@LINE-10]]:7: note: ranks where 'comm == MPI_COMM_NULL || wrank >= 2' continue with the next iteration here
      // CHECK-MESSAGES: :[[@LINE-12]]:9: note: 'comm == MPI_COMM_NULL || wrank >= 2' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-16]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: let every rank reach 'MPI_Allgather' before leaving, or make the decision to leave the same on every rank
      delete[] vecout;
    }
    free_comm(&comm);
  }
}

// A helper's parameters are what its callers pass: a collective on the
// communicator a helper receives is one on the caller's, so members calling
// the helper with the split communicator is quiet, and with the parent one
// it is not. The same holds for the helper's other agreed arguments.
static void subsolve(MPI_Comm sub, double *x) {
  MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, sub);
}
static void barrier_on(MPI_Comm c) { MPI_Barrier(c); }
static void bcast_count(int *v, int n, MPI_Comm c) { MPI_Bcast(v, n, MPI_INT, 0, c); }

void members_through_helper(MPI_Comm world, int *v) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub;
  MPI_Comm_split(world, rank < 4 ? 0 : MPI_UNDEFINED, rank, &sub);
  double x = rank;
  if (sub != MPI_COMM_NULL)
    subsolve(sub, &x);
  if (rank == 0)
    barrier_on(world);
  else
    MPI_Barrier(world);
  if (rank == 0)
    bcast_count(v, 4, world);
  else
    MPI_Bcast(v, 4, MPI_INT, 0, world);
  if (sub != MPI_COMM_NULL)
    subsolve(world, &x);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'subsolve' (which calls 'MPI_Allreduce') runs only on ranks where 'sub != MPI_COMM_NULL'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-24]]:3: note: 'MPI_Allreduce' is called here, inside 'subsolve'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'sub != MPI_COMM_NULL' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: for example, in a job of 5 ranks, rank 3 calls 'MPI_Allreduce' and rank 4 does not
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: call 'subsolve' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 0)
    bcast_count(v, 4, world);
  else
    MPI_Bcast(v, 5, MPI_INT, 0, world);
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'bcast_count' (which calls 'MPI_Bcast') gets count '4' on ranks where 'rank == 0' but '5' on the other ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-32]]:54: note: 'MPI_Bcast' is called here, inside 'bcast_count'
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-30]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: the other ranks pass '5' here
  // CHECK-MESSAGES: :[[@LINE-8]]:5: note: compute the count so that it is the same on every rank, and call 'bcast_count' once, outside the branch
}

// Negative: the root writes a file it opened on MPI_COMM_SELF; closing it
// involves no other rank either, here or in a helper.
static void write_alone(const char *path, const double *v, int n) {
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_write(fh, v, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}

void root_writes_alone(const char *path, const double *v, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_File_close(&fh);
  }
  if (rank == 0)
    write_alone(path, v, n);
}

// Positive: a file every rank opened is closed by all of them together.
void root_closes_shared(const char *path) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  if (rank == 0)
    MPI_File_close(&fh);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_File_close' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_File_close' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: a fence on a window of every rank, made by the root only.
void root_fences(double *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win win;
  MPI_Win_create(buf, n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  if (rank == 0)
    MPI_Win_fence(0, win);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Win_fence' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Win_fence' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_Win_free(&win);
}

// Collective file I/O runs on the file's communicator: a write every rank
// makes with its own count is fine, one only the ranks with data make hangs;
// on a file the root opened alone, the root writes alone.
void collective_writes(const char *path, const double *v, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL);
  MPI_File_write_at_all(fh, rank * n, v, rank == 0 ? 0 : n, MPI_DOUBLE, MPI_STATUS_IGNORE);
  if (n > rank)
    MPI_File_write_at_all(fh, rank * n, v, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_File_write_at_all' runs only on ranks where 'n > rank'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'n > rank' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_File_write_at_all' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  MPI_File_close(&fh);
  if (rank == 0) {
    MPI_File own;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &own);
    MPI_File_write_at_all(own, 0, v, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_close(&own);
  }
}

// Negative: MPI_Comm_create_group is collective over the group, whose
// members are by contract the ranks that call it; the communicator it makes
// is used only by them (MPICH's comm_create_group).
void even_group(MPI_Group even) {
  int rank;
  MPI_Comm even_comm;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2 == 0) {
    MPI_Comm_create_group(MPI_COMM_WORLD, even, 0, &even_comm);
    MPI_Barrier(even_comm);
    MPI_Comm_free(&even_comm);
  }
}

// Positive: the world barrier in the same arm is still the even ranks' alone.
void even_group_then_world(MPI_Group even) {
  int rank;
  MPI_Comm even_comm;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2 == 0) {
    MPI_Comm_create_group(MPI_COMM_WORLD, even, 0, &even_comm);
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank % 2 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank % 2 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Comm_free(&even_comm);
  }
}

// Negative: an intercommunicator whose local side is MPI_COMM_SELF joins
// ranks 0 and 1 only, and only they free it (MPICH's ic1).
void pair_intercomm(void) {
  int rank;
  MPI_Comm inter;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank < 2) {
    MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1 - rank, 27, &inter);
    MPI_Comm_free(&inter);
  }
}

// Positive: a split of the world made on every rank, then used by half of
// them: the communicator holds all ranks, not only those of the arm.
void split_then_half(void) {
  int rank;
  MPI_Comm all;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2 == 0) {
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &all);
    MPI_Barrier(all);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank % 2 == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank % 2 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  } else {
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &all);
  }
}

// Negative: the file every rank writes is reopened on MPI_COMM_SELF by rank
// 0 alone to check it; its close there is rank 0's own, though `fh` is
// opened on the world too (MPICH's i_hindexed).
void check_on_root(const char *path, int *buf, int n) {
  int rank;
  MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_write_all(fh, buf, n, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  if (rank == 0) {
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_File_read(fh, buf, n, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
  }
}

// Positive: rank 0 reopens it on the world, which the other ranks never do.
void reopen_on_world(const char *path, int *buf, int n) {
  int rank;
  MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_close(&fh);
  if (rank == 0) {
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_File_open' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_File_open' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_File_read(fh, buf, n, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
  }
}

// Positive: the loop rank 0 runs on its own file also has a world barrier.
void self_file_loop(const char *path, int *buf, int n) {
  int rank;
  MPI_File fh;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    for (int i = 0; i < n; ++i) {
      MPI_File_write_all(fh, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_File_write_all' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_File_write_all' on every rank: move it out of the branch and keep only the rank-specific work under the condition
      MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_File_close(&fh);
  }
}

// Positive: the handle of the group's communicator is reused for a
// duplicate of the world, which every rank is a member of.
void reused_handle(MPI_Group even) {
  int rank;
  MPI_Comm c;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Comm_create_group(MPI_COMM_WORLD, even, 0, &c);
    MPI_Comm_free(&c);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Barrier(c);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Comm_free(&c);
  } else {
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_free(&c);
  }
}

// Negative: MPI_COMM_SELF kept in a variable and in an options struct that
// every object starts with and nothing changes: rank 0 talks to itself.
struct LogOptions {
  MPI_Comm comm = MPI_COMM_SELF;
};

void log_on_root(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm self = MPI_COMM_SELF;
  LogOptions options;
  if (rank == 0) {
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, self);
    MPI_Barrier(options.comm);
  }
}

// The options copied into a logger by its constructor are still those.
class Logger {
public:
  Logger(const LogOptions &options, int rank) : options_(options), rank_(rank) {}
  void flush() {
    if (rank_ == 0)
      MPI_Barrier(options_.comm);
  }

private:
  LogOptions options_;
  int rank_;
};

void flush_log() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  LogOptions options;
  Logger(options, rank).flush();
}

// Positive: the same options, but one function hands the world to them.
struct SyncOptions {
  MPI_Comm comm = MPI_COMM_SELF;
};

void use_world(SyncOptions &options) { options.comm = MPI_COMM_WORLD; }

void sync_on_root(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SyncOptions options;
  use_world(options);
  if (rank == 0)
    MPI_Barrier(options.comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: MPI_COMM_SELF first, but a reference to the variable hands it
// the world before the call.
void sync_through_alias(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comm = MPI_COMM_SELF;
  MPI_Comm &target = comm;
  target = MPI_COMM_WORLD;
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: MPI_Cart_sub is collective over the grid, and only the ranks of
// the first row make it.
void rows_from_first_row_only(MPI_Comm grid) {
  int rank, coords[2];
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  int keep_columns[2] = {0, 1};
  MPI_Comm row;
  if (coords[0] == 0)
    MPI_Cart_sub(grid, keep_columns, &row);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Cart_sub' runs only on ranks where 'coords[0] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'coords[0] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Cart_sub' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: every rank of the grid makes its row communicator, then sums
// along it.
void rows_everywhere(MPI_Comm grid, double *v, int n) {
  int keep_columns[2] = {0, 1};
  MPI_Comm row;
  MPI_Cart_sub(grid, keep_columns, &row);
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, row);
  MPI_Comm_free(&row);
}

// Negative: the rows of a process grid split by the row coordinate; the
// first row's members, and only they, broadcast along it. Positive: the
// first column is not one row's members.
void grid_rows(MPI_Comm grid) {
  int rank, coords[2];
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  MPI_Comm row;
  MPI_Comm_split(grid, coords[0], coords[1], &row);
  if (coords[0] == 0)
    MPI_Bcast(&rank, 1, MPI_INT, 0, row);
  if (coords[1] == 0)
    MPI_Bcast(&rank, 1, MPI_INT, 0, row);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs only on ranks where 'coords[1] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'coords[1] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: MPI_Cart_sub made the same split, its rows keeping the second
// dimension: the first row's members, and only they, sum along it, as do
// the first column's along theirs. Positive: the first column is not one
// row's members. A row's size is the same on every rank (equal parts).
void cart_rows(MPI_Comm grid, int n) {
  int rank, coords[2];
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  int keep_columns[2] = {0, 1}, keep_rows[2] = {1, 0};
  MPI_Comm row, column;
  MPI_Cart_sub(grid, keep_columns, &row);
  MPI_Cart_sub(grid, keep_rows, &column);
  int row_size;
  MPI_Comm_size(row, &row_size);
  for (int i = 0; i < row_size; ++i)
    MPI_Barrier(grid);
  double v = rank;
  if (coords[0] == 0)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, row);
  if (coords[1] == 0)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, column);
  if (coords[1] == 0)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, row);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'coords[1] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'coords[1] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-18]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: a sub-grid whose kept dimensions the code changes after their
// initializer is no known split, so a row test proves nothing about it.
void cart_rows_rewritten(MPI_Comm grid, int transpose) {
  int rank, coords[2];
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  int keep[2] = {0, 1};
  if (transpose) {
    keep[0] = 1;
    keep[1] = 0;
  }
  MPI_Comm sub;
  MPI_Cart_sub(grid, keep, &sub);
  if (coords[0] == 0)
    MPI_Barrier(sub);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'coords[0] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'coords[0] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: a line of a 3-D grid drops its first two dimensions, so its
// members share both of them and a test of either selects whole lines.
// Positive: the third coordinate differs along a line.
void cart_lines(MPI_Comm grid) {
  int rank, coords[3];
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 3, coords);
  int keep_line[3] = {0, 0, 1};
  MPI_Comm line;
  MPI_Cart_sub(grid, keep_line, &line);
  double v = rank;
  if (coords[0] == 0 && coords[1] == 0)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, line);
  if (coords[1] == 0)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, line);
  if (coords[2] == 0)
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, line);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'coords[2] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'coords[2] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-13]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the coordinates and the planes of a 3-D grid kept in a
// structure that a helper fills through a pointer: a plane's members share
// the third coordinate, in whichever function reads it. Positive: the first
// coordinate differs within a plane.
struct Decomposition {
  MPI_Comm cart, plane;
  int coords[3];
  int rank;
};

static void decompose(Decomposition *d) {
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &d->cart);
  MPI_Comm_rank(d->cart, &d->rank);
  MPI_Cart_coords(d->cart, d->rank, 3, d->coords);
  int keep_plane[3] = {1, 1, 0};
  MPI_Cart_sub(d->cart, keep_plane, &d->plane);
}

void plane_sums(double *v) {
  Decomposition d;
  decompose(&d);
  if (d.coords[2] == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, d.plane);
  if (d.coords[0] == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, d.plane);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'd.coords[0] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'd.coords[0] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: 'd->coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A buffer only the members size (`node_sum(leader ? n : 0)`): its size is
// the count it was constructed with, so the members of a split by the same
// test all pass `n`; a test the members do not share sizes it apart.
void leaders_buffer(std::vector<double> &buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm leaders;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 4 == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  std::vector<double> node_sum(rank % 4 == 0 ? buf.size() : 0);
  std::vector<double> eighth(rank % 8 == 0 ? buf.size() : 0);
  if (leaders != MPI_COMM_NULL) {
    // Negative: every leader sized it `buf.size()`.
    MPI_Allreduce(MPI_IN_PLACE, node_sum.data(), static_cast<int>(node_sum.size()), MPI_DOUBLE,
                  MPI_SUM, leaders);
    // Positive beside it: leader 4 sized it 0, leader 0 `buf.size()`.
    MPI_Allreduce(MPI_IN_PLACE, eighth.data(), static_cast<int>(eighth.size()), MPI_DOUBLE,
                  MPI_SUM, leaders);
    // CHECK-MESSAGES: :[[@LINE-2]]:48: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-3]]:48: note: 'static_cast<int>(eighth.size())' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:48: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  }
}

// Positive: a buffer one member grows is no longer the size it was
// constructed with.
void leaders_buffer_grown(std::vector<double> &buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm leaders;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 4 == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  std::vector<double> node_sum(rank % 4 == 0 ? buf.size() : 0);
  if (rank == 0)
    node_sum.push_back(0.0);
  if (leaders != MPI_COMM_NULL)
    MPI_Allreduce(MPI_IN_PLACE, node_sum.data(), static_cast<int>(node_sum.size()), MPI_DOUBLE,
                  MPI_SUM, leaders);
    // CHECK-MESSAGES: :[[@LINE-2]]:50: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-3]]:50: note: 'static_cast<int>(node_sum.size())' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:50: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}
