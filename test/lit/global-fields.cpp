// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Fields of global structs, each global apart and in call order: a settings
// struct that rank 0 alone fills (through a reference to it) differs between
// ranks after the call that fills it, field by field, until a collective
// agrees it; another global of the same type, a local one, and the same
// field before main makes that call stay the same on every rank.
#include <mpi.h>

struct RunConfig {
  int steps = 4;
  int substeps = 1;
};

RunConfig g_cfg;      // filled on rank 0 only
RunConfig g_shared;   // filled on rank 0, then broadcast whole
RunConfig g_defaults; // never written
RunConfig g_tuned;    // set to each rank's own value, then broadcast

static void apply_profile(RunConfig &c) { c.substeps = 4; }

void load_config(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    apply_profile(g_cfg);
}

void load_shared(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    apply_profile(g_shared);
  MPI_Bcast(&g_shared, sizeof(RunConfig), MPI_BYTE, 0, comm);
}

void tune(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  g_tuned.substeps = rank + 1;
  MPI_Bcast(&g_tuned, sizeof(RunConfig), MPI_BYTE, 0, comm);
}

// Positive: any caller may have loaded the settings first.
void solve(MPI_Comm comm) {
  for (int s = 0; s < g_cfg.substeps; ++s)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 's < g_cfg.substeps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-25]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-27]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: a local settings struct is not the global one.
void local_settings(MPI_Comm comm) {
  RunConfig mine;
  for (int s = 0; s < mine.substeps; ++s)
    MPI_Barrier(comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // Negative: nothing has loaded the settings yet.
  for (int s = 0; s < g_cfg.substeps; ++s)
    MPI_Barrier(MPI_COMM_WORLD);
  load_config(MPI_COMM_WORLD);
  load_shared(MPI_COMM_WORLD);
  tune(MPI_COMM_WORLD);
  // Positive: rank 0 alone changed it.
  for (int s = 0; s < g_cfg.substeps; ++s)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 's < g_cfg.substeps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-50]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-52]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // Negative: the broadcast made it the same everywhere.
  for (int s = 0; s < g_shared.substeps; ++s)
    MPI_Barrier(MPI_COMM_WORLD);
  for (int s = 0; s < g_tuned.substeps; ++s)
    MPI_Barrier(MPI_COMM_WORLD);
  // Negative: another global of the same type, and a field nobody changed.
  for (int s = 0; s < g_defaults.substeps; ++s)
    MPI_Barrier(MPI_COMM_WORLD);
  for (int s = 0; s < g_cfg.steps; ++s)
    MPI_Barrier(MPI_COMM_WORLD);
  solve(MPI_COMM_WORLD);
  local_settings(MPI_COMM_WORLD);
  MPI_Finalize();
}
