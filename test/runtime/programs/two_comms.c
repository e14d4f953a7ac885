/* Opposite order on two communicators: rank 0 reduces on A then B, rank 1
 * on B then A; both block forever. The fixed variant also checks that
 * communicators from one split are told apart by colour. */
#include "common.h"

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  MPI_Comm a, b, half;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_dup(MPI_COMM_WORLD, &b);
  MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(b, MPI_ERRORS_RETURN);
  int x = rank, y = rank;
  if (fixed || rank % 2 == 0) {
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, a); /* LOCKSTEP-SITE: reduce-a */
    MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, b);
  } else {
    MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, b); /* LOCKSTEP-SITE: reduce-b */
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, a);
  }
  /* Even and odd ranks: same creating call, different colours, and a count
   * that differs between the two halves (but not within one). */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  double v[2] = {1, 2};
  MPI_Allreduce(MPI_IN_PLACE, v, 1 + rank % 2, MPI_DOUBLE, MPI_SUM, half);
  printf("sums %d %d half %.0f\n", x, y, v[0]);
  MPI_Comm_free(&half);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Finalize();
  return 0;
}
