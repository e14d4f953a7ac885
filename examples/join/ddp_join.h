// A small uneven-input join API in the style of PyTorch DDP's `join()`
// context manager, for lockstep's join-barrier check. While a Join object is
// alive, a rank that runs out of input keeps answering the collectives of
// Model::forward and Model::backward with zero-valued shadows until every
// rank has run out; only then do the ranks leave the join region together.
// ddp_join.json tells lockstep about this protocol.
#pragma once

#include <c10d/ProcessGroup.hpp>

#include <vector>

namespace ddp {

class Model {
public:
  explicit Model(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}

  // Tells the joined ranks that this one still trains (an allreduce of 1).
  at::Tensor forward(const at::Tensor &input) {
    std::vector<at::Tensor> notJoined{input};
    pg_->allreduce(notJoined)->wait();
    return input;
  }

  // Averages the gradients (one allreduce per bucket).
  void backward(const at::Tensor &loss) {
    std::vector<at::Tensor> grads{loss};
    pg_->allreduce(grads)->wait();
  }

  c10d::ProcessGroup &group() { return *pg_.get(); }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

// The join region: its destructor shadows forward/backward for the ranks that
// finished early, then agrees on who has the final parameters.
class Join {
public:
  explicit Join(Model &model) : model_(model) {}
  ~Join();

private:
  Model &model_;
};

} // namespace ddp
