// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-exit,lockstep-rank-argument' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// ncclCommSplit with NCCL_SPLIT_NOCOLOR: the ranks left out get a null
// communicator, so a test of the handle against null (however it is spelled)
// is a test of membership. A collective on the split communicator that
// exactly its members make is quiet; one on the parent communicator is not,
// nor one the ranks left out make on their null handle.
#include <nccl.h>
#include <cstddef>

void members_only(ncclComm_t world, float *buf, cudaStream_t s) {
  int rank;
  ncclCommUserRank(world, &rank);
  ncclComm_t sub = nullptr;
  ncclCommSplit(world, rank < 2 ? 0 : NCCL_SPLIT_NOCOLOR, rank, &sub, nullptr);
  if (sub != nullptr)
    ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, sub, s);
  if (sub != NULL)
    ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, sub, s);
  if (sub)
    ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, sub, s);
  if (sub == nullptr)
    return;
  ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, sub, s);
}

void parent_under_membership(ncclComm_t world, float *buf, cudaStream_t s) {
  int rank;
  ncclCommUserRank(world, &rank);
  ncclComm_t sub = nullptr;
  ncclCommSplit(world, rank < 2 ? 0 : NCCL_SPLIT_NOCOLOR, rank, &sub, nullptr);
  if (sub != nullptr)
    ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, world, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ncclAllReduce' runs only on ranks where 'sub != nullptr'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'sub != nullptr' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: each part of the split by 'ncclCommSplit' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'ncclCommUserRank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: for example, in a job of 3 ranks, rank 1 calls 'ncclAllReduce' and rank 2 does not
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'ncclAllReduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: the ranks left out reduce on their null handle too.
void everyone_on_sub(ncclComm_t world, float *buf, cudaStream_t s) {
  int rank;
  ncclCommUserRank(world, &rank);
  ncclComm_t sub = nullptr;
  ncclCommSplit(world, rank < 2 ? 0 : NCCL_SPLIT_NOCOLOR, rank, &sub, nullptr);
  ncclAllReduce(buf, buf, 16, ncclFloat, ncclSum, sub, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: 'ncclAllReduce' is called on 'sub' by ranks that are not its members; there 'sub' is null and the call fails [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'ncclCommSplit' gives 'sub' no communicator on the ranks whose colour 'rank < 2 ? 0 : NCCL_SPLIT_NOCOLOR' is NCCL_SPLIT_NOCOLOR
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'ncclCommUserRank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:51: note: for example, in a job of 3 ranks, rank 2 reaches the call outside 'sub'
  // CHECK-MESSAGES: :[[@LINE-5]]:51: note: call 'ncclAllReduce' only where 'sub' is not null, or give every rank a colour
}
