// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-group-balance,lockstep-rank-branch' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Group balance with correlated conditions (issue 14, pattern 2): a group
// opened and closed under the same test of a value that does not change in
// between is balanced on every path, also across the constructor and the
// destructor of a guard that tests a field only its constructors set. A
// value that changes between the tests, or two different tests, still
// leaves the group open.
#include <nccl.h>

// Negative: one group around the per-device operations when there are several.
void all_devices(float **bufs, size_t n, int nGpus, ncclComm_t *comms, cudaStream_t *s) {
  if (nGpus > 1)
    ncclGroupStart();
  for (int i = 0; i < nGpus; ++i)
    ncclAllReduce(bufs[i], bufs[i], n, ncclFloat, ncclSum, comms[i], s[i]);
  if (nGpus > 1)
    ncclGroupEnd();
}

// Negative: the flag is a local that keeps its value, tested inside a loop.
void fused_steps(float *buf, size_t n, int steps, int mode, ncclComm_t comm, cudaStream_t s) {
  const bool fused = mode == 2;
  for (int i = 0; i < steps; ++i) {
    if (fused)
      ncclGroupStart();
    ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
    ncclBroadcast(buf, buf, n, ncclFloat, 0, comm, s);
    if (fused)
      ncclGroupEnd();
  }
}

// Positive: the flag changes between the tests.
void flag_changes(float *buf, size_t n, bool fused, ncclComm_t comm, cudaStream_t s) {
  if (fused)
    ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'flag_changes'
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  fused = n > 1024;
  if (fused)
    ncclGroupEnd();
}

// Positive: two different tests.
void different_tests(float *buf, size_t n, int nGpus, ncclComm_t comm, cudaStream_t s) {
  if (nGpus > 1)
    ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'different_tests'
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  if (nGpus > 2)
    ncclGroupEnd();
}

void step();

// Positive, with a remark: more conditions tested twice than the walk
// correlates (limits::MaxCorrelatedConditions); the last one is not. The
// arms of the 16 correlated ones settle within the walk's visits per block
// (limits::GroupVisitsPerBlock): its worklist goes in reverse post-order.
void many_flags(float *buf, size_t n, ncclComm_t comm, cudaStream_t s, bool f0, bool f1, bool f2, bool f3, bool f4, bool f5, bool f6, bool f7, bool f8, bool f9, bool f10, bool f11, bool f12, bool f13, bool f14, bool f15, bool f16) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: remark: lockstep: analysis of 'many_flags' incomplete: more than 16 conditions tested twice; group balance correlates the first ones [lockstep-rank-branch]
  if (f0)
    step();
  if (f0)
    step();
  if (f1)
    step();
  if (f1)
    step();
  if (f2)
    step();
  if (f2)
    step();
  if (f3)
    step();
  if (f3)
    step();
  if (f4)
    step();
  if (f4)
    step();
  if (f5)
    step();
  if (f5)
    step();
  if (f6)
    step();
  if (f6)
    step();
  if (f7)
    step();
  if (f7)
    step();
  if (f8)
    step();
  if (f8)
    step();
  if (f9)
    step();
  if (f9)
    step();
  if (f10)
    step();
  if (f10)
    step();
  if (f11)
    step();
  if (f11)
    step();
  if (f12)
    step();
  if (f12)
    step();
  if (f13)
    step();
  if (f13)
    step();
  if (f14)
    step();
  if (f14)
    step();
  if (f15)
    step();
  if (f15)
    step();
  if (f16)
    ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'many_flags'
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  if (f16)
    ncclGroupEnd();
}

// Negative: a guard that opens a group only when asked, and ends it under
// the same test of the field its constructor set; each object pairs its own
// start and end.
class OptionalGroup {
public:
  explicit OptionalGroup(bool enable) : active_(enable) {
    if (active_)
      ncclGroupStart();
  }
  ~OptionalGroup() {
    if (active_) {
      ncclGroupEnd();
      active_ = false;
    }
  }

private:
  bool active_;
};

void fused_parts(float *buf, size_t n, int parts, ncclComm_t comm, cudaStream_t s) {
  OptionalGroup group(parts > 1);
  for (int i = 0; i < parts; ++i)
    ncclAllReduce(buf + i, buf + i, n, ncclFloat, ncclSum, comm, s);
}

// Positive: a guard that a method can disarm; its constructor and destructor
// no longer pair up.
class DisarmableGroup {
public:
  explicit DisarmableGroup(bool enable) : active_(enable) {
    if (active_)
      ncclGroupStart();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'DisarmableGroup::DisarmableGroup'; the operations queued in it are never launched and the other ranks hang [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  }
  ~DisarmableGroup() {
    if (active_)
      ncclGroupEnd();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'ncclGroupEnd' ends a group that is not open on every path through 'DisarmableGroup::~DisarmableGroup'; the group calls no longer pair up [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: start the group on the same paths that end it
  }
  void disarm() { active_ = false; }

private:
  bool active_;
};

// Positive: a second test inside the first decides the start alone.
class SplitGroup {
public:
  SplitGroup(bool enable, int parts) : active_(enable) {
    if (active_) {
      if (parts > 1)
        ncclGroupStart();
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'SplitGroup::SplitGroup'; the operations queued in it are never launched and the other ranks hang [lockstep-group-balance]
      // CHECK-MESSAGES: :[[@LINE-2]]:9: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
    }
  }
  ~SplitGroup() {
    if (active_)
      ncclGroupEnd();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'ncclGroupEnd' ends a group that is not open on every path through 'SplitGroup::~SplitGroup'; the group calls no longer pair up [lockstep-group-balance]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: start the group on the same paths that end it
  }

private:
  bool active_;
};
