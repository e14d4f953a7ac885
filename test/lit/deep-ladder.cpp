// RUN: python3 %S/../../bench/checker/generate_shapes.py ladder %t.cpp -n 1500 >/dev/null
// RUN: echo 'void after(MPI_Comm comm) { int rank; MPI_Comm_rank(comm, &rank); if (rank == 0) MPI_Barrier(comm); }' >> %t.cpp
// RUN: %clang_tidy --checks='-*,lockstep-*' %t.cpp -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=DEEP
// RUN: python3 %S/../../bench/checker/generate_shapes.py ladder %t.small.cpp -n 800 >/dev/null
// RUN: %clang_tidy --checks='-*,lockstep-*' %t.small.cpp -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=SMALL --allow-empty
//
// No blow-up: an else-if ladder of 1,500 arms on the rank (the bench's
// `ladder` shape, every arm broadcasting from root 0: no bug) nests each
// branch's region inside the next, so comparing every branch's arms would
// walk a number of blocks that grows with the square of the ladder (a 5,000-arm
// ladder took a minute and 5 GB). The walks of one function share
// limits::MaxWalkedBlocks: the inner branches are compared, the branch where
// the bound is reached gets a remark, and the function after the ladder is
// checked as usual (its barrier on rank 0 alone is reported).
// The line numbers below are those of the generated file, not of this one.
//
// DEEP: :1507:10: remark: lockstep: analysis of 'stress_ladder' incomplete: comparing the arms of its branches visited more than 1000000 blocks; this branch and those compared after it are not checked [lockstep-rank-branch]
// DEEP: :4516:82: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
// DEEP: :4516:71: note: 'rank == 0' differs between ranks
// DEEP: :4516:39: note: the rank comes from 'MPI_Comm_rank' here
// DEEP: :4516:82: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
//
// Negative: a ladder of 800 arms stays within the bound: every branch is
// compared, every arm broadcasts, nothing to report.
// SMALL-NOT: {{warning|remark}}:
