// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Globals in call order (issue 14, pattern 5): a global that run() assigns
// under a rank condition is still its initial value, the same on every
// rank, where main tests it before calling run(); after the call it differs.
#include <mpi.h>

int g_mode = 0;

void run(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    g_mode = 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // Negative: run() has not written it yet.
  if (g_mode)
    MPI_Barrier(MPI_COMM_WORLD);
  run(MPI_COMM_WORLD);
  // Positive: run() wrote it on rank 0 only.
  if (g_mode)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'g_mode'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  MPI_Finalize();
}
