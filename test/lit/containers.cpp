// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-loop' %s -- %cxx_flags -std=c++20 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Containers and arrays: a container is one storage. Writing an element with
// a per-rank value makes its elements per-rank (whatever the index); an
// overwrite of the whole container with uniform data, or a collective that
// writes it, makes them the same on every rank again. Elements at small
// constant indexes are told apart.
#include <mpi.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <vector>

struct Sample {
  float label;
};

bool bad(const Sample &s) { return s.label < 0; }

void nan_loss(MPI_Comm comm, const float *data, double *grad, int n, int batches) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> loss(batches);
  for (int b = 0; b < batches; ++b)
    loss[b] = data[rank * batches + b];
  for (int b = 0; b < batches; ++b) {
    if (std::isnan(loss[b]))
      return;
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'std::isnan(loss[b])', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'std::isnan(loss[b])' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'std::isnan(loss[b])' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: the losses are agreed (the sum over ranks) before they decide.
void agreed_loss(MPI_Comm comm, const float *data, double *grad, int n, int batches) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> loss(batches);
  for (int b = 0; b < batches; ++b)
    loss[b] = data[rank * batches + b];
  MPI_Allreduce(MPI_IN_PLACE, loss.data(), batches, MPI_FLOAT, MPI_SUM, comm);
  for (int b = 0; b < batches; ++b) {
    if (std::isnan(loss[b]))
      return;
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  }
}

