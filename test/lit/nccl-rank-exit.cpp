// REQUIRES: nccl
// RUN: %clang_tidy --checks='-*,lockstep-rank-exit' %s -- %cxx_flags %nccl_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// NCCL from a C++ translation unit: communicator creation is collective too.
#include <nccl.h>
#include <cstdlib>

ncclComm_t make_comm(ncclUniqueId id, int nranks) {
  int rank = std::atoi(std::getenv("RANK"));
  ncclComm_t comm;
  if (rank >= nranks)
    return nullptr;
  if (rank == 2 && std::getenv("SKIP_INIT"))
    return nullptr;
  ncclCommInitRank(&comm, nranks, id, rank);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclCommInitRank' is never reached on ranks where 'rank == 2 && std::getenv("SKIP_INIT")', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 2 && std::getenv("SKIP_INIT")' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 2 && std::getenv("SKIP_INIT")' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:24: note: the rank comes from the environment variable 'RANK' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'ncclCommInitRank' before leaving, or make the decision to leave the same on every rank
  return comm;
}
