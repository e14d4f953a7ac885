// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Every result of the engine is reported by exactly one check (Routing.cpp):
// with all checks on, a result two checks claim shows twice, one that none
// claims not at all. Ranks that leave before a group skip its start: that is
// their decision to leave (lockstep-rank-exit), not a group the ranks form
// differently (lockstep-group-balance), and once was reported by neither.
#include <nccl.h>

void leave_before_group(float *buf, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (rank == 1)
    return;
  ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclGroupStart' is never reached on ranks where 'rank == 1', which return before it; the other ranks wait in the operations of their group and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'ncclCommUserRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'ncclGroupStart' before leaving, or make the decision to leave the same on every rank
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  ncclGroupEnd();
}

// Negative: every rank leaves before the group, or none does.
void uniform_leave_before_group(float *buf, size_t n, ncclComm_t comm, cudaStream_t s,
                                int steps) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  if (steps == 0)
    return;
  ncclGroupStart();
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  ncclGroupEnd();
}

// Ranks that leave inside an open group: the group left open is reported
// once, by lockstep-group-balance, and the operations the leaving ranks skip
// by lockstep-rank-exit.
void leave_inside_group(float *buf, size_t n, ncclComm_t comm, cudaStream_t s) {
  int rank = 0;
  ncclCommUserRank(comm, &rank);
  ncclGroupStart();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclGroupStart' opens a group that is still open on some paths out of 'leave_inside_group'; the operations queued in it are never launched and the other ranks hang [lockstep-group-balance]
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the group is still open at this 'return'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: end the group on every path, or hold it in an RAII guard whose destructor ends it
  if (rank == 1)
    return;
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclAllReduce' is never reached on ranks where 'rank == 1', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'ncclCommUserRank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'ncclAllReduce' before leaving, or make the decision to leave the same on every rank
  ncclGroupEnd();
}
