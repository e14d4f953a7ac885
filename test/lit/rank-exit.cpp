// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// lockstep-rank-exit: ranks that leave before a collective the others reach.
#include <cstdlib>
#include <mpi.h>
#include <stdexcept>

static int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
void load_shard(int) {}

int early_return(MPI_Comm comm) {
  int rank = world_rank();
  if (rank == 1)
    return 1;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 1', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// Negative: every rank leaves at the same point, or after the collective.
int uniform_return(MPI_Comm comm, int argc) {
  if (argc < 2)
    return 1;
  MPI_Barrier(comm);
  if (world_rank() == 0)
    return 2;
  return 0;
}

void throws_on_one_rank(MPI_Comm comm) {
  if (world_rank() == 3)
    throw std::runtime_error("bad shard");
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'world_rank() == 3', which throw before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'world_rank() == 3' throw here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'world_rank() == 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-35]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: for example, in a job of 4 ranks, rank 2 reaches 'MPI_Barrier' and rank 3 leaves before it
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: every rank throws, or none: the condition is the same everywhere.
void throws_everywhere(MPI_Comm comm, int argc) {
  if (argc < 2)
    throw std::runtime_error("no input");
  MPI_Barrier(comm);
}
void exits_on_one_rank(MPI_Comm comm) {
  int rank = world_rank();
  if (rank != 0)
    std::exit(0);
  MPI_Finalize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Finalize' is never reached on ranks where 'rank != 0', which call 'exit' before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank != 0' call 'exit' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank != 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-54]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Finalize' before leaving, or make the decision to leave the same on every rank
}

void breaks_out(MPI_Comm comm, int steps) {
  int rank = world_rank();
  for (int i = 0; i < steps; ++i) {
    if (rank == 0 && i == 3)
      break;
    MPI_Allreduce(MPI_IN_PLACE, &i, 1, MPI_INT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'rank == 0 && i == 3', which break out of the loop before it
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'rank == 0 && i == 3' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'rank == 0 && i == 3' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-67]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: every rank breaks out at the same iteration.
void breaks_out_together(MPI_Comm comm, int steps) {
  for (int i = 0; i < steps; ++i) {
    if (i == 3)
      break;
    MPI_Allreduce(MPI_IN_PLACE, &i, 1, MPI_INT, MPI_SUM, comm);
  }
}
void continues(MPI_Comm comm, int steps) {
  int rank = world_rank();
  for (int i = 0; i < steps; ++i) {
    if (rank % 2)
      continue;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'rank % 2', which continue with the next iteration before it
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'rank % 2' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'rank % 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-89]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: every rank skips the same iterations.
void continues_together(MPI_Comm comm, int steps) {
  for (int i = 0; i < steps; ++i) {
    if (i % 2)
      continue;
    MPI_Barrier(comm);
  }
}
void jumps(MPI_Comm comm) {
  if (world_rank() == 0)
    goto done;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'world_rank() == 0', which jump away with goto before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'world_rank() == 0' jump away with goto here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'world_rank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-109]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
done:
  return;
}

void save_checkpoint(MPI_Comm comm) { MPI_Barrier(comm); }
int hidden_after_return(MPI_Comm comm) {
  if (world_rank() == 0)
    return -1;
  save_checkpoint(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'save_checkpoint' (which calls 'MPI_Barrier') is never reached on ranks where 'world_rank() == 0', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'world_rank() == 0' return here
  // CHECK-MESSAGES: :[[@LINE-7]]:39: note: 'MPI_Barrier' is called here, inside 'save_checkpoint'
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'world_rank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-124]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'save_checkpoint' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// Negative: the leaving arm performs the same collectives before it leaves.
int balanced_exit(MPI_Comm comm) {
  if (world_rank() == 0) {
    MPI_Barrier(comm);
    return 1;
  }
  MPI_Barrier(comm);
  return 0;
}

// Negative: a uniform error path leaves on every rank.
#define NCHECK(call)                                                           \
  do {                                                                         \
    if ((call) != MPI_SUCCESS)                                                 \
      return;                                                                  \
  } while (0)
void error_paths(MPI_Comm comm) {
  NCHECK(MPI_Barrier(comm));
  NCHECK(MPI_Barrier(comm));
}

// Negative: a rank-0-only file write followed by a barrier on all ranks.
void write_then_barrier(MPI_Comm comm) {
  if (world_rank() == 0)
    load_shard(0);
  MPI_Barrier(comm);
}

void silenced(MPI_Comm comm) {
  if (world_rank() == 0)
    return;
  MPI_Barrier(comm); // NOLINT(lockstep-rank-exit)
}

// A throw that a handler of the function takes skips the rest of the try
// block, not what follows the handler.
void throw_skips_the_try(MPI_Comm comm) {
  int rank = world_rank();
  try {
    if (rank == 2)
      throw 1;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 2', which throw before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'rank == 2' throw here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'rank == 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-174]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:9: note: for example, in a job of 3 ranks, rank 1 reaches 'MPI_Barrier' and rank 2 leaves before it
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  } catch (int) {
  }
}

// Negative: every rank reaches the barrier after the handler.
void throw_recovered(MPI_Comm comm) {
  int rank = world_rank();
  try {
    if (rank == 2)
      throw 1;
  } catch (int) {
  }
  MPI_Barrier(comm);
}

// A return from inside a loop without collectives skips what follows the
// loop: the ranks that stay finish the loop and go on to the barrier.
void return_from_scan(MPI_Comm comm, const int *cells, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < n; ++i)
    if (rank == 3 && cells[i] < 0)
      return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 3 && cells[i] < 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'rank == 3 && cells[i] < 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'rank == 3 && cells[i] < 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: leaving such a loop early, or skipping iterations, on some
// ranks leaves the barrier after it to every rank; so does a return every
// rank takes alike.
void leave_scan_early(MPI_Comm comm, const int *cells, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < n; ++i) {
    if (rank == 3)
      continue;
    if (rank == 2 && cells[i] < 0)
      break;
  }
  MPI_Barrier(comm);
  for (int i = 0; i < n; ++i)
    if (cells[i] < 0)
      return;
  MPI_Barrier(comm);
}

// Neighbourhood collectives (set 8 f10): every member of the topology calls
// them, so a rank that skips one leaves its neighbours waiting.
void smooth_halo(MPI_Comm ring, double *u, int n, double tol) {
  for (int it = 0; it < 50; ++it) {
    double change = u[0] - u[n - 1];
    if (change < tol)
      continue;
    double send[2] = {u[0], u[n - 1]}, recv[2];
    MPI_Neighbor_alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, ring);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Neighbor_alltoall' is never reached on ranks where 'change < tol', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: ranks where 'change < tol' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-6]]:9: note: 'change < tol' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:41: note: parameter 'u' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+19]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Neighbor_alltoall' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative beside it: the change is agreed before anyone leaves.
void smooth_halo_agreed(MPI_Comm ring, double *u, int n, double tol) {
  for (int it = 0; it < 50; ++it) {
    double change = u[0] - u[n - 1];
    MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_DOUBLE, MPI_MAX, ring);
    if (change < tol)
      continue;
    double send[2] = {u[0], u[n - 1]}, recv[2];
    MPI_Neighbor_alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, ring);
  }
}

void smooth(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  double u[4] = {1.0 * rank, 0, 0, 0};
  smooth_halo(world, u, 4, 1e-3);
  smooth_halo_agreed(world, u, 4, 1e-3);
}

// A `break` inside a switch leaves the switch, not the loop around it.
void breaks_out_of_switch(MPI_Comm comm, int steps, int mode) {
  int rank = world_rank();
  for (int i = 0; i < steps; ++i) {
    switch (mode) {
    case 1:
      if (rank == 0)
        break;
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which break out of the 'switch' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: ranks where 'rank == 0' break out of the 'switch' here
      // CHECK-MESSAGES: :[[@LINE-5]]:11: note: 'rank == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-277]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
      break;
    }
  }
}

// Negative: every rank leaves the switch at the same place.
void breaks_out_of_switch_together(MPI_Comm comm, int steps, int mode) {
  for (int i = 0; i < steps; ++i) {
    switch (mode) {
    case 1:
      if (i == 0)
        break;
      MPI_Barrier(comm);
      break;
    }
  }
}
