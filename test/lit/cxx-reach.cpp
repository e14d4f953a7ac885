// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// C++ reach: member functions, virtual calls on c10d through pointers,
// references, std::shared_ptr and c10::intrusive_ptr, functors and lambdas
// whose callee is known; calls through std::function or unknown function
// pointers are not assumed to perform collectives.
#include <functional>
#include <memory>
#include <mpi.h>
#include <c10d/ProcessGroup.hpp>

static int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void through_pointers(std::shared_ptr<c10d::ProcessGroup> pg, c10::intrusive_ptr<c10d::Backend> be,
                      c10d::ProcessGroup *raw, std::vector<at::Tensor> &t) {
  if (pg->getRank() == 0)
    pg->allreduce(t)->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::allreduce' runs only on ranks where 'pg->getRank() == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'pg->getRank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'c10d::ProcessGroup::allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (be->getRank() == 1)
    be->barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::Backend::barrier' runs only on ranks where 'be->getRank() == 1'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'be->getRank() == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from 'c10d::Backend::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'c10d::Backend::barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  if (raw->getRank() != 0)
    raw->broadcast(t)->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::broadcast' runs only on ranks where 'raw->getRank() != 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'raw->getRank() != 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'c10d::ProcessGroup::broadcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the same calls through the same pointers under conditions every
// rank evaluates alike: the size is the same everywhere.
void through_pointers_uniform(std::shared_ptr<c10d::ProcessGroup> pg,
                              c10::intrusive_ptr<c10d::Backend> be, c10d::ProcessGroup *raw,
                              std::vector<at::Tensor> &t) {
  if (pg->getSize() > 1)
    pg->allreduce(t)->wait();
  if (be->getSize() > 1)
    be->barrier()->wait();
  if (raw->getSize() != 1)
    raw->broadcast(t)->wait();
}

// A derived process group: the rules for the base class cover its overrides.
class MyGroup : public c10d::ProcessGroup {
public:
  c10::intrusive_ptr<c10d::Work> allreduce(std::vector<at::Tensor> &tensors,
                                           const c10d::AllreduceOptions &opts) override;
};
void derived(MyGroup &g, std::vector<at::Tensor> &t) {
  if (g.getRank() == 0)
    g.allreduce(t, c10d::AllreduceOptions())->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::allreduce' runs only on ranks where 'g.getRank() == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g.getRank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the rank comes from 'c10d::ProcessGroup::getRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'c10d::ProcessGroup::allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the override under a condition every rank evaluates alike.
void derived_uniform(MyGroup &g, std::vector<at::Tensor> &t) {
  if (g.getSize() > 1)
    g.allreduce(t, c10d::AllreduceOptions())->wait();
}

class Trainer {
public:
  explicit Trainer(MPI_Comm c) : comm_(c) {
    MPI_Comm_rank(c, &rank_);
    MPI_Comm_size(c, &size_);
  }
  void checkpoint() { MPI_Barrier(comm_); }
  void step() {
    if (rank_ == 0)
      checkpoint();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'Trainer::checkpoint' (which calls 'MPI_Barrier') runs only on ranks where 'rank_ == 0'
    // CHECK-MESSAGES: :[[@LINE-5]]:23: note: 'MPI_Barrier' is called here, inside 'Trainer::checkpoint'
    // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'rank_ == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:5: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'Trainer::checkpoint' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }

  // Negative: a member every rank sets alike.
  void stepUniform() {
    if (size_ > 1)
      checkpoint();
  }

private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

struct Sync {
  MPI_Comm comm;
  void operator()() const { MPI_Barrier(comm); }
};
void functor(Sync sync) {
  if (world_rank() == 0)
    sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Sync::operator()' (which calls 'MPI_Barrier') runs only on ranks where 'world_rank() == 0'
  // CHECK-MESSAGES: :[[@LINE-6]]:29: note: 'MPI_Barrier' is called here, inside 'Sync::operator()'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'world_rank() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-98]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Sync::operator()' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the functor under a condition every rank evaluates alike.
void functor_uniform(Sync sync, int epochs) {
  if (epochs > 1)
    sync();
}

// Negative: what runs behind std::function or a function pointer is unknown.
void opaque(std::function<void()> f, void (*g)()) {
  if (world_rank() == 0) {
    f();
    g();
  }
}
