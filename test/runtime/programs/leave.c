/* Ranks FIRST and above leave at step 4 while the others go on to step 4's
 * allreduce, each way a rank can leave. usage: leave HOW FIRST, HOW one of
 * exit (exit(0)), return (from main, MPI left open), finalize (MPI_Finalize,
 * then return), crash (SIGSEGV), kill (SIGKILL). */
#include "common.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size;
  setup(&argc, &argv, &rank, &size);
  const char *how = argc > 1 ? argv[1] : "exit";
  int first = argc > 2 ? atoi(argv[2]) : 1;
  for (int step = 1; step <= 6; ++step) {
    if (rank >= first && step == 4) { /* LOCKSTEP-SITE: leave */
      if (strcmp(how, "exit") == 0)
        exit(0);
      if (strcmp(how, "finalize") == 0)
        MPI_Finalize();
      if (strcmp(how, "crash") == 0)
        raise(SIGSEGV);
      if (strcmp(how, "kill") == 0) {
        usleep(100 * 1000); /* killed from outside at a random moment, not within a microsecond */
        raise(SIGKILL);
      }
      return 0;
    }
    double g = step;
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* LOCKSTEP-SITE: allreduce */
  }
  MPI_Finalize();
  return 0;
}
