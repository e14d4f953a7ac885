// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Fields reached through the accessors that hand them out by reference
// (`const std::vector<float> &grads() const { return grads_; }`), maps that
// a method inserts into through a reference to the new entry, and objects
// held in fields of the class whose methods change them.
#include <mpi.h>
#include <map>
#include <string>
#include <vector>

class Buckets {
public:
  // `buckets_[name]` inserts `name` when it is missing.
  void add(const std::string &name, float g) {
    auto &bucket = buckets_[name];
    bucket.push_back(g);
  }
  // Only names already there: the map keeps its size.
  void update(const std::string &name, float g) {
    auto it = buckets_.find(name);
    if (it != buckets_.end())
      it->second.push_back(g);
  }
  const std::map<std::string, std::vector<float>> &all() const { return buckets_; }
  const int &steps() const { return steps_; }
  void step() { ++steps_; }

private:
  std::map<std::string, std::vector<float>> buckets_;
  int steps_ = 0;
};

// Positive: only the odd ranks add the bucket, so the loop over the map
// runs once more there.
void sync_added(MPI_Comm comm, int rank) {
  Buckets b;
  if (rank % 2)
    b.add("expert.1", 1.0f);
  for (const auto &entry : b.all())
    MPI_Allreduce(MPI_IN_PLACE, (void *)entry.second.data(), 1, MPI_FLOAT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'b.all()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:36: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative beside it: an update of an existing entry leaves the size alone.
void sync_updated(MPI_Comm comm, int rank) {
  Buckets b;
  b.add("expert.1", 0.0f);
  if (rank % 2)
    b.update("expert.1", 1.0f);
  for (const auto &entry : b.all())
    MPI_Allreduce(MPI_IN_PLACE, (void *)entry.second.data(), 1, MPI_FLOAT, MPI_SUM, comm);
}

// A counter read through reference accessors.
class Counter {
public:
  void step() { ++steps_; }
  int &steps() { return steps_; }
  const int &steps() const { return steps_; }

private:
  int steps_ = 0;
};

// Positive: only rank 0 stepped it.
void steps_on_root(MPI_Comm comm, int rank) {
  Counter c;
  if (rank == 0)
    c.step();
  for (int i = 0; i < c.steps(); ++i)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < c.steps()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:39: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative beside it: the ranks agree on the count through the accessor
// before the loop.
void steps_agreed(MPI_Comm comm, int rank) {
  Counter c;
  if (rank == 0)
    c.step();
  MPI_Allreduce(MPI_IN_PLACE, &c.steps(), 1, MPI_INT, MPI_MAX, comm);
  for (int i = 0; i < c.steps(); ++i)
    MPI_Barrier(comm);
}

// Objects held in fields of a trainer: its routing adds a bucket per expert
// its own tokens chose, and another method reduces every bucket the map
// holds. (A field per-rank in one object is per-rank in every object of its
// class, so the negative uses a class of its own.)
class ExpertTrainer {
public:
  explicit ExpertTrainer(MPI_Comm comm) : comm_(comm) { MPI_Comm_rank(comm_, &rank_); }
  // Positive (reported in 'sync'): each rank's tokens pick other experts.
  void routed_step(const int *tokens_per_expert) {
    for (int e = 0; e < 4; ++e) {
      if (tokens_per_expert[e * rank_] == 0)
        continue;
      grads_.add("expert." + std::to_string(e), 1.0f);
    }
    sync();
  }

private:
  void sync() {
    for (const auto &entry : grads_.all())
      MPI_Allreduce(MPI_IN_PLACE, (void *)entry.second.data(), 1, MPI_FLOAT, MPI_SUM, comm_);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
      // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'grads_.all()' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-13]]:11: note: the value is assigned under this rank-dependent condition
      // CHECK-MESSAGES: :[[@LINE-18]]:57: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  }

  MPI_Comm comm_;
  int rank_ = 0;
  Buckets grads_;
};

class Shards {
public:
  void add(int id) { sizes_[id] += 1; }
  const std::map<int, int> &all() const { return sizes_; }

private:
  std::map<int, int> sizes_;
};

// Negative: the same flow where every rank skips the same experts.
class UniformTrainer {
public:
  explicit UniformTrainer(MPI_Comm comm) : comm_(comm) {}
  void step(const int *tokens_per_expert) {
    for (int e = 0; e < 4; ++e) {
      if (tokens_per_expert[e] == 0)
        continue;
      shards_.add(e);
    }
    sync();
  }

private:
  void sync() {
    for (const auto &entry : shards_.all())
      MPI_Barrier(comm_);
  }

  MPI_Comm comm_;
  Shards shards_;
};
