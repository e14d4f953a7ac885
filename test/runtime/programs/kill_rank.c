/* A rank killed with SIGKILL mid-run (the OOM killer, a preempted node)
 * while the others wait in the next allreduce. MODE exit: the rank calls
 * exit(3) instead. */
#include "common.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size;
  setup(&argc, &argv, &rank, &size);
  int how_exit = argc > 1 && strcmp(argv[1], "exit") == 0;
  for (int step = 1; step <= 6; ++step) {
    if (rank == 1 && step == 4) {
      usleep(300 * 1000); /* let the others enter step 4's allreduce */
      if (how_exit)
        exit(3);
      raise(SIGKILL);
    }
    double g = step;
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: allreduce */
    printf("step %d\n", step);
  }
  MPI_Finalize();
  return 0;
}
