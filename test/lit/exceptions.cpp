// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-loop' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Exceptions across calls: a function that throws on some ranks, called
// inside a `try`, makes those ranks skip the rest of the try block and run
// the handlers. What they skip, what the handlers run, and where the
// handlers go next (`continue`, `return`) are what the ranks disagree on.
#include <mpi.h>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

static void validate(int shard, int step) {
  if (shard == 2 && step == 1)
    throw std::runtime_error("corrupt record");
}

// Positive: only rank 2 skips the step's allreduce.
void skip_corrupt_steps(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int step = 0; step < 3; ++step) {
    try {
      validate(rank, step);
    } catch (const std::exception &) {
      continue;
    }
    double g = 1;
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'validate(rank, step)' throws, which leave the 'try' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: ranks where 'validate(rank, step)' throws leave the 'try' here
    // CHECK-MESSAGES: :[[@LINE-8]]:7: note: whether 'validate(rank, step)' throws differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-19]]:5: note: 'validate' lets out the exception thrown here; the handlers of the 'try' around the call catch it
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Positive: a collective in the handler, for a throw two calls down.
static std::vector<float> load_shard(int rank) {
  std::ifstream in("shard_" + std::to_string(rank) + ".bin", std::ios::binary);
  if (!in)
    throw std::runtime_error("missing shard");
  return std::vector<float>(1024);
}

static std::vector<float> load_checked(int rank) { return load_shard(rank); }

void resync_missing_shards(MPI_Comm comm, float *w) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  try {
    std::vector<float> d = load_checked(rank);
  } catch (const std::exception &) {
    MPI_Bcast(w, 1, MPI_FLOAT, 0, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs only on ranks where 'load_checked(rank)' throws; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-4]]:28: note: whether 'load_checked(rank)' throws differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-16]]:5: note: 'load_checked' lets out the exception thrown here; the handlers of the 'try' around the call catch it
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  MPI_Allreduce(MPI_IN_PLACE, w, 1, MPI_FLOAT, MPI_SUM, comm);
}

// Negative: the callee throws on a condition every rank shares.
static int samples(int n_val) {
  if (n_val == 0)
    throw std::out_of_range("no validation samples");
  return n_val;
}

double validate_all(MPI_Comm comm, int n_val) {
  double loss = 0, total = 0;
  try {
    loss = 0.5 * samples(n_val);
    MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  } catch (const std::out_of_range &) {
    return 0;
  }
  return total;
}

// Negative: rank 2 recovers in the handler and every rank goes on to the
// same barrier.
void recover_and_go_on(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  try {
    validate(rank, 1);
  } catch (const std::exception &) {
    rank = -1;
  }
  MPI_Barrier(comm);
}

struct ShardError {
  int code;
};

static void load_shard(int shard, int epoch) {
  if (shard == 1 && epoch == 2)
    throw ShardError{3};
  validate(shard, epoch);
}

// Negative: every exception the loader throws is a std::exception or a
// ShardError, and the handlers catch both: every rank stays in the loop.
void agree_on_errors(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int epoch = 0; epoch < 4; ++epoch) {
    int failed = 0, any_failed = 0;
    try {
      load_shard(rank, epoch);
    } catch (const std::exception &) {
      failed = 1;
    } catch (const ShardError &) {
      failed = 2;
    }
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
    if (any_failed)
      break;
  }
}

// Positive: a ShardError passes the handler for std::exception and leaves
// the loop on rank 1 only.
void miss_shard_errors(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int epoch = 0; epoch < 4; ++epoch) {
    try {
      load_shard(rank, epoch);
    } catch (const std::exception &) {
    }
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'load_shard(rank, epoch)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
}

