// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// lockstep-rank-loop: collectives in loops whose trip count differs between
// ranks (bound, step, per-rank input); the hard negatives stay silent under
// every lockstep check.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <mpi.h>

static int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void uneven_batches(MPI_Comm comm, int total) {
  int rank, world;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &world);
  int my_batches = total / world + (rank < total % world);
  for (int b = 0; b < my_batches; ++b) {
    double loss = 0;
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:19: note: 'b < my_batches' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}

// Negative: the usual fix, agreeing on the count with an allreduce (MAX).
void agreed_batches(MPI_Comm comm, int total) {
  int rank, world;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &world);
  int mine = total / world + (rank < total % world), steps = 0;
  MPI_Allreduce(&mine, &steps, 1, MPI_INT, MPI_MAX, comm);
  for (int b = 0; b < steps; ++b) {
    double loss = b < mine ? 1.0 : 0.0;
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
}

void save(MPI_Comm comm) { MPI_Barrier(comm); }

// A strided loop over work items: the step makes the trip count per rank.
void strided(MPI_Comm comm, int items) {
  int size;
  MPI_Comm_size(comm, &size);
  for (int i = world_rank(); i < items; i += size)
    save(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'save' (which calls 'MPI_Barrier') runs in a loop whose trip count differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:28: note: 'MPI_Barrier' is called here, inside 'save'
  // CHECK-MESSAGES: :[[@LINE-4]]:30: note: 'i < items' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-43]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Per-rank input: a stream opened under a rank-dependent name.
void per_rank_stream(MPI_Comm comm) {
  std::ifstream in("shard_" + std::to_string(world_rank()) + ".txt");
  std::string line;
  while (std::getline(in, line))
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'std::getline(in, line)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-55]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Per-rank input in C style: a count read from a per-rank file.
void per_rank_file(MPI_Comm comm) {
  char path[64];
  std::snprintf(path, sizeof path, "shard%d.bin", world_rank());
  FILE *f = std::fopen(path, "rb");
  int n = 0;
  if (std::fscanf(f, "%d", &n) != 1)
    n = 0;
  do {
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks
    // CHECK-MESSAGES: :[[@LINE+3]]:12: note: '--n > 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-71]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  } while (--n > 0);
}

// Negative: the same file name on every rank.
void shared_file(MPI_Comm comm) {
  std::ifstream in("config.txt");
  int steps = 0;
  in >> steps;
  for (int i = 0; i < steps; ++i)
    MPI_Barrier(comm);
}

// Negative (hard): a loop over all ranks that changes the root each time.
void every_root(MPI_Comm comm) {
  int size, x = 0;
  MPI_Comm_size(comm, &size);
  for (int r = 0; r < size; ++r)
    MPI_Bcast(&x, 1, MPI_INT, r, comm);
}

// Negative (hard): both arms run the same number of barriers in loops.
void same_number(MPI_Comm comm) {
  if (world_rank() == 0) {
    for (int i = 0; i < 3; ++i)
      MPI_Barrier(comm);
  } else {
    for (int j = 0; j < 3; ++j)
      MPI_Barrier(comm);
  }
}

// Negative (hard): a tree-node test that only looks like a rank test.
struct Node {
  int id;
};
bool IsRoot(int nid);
void tree(MPI_Comm comm, const std::vector<Node> &nodes) {
  for (const Node &n : nodes) {
    int nid = n.id;
    if (IsRoot(nid))
      MPI_Barrier(comm);
  }
}

// Negative (hard): a rank-0-only file write followed by a barrier on all.
void rank0_write(MPI_Comm comm) {
  if (world_rank() == 0) {
    FILE *f = std::fopen("out.txt", "w");
    std::fputs("done", f);
    std::fclose(f);
  }
  MPI_Barrier(comm);
}

// Templates: each instantiation is analysed, the site reported once.
template <typename T> void generic(MPI_Comm comm, T steps) {
  for (T i = 0; i < steps + world_rank(); ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks
  // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'i < steps + world_rank()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-133]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}
void instantiate(MPI_Comm c) {
  generic<int>(c, 3);
  generic<long>(c, 4);
}

// Per-rank input read by a member operator (`in >> n` for an int), and a
// name built by a chain of `<<`: both carry what went in.
void per_rank_count(MPI_Comm comm) {
  std::ifstream in("shard_" + std::to_string(world_rank()) + ".txt");
  int n = 0;
  in >> n;
  for (int i = 0; i < n; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < n' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-151]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  std::ostringstream name;
  name << "rank" << world_rank();
  if (name.str() == "rank0")
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'name.str() == "rank0"'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'name.str() == "rank0"' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-159]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  std::ostringstream shared;
  shared << "step" << 1;
  if (shared.str() == "step1")
    MPI_Barrier(comm);
}

// A rank-dependent break ends the loop early on some ranks: the loop's
// collectives run fewer times there, wherever they stand in the body, even
// when a collective after the loop looks like the next one.
void early_stopping(MPI_Comm comm, double *loss) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int epoch = 0; epoch < 50; ++epoch) {
    MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+3]]:9: note: 'rank > 1 && epoch == 3' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    if (rank > 1 && epoch == 3)
      break;
  }
  MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
}

// Negative: the decision to stop is agreed first.
void agreed_early_stopping(MPI_Comm comm, double *loss) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int epoch = 0; epoch < 50; ++epoch) {
    MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
    int stop = rank > 1 && *loss < 0.1, any = 0;
    MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any)
      break;
  }
  MPI_Allreduce(MPI_IN_PLACE, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
}

