// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// lockstep-rank-branch in C++: MPI and c10d, calls that hide a collective,
// lambdas, switch, ?:, &&, annotations; every positive has a negative beside it.
#include <cstdlib>
#include <mpi.h>
#include <c10d/ProcessGroup.hpp>
#include <lockstep/annotations.h>

static int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void save_checkpoint(MPI_Comm comm) { MPI_Barrier(comm); }
void write_log(const char *) {}

void classic(MPI_Comm comm) {
  int rank = world_rank();
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :13:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: gate the side effect, not the collective.
void side_effect_gated(MPI_Comm comm) {
  int rank = world_rank();
  MPI_Barrier(comm);
  if (rank == 0)
    write_log("saved");
}

void hidden_in_callee(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    save_checkpoint(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'save_checkpoint' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :17:39: note: 'MPI_Barrier' is called here, inside 'save_checkpoint'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'save_checkpoint' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: balanced arms perform the same sequence on every rank.
void balanced(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int v;
  if (rank == 0) {
    v = 42;
    MPI_Bcast(&v, 1, MPI_INT, 0, comm);
  } else {
    MPI_Bcast(&v, 1, MPI_INT, 0, comm);
  }
  // The broadcast leaves v equal everywhere: this branch is uniform.
  if (v == 42)
    MPI_Barrier(comm);
}

// Negative: balanced arms through a callee and a direct call.
void balanced_through_call(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    save_checkpoint(comm);
  else
    MPI_Barrier(comm);
}

// Negative: conditions that hold on every rank.
void tautologies(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank >= 0 && rank < size)
    MPI_Barrier(comm);
  if (rank <= size - 1)
    MPI_Barrier(comm);
  if (0 <= rank)
    MPI_Barrier(comm);
}

void environment_rank(MPI_Comm comm) {
  int local = std::atoi(std::getenv("LOCAL_RANK"));
  if (local == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'local == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'local == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:25: note: the rank comes from the environment variable 'LOCAL_RANK' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: other environment variables are not ranks.
void environment_other(MPI_Comm comm) {
  if (std::getenv("VERBOSE"))
    MPI_Barrier(comm);
}

void library_entry(MPI_Comm comm, int my_rank) {
  if (my_rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'my_rank == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'my_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:39: note: 'my_rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

static void log_step(MPI_Comm comm, int who) {
  if (who == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'who == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'who == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:41: note: parameter 'who' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-107]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
void calls_log_step(MPI_Comm comm) { log_step(comm, world_rank()); }

// Negative: the same helper with a uniform argument at every call site.
static void maybe_sync(MPI_Comm comm, int flag) {
  if (flag)
    MPI_Barrier(comm);
}
void calls_maybe_sync(MPI_Comm comm) { maybe_sync(comm, 1); }

struct Trainer {
  MPI_Comm comm;
  int id;
  Trainer(MPI_Comm c) : comm(c) { MPI_Comm_rank(c, &id); }
  void step() {
    if (id == 0)
      MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'id == 0'
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'id == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:35: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
};

void implicit_flow(MPI_Comm comm) {
  int rank = world_rank();
  int steps = 3;
  if (rank == 0)
    steps = 5;
  if (steps > 4)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'steps > 4'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'steps > 4' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-143]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: an allreduce makes the value agree on every rank again.
void agreed_after_allreduce(MPI_Comm comm) {
  int rank = world_rank();
  int local = rank == 0 ? 5 : 3, agreed = 0;
  MPI_Allreduce(&local, &agreed, 1, MPI_INT, MPI_MAX, comm);
  if (agreed > 4)
    MPI_Barrier(comm);
}

void switch_on_rank(MPI_Comm comm) {
  switch (world_rank() % 4) {
  case 0:
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'world_rank() % 4' is 0
    // CHECK-MESSAGES: :[[@LINE-4]]:11: note: 'world_rank() % 4' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-162]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    break;
  default:
    break;
  }
}

void conditional_operator(MPI_Comm comm) {
  int rank = world_rank();
  int err = rank == 1 ? MPI_Barrier(comm) : MPI_SUCCESS;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'MPI_Barrier' runs only on ranks where 'rank == 1'
  // CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-175]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  (void)err;
}

void short_circuit(MPI_Comm comm, bool verbose) {
  int rank = world_rank();
  if (verbose && rank == 0 && MPI_Barrier(comm) == MPI_SUCCESS)
    write_log("synced");
  // CHECK-MESSAGES: :[[@LINE-2]]:31: warning: 'MPI_Barrier' runs only on ranks where 'verbose && rank == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'verbose && rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-186]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:31: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void lambda_capture(MPI_Comm comm) {
  int rank = world_rank();
  auto sync = [&] { MPI_Barrier(comm); };
  if (rank == 0)
    sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sync' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'MPI_Barrier' is called here, inside 'sync'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-198]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  auto inside = [rank, comm] {
    if (rank == 1)
      MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'rank == 1'
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'rank == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-205]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  };
  inside();
}

void order_mismatch(MPI_Comm a, MPI_Comm b) {
  int rank = world_rank(), x = 0;
  if (rank % 2) {
    MPI_Bcast(&x, 1, MPI_INT, 0, a);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' on 'a' runs first on ranks where 'rank % 2', but the other ranks run 'MPI_Bcast' on 'b' first; each side waits for the other and the job hangs
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank % 2' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-217]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: the other ranks start with 'MPI_Bcast' on 'b' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: issue the collectives in the same order on every rank
    MPI_Bcast(&x, 1, MPI_INT, 0, b);
  } else {
    MPI_Bcast(&x, 1, MPI_INT, 0, b);
    MPI_Bcast(&x, 1, MPI_INT, 0, a);
  }
}

// Negative: point-to-point messages are not collectives.
void point_to_point(MPI_Comm comm) {
  int rank = world_rank(), x = 0;
  if (rank == 0)
    MPI_Send(&x, 1, MPI_INT, 1, 0, comm);
  else if (rank == 1)
    MPI_Recv(&x, 1, MPI_INT, 0, 0, comm, MPI_STATUS_IGNORE);
}

// Negative: an error-check macro tests the result, not the rank.
#define MPICHECK(call)                                                         \
  do {                                                                         \
    int err_ = (call);                                                         \
    if (err_ != MPI_SUCCESS)                                                   \
      std::abort();                                                            \
  } while (0)
void error_checked(MPI_Comm comm) {
  MPICHECK(MPI_Barrier(comm));
  int x = world_rank();
  MPICHECK(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, comm));
}

void c10d_process_group(c10d::ProcessGroup &pg, std::vector<at::Tensor> &t) {
  if (pg.getRank() == 0)
    pg.allreduce(t)->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::allreduce' runs only on ranks where 'pg.getRank() == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'pg.getRank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'c10d::ProcessGroup::allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  pg.allreduce(t)->wait();
  if (pg.getRank() == 0)
    write_log("reduced");
}

LOCKSTEP_COLLECTIVE void sync_everyone();
LOCKSTEP_RANK_SOURCE int node_id();
void annotated() {
  if (node_id() == 0)
    sync_everyone();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sync_everyone' runs only on ranks where 'node_id() == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'node_id() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from 'node_id', annotated as a rank source
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'sync_everyone' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void silenced(MPI_Comm comm) {
  if (world_rank() == 0)
    MPI_Barrier(comm); // NOLINT(lockstep-rank-branch)
}

// A loop before the collective does not hide it inside the callee.
void scale_then_reduce(double *buf, int n) {
  for (int k = 0; k < n; ++k)
    buf[k] *= 2;
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
void wrapper_with_loop(double *buf, int n) {
  if (world_rank() == 0)
    scale_then_reduce(buf, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'scale_then_reduce' (which calls 'MPI_Allreduce') runs only on ranks where 'world_rank() == 0'
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: 'MPI_Allreduce' is called here, inside 'scale_then_reduce'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'world_rank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-289]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'scale_then_reduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A wrapper that takes the variable's name: the name its caller passes.
static int env_int(const char *name, int fallback) {
  const char *value = std::getenv(name);
  return value ? std::atoi(value) : fallback;
}

void environment_wrapper(MPI_Comm comm) {
  if (env_int("PMIX_RANK", 0) % 8 == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'env_int("PMIX_RANK", 0) % 8 == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'env_int("PMIX_RANK", 0) % 8 == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from the environment variable 'PMIX_RANK' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Negative: the same wrapper reading another variable.
  if (env_int("NUM_EPOCHS", 1) > 1)
    MPI_Barrier(comm);
}

// A wrapper this file only declares is taken at its word: handed a rank
// variable's name, the number it returns is that rank.
int read_env_int(const char *name, int fallback);
bool has_env(const char *name);

void declared_environment_wrapper(MPI_Comm comm) {
  const int local_slot = read_env_int("LOCAL_RANK", 0);
  if (local_slot == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'local_slot == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'local_slot == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:26: note: the rank comes from the environment variable 'LOCAL_RANK' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Negative: a yes-or-no answer reads no number.
  if (has_env("LOCAL_RANK"))
    MPI_Barrier(comm);
  // Negative: another variable.
  if (read_env_int("NUM_EPOCHS", 1) > 1)
    MPI_Barrier(comm);
}

// Two specializations of one template are named apart: the root's adds a
// barrier the others never call.
template <bool IsRoot> void publish(double *table, int n, MPI_Comm comm) {
  MPI_Bcast(table, n, MPI_DOUBLE, 0, comm);
  if constexpr (IsRoot)
    MPI_Barrier(comm);
}

void refresh(double *table, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    publish<true>(table, n, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'publish<true>' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-9]]:5: note: 'MPI_Barrier' is called here, inside 'publish<true>'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'publish<true>' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  else
    publish<false>(table, n, comm);
  // Negative beside it: one specialization on every rank.
  if (rank == 0)
    publish<false>(table, n, comm);
  else
    publish<false>(table, n, comm);
}

int load_mesh_size();
void log_start(int);

// Positive: case 0 falls through into the default arm, so every rank but
// those of case 1 broadcasts: the message names the ranks that do.
void switch_fall_through_into_default(MPI_Comm comm) {
  int rank, cells = 0;
  MPI_Comm_rank(comm, &rank);
  switch (rank) {
  case 0:
    cells = load_mesh_size();
    [[fallthrough]];
  default:
    MPI_Bcast(&cells, 1, MPI_INT, 0, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs only on ranks where 'rank' is not 1; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-7]]:11: note: 'rank' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    break;
  case 1:
    log_start(cells);
    break;
  }
}

// Negative: every case reaches the broadcast.
void switch_every_case_reaches(MPI_Comm comm) {
  int rank, cells = 0;
  MPI_Comm_rank(comm, &rank);
  switch (rank) {
  case 0:
    cells = load_mesh_size();
    [[fallthrough]];
  case 1:
    log_start(cells);
    [[fallthrough]];
  default:
    MPI_Bcast(&cells, 1, MPI_INT, 0, comm);
    break;
  }
}

// Positive: stacked labels: the ranks of both cases run the barrier.
void switch_stacked_cases(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  switch (rank % 4) {
  case 0:
  case 2:
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank % 4' is 0 or 2; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-5]]:11: note: 'rank % 4' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    break;
  case 1:
    log_start(rank);
    break;
  default:
    break;
  }
}

// Negative: the stacked cases and the default both run the barrier.
void switch_stacked_cases_and_default(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  switch (rank % 4) {
  case 0:
  case 2:
    MPI_Barrier(comm);
    break;
  default:
    log_start(rank);
    MPI_Barrier(comm);
    break;
  }
}

// Positive: the ranks of case 2 end the job and those of case 1 skip the
// broadcast; the message names both.
void switch_default_beside_an_abort(MPI_Comm comm) {
  int rank, cells = 0;
  MPI_Comm_rank(comm, &rank);
  switch (rank) {
  case 0:
    cells = load_mesh_size();
    [[fallthrough]];
  default:
    MPI_Bcast(&cells, 1, MPI_INT, 0, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs only on ranks where 'rank' is neither 1 nor 2; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-7]]:11: note: 'rank' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    break;
  case 1:
    log_start(cells);
    break;
  case 2:
    MPI_Abort(comm, 1);
  }
}

// The same collective on another communicator: the warning says so.
struct LeadGroup {
  MPI_Comm comm_;
  void run() { MPI_Barrier(comm_); }
};
struct FollowGroup {
  MPI_Comm comm_;
  void run() { MPI_Barrier(comm_); }
};

void lead_and_follow(int rank) {
  MPI_Comm first, second;
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  MPI_Comm_dup(MPI_COMM_WORLD, &second);
  LeadGroup lead{first};
  FollowGroup follow{second};
  LeadGroup again{first};
  // Positive: two communicators.
  if (rank == 0)
    lead.run();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'LeadGroup::run' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 0'; the other ranks call 'MPI_Barrier' on another communicator instead and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-18]]:16: note: 'MPI_Barrier' is called here, inside 'LeadGroup::run'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-13]]:26: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the other ranks call 'MPI_Barrier' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'LeadGroup::run' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  else
    follow.run();
  // Negative: two objects holding one communicator.
  if (rank == 0)
    lead.run();
  else
    again.run();
}
