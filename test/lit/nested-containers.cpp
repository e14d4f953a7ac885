// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Containers inside the elements of a container (a bucket's gradient
// buffer): their elements differ between ranks while their sizes, and the
// outer container's, do not. Filling them per rank (`std::generate` with a
// per-rank generator, `std::fill`) makes only their elements per-rank, also
// for the function the elements are handed to, and for the caller of a
// function that returns the outer container.
#include <mpi.h>
#include <algorithm>
#include <numeric>
#include <vector>

struct Bucket {
  int id;
  std::vector<float> flat;
};

static std::vector<Bucket> plan_buckets(int count, int width) {
  std::vector<Bucket> buckets;
  for (int b = 0; b < count; ++b)
    buckets.push_back({b, std::vector<float>(width)});
  return buckets;
}

static void fill_local_grads(std::vector<Bucket> &buckets, int rank) {
  for (auto &b : buckets) {
    float v = 0.5f * static_cast<float>(rank + 1);
    std::generate(b.flat.begin(), b.flat.end(), [&v] { return v += 0.001f; });
  }
}

static void reduce_bucket(Bucket &b, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT, MPI_SUM,
                comm);
}

// Negative: every bucket has the same size on every rank; only the
// gradients in it differ.
void reduce_all(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto buckets = plan_buckets(4, 256);
  for (auto &b : buckets) {
    float v = 0.5f * static_cast<float>(rank + 1);
    std::generate(b.flat.begin(), b.flat.end(), [&v] { return v += 0.001f; });
  }
  for (auto &b : buckets)
    reduce_bucket(b, comm);
  std::for_each(buckets.begin(), buckets.end(), [comm](Bucket &b) {
    MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT,
                  MPI_SUM, comm);
  });
  reduce_bucket(buckets[0], comm);
}

// Negative: the same, with the gradients filled by a callee.
void reduce_filled(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto buckets = plan_buckets(4, 256);
  fill_local_grads(buckets, rank);
  for (auto &b : buckets)
    reduce_bucket(b, comm);
  std::for_each(buckets.begin(), buckets.end(), [comm](Bucket &b) {
    MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT,
                  MPI_SUM, comm);
  });
}

// Positive: a bucket whose gradients are all zero on this rank is skipped
// here only.
void reduce_nonzero(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto buckets = plan_buckets(4, 256);
  for (auto &b : buckets) {
    float v = 0.5f * static_cast<float>(rank % 2);
    std::generate(b.flat.begin(), b.flat.end(), [&v] { return v *= 1.001f; });
  }
  std::for_each(buckets.begin(), buckets.end(), [comm](Bucket &b) {
    double sq = std::accumulate(b.flat.begin(), b.flat.end(), 0.0);
    if (sq == 0.0)
      return;
    MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT,
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'sq == 0.0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'sq == 0.0' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'sq == 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:64: note: parameter 'b' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
                  MPI_SUM, comm);
  });
}

// Negative: the buckets a function returns keep their sizes apart from
// their per-rank gradients.
static std::vector<Bucket> local_grads(int rank) {
  auto buckets = plan_buckets(4, 256);
  for (auto &b : buckets)
    std::fill(b.flat.begin(), b.flat.end(), rank * 1.0f);
  return buckets;
}

void reduce_returned(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto buckets = local_grads(rank);
  // Positive: a test on this rank's gradients themselves.
  if (buckets[0].flat[0] == 0.0f)
    return;
  for (auto &b : buckets)
    MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT,
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'buckets[0].flat[0] == 0.0f', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: ranks where 'buckets[0].flat[0] == 0.0f' return here
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'buckets[0].flat[0] == 0.0f' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
                  MPI_SUM, comm);
}

// Positive: the same test after a callee filled the gradients.
void reduce_filled_nonzero(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto buckets = plan_buckets(4, 256);
  fill_local_grads(buckets, rank);
  if (buckets[0].flat[0] == 0.0f)
    return;
  for (auto &b : buckets)
    reduce_bucket(b, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'reduce_bucket' (which calls 'MPI_Allreduce') is never reached on ranks where 'buckets[0].flat[0] == 0.0f', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: ranks where 'buckets[0].flat[0] == 0.0f' return here
    // CHECK-MESSAGES: :[[@LINE-100]]:3: note: 'MPI_Allreduce' is called here, inside 'reduce_bucket'
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'buckets[0].flat[0] == 0.0f' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-110]]:64: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-77]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: let every rank reach 'reduce_bucket' before leaving, or make the decision to leave the same on every rank
}

// A function handed the whole container runs its callable on each bucket.
static void reduce_each(std::vector<Bucket> &buckets, MPI_Comm comm) {
  std::for_each(buckets.begin(), buckets.end(), [comm](Bucket &b) {
    MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT,
                  MPI_SUM, comm);
  });
}

static void reduce_each_nonzero(std::vector<Bucket> &buckets, MPI_Comm comm) {
  std::for_each(buckets.begin(), buckets.end(), [comm](Bucket &b) {
    if (std::accumulate(b.flat.begin(), b.flat.end(), 0.0) == 0.0)
      return;
    MPI_Allreduce(MPI_IN_PLACE, b.flat.data(), static_cast<int>(b.flat.size()), MPI_FLOAT,
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'std::accumulate(b.flat.begin(), b.flat.end(), 0.0) == 0.0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'std::accumulate(b.flat.begin(), b.flat.end(), 0.0) == 0.0' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'std::accumulate(b.flat.begin(), b.flat.end(), 0.0) == 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:64: note: parameter 'b' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-9]]:54: note: parameter 'buckets' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-133]]:64: note: parameter 'rank' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-100]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
                  MPI_SUM, comm);
  });
}