// Negative: a rank-dependent break out of a loop without collectives.
int find_owner(MPI_Comm comm, const int *owners, int n) {
  int rank, mine = -1;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < n; ++i)
    if (owners[i] == rank) {
      mine = i;
      break;
    }
  MPI_Barrier(comm);
  return mine;
}

// Negative: a status check that ends the process, inside one rank's arm of a
// loop, leaves no loop early (the arms run the same broadcast).
#define MPI_OK(call)                                                           \
  do {                                                                         \
    if ((call) != MPI_SUCCESS)                                                 \
      std::abort();                                                            \
  } while (0)

void checked_arms(MPI_Comm comm, double *params, int tensors) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int t = 0; t < tensors; ++t) {
    if (rank == 0) {
      params[t] = 0.5;
      MPI_OK(MPI_Bcast(params + t, 1, MPI_DOUBLE, 0, comm));
    } else {
      MPI_OK(MPI_Bcast(params + t, 1, MPI_DOUBLE, 0, comm));
    }
  }
}

// A rank that breaks out in the same arm still leaves the loop early.
void checked_arm_breaks(MPI_Comm comm, double *params, int tensors) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int t = 0; t < tensors; ++t) {
    MPI_OK(MPI_Bcast(params + t, 1, MPI_DOUBLE, 0, comm));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'MPI_Bcast' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+6]]:9: note: 'rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:12: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    MPI_OK(MPI_Barrier(comm));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+1]]:9: note: 'rank == 0' differs between ranks
    if (rank == 0)
      break;
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:12: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}

// One operand of a loop's `&&` condition differs between ranks: the whole
// condition decides the trip count.
void solve_until(MPI_Comm comm, double tol, int max_iters) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double residual = 1.0, global;
  int it = 0;
  while (residual > tol && it < max_iters) {
    MPI_Allreduce(&residual, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'residual > tol && it < max_iters' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    residual = residual * 0.5 / (rank + 1);
    ++it;
  }
}

// Negative: the same loop testing the agreed residual (in a function of its
// own: after the loop above, even the agreed value is the one of a per-rank
// iteration).
void solve_until_agreed(MPI_Comm comm, double tol, int max_iters) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  double residual = 1.0, global = 1.0;
  for (int it = 0; global > tol && it < max_iters; ++it) {
    residual = residual * 0.5 / (rank + 1);
    MPI_Allreduce(&residual, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  }
}

// Negative (hard): a range-for over a C array runs as many times as the
// array has elements, whatever they hold on this rank.
void over_array(MPI_Comm comm, int rank) {
  double shares[4];
  for (double &s : shares)
    s = rank * 0.25;
  for (double s : shares)
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, comm);
}

// A loop whose test is a `&&` chain and whose exit by `break` reads a clock
// (set 8 f12): each rank leaves when its own time is up.
static double reduced_error(MPI_Comm comm, double local) {
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

void refine_within_budget(MPI_Comm comm, double budget) {
  const double t0 = MPI_Wtime();
  double err = 1.0;
  int pass = 0;
  while (err > 1e-6 && pass < 200) {
    err = reduced_error(comm, err * 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'reduced_error' (which calls 'MPI_Allreduce') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: 'MPI_Allreduce' is called here, inside 'reduced_error'
    // CHECK-MESSAGES: :[[@LINE+4]]:9: note: 'MPI_Wtime() - t0 > budget' differs between ranks
    // CHECK-MESSAGES: :[[@LINE+3]]:9: note: 'MPI_Wtime' returns a clock reading here; each rank reads its own
    // CHECK-MESSAGES: :[[@LINE-5]]:11: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    ++pass;
    if (MPI_Wtime() - t0 > budget)
      break;
  }
  // Negative beside it: the agreed error alone ends the loop.
  for (int level = 0; err > 1e-9 && level < 40; ++level)
    err = reduced_error(comm, err * 0.5);
}

// A loop written with a backward goto: the ranks where the test holds jump
// back and broadcast again, the others go on.
void retry_on_one_rank(int *value, MPI_Comm comm) {
  int rank, attempts = 0;
  MPI_Comm_rank(comm, &rank);
retry:
  MPI_Bcast(value, 1, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Bcast' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE+8]]:7: note: 'rank == 1 && ++attempts < 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE+3]]:7: note: 'rank == 1 && ++attempts < 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  if (rank == 1 && ++attempts < 3)
    goto retry;
  MPI_Allreduce(MPI_IN_PLACE, value, 1, MPI_INT, MPI_SUM, comm);
}

// Negative beside it: every rank retries the same number of times, and a
// goto forward to the cleanup after every collective leaves no loop.
void retry_everywhere(int *value, MPI_Comm comm) {
  int rank, attempts = 0;
  MPI_Comm_rank(comm, &rank);
again:
  MPI_Bcast(value, 1, MPI_INT, 0, comm);
  if (++attempts < 3)
    goto again;
  if (rank == 0)
    goto done;
  *value += 1;
done:
  MPI_Barrier(comm);
}

// Negative: one file per local block, each opened and closed on
// MPI_COMM_SELF: no other rank takes part, however many blocks a rank owns.
void write_blocks(int nblocks, const double *data) {
  for (int b = 0; b < nblocks; ++b) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, "block.bin", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                  &fh);
    MPI_File_write(fh, data + b, 1, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
  }
}

void write_own_blocks(const double *data) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  write_blocks(rank + 1, data);
}

// Positive: the same loop also synchronizes the job after each block.
void write_blocks_synced(const double *data) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int b = 0; b <= rank; ++b) {
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, "block.bin", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                  &fh);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-7]]:19: note: 'b <= rank' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}
