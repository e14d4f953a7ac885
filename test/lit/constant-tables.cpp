// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Constant tables in conditions: an element read by an index is the element
// the index picks, so ranks with the same index (the members of a split by
// it) agree on it.
#include <mpi.h>

// Negative: each pipeline stage has its own number of layers, read from a
// constant table by the stage, the split's colour: the members of a stage
// run the same number of rounds.
static const int kLayersPerStage[4] = {5, 8, 8, 3};

void reduce_stage_layers(float *g) {
  int rank;
  MPI_Comm dp;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int stage = rank % 4;
  MPI_Comm_split(MPI_COMM_WORLD, stage, rank, &dp);
  for (int l = 0; l < kLayersPerStage[stage]; ++l)
    MPI_Allreduce(MPI_IN_PLACE, g, 16, MPI_FLOAT, MPI_SUM, dp);
}

// Positive: the same rounds over the world, where the stages meet.
void reduce_stage_layers_world(float *g) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int stage = rank % 4;
  for (int l = 0; l < kLayersPerStage[stage]; ++l)
    MPI_Allreduce(MPI_IN_PLACE, g, 16, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'l < kLayersPerStage[stage]' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}
