/* Training steps on a library's own allreduce (libusercoll.so); the buggy
 * variant has rank 1 call the library's barrier at step 3 instead. */
#include "common.h"
#include "usercoll.h"

int main(int argc, char **argv) {
  int rank, size;
  int fixed = setup(&argc, &argv, &rank, &size);
  for (int step = 1; step <= 5; ++step) {
    double grad[4] = {step, step, step, step};
    if (!fixed && rank == 1 && step == 3)
      usercoll_barrier(MPI_COMM_WORLD); /* LOCKSTEP-SITE: user-barrier */
    else
      usercoll_allreduce(grad, 4, MPI_COMM_WORLD); /* LOCKSTEP-SITE: user-allreduce */
    printf("step %d: %.0f\n", step, grad[0]);
  }
  MPI_Finalize();
  return 0;
}
