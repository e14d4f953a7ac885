// A declaration-only model of PyTorch's c10d process-group API, with the
// same names, signatures and class shapes as
// torch/csrc/distributed/c10d/ProcessGroup.hpp and Backend.hpp, so that
// lockstep's tests and examples parse without libtorch. Nothing here runs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace c10 {
template <typename T> class intrusive_ptr {
public:
  T *operator->() const { return Ptr; }
  T &operator*() const { return *Ptr; }
  T *get() const { return Ptr; }

private:
  T *Ptr = nullptr;
};
template <typename T, typename... Args> intrusive_ptr<T> make_intrusive(Args &&...);
} // namespace c10

namespace at {
class Tensor {
public:
  int64_t numel() const;
  template <typename T> T item() const;
  Tensor sum() const;
};
} // namespace at

namespace c10d {

struct ReduceOp {
  enum RedOpType { SUM, AVG, PRODUCT, MIN, MAX };
  ReduceOp(RedOpType Op = SUM) : op(Op) {}
  RedOpType op;
};

struct AllreduceOptions { ReduceOp reduceOp = ReduceOp::SUM; };
struct AllreduceCoalescedOptions : AllreduceOptions {};
struct BroadcastOptions { int64_t rootRank = 0; int64_t rootTensor = 0; };
struct ReduceOptions { ReduceOp reduceOp = ReduceOp::SUM; int64_t rootRank = 0; int64_t rootTensor = 0; };
struct AllgatherOptions {};
struct GatherOptions { int64_t rootRank = 0; };
struct ScatterOptions { int64_t rootRank = 0; };
struct ReduceScatterOptions { ReduceOp reduceOp = ReduceOp::SUM; };
struct AllToAllOptions {};
struct BarrierOptions { std::vector<int64_t> device_ids; };

class Work {
public:
  virtual ~Work();
  virtual bool wait();
  virtual bool isCompleted();
  virtual bool isSuccess() const;
};

class Backend {
public:
  virtual ~Backend();
  int getRank() const;
  int getSize() const;
  virtual c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor> &tensors,
                                             const AllreduceOptions &opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor> &tensors,
                                             const BroadcastOptions &opts = BroadcastOptions());
  virtual c10::intrusive_ptr<Work> barrier(const BarrierOptions &opts = BarrierOptions());
};

class ProcessGroup {
public:
  virtual ~ProcessGroup();
  int getRank() const;
  int getSize() const;
  virtual c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor> &tensors,
                                             const AllreduceOptions &opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work> allreduce_coalesced(
      std::vector<at::Tensor> &tensors,
      const AllreduceCoalescedOptions &opts = AllreduceCoalescedOptions());
  virtual c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor> &tensors,
                                             const BroadcastOptions &opts = BroadcastOptions());
  virtual c10::intrusive_ptr<Work> reduce(std::vector<at::Tensor> &tensors,
                                          const ReduceOptions &opts = ReduceOptions());
  virtual c10::intrusive_ptr<Work> allgather(std::vector<std::vector<at::Tensor>> &outputTensors,
                                             std::vector<at::Tensor> &inputTensors,
                                             const AllgatherOptions &opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> reduce_scatter(
      std::vector<at::Tensor> &outputTensors, std::vector<std::vector<at::Tensor>> &inputTensors,
      const ReduceScatterOptions &opts = ReduceScatterOptions());
  virtual c10::intrusive_ptr<Work> alltoall(std::vector<at::Tensor> &outputTensors,
                                            std::vector<at::Tensor> &inputTensors,
                                            const AllToAllOptions &opts = AllToAllOptions());
  virtual c10::intrusive_ptr<Work> barrier(const BarrierOptions &opts = BarrierOptions());
};

} // namespace c10d