void reduce_through_callees(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  auto buckets = plan_buckets(4, 256);
  fill_local_grads(buckets, rank);
  // Negative: the bucket sizes are the same on every rank.
  reduce_each(buckets, comm);
  // Positive: the test reads this rank's gradients.
  reduce_each_nonzero(buckets, comm);
}

// A range-for over an element's container field (`for (auto &g : b.flat)`)
// writes the elements of that field, not the bucket: the field's size stays
// the same on every rank.
static void reduce_flat(std::vector<float> &flat, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, flat.data(), static_cast<int>(flat.size()), MPI_FLOAT, MPI_SUM,
                comm);
}

void range_for_fill(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Bucket> buckets = plan_buckets(2, 64);
  for (Bucket &b : buckets)
    for (float &g : b.flat)
      g = static_cast<float>(rank);
  // Negative: the count is the field's size.
  for (Bucket &b : buckets)
    reduce_flat(b.flat, comm);
  // Positive beside it: the test reads a gradient this rank wrote.
  for (Bucket &b : buckets)
    for (float g : b.flat)
      if (g > 0)
        MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'MPI_Barrier' runs only on ranks where 'g > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: 'g > 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A container held in an element of another (`outgoing[dest]` of a vector
// of vectors, one per destination): its size is that element's value. A
// rank that fills one destination's buffer, or the buffer of a destination
// it computes from its own data, holds other sizes there than the others;
// the outer container's size stays the same on every rank.
struct Particle {
  double x, v;
};

static bool any_rank(bool local, MPI_Comm comm) {
  int l = local ? 1 : 0, g = 0;
  MPI_Allreduce(&l, &g, 1, MPI_INT, MPI_LOR, comm);
  return g != 0;
}

// Reads the sizes of the caller's inner buffers: per-rank send counts are
// what MPI_Alltoall exchanges.
static void exchange_counts(std::vector<std::vector<Particle>> &out, MPI_Comm comm) {
  std::vector<int> send_n(out.size()), recv_n(out.size());
  for (size_t r = 0; r < out.size(); ++r)
    send_n[r] = static_cast<int>(out[r].size() * sizeof(Particle));
  MPI_Alltoall(send_n.data(), 1, MPI_INT, recv_n.data(), 1, MPI_INT, comm);
}

void per_destination_buffers(const std::vector<Particle> &mine, int size, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  const double lo = rank, hi = rank + 1.0;
  std::vector<std::vector<Particle>> outgoing(size);
  for (Particle p : mine)
    if (p.x < lo || p.x >= hi)
      outgoing[static_cast<int>(p.x) % size].push_back(p);
  // Negative: the outer container's size is what every rank constructed.
  std::vector<int> totals(outgoing.size());
  MPI_Allreduce(MPI_IN_PLACE, totals.data(), static_cast<int>(outgoing.size()), MPI_INT, MPI_SUM,
                comm);
  exchange_counts(outgoing, comm);
  // Positive beside it: whether any buffer of this rank is filled.
  bool leaving = false;
  for (auto &o : outgoing)
    leaving = leaving || !o.empty();
  if (leaving || any_rank(leaving, comm)) exchange_counts(outgoing, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'any_rank' (which calls 'MPI_Allreduce') runs only on ranks where 'leaving' is false; the other ranks call 'MPI_Alltoall' instead and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-32]]:3: note: 'MPI_Allreduce' is called here, inside 'any_rank'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'leaving' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-15]]:21: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-20]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:43: note: the other ranks call 'MPI_Alltoall' here
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: call 'any_rank' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-MESSAGES: :[[@LINE-8]]:43: warning: 'exchange_counts' (which calls 'MPI_Alltoall') runs only on ranks where 'leaving || any_rank(leaving, comm)'; the other ranks call 'MPI_Allreduce' instead and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-29]]:3: note: 'MPI_Alltoall' is called here, inside 'exchange_counts'
  // CHECK-MESSAGES: :[[@LINE-10]]:7: note: 'leaving || any_rank(leaving, comm)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-22]]:21: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-27]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-13]]:18: note: the other ranks call 'MPI_Allreduce' here
  // CHECK-MESSAGES: :[[@LINE-14]]:43: note: call 'exchange_counts' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void one_destination_filled(int size, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<std::vector<int>> uniform(size), chosen(size), sometimes(size);
  // Negative: every rank appends one element to the same buffer.
  uniform[0].push_back(rank);
  if (uniform[0].size() == 1)
    MPI_Barrier(comm);
  // Positive: each rank appends to the buffer its rank picks.
  chosen[rank % size].push_back(1);
  if (!chosen[0].empty())
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where '!chosen[0].empty()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: '!chosen[0].empty()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // Positive: only some ranks append.
  if (rank > 2)
    sometimes[0].push_back(1);
  if (!sometimes[0].empty())
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where '!sometimes[0].empty()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: '!sometimes[0].empty()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-22]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