void skip_bad(MPI_Comm comm, const std::vector<Sample> &shard, double *grad, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::array<Sample, 8> batch;
  for (int b = 0; b < 8; ++b)
    batch.at(b) = shard[rank * 8 + b];
  for (int b = 0; b < 8; ++b) {
    if (bad(batch[b]))
      continue;
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'bad(batch[b])', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'bad(batch[b])' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'bad(batch[b])' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: the batch is filled with the same samples on every rank.
void skip_bad_uniform(MPI_Comm comm, const std::vector<Sample> &shard, double *grad, int n) {
  std::array<Sample, 8> batch;
  for (int b = 0; b < 8; ++b)
    batch.at(b) = shard[b];
  for (int b = 0; b < 8; ++b) {
    if (bad(batch[b]))
      continue;
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  }
}

void c_array(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int info[2] = {0, 0};
  info[1] = rank;
  if (info[1])
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'info[1]'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'info[1]' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the rank's element is overwritten with a uniform value first,
// and the other element never held the rank.
void c_array_overwritten(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int info[2] = {0, 0};
  info[1] = rank;
  info[1] = 0;
  if (info[1] || info[0])
    MPI_Barrier(comm);
}

void range_for(MPI_Comm comm, const float *data, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> steps;
  for (int i = 0; i < n; ++i)
    steps.push_back(data[rank + i]);
  for (float s : steps)
    if (s > 1.0f)
      MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 's > 1.0f'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 's > 1.0f' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: a range-for over a vector of uniform data, whose size the loop
// bound does not depend on the elements.
void range_for_uniform(MPI_Comm comm, const float *data, int n) {
  std::vector<float> steps;
  for (int i = 0; i < n; ++i)
    steps.push_back(data[i]);
  for (float s : steps)
    if (s > 1.0f)
      MPI_Barrier(comm);
  for (size_t i = 0; i < steps.size(); ++i)
    MPI_Barrier(comm);
}

void through_pointer(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> counts(n);
  int *p = counts.data();
  p[0] = rank % 2;
  std::span<int> view(counts);
  for (int c : view)
    if (c)
      MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'c'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'c' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: broadcast from rank 0 through a span of the vector.
void through_pointer_agreed(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> counts(n);
  int *p = counts.data();
  p[0] = rank % 2;
  std::span<int> view(counts);
  MPI_Bcast(view.data(), n, MPI_INT, 0, comm);
  for (int c : counts)
    if (c)
      MPI_Barrier(comm);
}

void filled(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> flags(n);
  std::fill(flags.begin(), flags.end(), rank % 2);
  if (flags[0])
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'flags[0]'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'flags[0]' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: a member vector agreed in the constructor that fills it.
class Shard {
public:
  explicit Shard(MPI_Comm comm) : comm_(comm) {
    int rank;
    MPI_Comm_rank(comm_, &rank);
    sizes_.assign(4, 0);
    sizes_[0] = 100 + rank % 3;
    MPI_Allreduce(MPI_IN_PLACE, sizes_.data(), 4, MPI_INT, MPI_MAX, comm_);
  }
  int steps() const { return sizes_[0]; }

private:
  MPI_Comm comm_;
  std::vector<int> sizes_;
};

void train_shard(MPI_Comm comm, double *grad, int n) {
  Shard s(comm);
  for (int b = 0; b < s.steps(); ++b)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
}

// Negative: the array is broadcast through a pointer to its first element.
void broadcast_array(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int cfg[3];
  cfg[0] = rank;
  MPI_Bcast(&cfg[0], 3, MPI_INT, 0, comm);
  if (cfg[0] > 2)
    MPI_Barrier(comm);
}

// Element and field writes reach the caller through its reference and
// pointer arguments: the caller's elements (not its size) and fields.
void fill_losses(std::vector<float> &out, const float *data, int rank) {
  for (float &x : out)
    x = data[rank];
}
void set_one(std::vector<int> &out, int rank) { out[1] = rank; }

struct StepContext {
  int rank;
  int steps;
  MPI_Comm comm;
};
void init_context(StepContext *ctx, MPI_Comm comm, int steps) {
  MPI_Comm_rank(comm, &ctx->rank);
  ctx->steps = steps;
  ctx->comm = comm;
}

void filled_by_callee(MPI_Comm comm, const float *data, double *grad, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> loss(4);
  fill_losses(loss, data, rank);
  if (std::isnan(loss[2]))
    return;
  MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where 'std::isnan(loss[2])', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'std::isnan(loss[2])' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'std::isnan(loss[2])' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  std::vector<int> picks(4);
  set_one(picks, rank);
  if (picks[1] > 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'picks[1] > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'picks[1] > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void context_by_pointer(MPI_Comm comm, double *grad, int n) {
  StepContext ctx;
  init_context(&ctx, comm, 8);
  if (ctx.rank == 0)
    MPI_Barrier(ctx.comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'ctx.rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'ctx.rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-35]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the callee wrote per-rank elements, not a per-rank size; it wrote
// the context's steps and communicator with values every rank shares; and a
// callee that agrees the container before it returns leaves it agreed.
void agree_sizes(std::vector<int> &out, int rank, MPI_Comm comm) {
  out[0] = rank;
  MPI_Allreduce(MPI_IN_PLACE, out.data(), 4, MPI_INT, MPI_MAX, comm);
}
void callee_writes_agreed(MPI_Comm comm, const float *data, double *grad, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<float> loss(4);
  fill_losses(loss, data, rank);
  for (size_t b = 0; b < loss.size(); ++b)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  StepContext ctx;
  init_context(&ctx, comm, 8);
  for (int s = 0; s < ctx.steps; ++s)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, ctx.comm);
  std::vector<int> sizes(4);
  agree_sizes(sizes, rank, comm);
  if (sizes[0] > 2)
    MPI_Barrier(comm);
}

// A library container built from a count and a fill value: the count is its
// size, the fill value its elements.
void constructed(MPI_Comm comm, double *grad, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> filled(4, rank);
  for (size_t i = 0; i < filled.size(); ++i)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  std::vector<double> listed = {1.0 * rank, 2.0};
  for (size_t i = 0; i < listed.size(); ++i)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  if (filled[1] > 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'filled[1] > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'filled[1] > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  std::vector<double> sized(rank + 1, 0.0);
  for (size_t i = 0; i < sized.size(); ++i)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'i < sized.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // A string built from a C string has as many characters as it holds.
  char name[16];
  std::snprintf(name, sizeof name, "r%d", rank);
  std::string label(name);
  for (size_t i = 0; i < label.size(); ++i)
    MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'i < label.size()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-28]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// A container parameter: its size and its elements are the caller's, apart.
static void sum_each(std::vector<double> &v, MPI_Comm comm) {
  // Negative: the callers' vectors have the same size on every rank.
  for (size_t i = 0; i < v.size(); ++i)
    MPI_Allreduce(MPI_IN_PLACE, &v[i], 1, MPI_DOUBLE, MPI_SUM, comm);
}

static void repeat_first(const std::vector<int> &counts, MPI_Comm comm) {
  for (int i = 0; i < counts[0]; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < counts[0]' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:50: note: parameter 'counts' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+16]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

static void per_item(const std::vector<int> &items, MPI_Comm comm) {
  for (int item : items)
    MPI_Bcast(&item, 1, MPI_INT, 0, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'items' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:46: note: parameter 'items' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void container_parameters(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> samples(16, 0.0);
  for (size_t i = 0; i < samples.size(); ++i)
    samples[i] = rank + 0.5 * i;
  sum_each(samples, comm);
  std::vector<int> counts{rank, 2};
  repeat_first(counts, comm);
  // Negative: every rank holds three items, whatever their values.
  std::vector<int> items(3, rank);
  per_item(items, comm);
  // A per-rank size reaches the callee as one.
  std::vector<int> mine(rank + 1);
  per_item(mine, comm);
}

// A member container that one method grows on rank 0 only has another size
// there for every other method.
class Trainer {
public:
  void setup(MPI_Comm c) {
    comm_ = c;
    MPI_Comm_rank(comm_, &rank_);
    if (rank_ == 0)
      checkpoints_.push_back(10);
    // Negative: every rank records the same warmup steps.
    warmup_.push_back(5);
  }
  void fit() {
    for (int step : checkpoints_)
      MPI_Bcast(&step, 1, MPI_INT, 0, comm_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Bcast' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 'checkpoints_' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:9: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-12]]:5: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    for (int step : warmup_)
      MPI_Bcast(&step, 1, MPI_INT, 0, comm_);
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::vector<int> checkpoints_, warmup_;
};

// A helper fills a container inside a struct the caller passes: the
// caller's container holds per-rank elements, not a per-rank size.
struct Grid {
  std::vector<double> field;
  std::vector<double> halo;
};

static void init_grid(Grid &g, int rank) {
  g.field.assign(4, 1.0 + rank);
  g.halo.assign(4, 0.0);
}

void local_convergence(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Grid g;
  init_grid(g, rank);
  double delta = g.field[0], global;
  do {
    delta *= 0.5;
    MPI_Allreduce(&delta, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE+3]]:12: note: 'delta > 1e-3' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  } while (delta > 1e-3);
  // Negatives: the other container holds the same elements everywhere, and
  // the per-rank one the same number of them.
  double halo = g.halo[0];
  do {
    halo += 0.5;
    MPI_Allreduce(MPI_IN_PLACE, &halo, 1, MPI_DOUBLE, MPI_MAX, comm);
  } while (halo < 3);
  for (size_t i = 0; i < g.field.size(); ++i)
    MPI_Barrier(comm);
}

// A helper reads an element of a container in the struct it is given.
struct Mesh {
  std::vector<double> cells = std::vector<double>(4);
};

static double first_cell(const Mesh &m) { return m.cells[0]; }
static size_t cell_count(const Mesh *m) { return m->cells.size(); }

void local_error(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Mesh m, uniform;
  m.cells[0] = rank;
  if (first_cell(m) > 1.5)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'first_cell(m) > 1.5'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'first_cell(m) > 1.5' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Negatives: a struct whose elements are the same everywhere, and the
  // number of elements of the per-rank one.
  if (first_cell(uniform) > 1.5)
    MPI_Barrier(comm);
  if (cell_count(&m) > 2)
    MPI_Barrier(comm);
}

// A constructor fills member containers from the rank; a method's result
// computed from their elements differs between ranks, their sizes do not.
class LocalSystem {
public:
  LocalSystem(int n, int rank) : diag_(n), x_(n, 0.0) {
    for (int i = 0; i < n; ++i)
      diag_[i] = 2.0 + 4.0 / (1.0 + rank);
  }
  double sweep() {
    double res = 0;
    for (size_t i = 0; i < x_.size(); ++i) {
      double next = 1.0 / diag_[i];
      res += next - x_[i];
      x_[i] = next;
    }
    return res;
  }
  size_t unknowns() const { return diag_.size(); }

private:
  std::vector<double> diag_, x_;
};

void jacobi(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  LocalSystem sys(64, rank);
  double residual = 1.0, omega;
  while (residual > 1e-8) {
    MPI_Allreduce(&residual, &omega, 1, MPI_DOUBLE, MPI_MAX, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'residual > 1e-8' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-28]]:26: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
    residual = sys.sweep();
  }
  // Negative: the number of unknowns is the same on every rank.
  for (size_t i = 0; i < sys.unknowns(); ++i)
    MPI_Barrier(comm);
}

// A reference bound to the element a rank picks holds a per-rank value,
// even when every element is the same on every rank.
void role_by_reference(MPI_Comm comm, int world) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<std::string> roles(world);
  for (int r = 0; r < world; ++r)
    roles[r] = r == world - 1 ? "server" : "worker";
  const std::string &role = roles[rank];
  if (role == "worker")
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'role == "worker"'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'role == "worker"' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Negative: a reference to an element every rank picks.
  const std::string &last = roles[world - 1];
  if (last == "worker")
    MPI_Barrier(comm);
}

// Positive: a library algorithm over a table only this rank filled: its
// result follows the elements it is handed through the iterators.
void winner_of_local_table(MPI_Comm comm, int world) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> losses(world);
  losses[rank] = 1.0;
  if (std::min_element(losses.begin(), losses.end()) - losses.begin() == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'std::min_element(losses.begin(), losses.end()) - losses.begin() == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'std::min_element(losses.begin(), losses.end()) - losses.begin() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same table after every rank agreed on it.
void winner_of_agreed_table(MPI_Comm comm, int world) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> losses(world);
  losses[rank] = 1.0;
  MPI_Allreduce(MPI_IN_PLACE, losses.data(), world, MPI_DOUBLE, MPI_MAX, comm);
  if (std::min_element(losses.begin(), losses.end()) - losses.begin() == 0)
    MPI_Barrier(comm);
}

// A map's operator[] and emplace_back insert before they hand out the
// element: a map filled on some ranks only, and a vector grown by a
// per-rank count, have per-rank sizes.
void inserted_on_some_ranks(MPI_Comm comm, int local_batches) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::map<int, double> table;
  if (rank % 2 == 0)
    table[1] += 1.0;
  for (const auto &entry : table)
    MPI_Allreduce(&entry.second, nullptr, 1, MPI_DOUBLE, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'table' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  std::vector<std::pair<int, double>> preds;
  for (int b = 0; b < local_batches + rank; ++b)
    preds.emplace_back(b, 0.5);
  if (preds.empty())
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'preds.empty()', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'preds.empty()' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'preds.empty()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:19: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-21]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: the same insertions on every rank alike.
void inserted_everywhere(MPI_Comm comm, int batches) {
  std::map<int, double> table;
  table[1] += 1.0;
  for (const auto &entry : table)
    MPI_Allreduce(&entry.second, nullptr, 1, MPI_DOUBLE, MPI_SUM, comm);
  std::vector<std::pair<int, double>> preds;
  for (int b = 0; b < batches; ++b)
    preds.emplace_back(b, 0.5);
  if (preds.empty())
    return;
  MPI_Barrier(comm);
}

// A container swapped with another takes its size and elements; one given a
// range of another (`insert(end, first, last)`) grows by the range's length.
void walker_rounds(int rank) {
  std::vector<int> walkers(500, 1);
  while (!walkers.empty()) {
    std::vector<int> stay;
    for (int w : walkers)
      if (rank != 0)
        stay.push_back(w);
    walkers.swap(stay);
    // Positive: rank 0 empties its walkers after one round.
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-9]]:10: note: '!walkers.empty()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:24: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
  std::vector<int> queue(8, rank);
  for (int round = 0; round < 4; ++round) {
    std::vector<int> next(queue.size());
    queue.swap(next);
    // Negative: the size swapped in is the same on every rank.
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::vector<int> pending(500, 1);
  while (!pending.empty()) {
    std::vector<int> kept;
    for (int p : pending)
      if (p > rank)
        kept.push_back(p - 1);
    pending.clear();
    pending.insert(pending.end(), kept.begin(), kept.end());
    // Positive: how many are kept depends on the rank.
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-10]]:10: note: '!pending.empty()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-34]]:24: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }
  std::vector<int> batch(4, 0);
  for (int round = 0; round < 4; ++round) {
    std::vector<int> refill(4, rank);
    batch.clear();
    batch.insert(batch.end(), refill.begin(), refill.end());
    // Negative: four elements on every rank, whatever they hold.
    for (size_t i = 0; i < batch.size(); ++i)
      MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Negative: where a range goes (a per-rank offset) does not change how much
// the container grows.
void place_block(int rank, const std::vector<int> &displ) {
  std::vector<int> out(16, 0), block(4, rank);
  out.insert(out.begin() + displ[rank], block.begin(), block.end());
  for (size_t i = 0; i < out.size(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

struct Particle {
  double x;
};
struct Species {
  int id;
  std::vector<Particle> particles;
};

// Positive: a record moved into a container keeps its parts; the beam is
// empty on half of the ranks.
void moments_moved(int rank, int size) {
  Species beam{2, {}};
  if (rank < size / 2)
    beam.particles.push_back({0.5});
  std::vector<Species> all;
  all.push_back(std::move(beam));
  double n = 0.0;
  for (const Species &s : all) {
    if (s.particles.empty())
      continue;
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 's.particles.empty()', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 's.particles.empty()' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 's.particles.empty()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:24: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: every rank moves in a beam of the same particles.
void moments_moved_alike(int size) {
  Species beam{2, {}};
  for (int k = 0; k < size; ++k)
    beam.particles.push_back({0.5 * k});
  std::vector<Species> all;
  all.push_back(std::move(beam));
  double n = 0.0;
  for (const Species &s : all) {
    if (s.particles.empty())
      continue;
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
