// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A process group held by reference or pointer in an object, or handed to
// a constructor beside the rank: running collectives on it, or passing a
// per-rank value next to it, leaves it the same group on every rank.
#include <c10d/ProcessGroup.hpp>
#include <memory>
#include <vector>

at::Tensor local_flag(int rank);

struct Agreement {
  c10d::ProcessGroup &pg_;
  bool any(int rank) {
    std::vector<at::Tensor> flags{local_flag(rank)};
    pg_.allreduce(flags)->wait();
    return flags[0].item<int>() != 0;
  }
};

// Negative: a per-rank argument to a method that runs a collective on the
// group the object holds.
bool agree_on_flag(c10d::ProcessGroup &pg) {
  Agreement agreement{pg};
  return agreement.any(pg.getRank());
}

struct StageState {
  StageState(c10d::ProcessGroup &pg, int index) : pg_(pg), index_(index) {}
  c10d::ProcessGroup &pg_;
  int index_;
};

// Negative: the group handed to a constructor beside the rank.
void build_stage(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  auto state = std::make_unique<StageState>(*pg, pg->getRank());
  pg->barrier()->wait();
}

// Positive: the object holding the group runs its collective on rank 0 only.
bool agree_on_root(c10d::ProcessGroup &pg) {
  Agreement agreement{pg};
  if (pg.getRank() == 0)
    return agreement.any(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'Agreement::any' (which calls 'c10d::ProcessGroup::allreduce') runs only on ranks where 'pg.getRank() == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-30]]:5: note: 'c10d::ProcessGroup::allreduce' is called here, inside 'Agreement::any'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'pg.getRank() == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the rank comes from 'c10d::ProcessGroup::getRank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:12: note: call 'Agreement::any' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return false;
}

