/* Latency of an 8-byte MPI_Allreduce, one call at a time, and this rank's
 * peak resident memory. Rank 0 prints: median_ns p99_ns vmhwm_kb. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static long peak_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0)
      kb = atol(line + 6);
  if (f)
    fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 200000, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long long *samples = malloc(sizeof *samples * (size_t)iterations);
  double value = 1;
  for (int i = 0; i < 2000; ++i) /* warm up */
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iterations; ++i) {
    long long start = now_ns();
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    samples[i] = now_ns() - start;
  }
  qsort(samples, (size_t)iterations, sizeof *samples, compare);
  long kb = peak_kb(), max_kb;
  MPI_Reduce(&kb, &max_kb, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%lld %lld %ld\n", samples[iterations / 2], samples[(long)iterations * 99 / 100],
           max_kb);
  free(samples);
  MPI_Finalize();
  return 0;
}
