/* Reproduces a static finding at run time: the harness gives this program
 * its rank and an MPI communicator under `lockstep run`, and it calls the
 * flagged function of ../mpi_train.c the way training would.
 *
 *   lockstep check -p <build with examples> --format json -o findings.json
 *   mpicc -g -I../../runtime_verifier/include reproduce_checkpoint.c ../mpi_train.c -o repro
 *   lockstep run -n 2 --mpi --findings findings.json -- ./repro          (buggy)
 *   lockstep run -n 2 --mpi --findings findings.json -- ./repro --fixed  (fixed)
 */
#include <mpi.h>
#include <lockstep/harness.h>

#include <string.h>

void train_step_buggy(float *params, float *grad, int step, MPI_Comm comm);
void train_step_fixed(float *params, float *grad, int step, MPI_Comm comm);

int main(int argc, char **argv) {
  lockstep_job job;
  MPI_Comm comm;
  if (lockstep_mpi_init(&argc, &argv, &job, &comm) != 0)
    return 1;
  int fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
  static float params[1024], grad[1024];
  for (int step = 1; step <= 200; ++step)
    (fixed ? train_step_fixed : train_step_buggy)(params, grad, step, comm);
  MPI_Finalize();
  return 0;
}