// Negative: a status check that throws when an MPI call fails reports the
// failure, as a returned error code would; that rank 0 makes more checked
// calls than the others does not make it leave on rank 0 alone.
#define CHECK_MPI(call)                                                                        \
  do {                                                                                         \
    if (int rc_ = (call); rc_ != MPI_SUCCESS)                                                  \
      throw std::runtime_error(#call);                                                         \
  } while (0)

static void write_header_and_data(MPI_Comm comm, MPI_File fh, const double *data, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    CHECK_MPI(MPI_File_write_at_all(fh, 0, data, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_write_at_all(fh, 8, data, n, MPI_DOUBLE, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_File_write_at_all(fh, 0, nullptr, 0, MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_write_at_all(fh, 8, data, n, MPI_DOUBLE, MPI_STATUS_IGNORE));
  }
}

void checkpoint_steps(MPI_Comm comm, MPI_File fh, const double *data, int n) {
  try {
    for (int step = 0; step < 3; ++step) {
      write_header_and_data(comm, fh, data, n);
      MPI_Barrier(comm);
    }
  } catch (const std::exception &) {
    MPI_Abort(comm, 2);
  }
}

// Positive: the handler is outside the loop. Ranks where the decoder throws
// leave the loop and go on to the barrier after the `try`; that barrier is
// the same call on every rank, not a second divergence.
static int decode(int step, int rank) {
  if ((step * 7 + rank) % 97 == 0)
    throw std::runtime_error("corrupt record");
  return step;
}

void train_until_corrupt(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  try {
    for (int step = 0; step < 1000; ++step) {
      int s = decode(step, rank);
      MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' is never reached on ranks where 'decode(step, rank)' throws, which leave the 'try' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
      // CHECK-MESSAGES: :[[@LINE-3]]:15: note: ranks where 'decode(step, rank)' throws leave the 'try' here
      // CHECK-MESSAGES: :[[@LINE-4]]:15: note: whether 'decode(step, rank)' throws differs between ranks
      // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-15]]:5: note: 'decode' lets out the exception thrown here; the handlers of the 'try' around the call catch it
      // CHECK-MESSAGES: :[[@LINE-6]]:7: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
    }
  } catch (const std::exception &) {
  }
  MPI_Barrier(comm);
}

// Negative: the same loop without a collective in it: the ranks that throw
// reach the barrier early and wait there for the others.
int decode_until_corrupt(MPI_Comm comm) {
  int rank, sum = 0;
  MPI_Comm_rank(comm, &rank);
  try {
    for (int step = 0; step < 1000; ++step)
      sum += decode(step, rank);
  } catch (const std::exception &) {
  }
  MPI_Barrier(comm);
  return sum;
}

// A data source behind a virtual interface: the override a call through the
// base may run throws when its own shard ends.
struct BatchSource {
  virtual ~BatchSource() = default;
  virtual void next(float *batch, long bytes) = 0;
};

struct ShardSource : BatchSource {
  std::ifstream in;
  explicit ShardSource(const std::string &path) : in(path) {}
  void next(float *batch, long bytes) override {
    if (!in.read(reinterpret_cast<char *>(batch), bytes))
      throw std::out_of_range("shard exhausted");
  }
};

// Positive: each rank reads its own shard, so the ranks run out at
// different steps.
void train_until_shard_ends(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::unique_ptr<BatchSource> source =
      std::make_unique<ShardSource>("train-" + std::to_string(rank) + ".bin");
  float batch[256];
  for (;;) {
    try {
      source->next(batch, sizeof batch);
    } catch (const std::out_of_range &) {
      break;
    }
    MPI_Allreduce(MPI_IN_PLACE, batch, 256, MPI_FLOAT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'source->next(batch, sizeof batch)' throws, which leave the 'try' before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: ranks where 'source->next(batch, sizeof batch)' throws leave the 'try' here
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: whether 'source->next(batch, sizeof batch)' throws differs between ranks
    // CHECK-MESSAGES: :[[@LINE-23]]:9: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-26]]:43: note: parameter 'path' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-16]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-25]]:7: note: 'ShardSource::next' lets out the exception thrown here; the handlers of the 'try' around the call catch it
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: every rank reads the same file, so all of them run out at once.
// (Another override: a field that one caller fills per rank is per-rank in
// every method that reads it.)
struct FileSource : BatchSource {
  std::ifstream in;
  explicit FileSource(const std::string &path) : in(path) {}
  void next(float *batch, long bytes) override {
    if (!in.read(reinterpret_cast<char *>(batch), bytes))
      throw std::out_of_range("file exhausted");
  }
};

void train_until_file_ends(MPI_Comm comm) {
  std::unique_ptr<BatchSource> source = std::make_unique<FileSource>("train.bin");
  float batch[256];
  for (;;) {
    try {
      source->next(batch, sizeof batch);
    } catch (const std::out_of_range &) {
      break;
    }
    MPI_Allreduce(MPI_IN_PLACE, batch, 256, MPI_FLOAT, MPI_SUM, comm);
  }
}

// Negative: the handler catches what the try block throws itself, and a
// per-rank `break` leaves the loop early; the result every rank returns is
// an allreduce's.
static bool any_rank(bool local, MPI_Comm comm) {
  int in = local, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm);
  return out != 0;
}

static bool advance(double *x, int n, MPI_Comm comm) {
  bool bad = false;
  try {
    for (int i = 0; i < n; ++i) {
      if (x[i] < 0.0)
        throw std::domain_error("negative mass");
      x[i] *= 1.01;
      if (x[i] > 1e6) {
        bad = true;
        break;
      }
    }
  } catch (const std::exception &) {
    bad = true;
  }
  return !any_rank(bad, comm);
}

void integrate(double *x, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  x[0] = rank;
  for (int step = 0; step < 100; ++step) {
    if (!advance(x, n, comm))
      return;
    MPI_Barrier(comm);
  }
}

// Positive: the same step returning its own rank's verdict.
static bool advance_alone(double *x, int n) {
  bool bad = false;
  try {
    for (int i = 0; i < n; ++i) {
      if (x[i] < 0.0)
        throw std::domain_error("negative mass");
      x[i] *= 1.01;
      if (x[i] > 1e6) {
        bad = true;
        break;
      }
    }
  } catch (const std::exception &) {
    bad = true;
  }
  return !bad;
}

void integrate_alone(double *x, int n, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  x[0] = rank;
  for (int step = 0; step < 100; ++step) {
    if (!advance_alone(x, n))
      return;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where '!advance_alone(x, n)', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!advance_alone(x, n)' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!advance_alone(x, n)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}
