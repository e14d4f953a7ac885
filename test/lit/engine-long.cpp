// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Engine v2, no silent limits: long functions and long chains of rank
// branches are analysed to the end. A divergence after 70 collectives, or
// among 16 consecutive rank branches (2^16 paths), is reported exactly as in
// a short function; 16 balanced branches stay quiet. An engine that bounds
// its work must say so with a diagnostic, never by dropping findings (v1
// drops the early return once more than 64 collectives follow it).
#include <mpi.h>

void log_progress(const char *what);

// Positive: rank 0 leaves before the 70 collectives of a generated
// parameter-sync routine (one per tensor, a barrier every tenth).
void sync_parameters_skip_root(MPI_Comm comm, float **p, const int *n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    return;
  MPI_Allreduce(MPI_IN_PLACE, p[0], n[0], MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'rank == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  MPI_Allreduce(MPI_IN_PLACE, p[1], n[1], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[2], n[2], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[3], n[3], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[4], n[4], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[5], n[5], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[6], n[6], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[7], n[7], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[8], n[8], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[10], n[10], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[11], n[11], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[12], n[12], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[13], n[13], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[14], n[14], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[15], n[15], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[16], n[16], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[17], n[17], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[18], n[18], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[20], n[20], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[21], n[21], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[22], n[22], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[23], n[23], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[24], n[24], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[25], n[25], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[26], n[26], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[27], n[27], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[28], n[28], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[30], n[30], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[31], n[31], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[32], n[32], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[33], n[33], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[34], n[34], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[35], n[35], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[36], n[36], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[37], n[37], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[38], n[38], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[40], n[40], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[41], n[41], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[42], n[42], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[43], n[43], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[44], n[44], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[45], n[45], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[46], n[46], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[47], n[47], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[48], n[48], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[50], n[50], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[51], n[51], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[52], n[52], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[53], n[53], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[54], n[54], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[55], n[55], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[56], n[56], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[57], n[57], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[58], n[58], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[60], n[60], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[61], n[61], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[62], n[62], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[63], n[63], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[64], n[64], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[65], n[65], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[66], n[66], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[67], n[67], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[68], n[68], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
}

// Negative: the same routine where rank 0 only logs before it.
void sync_parameters_log_root(MPI_Comm comm, float **p, const int *n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    log_progress("sync");
  MPI_Allreduce(MPI_IN_PLACE, p[0], n[0], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[1], n[1], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[2], n[2], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[3], n[3], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[4], n[4], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[5], n[5], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[6], n[6], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[7], n[7], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[8], n[8], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[10], n[10], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[11], n[11], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[12], n[12], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[13], n[13], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[14], n[14], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[15], n[15], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[16], n[16], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[17], n[17], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[18], n[18], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[20], n[20], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[21], n[21], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[22], n[22], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[23], n[23], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[24], n[24], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[25], n[25], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[26], n[26], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[27], n[27], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[28], n[28], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[30], n[30], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[31], n[31], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[32], n[32], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[33], n[33], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[34], n[34], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[35], n[35], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[36], n[36], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[37], n[37], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[38], n[38], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[40], n[40], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[41], n[41], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[42], n[42], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[43], n[43], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[44], n[44], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[45], n[45], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[46], n[46], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[47], n[47], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[48], n[48], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[50], n[50], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[51], n[51], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[52], n[52], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[53], n[53], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[54], n[54], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[55], n[55], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[56], n[56], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[57], n[57], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[58], n[58], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[60], n[60], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[61], n[61], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[62], n[62], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[63], n[63], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[64], n[64], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[65], n[65], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[66], n[66], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[67], n[67], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[68], n[68], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
}

// Positive: the divergence comes after the 70 collectives: only rank 0
// calls the final barrier.
void sync_parameters_then_root_barrier(MPI_Comm comm, float **p, const int *n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Allreduce(MPI_IN_PLACE, p[0], n[0], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[1], n[1], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[2], n[2], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[3], n[3], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[4], n[4], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[5], n[5], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[6], n[6], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[7], n[7], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[8], n[8], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[10], n[10], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[11], n[11], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[12], n[12], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[13], n[13], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[14], n[14], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[15], n[15], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[16], n[16], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[17], n[17], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[18], n[18], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[20], n[20], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[21], n[21], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[22], n[22], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[23], n[23], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[24], n[24], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[25], n[25], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[26], n[26], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[27], n[27], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[28], n[28], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[30], n[30], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[31], n[31], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[32], n[32], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[33], n[33], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[34], n[34], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[35], n[35], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[36], n[36], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[37], n[37], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[38], n[38], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[40], n[40], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[41], n[41], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[42], n[42], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[43], n[43], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[44], n[44], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[45], n[45], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[46], n[46], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[47], n[47], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[48], n[48], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[50], n[50], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[51], n[51], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[52], n[52], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[53], n[53], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[54], n[54], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[55], n[55], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[56], n[56], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[57], n[57], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[58], n[58], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, p[60], n[60], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[61], n[61], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[62], n[62], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[63], n[63], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[64], n[64], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[65], n[65], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[66], n[66], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[67], n[67], MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, p[68], n[68], MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(comm);
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-75]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: 16 rank-specific barriers in a row. Each is called by one rank
// only (and on more than 16 ranks, ranks 16 and up call none): one warning
// per barrier, 16 in all.
void per_rank_barriers(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 1)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 2)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 3 ranks, rank 2 calls 'MPI_Barrier' and rank 1 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 3)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-24]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 4 ranks, rank 3 calls 'MPI_Barrier' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 4)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 4' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-31]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 5 ranks, rank 4 calls 'MPI_Barrier' and rank 3 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 5)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 5' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-38]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 6 ranks, rank 5 calls 'MPI_Barrier' and rank 4 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 6)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 6' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-45]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 7 ranks, rank 6 calls 'MPI_Barrier' and rank 5 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 7)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 7' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-52]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 8 ranks, rank 7 calls 'MPI_Barrier' and rank 6 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 8)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 8' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-59]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 9 ranks, rank 8 calls 'MPI_Barrier' and rank 7 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 9)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 9' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-66]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 10 ranks, rank 9 calls 'MPI_Barrier' and rank 8 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 10)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 10' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-73]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 11 ranks, rank 10 calls 'MPI_Barrier' and rank 9 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 11)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 11' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-80]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 12 ranks, rank 11 calls 'MPI_Barrier' and rank 10 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 12)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 12' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-87]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 13 ranks, rank 12 calls 'MPI_Barrier' and rank 11 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 13)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 13' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-94]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 14 ranks, rank 13 calls 'MPI_Barrier' and rank 12 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 14)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 14' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-101]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 15 ranks, rank 14 calls 'MPI_Barrier' and rank 13 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (rank == 15)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}} [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 15' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-108]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 16 ranks, rank 15 calls 'MPI_Barrier' and rank 14 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: 16 rank branches in a row, each balanced: rank k logs before its
// barrier, every other rank just synchronises.
void per_rank_balanced(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    log_progress("turn 0");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 1) {
    log_progress("turn 1");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 2) {
    log_progress("turn 2");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 3) {
    log_progress("turn 3");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 4) {
    log_progress("turn 4");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 5) {
    log_progress("turn 5");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 6) {
    log_progress("turn 6");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 7) {
    log_progress("turn 7");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 8) {
    log_progress("turn 8");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 9) {
    log_progress("turn 9");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 10) {
    log_progress("turn 10");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 11) {
    log_progress("turn 11");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 12) {
    log_progress("turn 12");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 13) {
    log_progress("turn 13");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 14) {
    log_progress("turn 14");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
  if (rank == 15) {
    log_progress("turn 15");
    MPI_Barrier(comm);
  } else {
    MPI_Barrier(comm);
  }
}
