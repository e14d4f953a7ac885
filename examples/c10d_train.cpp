// A training loop on PyTorch's c10d process group (C++ API), buggy and fixed.
#include <c10d/ProcessGroup.hpp>
#include <cstdio>
#include <memory>
#include <vector>

class Evaluator {
public:
  explicit Evaluator(std::shared_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}

  // BUG: only rank 0 reduces the metric; the others skip the collective.
  void report_buggy(std::vector<at::Tensor> &metric) {
    if (pg_->getRank() == 0) {
      pg_->allreduce(metric)->wait();
      std::printf("metric reduced\n");
    }
  }

  // FIXED: reduce everywhere, print on rank 0.
  void report_fixed(std::vector<at::Tensor> &metric) {
    pg_->allreduce(metric)->wait();
    if (pg_->getRank() == 0)
      std::printf("metric reduced\n");
  }

  // BUG: even and odd ranks name different roots for the same broadcast.
  void sync_buggy(std::vector<at::Tensor> &weights) {
    int rank = pg_->getRank();
    if (rank % 2 == 0)
      pg_->broadcast(weights, c10d::BroadcastOptions{0, 0})->wait();
    else
      pg_->broadcast(weights, c10d::BroadcastOptions{1, 0})->wait();
  }

private:
  std::shared_ptr<c10d::ProcessGroup> pg_;
};
