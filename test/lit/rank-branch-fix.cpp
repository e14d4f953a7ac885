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
  // CHECK-FIXES: {{^}}  if (rank == 0) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}    write_log("saving");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  MPI_Barrier(comm);{{$}}
}

void braceless(MPI_Comm comm, int rank) {
  if (rank == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'
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
  // CHECK-FIXES: {{^}}      return;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    MPI_Barrier(comm);{{$}}
}
