// Latched collectives: a collective that a polling loop runs at most once,
// behind a flag set right after it, and that every rank must have run
// before it can leave the loop, because the loop's exit flag is written (or
// its breaks are taken) only once that latch is set. The non-blocking consensus of sparse exchanges
// (NBX) is the common case: each rank starts MPI_Ibarrier when its own sends
// completed, at a different iteration on each rank, and then polls it:
//
//   int started = 0, done = 0;
//   while (!done) {
//     ...
//     if (!started) {
//       MPI_Testall(n, sends, &all_sent, MPI_STATUSES_IGNORE);
//       if (all_sent) { MPI_Ibarrier(comm, &barrier); started = 1; }
//     } else {
//       MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
//     }
//   }
//
// The loop may also run forever and be left by breaks (or returns) taken
// only with the latch set: `for (;;) { if (started) { MPI_Test(&barrier,
// &done, ...); if (done) break; } else if (all_sent) { MPI_Ibarrier(...);
// started = 1; } }`.
//
// The per-rank condition around the call decides when each rank makes it,
// not whether: every rank that leaves the loop made it exactly once there.
#pragma once

#include "FunctionCFG.h"

#include "clang/AST/Stmt.h"

namespace lockstep::analysis {

/// The loop in which \p Call (a call statement of \p Function) runs exactly
/// once on every rank that leaves the loop, as above; null when it is not
/// such a latched call.
const clang::Stmt *latchingLoop(const clang::Stmt *Call, const FunctionCFG &Function);

} // namespace lockstep::analysis
