// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Values kept in objects: members written inside methods (through `this`),
// made the same on every rank by a collective that writes them there; and
// options objects whose fields are assigned before the call.
#include <mpi.h>
#include <c10d/ProcessGroup.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

// Negative: each rank's shard has its own length, but the constructor agrees
// on the longest one before anyone reads it.
class AgreedLoader {
public:
  explicit AgreedLoader(MPI_Comm comm) : comm_(comm) {
    int rank;
    MPI_Comm_rank(comm_, &rank);
    steps_ = 100 + rank % 3;
    MPI_Allreduce(MPI_IN_PLACE, &steps_, 1, MPI_INT, MPI_MAX, comm_);
  }
  int steps() const { return steps_; }

private:
  MPI_Comm comm_;
  int steps_ = 0;
};

void train_agreed(MPI_Comm comm, double *grad, int n) {
  AgreedLoader loader(comm);
  for (int b = 0; b < loader.steps(); ++b)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
}

// Positive: the same loader without the agreement.
class ShardLoader {
public:
  void open(MPI_Comm comm) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    this->steps_ = 100 + rank % 3;
  }
  int steps() const { return steps_; }

private:
  int steps_ = 0;
};

void train_unagreed(MPI_Comm comm, double *grad, int n) {
  ShardLoader loader;
  loader.open(comm);
  for (int b = 0; b < loader.steps(); ++b)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'b < loader.steps()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-16]]:5: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void load_weights(c10d::ProcessGroup &pg, std::vector<at::Tensor> &weights, const char *path) {
  int rank = pg.getRank();
  bool have_file = std::fopen(path, "r") != nullptr;
  c10d::BroadcastOptions opts;
  opts.rootRank = have_file ? rank : 0;
  pg.broadcast(weights, opts)->wait();
  // CHECK-MESSAGES: :[[@LINE-2]]:19: warning: the root of 'c10d::ProcessGroup::broadcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'have_file ? rank : 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:14: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:19: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: the root is overwritten with a constant before the call.
void load_weights_from_zero(c10d::ProcessGroup &pg, std::vector<at::Tensor> &weights) {
  int rank = pg.getRank();
  c10d::BroadcastOptions opts;
  opts.rootRank = rank;
  opts.rootRank = 0;
  pg.broadcast(weights, opts)->wait();
}

// A counter in an object, bumped on some ranks only, then tested by a method
// of the object before a barrier.
struct StragglerMonitor {
  int late = 0;
  void report(MPI_Comm comm) {
    if (late == 0)
      return;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'late == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'late == 0' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'late == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE+10]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
};

// Positive (reported in the method above): only odd ranks count themselves late.
void count_odd_ranks(StragglerMonitor &mon, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank % 2)
    mon.late++;
  mon.report(comm);
}

// Negative: every rank bumps the counter of its own monitor.
struct StepMonitor {
  int steps = 0;
  void report(MPI_Comm comm) {
    if (steps == 0)
      return;
    MPI_Barrier(comm);
  }
};

void count_every_rank(StepMonitor &mon, MPI_Comm comm, int n) {
  if (n > 0)
    mon.steps++;
  mon.report(comm);
}

// A method that appends to a member, called on some ranks only, leaves the
// member's size different between ranks: the emptiness test of another
// method decides whether the rank reaches the gather.
class LatencyMonitor {
public:
  explicit LatencyMonitor(MPI_Comm comm) : comm_(comm) {}
  void record(double ms) { samples_.push_back(ms); }
  double last() const { return samples_.empty() ? 0.0 : samples_.back(); }
  void report(double *all) {
    if (samples_.empty())
      return;
    double mine = samples_.back();
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, comm_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Gather' is never reached on ranks where 'samples_.empty()', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: ranks where 'samples_.empty()' return here
    // CHECK-MESSAGES: :[[@LINE-6]]:9: note: 'samples_.empty()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE+16]]:9: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE+13]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Gather' before leaving, or make the decision to leave the same on every rank
  }

private:
  MPI_Comm comm_;
  std::vector<double> samples_;
};

