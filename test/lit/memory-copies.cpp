// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Memory copies (rules "copies": memcpy, cudaMemcpy, ...): the destination
// holds what the source held. A value an allreduce agreed in device memory
// is agreed on the host once copied back; a per-rank value copied anywhere
// stays per-rank.
#include <cstring>
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <vector>

// Negative: each rank's opinion, agreed on the device, copied back.
static bool agree_stop(bool mine, int *d_flag, ncclComm_t comm, cudaStream_t s) {
  int h = mine ? 1 : 0;
  cudaMemcpyAsync(d_flag, &h, sizeof h, cudaMemcpyHostToDevice, s);
  ncclAllReduce(d_flag, d_flag, 1, ncclInt, ncclMax, comm, s);
  cudaMemcpyAsync(&h, d_flag, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h != 0;
}

void train(int rank, float *g, int *d_flag, ncclComm_t comm, cudaStream_t s) {
  for (int step = 0; step < 1000; ++step) {
    ncclAllReduce(g, g, 1024, ncclFloat, ncclSum, comm, s);
    if (agree_stop(rank == 0, d_flag, comm, s))
      break;
  }
}

// Positive: the opinion goes to the device, but the host tests its own.
static bool local_stop(bool mine, int *d_flag, ncclComm_t comm, cudaStream_t s) {
  int h = mine ? 1 : 0;
  cudaMemcpyAsync(d_flag, &h, sizeof h, cudaMemcpyHostToDevice, s);
  ncclAllReduce(d_flag, d_flag, 1, ncclInt, ncclMax, comm, s);
  return h != 0;
}

void train_local(int rank, float *g, int *d_flag, ncclComm_t comm, cudaStream_t s) {
  for (int step = 0; step < 1000; ++step) {
    ncclAllReduce(g, g, 1024, ncclFloat, ncclSum, comm, s);
    if (local_stop(rank == 0, d_flag, comm, s))
      break;
  }
  // CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'ncclAllReduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'local_stop(rank == 0, d_flag, comm, s)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:22: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // CHECK-MESSAGES: :[[@LINE-7]]:9: warning: 'local_stop' (which calls 'ncclAllReduce') runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: 'ncclAllReduce' is called here, inside 'local_stop'
  // CHECK-MESSAGES: :[[@LINE-9]]:9: note: 'local_stop(rank == 0, d_flag, comm, s)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-13]]:22: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-11]]:9: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

struct RunConfig {
  int steps;
  float lr;
};

// Negative: rank 0's settings broadcast as bytes, then unpacked.
void run_shared(int rank, float *w, MPI_Comm comm) {
  char packed[sizeof(RunConfig)] = {};
  if (rank == 0) {
    RunConfig mine{100 + rank, 0.1f};
    std::memcpy(packed, &mine, sizeof mine);
  }
  MPI_Bcast(packed, sizeof packed, MPI_BYTE, 0, comm);
  RunConfig cfg;
  std::memcpy(&cfg, packed, sizeof cfg);
  for (int i = 0; i < cfg.steps; ++i)
    MPI_Allreduce(MPI_IN_PLACE, w, 16, MPI_FLOAT, MPI_SUM, comm);
}

// Positive: every rank unpacks its own settings.
void run_own(int rank, float *w, MPI_Comm comm) {
  char packed[sizeof(RunConfig)] = {};
  RunConfig mine{100 + rank, 0.1f};
  std::memcpy(packed, &mine, sizeof mine);
  RunConfig cfg;
  std::memcpy(&cfg, packed, sizeof cfg);
  for (int i = 0; i < cfg.steps; ++i)
    MPI_Allreduce(MPI_IN_PLACE, w, 16, MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < cfg.steps' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:18: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: uneven shards, the longest agreed through a scratch buffer the
// object owns; every rank runs that many steps.
class ShardTrainer {
public:
  ShardTrainer(int rank, ncclComm_t comm) : comm_(comm) {
    for (int b = 0; b < 10 + rank; ++b)
      batches_.push_back(b);
  }
  void epoch() {
    const int steps = agreed_max(static_cast<int>(batches_.size()));
    for (int i = 0; i < steps; ++i)
      ncclAllReduce(grads_, grads_, 1024, ncclFloat, ncclSum, comm_, stream_);
  }

private:
  int agreed_max(int v) {
    int *d = reinterpret_cast<int *>(scratch_);
    cudaMemcpyAsync(d, &v, sizeof v, cudaMemcpyHostToDevice, stream_);
    ncclAllReduce(d, d, 1, ncclInt32, ncclMax, comm_, stream_);
    cudaMemcpyAsync(&v, d, sizeof v, cudaMemcpyDeviceToHost, stream_);
    cudaStreamSynchronize(stream_);
    return v;
  }
  ncclComm_t comm_;
  cudaStream_t stream_{};
  float *grads_{}, *scratch_{};
  std::vector<int> batches_;
};

// Positive: every rank gathered the same table, then copies out its own row.
void own_row(int rank, float *w, MPI_Comm comm) {
  int steps = 10 + rank;
  int all[64];
  MPI_Allgather(&steps, 1, MPI_INT, all, 1, MPI_INT, comm);
  int mine = 0;
  std::memcpy(&mine, all + rank, sizeof mine);
  for (int i = 0; i < mine; ++i)
    MPI_Allreduce(MPI_IN_PLACE, w, 16, MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < mine' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:18: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: every rank copies out the same row.
void first_row(int rank, float *w, MPI_Comm comm) {
  int steps = 10 + rank;
  int all[64];
  MPI_Allgather(&steps, 1, MPI_INT, all, 1, MPI_INT, comm);
  int first = 0;
  std::memcpy(&first, &all[0], sizeof first);
  for (int i = 0; i < first; ++i)
    MPI_Allreduce(MPI_IN_PLACE, w, 16, MPI_FLOAT, MPI_SUM, comm);
}
