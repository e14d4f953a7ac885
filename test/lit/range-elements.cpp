// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Elements reached through iterators: a loop over a container parameter
// (a range-for, `it != v.end()`) reads the elements the callers pass, and
// stepping an iterator (`++it`) changes nothing in the container; a
// library algorithm hands its callable the elements of its range; a
// container built from a range (`batch(data.begin() + lo, ...)`) holds its
// elements.
#include <mpi.h>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <vector>

struct LayerGrad {
  std::vector<float> grad;
};

// Skips the allreduce of the layers whose gradient is zero on this rank.
void sync_nonzero(std::vector<LayerGrad> &layers, MPI_Comm comm) {
  for (LayerGrad &layer : layers) {
    const double sq = std::accumulate(layer.grad.begin(), layer.grad.end(), 0.0);
    if (sq == 0.0)
      continue;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'sq == 0.0', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'sq == 0.0' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'sq == 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:43: note: parameter 'layers' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+73]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// The same through iterators.
void sync_nonzero_iterators(const std::vector<double> &norms, MPI_Comm comm) {
  for (auto it = norms.begin(); it != norms.end(); ++it) {
    if (*it == 0.0)
      continue;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where '*it == 0.0', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '*it == 0.0' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '*it == 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:56: note: parameter 'norms' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+58]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// The same in a lambda std::for_each runs on each element.
void sync_nonzero_each(std::vector<double> &norms, MPI_Comm comm) {
  std::for_each(norms.begin(), norms.end(), [&](double norm) {
    if (norm == 0.0)
      return;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where 'norm == 0.0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'norm == 0.0' return here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'norm == 0.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:56: note: parameter 'norm' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-9]]:45: note: parameter 'norms' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+42]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  });
}

// Mini-batches copied out of the data: a rank whose batch sums to a value
// that is not finite leaves the loop before the barrier.
void sync_batches(const std::vector<double> &data, MPI_Comm comm) {
  for (size_t lo = 0; lo + 2 <= data.size(); lo += 2) {
    std::vector<double> batch(data.begin() + lo, data.begin() + lo + 2);
    const double sum = std::accumulate(batch.begin(), batch.end(), 0.0);
    if (!std::isfinite(sum))
      break;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where '!std::isfinite(sum)', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!std::isfinite(sum)' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!std::isfinite(sum)' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:46: note: parameter 'data' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+24]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// The same with the iterators moved by std::next.
void sync_batches_next(const std::vector<double> &data, MPI_Comm comm) {
  for (size_t lo = 0; lo + 2 <= data.size(); lo += 2) {
    std::vector<double> batch(std::next(data.begin(), lo), std::next(data.begin(), lo + 2));
    if (!std::isfinite(std::accumulate(batch.begin(), batch.end(), 0.0)))
      break;
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is never reached on ranks where '!std::isfinite(std::accumulate(batch.begin(), batch.end(), 0.0))', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!std::isfinite(std::accumulate(batch.begin(), batch.end(), 0.0))' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!std::isfinite(std::accumulate(batch.begin(), batch.end(), 0.0))' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:51: note: parameter 'data' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  }
}

// Positive: a rank's own gradients.
void step_local_gradients(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<LayerGrad> layers(4);
  layers[0].grad.push_back(rank % 2);
  sync_nonzero(layers, comm);
  std::vector<double> norms(4, rank % 2);
  sync_nonzero_iterators(norms, comm);
  sync_nonzero_each(norms, comm);
  sync_batches(norms, comm);
  sync_batches_next(norms, comm);
}

// Negative: gradients every rank holds alike (after an allreduce).
void step_agreed_gradients(MPI_Comm comm) {
  std::vector<LayerGrad> layers(4);
  layers[0].grad.push_back(1.0f);
  std::vector<double> norms(4, 1.0);
  MPI_Allreduce(MPI_IN_PLACE, norms.data(), 4, MPI_DOUBLE, MPI_MAX, comm);
  sync_nonzero(layers, comm);
  sync_nonzero_iterators(norms, comm);
  sync_nonzero_each(norms, comm);
  sync_batches(norms, comm);
  sync_batches_next(norms, comm);
}

