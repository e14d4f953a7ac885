// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// PETSc-style error codes: a code is one of some constants when it is a
// choice between constants (`PetscMalloc1`: `(*p = malloc(...)) == NULL ?
// PETSC_ERR_MEM : 0`) or a comma expression that ends in one (`PetscFree`:
// `(free(p), p = NULL, 0)`). A function that returns such codes and the
// results of MPI calls returns statuses, and the failing arm of a test of
// one is an error path, not a rank's decision. A function that returns only
// constants decides by its own data: a caller that leaves on its result
// leaves on a per-rank decision.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ERR_MEM 55
#define ERR_SIZE 60
#define ALLOC(n, p) ((*(p) = malloc((size_t)(n) * sizeof(**(p)))) == NULL ? ERR_MEM : 0)
#define RELEASE(p) (free(p), (p) = NULL, 0)
#define CHECK(e) do { if (e) return (e); } while (0)

// Negative: only the root allocates the gather buffer, and leaves if that
// fails; a failed allocation is an error, which the caller passes on.
static int gather_on_root(MPI_Comm comm, const int *mine, int n) {
  int rank, size, err, *all = NULL;
  err = MPI_Comm_rank(comm, &rank); CHECK(err);
  err = MPI_Comm_size(comm, &size); CHECK(err);
  if (rank == 0) {
    err = ALLOC(size * n, &all); CHECK(err);
  }
  err = MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, 0, comm); CHECK(err);
  if (rank == 0) {
    printf("%d\n", all[0]);
    err = RELEASE(all); CHECK(err);
  }
  return 0;
}

int gather_then_sync(MPI_Comm comm, const int *mine, int n) {
  int err = gather_on_root(comm, mine, n); CHECK(err);
  return MPI_Barrier(comm);
}

// Only constants: it judges the rank's own share.
static int check_share(int share) {
  if (share < 3)
    return ERR_SIZE;
  return 0;
}

// Positive: the ranks whose share is too small leave before the allgather.
int share_then_gather(MPI_Comm comm, int *shares) {
  int rank, err;
  err = MPI_Comm_rank(comm, &rank); CHECK(err);
  err = check_share(shares[rank]); CHECK(err);
  return MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, shares, 1, MPI_INT, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'MPI_Allgather' is never reached on ranks where 'err', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: ranks where 'err' return here
  // CHECK-MESSAGES: error-paths-petsc.c:20:30: note: expanded from macro 'CHECK'
  // CHECK-MESSAGES: :[[@LINE-5]]:42: note: 'err' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-8]]:9: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:10: note: let every rank reach 'MPI_Allgather' before leaving, or make the decision to leave the same on every rank
}
