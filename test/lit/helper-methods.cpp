// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A method that calls another method of its own object (`add(lr)`) changes
// the object as if it ran the helper's body itself: a helper called on some
// ranks only leaves what it changes different between ranks.
#include <mpi.h>
#include <vector>

class Metrics {
public:
  explicit Metrics(MPI_Comm c) : comm_(c) { MPI_Comm_rank(comm_, &rank_); }
  void add(double v) { values_.push_back(v); }
  // Positive: only rank 0 appends the learning rate.
  void collect_on_root(double loss, double lr) {
    values_.clear();
    add(loss);
    if (rank_ == 0)
      add(lr);
    MPI_Allreduce(MPI_IN_PLACE, values_.data(), (int)values_.size(), MPI_DOUBLE, MPI_SUM, comm_);
    // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-2]]:49: note: '(int)values_.size()' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: the value is assigned under this rank-dependent condition
    // CHECK-MESSAGES: :[[@LINE-12]]:45: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:49: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::vector<double> values_;
};

class Bounded {
public:
  explicit Bounded(MPI_Comm c) : comm_(c) { MPI_Comm_rank(comm_, &rank_); }
  void add(double v) { values_.push_back(v); }
  // Negative: every rank appends both.
  void collect(double loss, double lr) {
    values_.clear();
    add(loss);
    add(lr);
    MPI_Allreduce(MPI_IN_PLACE, values_.data(), (int)values_.size(), MPI_DOUBLE, MPI_SUM, comm_);
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::vector<double> values_;
};
