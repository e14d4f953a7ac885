// RUN: %clang_tidy --checks='-*,lockstep-rank-exit,lockstep-rank-branch' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
// RUN: %clang_tidy --checks='-*,lockstep-rank-exit,lockstep-rank-branch' \
// RUN:   --config="{CheckOptions: {lockstep-rank-exit.ErrorPathsAsExits: true}}" %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefixes=CHECK-MESSAGES,EXITS
//
// Error paths are not divergence: a rank that leaves because a call failed
// (a status check: the call's result against its success value, directly,
// through a local, through a macro) reports an error; it is no rank exit.
// ErrorPathsAsExits brings them back (the EXITS lines). A leave decided by
// the rank, or by the rank and the status together, is still reported. A
// pointer a call returns (fopen, malloc) is a status too, null its failure,
// except a file opened for reading that the code takes as not there (it
// returns 0, or goes on with the next item): that is the rank's answer.
#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <stdexcept>

#define MPICHECK(cmd)                                                          \
  do {                                                                         \
    int e_ = (cmd);                                                            \
    if (e_ != MPI_SUCCESS) {                                                   \
      std::fprintf(stderr, "MPI error %d\n", e_);                              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define CHECK(cmd)                                                             \
  do {                                                                         \
    if ((cmd) != 0)                                                            \
      std::exit(1);                                                            \
  } while (0)

int load(int *buf, int n);

// Negative: rank 0 sends with an exit on failure; everyone then synchronises.
void root_sends_checked(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPICHECK(MPI_Send(buf, n, MPI_INT, 1, 0, comm));
  MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which call 'exit' before it
  // EXITS: :[[@LINE-3]]:5: note: ranks where 'rank == 0' call 'exit' here
  // EXITS: :[[@LINE-21]]:7: note: expanded from macro 'MPICHECK'
  // EXITS: :[[@LINE-6]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: the result held in a local, the failure reported by a return.
int root_loads(MPI_Comm comm, int *buf, int n) {
  int rank, err = MPI_SUCCESS;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    err = MPI_Recv(buf, n, MPI_INT, 1, 0, comm, MPI_STATUS_IGNORE);
    if (err)
      return err;
  }
  MPI_Bcast(buf, n, MPI_INT, 0, comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Bcast' is never reached on ranks where 'rank == 0', which return before it
  // EXITS: :[[@LINE-4]]:7: note: ranks where 'rank == 0' return here
  // EXITS: :[[@LINE-8]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
  return MPI_SUCCESS;
}

// Negative: a throw on a collective's own result.
void reduce_or_throw(MPI_Comm comm, double *v, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    if (MPI_Reduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, 0, comm) != MPI_SUCCESS)
      throw std::runtime_error("reduce failed");
  } else {
    MPI_Reduce(v, nullptr, n, MPI_DOUBLE, MPI_SUM, 0, comm);
  }
  MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which throw before it
  // EXITS: :[[@LINE-6]]:7: note: ranks where 'rank == 0' throw here
  // EXITS: :[[@LINE-9]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// A function of this file that returns only statuses and constants is a
// status too; its rank argument does not make its failure a rank exit.
int work(int *buf, int n, int rank) {
  if (rank == 0) {
    int err = MPI_Send(buf, n, MPI_INT, 1, 0, MPI_COMM_WORLD);
    if (err != MPI_SUCCESS)
      return err;
  }
  return MPI_Bcast(buf, n, MPI_INT, 0, MPI_COMM_WORLD);
  // EXITS: :[[@LINE-1]]:10: warning: 'MPI_Bcast' is never reached on ranks where 'rank == 0', which return before it
  // EXITS: :[[@LINE-4]]:7: note: ranks where 'rank == 0' return here
  // EXITS: :[[@LINE-8]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-10]]:31: note: parameter 'rank' receives a rank-dependent value from a caller
  // EXITS: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-6]]:10: note: let every rank reach 'MPI_Bcast' before leaving, or make the decision to leave the same on every rank
}

// Negative: CHECK(work(buf, rank)): the status depends on the rank, the exit
// is still an error path.
void checked_work(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  CHECK(work(buf, n, rank));
  MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where '(work(buf, n, rank)) != 0', which call 'exit' before it
  // EXITS: :[[@LINE-3]]:3: note: ranks where '(work(buf, n, rank)) != 0' call 'exit' here
  // EXITS: :[[@LINE-82]]:7: note: expanded from macro 'CHECK'
  // EXITS: :[[@LINE-5]]:3: note: '(work(buf, n, rank)) != 0' differs between ranks
  // EXITS: :[[@LINE-85]]:9: note: expanded from macro 'CHECK'
  // EXITS: :[[@LINE-26]]:7: note: the value is assigned under this rank-dependent condition
  // EXITS: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-8]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: a goto to the cleanup that returns the error.
int cleanup_on_error(MPI_Comm comm, int *buf, int n) {
  int rank, err = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    err = MPI_Send(buf, n, MPI_INT, 1, 0, comm);
    if (err != MPI_SUCCESS)
      goto fail;
  }
  err = MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:9: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which jump away with goto before it
  // EXITS: :[[@LINE-4]]:7: note: ranks where 'rank == 0' jump away with goto here
  // EXITS: :[[@LINE-8]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:9: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
fail:
  std::free(buf);
  return err;
}

// Negative: the check as a `?:`, and the failure on the else arm.
int checked_other_ways(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    MPI_Send(buf, n, MPI_INT, 1, 0, comm) == MPI_SUCCESS ? (void)0 : std::abort();
    int err = MPI_Send(buf, n, MPI_INT, 2, 0, comm);
    if (!err)
      std::puts("sent");
    else
      return err;
  }
  MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which call 'abort' before it
  // EXITS: :[[@LINE-9]]:70: note: ranks where 'rank == 0' call 'abort' here
  // EXITS: :[[@LINE-11]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-13]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// Positive: a plain rank exit.
void root_leaves(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Positive: the status and the rank together decide the return. When the
// call succeeds, rank 1 leaves and the others wait in the barrier.
void success_and_rank(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int r = MPI_Bcast(buf, n, MPI_INT, 0, comm);
  if (r == 0 && rank == 1)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'r == 0 && rank == 1', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'r == 0 && rank == 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'r == 0 && rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Positive: even on failure, only rank 1 leaves: a failure seen by every rank
// sends the others on to the barrier.
void failure_and_rank(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int r = MPI_Bcast(buf, n, MPI_INT, 0, comm);
  if (r != 0 && rank == 1)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'r != 0 && rank == 1', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'r != 0 && rank == 1' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'r != 0 && rank == 1' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Positive: a count is no status; `load` has no body here to say otherwise.
void nothing_to_load(MPI_Comm comm, int *buf, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && load(buf, n) != 0)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0 && load(buf, n) != 0', which return before it
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'rank == 0 && load(buf, n) != 0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0 && load(buf, n) != 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Pointer statuses: a null result of fopen or malloc (rules/system.json)
// reports that the call failed. Each rank opens its own shard, so the file
// handle differs between ranks, but the leave is an error path.
int reduce_shard(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  char name[64];
  std::snprintf(name, sizeof name, "shard-%d.bin", rank);
  FILE *f = std::fopen(name, "rb");
  if (f == nullptr)
    return -1;
  std::fclose(f);
  float *buf = static_cast<float *>(std::malloc(sizeof(float) * (n + rank)));
  if (!buf)
    return -2;
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where '!buf', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // EXITS: :[[@LINE-3]]:5: note: ranks where '!buf' return here
  // EXITS: :[[@LINE-5]]:7: note: '!buf' differs between ranks
  // EXITS: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  std::free(buf);
  return 0;
}

// Positive: a file opened for reading that is not there is an answer, not a
// failure, where the code takes it as one: a rank without its own restart
// file returns 0 as after a restart, and skips the reduce the others make.
int restart_step(MPI_Comm comm) {
  int rank, mine = 0, resume = 0;
  MPI_Comm_rank(comm, &rank);
  char name[64];
  std::snprintf(name, sizeof name, "ckpt-%d.bin", rank);
  FILE *f = std::fopen(name, "rb");
  if (!f)
    return 0;
  std::fclose(f);
  MPI_Allreduce(&mine, &resume, 1, MPI_INT, MPI_MIN, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where '!f', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: ranks where '!f' return here
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: '!f' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  return resume;
}

// Negative: every rank opens the same file, so every rank takes the same
// answer.
int restart_shared(MPI_Comm comm) {
  int mine = 0, resume = 0;
  FILE *f = std::fopen("ckpt.bin", "rb");
  if (!f)
    return 0;
  std::fclose(f);
  MPI_Allreduce(&mine, &resume, 1, MPI_INT, MPI_MIN, comm);
  return resume;
}

// Positive: a rank skips the parts it has no file for, and the reduce with
// them.
int reduce_parts(MPI_Comm comm, int parts) {
  int rank, mine = 0, total = 0;
  MPI_Comm_rank(comm, &rank);
  for (int p = 0; p < parts; ++p) {
    char name[64];
    std::snprintf(name, sizeof name, "part-%d-%d.bin", rank, p);
    FILE *f = std::fopen(name, "rb");
    if (!f)
      continue;
    std::fclose(f);
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where '!f', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: ranks where '!f' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-6]]:9: note: '!f' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
  return total;
}

// Negative: a file that cannot be created is a failure, however the code
// leaves.
int write_results(MPI_Comm comm) {
  int rank, mine = 0, total = 0;
  MPI_Comm_rank(comm, &rank);
  char name[64];
  std::snprintf(name, sizeof name, "results-%d.txt", rank);
  FILE *f = std::fopen(name, "w");
  if (!f)
    return 0;
  std::fclose(f);
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where '!f', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // EXITS: :[[@LINE-4]]:5: note: ranks where '!f' return here
  // EXITS: :[[@LINE-6]]:7: note: '!f' differs between ranks
  // EXITS: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  return total;
}

// Positive: a pointer that is null on the ranks that own no shard is data,
// not a failed call.
int reduce_owned(MPI_Comm comm, float *shard, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  float *mine = rank % 2 ? shard : nullptr;
  if (!mine)
    return 0;
  MPI_Allreduce(MPI_IN_PLACE, mine, n, MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Allreduce' is never reached on ranks where '!mine', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where '!mine' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: '!mine' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  return 0;
}

struct NameList {
  char **names;
  int *lengths;
};

// Negative: rank 0 leaves when the allocation it just stored in a field
// failed; that is an error path (MPICH's i_noncontig_coll2).
int gather_names(MPI_Comm comm, int n, NameList *list) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    list->names = (char **)malloc(sizeof(char *) * n);
    if (list->names == NULL)
      return -1;
  }
  MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // EXITS: :[[@LINE-4]]:7: note: ranks where 'rank == 0' return here
  // EXITS: :[[@LINE-8]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

// Positive: the field tested is not the one just allocated.
int gather_other(MPI_Comm comm, int n, NameList *list) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    list->names = (char **)malloc(sizeof(char *) * n);
    if (list->lengths == NULL)
      return -1;
  }
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: ranks where 'rank == 0' return here
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

#define unlikely(x) __builtin_expect(!!(x), 0)
#define CHKERRMPI(e)                                                           \
  do {                                                                         \
    if (unlikely((e) != MPI_SUCCESS))                                          \
      return (e);                                                              \
  } while (0)

// Negative: the status check behind a branch hint (PETSc's PetscUnlikely,
// the `unlikely` of C code) still tests the status.
int hinted_check(MPI_Comm comm, double *stats) {
  int rank, err;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    err = MPI_Send(stats, 2, MPI_DOUBLE, 1, 0, comm);
    CHKERRMPI(err);
  }
  MPI_Barrier(comm);
  // EXITS: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'rank == 0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // EXITS: :[[@LINE-4]]:5: note: ranks where 'rank == 0' return here
  // EXITS: :[[@LINE-15]]:7: note: expanded from macro 'CHKERRMPI'
  // EXITS: :[[@LINE-8]]:7: note: 'rank == 0' differs between ranks
  // EXITS: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // EXITS: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}
