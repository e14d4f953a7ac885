// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %c_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// MPI-IO reads at an explicit offset (rules per_rank_sources with
// when_differs): each rank reads what lies at its own offset, so a record
// read at `rank * n` differs between ranks and a collective decided by it
// hangs; a header every rank reads at offset 0 is the same everywhere, and
// a helper given the offset reads what its callers pass.
#include <mpi.h>

typedef struct {
  int kind;
  double energy;
} record_t;

typedef struct {
  int nsteps;
  int version;
} header_t;

// Positive: each rank stops at its own end marker, in a loop of collective
// reads.
double sum_own_records(MPI_File fh, long slots) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double e = 0.0;
  for (long s = 0; s < slots; ++s) {
    record_t r;
    MPI_File_read_at_all(fh, ((MPI_Offset)rank * slots + s) * (MPI_Offset)sizeof r, &r,
                         (int)sizeof r, MPI_BYTE, MPI_STATUS_IGNORE);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_File_read_at_all' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+4]]:9: note: 'r.kind == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: 'r' is what this rank reads at its own offset from 'MPI_File_read_at_all'; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first
    if (r.kind == 0)
      break;
    e += r.energy;
  }
  return e;
}

// Negative: every rank reads the header at offset 0.
void replay_steps(MPI_File fh) {
  header_t h;
  MPI_File_read_at_all(fh, 0, &h, (int)sizeof h, MPI_BYTE, MPI_STATUS_IGNORE);
  for (int i = 0; i < h.nsteps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

static int read_block_kind(MPI_File fh, MPI_Offset at) {
  record_t r;
  MPI_File_read_at(fh, at, &r, (int)sizeof r, MPI_BYTE, MPI_STATUS_IGNORE);
  return r.kind;
}

// Positive: the helper reads at this rank's offset.
void check_own_block(MPI_File fh) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (read_block_kind(fh, (MPI_Offset)rank * (MPI_Offset)sizeof(record_t)) != 1)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'read_block_kind(fh, (MPI_Offset)rank * (MPI_Offset)sizeof(record_t)) != 1', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'read_block_kind(fh, (MPI_Offset)rank * (MPI_Offset)sizeof(record_t)) != 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'read_block_kind(fh, (MPI_Offset)rank * (MPI_Offset)sizeof(record_t)) != 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: the helper reads the first block on every rank.
void check_first_block(MPI_File fh) {
  if (read_block_kind(fh, 0) != 1)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
}
