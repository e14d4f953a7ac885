// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// What a c10d Work object says of its operation is this rank's own view
// (rules/c10d.json per_rank_sources): whether it has completed yet, whether
// it succeeded. A collective decided by it hangs. `wait()` returns true or
// throws, so its result is no per-rank data; it and `isSuccess()` are
// statuses: a rank that leaves when its wait failed takes an error path, as
// `if (rc != MPI_SUCCESS) return rc;` does, and is not reported.
#include <c10d/ProcessGroup.hpp>
#include <cstdio>
#include <stdexcept>
#include <vector>

std::vector<at::Tensor> &gradients();

// Positive: ranks poll until their own allreduce completes, joining a
// barrier on every poll: each rank polls a different number of times.
void poll_with_barriers(c10d::ProcessGroup &pg) {
  auto work = pg.allreduce(gradients());
  while (!work->isCompleted())
    pg.barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: '!work->isCompleted()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: 'c10d::Work::isCompleted' returns a completion flag here; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first
}

// Positive: only the ranks whose operation succeeded join the barrier.
void barrier_on_success(c10d::ProcessGroup &pg) {
  auto work = pg.allreduce(gradients());
  work->wait();
  if (work->isSuccess())
    pg.barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10d::ProcessGroup::barrier' runs only on ranks where 'work->isSuccess()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'work->isSuccess()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'c10d::Work::isSuccess' returns the outcome of this rank's operation here; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'c10d::ProcessGroup::barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: a failed wait is an error path, whether it throws or returns.
void throw_on_failure(c10d::ProcessGroup &pg) {
  auto work = pg.allreduce(gradients());
  if (!work->wait())
    throw std::runtime_error("allreduce failed");
  pg.barrier()->wait();
}

bool return_on_failure(c10d::ProcessGroup &pg) {
  bool ok = pg.allreduce(gradients())->wait();
  if (!ok)
    return false;
  pg.barrier()->wait();
  return true;
}

// Negative: the completion flag is only logged.
void log_completion(c10d::ProcessGroup &pg) {
  auto work = pg.allreduce(gradients());
  if (work->isCompleted())
    std::printf("allreduce done early\n");
  pg.barrier()->wait();
}

// Negative: waits combined, and a wrapper's code from a wait, are statuses.
bool combined_waits(c10d::ProcessGroup &pg) {
  bool ok = pg.allreduce(gradients())->wait() && pg.barrier()->wait();
  if (!ok)
    return false;
  pg.barrier()->wait();
  return true;
}

static int wait_code(const c10::intrusive_ptr<c10d::Work> &work) { return work->wait() ? 0 : -1; }

int code_from_wait(c10d::ProcessGroup &pg) {
  if (int rc = wait_code(pg.allreduce(gradients())); rc != 0)
    return rc;
  pg.barrier()->wait();
  return 0;
}
