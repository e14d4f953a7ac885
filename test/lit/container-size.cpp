// RUN: %clang_tidy --checks='-*,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A container's own state (its size) apart from its elements: refilling it
// on one rank with its own size (`v.assign(v.size(), x)`,
// `v.resize(v.size())`) changes its elements there, not its size; refilling
// it with another count makes the size differ between ranks. Resizing it
// to a length every rank agrees on (`v.resize(len)` after broadcasting
// `len`) makes its size the same everywhere again, also in an object held
// by a `std::unique_ptr`. A buffer made with another's size and swapped
// with it on one rank keeps the size every rank agrees on; a
// `std::array`'s size is its type's.
#include <mpi.h>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

// Negative: only the root's values change; the count stays the same.
void bcast_root_values(std::vector<float> &small, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    small.assign(small.size(), 3.0f);
  MPI_Bcast(small.data(), (int)small.size(), MPI_FLOAT, 0, comm);
}

// Positive: the root refills the buffer with one element more.
void bcast_root_grown(std::vector<float> &small, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    small.assign(small.size() + 1, 3.0f);
  MPI_Bcast(small.data(), (int)small.size(), MPI_FLOAT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: '(int)small.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:27: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

struct Checkpoint {
  std::vector<double> weights;
};

// Negative: only the root reads the weights, then every rank resizes to
// the broadcast length.
void load_weights(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto ckpt = std::make_unique<Checkpoint>();
  if (rank == 0)
    ckpt->weights.resize(1024);
  int len = (int)ckpt->weights.size();
  MPI_Bcast(&len, 1, MPI_INT, 0, comm);
  ckpt->weights.resize(len);
  MPI_Bcast(ckpt->weights.data(), (int)ckpt->weights.size(), MPI_DOUBLE, 0, comm);
}

// Positive: the length is not broadcast first.
void load_weights_unagreed(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto ckpt = std::make_unique<Checkpoint>();
  if (rank == 0)
    ckpt->weights.resize(1024);
  int len = (int)ckpt->weights.size();
  ckpt->weights.resize(len);
  MPI_Bcast(ckpt->weights.data(), (int)ckpt->weights.size(), MPI_DOUBLE, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: note: '(int)ckpt->weights.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:35: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A copy of a container, or one a function returns through a virtual call,
// keeps its size apart from its elements (set 8 g14): the activations are
// per-rank, their count is not.
static void sum_into(std::vector<double> &buf, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, MPI_SUM,
                comm);
}

struct Stage {
  virtual ~Stage() = default;
  virtual std::vector<double> backward(const std::vector<double> &dy) = 0;
};
struct Scale : Stage {
  std::vector<double> backward(const std::vector<double> &dy) override {
    std::vector<double> dx(dy.size());
    for (std::size_t i = 0; i < dy.size(); ++i)
      dx[i] = 0.5 * dy[i];
    return dx;
  }
};
struct Reduce : Stage {
  std::vector<double> backward(const std::vector<double> &dy) override {
    std::vector<double> dx = dy;
    sum_into(dx, MPI_COMM_WORLD);
    return dx;
  }
};

void run_stages(MPI_Comm comm) {
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<Scale>());
  stages.push_back(std::make_unique<Reduce>());
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> act(16);
  for (double &a : act)
    a = rank + 0.5;
  // Negative: copies and returned gradients have 16 elements everywhere.
  std::vector<double> grad(act);
  for (auto it = stages.rbegin(); it != stages.rend(); ++it)
    grad = (*it)->backward(grad);
  sum_into(grad, comm);
  // Positive beside it: a copy of a buffer grown on some ranks only.
  std::vector<double> extra = act;
  if (rank == 0)
    extra.push_back(1.0);
  std::vector<double> sent(extra);
  MPI_Allreduce(MPI_IN_PLACE, sent.data(), static_cast<int>(sent.size()), MPI_DOUBLE, MPI_SUM,
                comm);
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:44: note: 'static_cast<int>(sent.size())' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:44: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Elements written in a loop whose trip count differs between ranks (or
// under a rank-dependent branch) differ between ranks; the size does not.
// Negative: a subscript, an element reference and a range-for write the
// elements only, so the count of the allreduce after them is the same.
void train_uneven(long batches, std::vector<float> &grad, MPI_Comm comm) {
  for (long b = 0; b < batches; ++b) {
    grad[0] = 0.5f * float(b);
    float &last = grad[grad.size() - 1];
    last = 1.0f;
    for (float &g : grad)
      g += 1.0f;
  }
  MPI_Allreduce(MPI_IN_PLACE, grad.data(), (int)grad.size(), MPI_FLOAT, MPI_SUM, comm);
}

// Positive beside it: the loop also appends, so the size differs.
void train_uneven_append(long batches, std::vector<float> &grad, MPI_Comm comm) {
  for (long b = 0; b < batches; ++b) {
    grad[0] = 0.5f * float(b);
    grad.push_back(1.0f);
  }
  MPI_Allreduce(MPI_IN_PLACE, grad.data(), (int)grad.size(), MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: '(int)grad.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:31: note: parameter 'batches' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+21]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:44: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: a step that scales the gradients and reduces them in place,
// called in such a loop, writes their elements (the allreduce agrees on
// them), not their size.
static void scaled_step(std::vector<float> &grad, MPI_Comm comm) {
  for (float &g : grad)
    g *= 0.99f;
  MPI_Allreduce(MPI_IN_PLACE, grad.data(), (int)grad.size(), MPI_FLOAT, MPI_SUM, comm);
}

void train_steps(long batches, std::vector<float> &grad, MPI_Comm comm) {
  for (long b = 0; b < batches; ++b)
    scaled_step(grad, comm);
  MPI_Allreduce(MPI_IN_PLACE, grad.data(), (int)grad.size(), MPI_FLOAT, MPI_SUM, comm);
}

void train_all(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> grad(2048);
  train_uneven(10 + rank, grad, comm);
  train_uneven_append(10 + rank, grad, comm);
  train_steps(10 + rank, grad, comm);
}

// Negative: a copy made from a pair of iterators spans as many elements as
// the gradients hold, the same on every rank, whatever they hold.
void reduce_converted(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> grad(1024, 1.0f + rank);
  std::vector<double> wire(grad.begin(), grad.end());
  MPI_Allreduce(MPI_IN_PLACE, wire.data(), (int)wire.size(), MPI_DOUBLE, MPI_SUM, comm);
}

// Positive beside it: the range ends at a per-rank position.
void reduce_prefix(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> grad(1024, 1.0f);
  std::vector<double> head(grad.begin(), grad.begin() + rank);
  MPI_Allreduce(MPI_IN_PLACE, head.data(), (int)head.size(), MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: '(int)head.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:44: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A keyed container's size is how many different keys went in: per-rank
// keys (`m[rank % 3]`, `s.erase(rank)`) make it differ between ranks,
// per-rank values under the same keys do not.
void keyed_counts(MPI_Comm comm, const std::vector<std::string> &names, double *out) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::map<std::string, double> by_name;
  for (const auto &name : names) {
    by_name[name] += rank;
    by_name.insert({name, 1.0 * rank});
    by_name.emplace(name, rank);
  }
  MPI_Allreduce(MPI_IN_PLACE, out, (int)by_name.size(), MPI_DOUBLE, MPI_SUM, comm);
  std::map<int, double> by_class;
  by_class[rank % 3] += 1.0;
  MPI_Allreduce(MPI_IN_PLACE, out, (int)by_class.size(), MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: '(int)by_class.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  std::set<int> peers{0, 1, 2, 3};
  peers.erase(rank);
  MPI_Allreduce(MPI_IN_PLACE, out, (int)peers.size(), MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: '(int)peers.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  // Negative: looking a per-rank key up inserts nothing.
  std::map<int, double> table{{0, 1.0}, {1, 2.0}};
  auto hit = table.find(rank);
  if (hit != table.end())
    hit->second += table.at(0);
  MPI_Allreduce(MPI_IN_PLACE, out, (int)table.size(), MPI_DOUBLE, MPI_SUM, comm);
  // Looking a key up on some ranks only (`find`) changes no key; indexing
  // with one (`operator[]`) inserts it.
  std::map<std::string, double> phases{{"solve", 0.0}};
  if (rank % 2 == 1) {
    auto it = phases.find("solve");
    if (it != phases.end())
      it->second += 1.0;
  }
  MPI_Allreduce(MPI_IN_PLACE, out, (int)phases.size(), MPI_DOUBLE, MPI_SUM, comm);
  if (rank % 2 == 1)
    phases["halo"] += 1.0;
  MPI_Allreduce(MPI_IN_PLACE, out, (int)phases.size(), MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: '(int)phases.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-43]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A `std::array` holds as many elements as its type says, whatever they
// are. Negative: the counters differ between ranks, their number does not.
struct Counters {
  std::array<double, 4> values{};
};
void reduce_counters(Counters &c, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, c.values.data(), (int)c.values.size(), MPI_DOUBLE, MPI_SUM, comm);
}
void fill_counters(MPI_Comm comm, double *out) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Counters c;
  c.values = {1.0 * rank, 1.0, 0.0, 0.0};
  // Positive: an element is a count only on the rank that holds it.
  MPI_Allreduce(MPI_IN_PLACE, out, (int)c.values[0], MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: '(int)c.values[0]' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  reduce_counters(c, comm);
}

// A buffer made with another's size (`tmp(buf.size())`) holds as many
// elements as it while neither changes size. Negative: the root swaps the
// reduced values in; every rank broadcasts as many as before.
void reduce_then_bcast(std::vector<double> &buf, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> tmp(buf.size());
  MPI_Reduce(buf.data(), tmp.data(), (int)buf.size(), MPI_DOUBLE, MPI_SUM, 0, comm);
  if (rank == 0)
    buf.swap(tmp);
  MPI_Bcast(buf.data(), (int)buf.size(), MPI_DOUBLE, 0, comm);
}

// Positive: the root's buffer has one element more.
void reduce_then_bcast_grown(std::vector<double> &buf, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> tmp(buf.size() + 1);
  MPI_Reduce(buf.data(), tmp.data(), (int)buf.size(), MPI_DOUBLE, MPI_SUM, 0, comm);
  if (rank == 0)
    buf.swap(tmp);
  MPI_Bcast(buf.data(), (int)buf.size(), MPI_DOUBLE, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: '(int)buf.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:25: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A container made in place, in a braced list or assigned, has the size
// its counts give. Negative: per-rank values, a size every rank agrees on.
struct Block {
  int rows;
  std::vector<double> local;
};
void bcast_made_blocks(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Block b{4, std::vector<double>(16, 1.0 * rank)};
  MPI_Bcast(b.local.data(), (int)b.local.size(), MPI_DOUBLE, 0, comm);
  b.local = std::vector<double>(32, 0.5 * rank);
  MPI_Bcast(b.local.data(), (int)b.local.size(), MPI_DOUBLE, 0, comm);
  // Positive: as many elements as the rank says.
  Block c{4, std::vector<double>(rank + 1, 0.0)};
  MPI_Bcast(c.local.data(), (int)c.local.size(), MPI_DOUBLE, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:29: note: '(int)c.local.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Positive: an alias grows the buffer after the copy was made with its
// size; the root's swap then leaves it one element short there.
void reduce_then_bcast_aliased(std::vector<double> &buf, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> tmp(buf.size());
  std::vector<double> *grown = &buf;
  grown->push_back(1.0);
  if (rank == 0)
    buf.swap(tmp);
  MPI_Bcast(buf.data(), (int)buf.size(), MPI_DOUBLE, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: '(int)buf.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:25: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A container field built in the constructor's initializer list holds its
// size and its elements apart, as a local does: `table_(dim, x)` has `dim`
// elements on every rank, however `x` differs.
class EmbeddingTable {
public:
  EmbeddingTable(int dim, int rank)
      : table_(dim, 0.1 * (rank + 1)), mine_(rank + 1, 0.0), copy_(table_) {}
  // Negative: the sizes come from `dim`.
  void sync(MPI_Comm comm) {
    MPI_Bcast(table_.data(), static_cast<int>(table_.size()), MPI_DOUBLE, 0, comm);
    MPI_Bcast(copy_.data(), static_cast<int>(copy_.size()), MPI_DOUBLE, 0, comm);
  }
  // Positive: this one has one element more on each rank.
  void share(MPI_Comm comm) {
    MPI_Bcast(mine_.data(), static_cast<int>(mine_.size()), MPI_DOUBLE, 0, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: the count of 'MPI_Bcast' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: note: 'static_cast<int>(mine_.size())' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:31: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:29: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  }

private:
  std::vector<double> table_, mine_, copy_;
};

void embed(int dim) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EmbeddingTable t(dim, rank);
  t.sync(MPI_COMM_WORLD);
  t.share(MPI_COMM_WORLD);
}
