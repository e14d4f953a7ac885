// Exit codes of `lockstep run` besides the program's own (docs/runtime.md).
// The interposer ends a rank with the same ones when the launcher stops the
// job or the rank loses the coordinator.
#pragma once

namespace lockstep {

constexpr int ExitUsage = 2;         // bad options or input files
constexpr int ExitSetup = 96;        // could not start the job, or lost its ranks
constexpr int ExitDiverged = 97;     // ranks diverged: mismatch, deadlock, a rank left
constexpr int ExitStalled = 98;      // the stall timeout expired
constexpr int ExitNotRunnable = 127; // PROGRAM (or mpirun) cannot be run

} // namespace lockstep
