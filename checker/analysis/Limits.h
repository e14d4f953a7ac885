// Every bound the engine keeps, in one place. Hitting one is never silent:
// the engine records an AnalysisLimit for the function, the checks report it
// as a remark, and `lockstep check` counts it in its summary.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lockstep::analysis::limits {

/// Distinct collective sequences one region of a function may run (paths
/// with equal sequences merge, so this bounds divergent behaviours, not
/// paths).
constexpr unsigned MaxSequences = 64;

/// Blocks the walks comparing the arms of one function's rank-dependent
/// branches may visit in all. Each walk is linear in its region, but
/// branches nested thousands deep (an else-if ladder on the rank) walk each
/// region again inside the next; the branches left are not compared.
constexpr uint64_t MaxWalkedBlocks = 1'000'000;

/// Events a function's summary may hand to its callers; a longer sequence
/// is one `call f` event, which matches only calls of the same function (call
/// chains would otherwise grow the sequences exponentially).
constexpr size_t MaxSummaryEvents = 64;

/// Dominator / post-dominator steps tried around a divergent branch to find
/// branches that balance it (`if (rank % 2) f(); if (!(rank % 2)) f();`).
constexpr unsigned CorrelationSteps = 3;

/// Ranks (or rank ranges) a group's list may hold for lockstep to follow
/// who belongs to it (`MPI_Group_incl(world, n, ranks, &g)`); past it, the
/// members of a communicator made for the group are unknown.
constexpr unsigned MaxListedRanks = 16;

/// Job sizes tried by evaluation before asking the solver.
constexpr int64_t EvaluatedJobSize = 6;

/// Sample assignments of a question's symbols that evaluation tries on each
/// pair of ranks, then in all, spread over the pairs (a witness found so is
/// a real one: symbols are unconstrained). Cheap next to a solver call: most
/// questions with symbols are settled here.
constexpr unsigned AssignmentsPerPair = 8;
constexpr unsigned SampledAssignments = 1024;

/// Values a symbol is sampled from: a fixed few, then the question's
/// constants and their neighbours.
constexpr size_t SampleValues = 40;

/// Constants of a question whose neighbouring ranks evaluation also tries.
constexpr size_t EvaluatedConstants = 16;

/// Formula nodes evaluation may visit for one question before it gives way
/// to the solver: long functions make long reaching conditions, and a claim
/// that holds for no pair (a balanced region) is the solver's to prove anyway.
constexpr uint64_t EvaluatedSteps = 1'000'000;

/// Distinct sequences a widened region may have to be worth a question: a
/// region that branches more than that is not one that balances.
constexpr unsigned MaxWidenedSequences = 8;

/// The largest job the solver considers (keeps `rank + 1` from wrapping).
constexpr int64_t LargestJob = int64_t(1) << 24;

/// Time the solver may take for one question.
constexpr unsigned SolverMillisecondsPerQuestion = 2000;

/// Conditions a group-balance walk correlates per function (`if (fused)
/// ncclGroupStart(); ... if (fused) ncclGroupEnd();`); the paths carry which
/// arm they took at each. Branches on further conditions are not correlated.
constexpr unsigned MaxCorrelatedConditions = 16;

/// Visits per CFG block of the rank-dependence data flow before it stops
/// (values only grow, so this is a guard, not an expected outcome).
constexpr unsigned DependenceVisitsPerBlock = 64;

/// Elements of a container told apart by their constant index (`info[1]`);
/// an element at a larger or unknown index is any element of the container.
constexpr unsigned TrackedElements = 8;

/// Elements of a constant table whose reads conditions follow (`kLayers[stage]`
/// is the element the index picks); a larger table's element is a value of
/// its own, per-rank where its index is.
constexpr unsigned ConstantTableElements = 64;

/// Rounds of the interprocedural fixed point (what callees return, what
/// callers pass, fields and globals) before it stops. A round analyses only
/// the functions whose inputs changed; each link of a chain (a lambda's
/// capture, the function that runs it, that function's callers, the
/// callees they seed, a member another method reads) can take one.
constexpr unsigned DependenceRounds = 12;

/// Visits per CFG block of the group-balance data flow before it stops (its
/// depths only grow, so this is hit only by loops that open groups forever).
constexpr unsigned GroupVisitsPerBlock = 16;

/// Operands followed when an expression is turned into a formula; deeper
/// expressions become an unknown per-rank condition.
constexpr unsigned MaxExpressionNodes = 4096;

/// Merges of paths that assign a local variable differently which one read
/// of it follows (`n = 4` or `n = size`, chosen by `size > 4`, is one); a
/// read past it is an unknown value of the right kind (shared or per-rank).
constexpr unsigned MaxReachingBranches = 32;

/// Callers a parameter's value is followed through (ParameterBindings): a
/// helper called by a helper ... by the function that computes the value.
/// Beyond it the parameter is a value of its own, as in a function other
/// files call.
constexpr unsigned ParameterBindingDepth = 8;

} // namespace lockstep::analysis::limits
