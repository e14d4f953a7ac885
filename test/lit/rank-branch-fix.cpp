// RUN: cp %s %t.cpp
// RUN: %clang_tidy --checks='-*,lockstep-rank-branch' --fix %t.cpp -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t.cpp
//
// lockstep-rank-branch fix-it: a collective that is the last statement of a
// rank-conditional block moves after the block; unsafe cases get no fix.
#include <mpi.h>

void write_log(const char *);

void last_in_block(MPI_Comm comm, int rank) {
  if (rank == 0) {
    write_log("saving");
    MPI_Barrier(comm);
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: FIX-IT applied suggested code changes
  // CHECK-MESSAGES: :[[@LINE-3]]:4: note: FIX-IT applied suggested code changes
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:39: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-FIXES: {{^}}  if (rank == 0) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}    write_log("saving");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  MPI_Barrier(comm);{{$}}
}

void braceless(MPI_Comm comm, int rank) {
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: FIX-IT applied suggested code changes
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:35: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-FIXES: {{^}}void braceless(MPI_Comm comm, int rank) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  MPI_Barrier(comm);{{$}}
}

// No fix: the call uses a variable declared in the block.
void uses_local(MPI_Comm comm, int rank) {
  if (rank == 0) {
    int v = 1;
    MPI_Bcast(&v, 1, MPI_INT, 0, comm);
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:36: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-FIXES: {{^}}    int v = 1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    MPI_Bcast(&v, 1, MPI_INT, 0, comm);{{$}}
}

// No fix: the block can leave before the call.
void leaves_early(MPI_Comm comm, int rank, bool done) {
  if (rank == 0) {
    if (done)
      return;
    MPI_Barrier(comm);
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:38: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-FIXES: {{^}}      return;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    MPI_Barrier(comm);{{$}}
}