// Positive (reported in 'report'): requests are routed by rank, and a rank
// that served none this interval returns before the gather.
void latency_interval(LatencyMonitor &mon, double *all, int requests) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int r = 0; r < requests; ++r)
    if (r % 16 == rank)
      mon.record(0.5 + r);
  mon.report(all);
}

// Negative: every rank records the same number of samples; rank 0 only
// reads one, with a method that changes nothing.
void latency_everywhere(LatencyMonitor &mon, double *all, int requests) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int r = 0; r < requests; ++r)
    mon.record(0.5 + r);
  if (rank == 0)
    std::printf("last: %f\n", mon.last());
  mon.report(all);
}

// A method that changes only the elements of a member, called on some ranks
// only, leaves the member's size the same on every rank: the count of the
// allreduce agrees (negative), an element tested before it does not
// (positive).
class Weights {
public:
  explicit Weights(int n) : w_(n, 0.0f) {}
  void perturb() {
    for (size_t d = 0; d < w_.size(); ++d)
      w_[d] += 0.5f;
  }
  void sync(MPI_Comm comm) {
    MPI_Allreduce(MPI_IN_PLACE, w_.data(), (int)w_.size(), MPI_FLOAT, MPI_SUM, comm);
  }
  void sync_unless_large(MPI_Comm comm) {
    if (w_[0] > 1.0f)
      return;
    MPI_Allreduce(MPI_IN_PLACE, w_.data(), (int)w_.size(), MPI_FLOAT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'w_[0] > 1.0f', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'w_[0] > 1.0f' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'w_[0] > 1.0f' differs between ranks
    // CHECK-MESSAGES: :[[@LINE+12]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE+10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }

private:
  std::vector<float> w_;
};

void perturb_on_root(Weights &w, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    w.perturb();
  w.sync(comm);
  w.sync_unless_large(comm);
}

// A method that updates a map's existing entries through `find`, called on
// some ranks only, leaves the keys (the loop's trip count) the same on every
// rank (negative); one that counts with `operator[]`, which inserts a
// missing key, does not (positive).
class PhaseMetrics {
public:
  void declare(const std::string &phase) { seconds_.emplace(phase, 0.0); }
  void add(const std::string &phase, double s) {
    auto it = seconds_.find(phase);
    if (it != seconds_.end())
      it->second += s;
  }
  void count(const std::string &phase) { counts_[phase] += 1; }
  void summarize(MPI_Comm comm) {
    for (auto &[phase, s] : seconds_)
      MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, comm);
    for (auto &[phase, n] : counts_)
      MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT, MPI_SUM, comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
      // CHECK-MESSAGES: :[[@LINE-3]]:29: note: 'counts_' differs between ranks
      // CHECK-MESSAGES: :[[@LINE+14]]:7: note: the value is assigned under this rank-dependent condition
      // CHECK-MESSAGES: :[[@LINE+11]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }

private:
  std::map<std::string, double> seconds_;
  std::map<std::string, int> counts_;
};

void metrics_on_odd_ranks(PhaseMetrics &metrics, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  metrics.declare("exchange");
  if (rank % 2 == 1) {
    metrics.add("exchange", 0.5);
    metrics.count("halo");
  }
  metrics.summarize(comm);
}

// An object made by std::make_unique gets its arguments as one made on the
// stack does: a reader of a shard named after the rank.
struct ShardReader {
  std::ifstream in;
  explicit ShardReader(const std::string &path) : in(path) {}
  bool next(float *batch) { return bool(in.read(reinterpret_cast<char *>(batch), 1024)); }
};

// Positive: each rank reads its own shard until it ends.
void sync_per_batch(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto reader = std::make_unique<ShardReader>("train-" + std::to_string(rank) + ".bin");
  float batch[256];
  while (reader->next(batch))
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'reader->next(batch)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:43: note: parameter 'path' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: the same reader, but the ranks agree whether all of them still
// have a batch before each barrier.
void sync_while_all_have(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto reader = std::make_unique<ShardReader>("train-" + std::to_string(rank) + ".bin");
  float batch[256];
  int all = 1;
  while (all) {
    int mine = reader->next(batch);
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all)
      MPI_Barrier(comm);
  }
}

// Negative: rank 0 sets the step count, then broadcasts it before the
// method that loops on it runs.
struct RunConfig {
  int steps = 0;
  void load() { steps = 10; }
  void run(MPI_Comm comm) {
    for (int i = 0; i < steps; ++i)
      MPI_Barrier(comm);
  }
};

void run_broadcast_config(RunConfig &cfg, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    cfg.load();
  MPI_Bcast(&cfg.steps, 1, MPI_INT, 0, comm);
  cfg.run(comm);
}

void run_assigned_config(RunConfig &cfg, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    cfg.steps = 10;
  MPI_Bcast(&cfg.steps, 1, MPI_INT, 0, comm);
  cfg.run(comm);
}

// Negative: a method that only reads a member, through the non-const
// accessor its non-const body calls, changes nothing on rank 0.
struct Window {
  std::vector<double> values{1.0};
  void print() { std::printf("%f\n", values.front()); }
  void sync(MPI_Comm comm) {
    if (!values.empty())
      MPI_Allreduce(MPI_IN_PLACE, values.data(), (int)values.size(), MPI_DOUBLE, MPI_SUM, comm);
  }
};

void print_on_root(Window &w, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    w.print();
  w.sync(comm);
}

// A member container's element, read back through a method.
struct Scales {
  std::vector<double> norms = std::vector<double>(8);
  double first() const { return norms[0]; }
};

// Positive: each rank stores its own norm, so the stopping test differs.
void iterate_local_scale(double agreed, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Scales s;
  s.norms[0] = 1.0 + rank;
  for (int it = 0; it < 100; ++it) {
    if (agreed / s.first() < 1e-10)
      break;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'agreed / s.first() < 1e-10', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'agreed / s.first() < 1e-10' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'agreed / s.first() < 1e-10' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: the element is agreed by a broadcast before the method reads it.
// (A method reads a field per-rank if any caller leaves it per-rank: a second
// type keeps the positive above out of this one.)
struct AgreedScales {
  std::vector<double> norms = std::vector<double>(8);
  double first() const { return norms[0]; }
};

void iterate_agreed_scale(double agreed, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  AgreedScales s;
  s.norms[0] = 1.0 + rank;
  MPI_Bcast(s.norms.data(), 8, MPI_DOUBLE, 0, comm);
  for (int it = 0; it < 100; ++it) {
    if (agreed / s.first() < 1e-10)
      break;
    MPI_Barrier(comm);
  }
}

// A method that agrees its own member container, then reads it: what another
// method left there per rank is gone (`touched_` filled from this rank's
// tokens, then combined with MPI_LOR).
struct TouchedBuckets {
  std::vector<int> touched_ = std::vector<int>(4);
  void mark(int token) { touched_[token % 4] = 1; }
  // Positive: the mask is read as this rank left it.
  void sync_local(MPI_Comm comm) {
    for (int b = 0; b < 4; ++b) {
      if (!touched_[b])
        continue;
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' is never reached on ranks where '!touched_[b]', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: ranks where '!touched_[b]' continue with the next iteration here
      // CHECK-MESSAGES: :[[@LINE-5]]:11: note: '!touched_[b]' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-10]]:17: note: parameter 'token' receives a rank-dependent value from a caller
      // CHECK-MESSAGES: :[[@LINE+22]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-6]]:7: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
    }
  }
};

struct AgreedBuckets {
  std::vector<int> touched_ = std::vector<int>(4);
  void mark(int token) { touched_[token % 4] = 1; }
  // Negative: every rank holds the combined mask before it decides.
  void sync_agreed(MPI_Comm comm) {
    MPI_Allreduce(MPI_IN_PLACE, touched_.data(), 4, MPI_INT, MPI_LOR, comm);
    for (int b = 0; b < 4; ++b) {
      if (!touched_[b])
        continue;
      MPI_Barrier(comm);
    }
  }
};

void sync_buckets(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  TouchedBuckets local;
  local.mark(rank);
  local.sync_local(comm);
  AgreedBuckets agreed;
  agreed.mark(rank);
  agreed.sync_agreed(comm);
}

// A method sets fields of its object that the caller then reads: the object
// holds what the method left there, through the helpers it calls on `this`
// too, and a later method that sets a field again replaces it.
struct RankGrid {
  int world_rank = 0, dp_rank = 0;
  void query() { MPI_Comm_rank(MPI_COMM_WORLD, &world_rank); }
  void build(int tp) {
    query();
    dp_rank = world_rank / tp;
  }
};

// Positive: only the first replica of each group reduces, over the world.
void log_from_first_replica(double loss) {
  RankGrid grid;
  grid.build(2);
  if (grid.dp_rank == 0) {
    double sum = 0;
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'grid.dp_rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'grid.dp_rank == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-16]]:18: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
}

struct PendingWork {
  int pending = 0;
  void load(int rank) { pending = rank % 3; }
  void drain() { pending = 0; }
};

// Negative: the per-rank count is drained on every rank before it decides.
void drain_then_sync(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  PendingWork work;
  work.load(rank);
  work.drain();
  if (work.pending == 0)
    MPI_Barrier(comm);
}

struct MaybeDrained {
  int pending = 0;
  void maybe_drain(bool now) {
    if (now)
      pending = 0;
  }
};

// Positive: the drain may not happen, so the per-rank count the caller set
// is still there.
void maybe_drained(MPI_Comm comm, bool now) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MaybeDrained work;
  work.pending = rank % 3;
  work.maybe_drain(now);
  if (work.pending == 0)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'work.pending == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'work.pending == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A member container whose elements a constructor fills on some ranks only
// (`if (rank_ == 0) f_[i] = 1.0;`) holds per-rank elements for the other
// methods: the ranks whose smoother stagnates leave before the Allreduce.
// Its size, which the constructor gave every rank alike, does not differ.
class Smoother {
public:
  Smoother(int n, int rank) : rank_(rank), f_(n, 0.0) {
    if (rank_ == 0)
      for (int i = 0; i < n / 2; ++i)
        f_[i] = 1.0;
  }
  double residual() const {
    double sum = 0.0;
    for (double v : f_)
      sum += v * v;
    return sum;
  }
  void run(MPI_Comm comm) {
    // Negative: the size is the constructor's count on every rank.
    for (size_t i = 0; i < f_.size(); ++i)
      MPI_Barrier(comm);
    // Positive beside it: the elements differ.
    double local = residual();
    if (local == 0.0)
      return;
    double global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'local == 0.0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: ranks where 'local == 0.0' return here
    // CHECK-MESSAGES: :[[@LINE-6]]:9: note: 'local == 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-24]]:23: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }

private:
  int rank_;
  std::vector<double> f_;
};

void smooth(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Smoother s(64, rank);
  s.run(comm);
}

// A visitor handed to std::visit: the library calls its methods, which are
// all that can change its fields. The communicator its constructor set stays
// the same on every rank, however many events each rank visits; the count its
// methods keep does not.
struct Increment {
  int key;
};
struct EpochEnd {
  int epoch;
};
using Event = std::variant<Increment, EpochEnd>;

class CounterStore {
public:
  explicit CounterStore(MPI_Comm comm) : comm_(comm) {}
  void operator()(const Increment &inc) { buffered_ += inc.key; }
  void operator()(const EpochEnd &) { buffered_ = 0; }
  int buffered() const { return buffered_; }
  void flush() {
    int total = 0;
    MPI_Allreduce(&buffered_, &total, 1, MPI_INT, MPI_SUM, comm_);
  }

private:
  MPI_Comm comm_;
  int buffered_ = 0;
};

std::vector<Event> read_events(int rank);

// Negative: every rank flushes on the communicator it was built with.
void replay_events() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CounterStore store(MPI_COMM_WORLD);
  for (const Event &e : read_events(rank))
    std::visit(store, e);
  store.flush();
}

// Positive: what the visitor counted differs between ranks.
void replay_until_full() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CounterStore store(MPI_COMM_WORLD);
  for (const Event &e : read_events(rank))
    std::visit(store, e);
  if (store.buffered() > 100)
    store.flush();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'CounterStore::flush' (which calls 'MPI_Allreduce') runs only on ranks where 'store.buffered() > 100'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-30]]:5: note: 'MPI_Allreduce' is called here, inside 'CounterStore::flush'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'store.buffered() > 100' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-17]]:25: note: 'read_events' is given a value that differs between ranks; its body is not visible, so its result is taken to differ as well
    // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'CounterStore::flush' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

