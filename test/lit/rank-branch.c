// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Both checks on plain C with the real mpi.h.
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void checkpoint(MPI_Comm comm, const char *path) {
  FILE *f = fopen(path, "w");
  if (f)
    fclose(f);
  MPI_Barrier(comm);
}

int main(int argc, char **argv) {
  int rank, size, steps = 10;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (rank == 0)
    checkpoint(MPI_COMM_WORLD, "ckpt.bin");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'checkpoint' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: 'MPI_Barrier' is called here, inside 'checkpoint'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'checkpoint' on every rank: move it out of the branch and keep only the rank-specific work under the condition

  // Negative: the rank-0 write is gated, the barrier is not.
  if (rank == 0)
    printf("step %d\n", steps);
  MPI_Barrier(MPI_COMM_WORLD);

  // Negative: tautologies.
  if (rank < size)
    MPI_Barrier(MPI_COMM_WORLD);

  if (rank == size - 1 && argc > 1)
    exit(2);
  MPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'rank == size - 1 && argc > 1', which call 'exit' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == size - 1 && argc > 1' call 'exit' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == size - 1 && argc > 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-26]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank

  MPI_Finalize();
  return 0;
}

/* Positive: a branch hint passes the rank condition on. */
static void hinted_branch(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (__builtin_expect(rank == 0, 0))
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where '__builtin_expect(rank == 0, 0)'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: '__builtin_expect(rank == 0, 0)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

/* Negative: a hint on a condition every rank shares. */
static void hinted_uniform(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  if (__builtin_expect(size > 1, 1))
    MPI_Barrier(comm);
}

/* Positive: a flag from a nested '&&' inside '||', one operand summed from
   the rank in a loop: ranks whose sum is 0 call the barrier. */
static void nested_flag(MPI_Comm comm, int n, int done, int idle) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int local = 0;
  for (int i = 0; i < n; ++i)
    local += rank;
  int stop = done || (local == 0 && idle);
  if (stop)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'stop'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'stop' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

/* Negative: the same flag over a sum every rank computes alike. */
static void nested_flag_uniform(MPI_Comm comm, int n, int done, int idle) {
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += i;
  int stop = done || (total == 0 && idle);
  if (stop)
    MPI_Barrier(comm);
}

/* The compiler's builtins compute from what they are given: `isfinite(v)`
 * of <math.h> is `__builtin_isfinite(v)`, per-rank for a per-rank `v`. */
static void dump_finite(MPI_Comm comm, MPI_File fh, double v) {
  if (!isfinite(v))
    goto done;
  MPI_File_write_all(fh, &v, 1, MPI_DOUBLE, MPI_STATUS_IGNORE);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_File_write_all' is never reached on ranks where '!isfinite(v)', which jump away with goto before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where '!isfinite(v)' jump away with goto here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: '!isfinite(v)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:60: note: parameter 'v' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_File_write_all' before leaving, or make the decision to leave the same on every rank
done:
  MPI_File_close(&fh);
}

void dump_local(MPI_Comm comm, MPI_File fh) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  dump_finite(comm, fh, log((double)rank));
}

/* Negative: the value every rank tests is the sum over all of them. */
void dump_total(MPI_Comm comm, MPI_File fh) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double v = log((double)rank);
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, comm);
  if (isnan(v))
    return;
  MPI_File_write_all(fh, &v, 1, MPI_DOUBLE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}
