// The words of a divergence: the error line with the ranks, collective
// numbers and calls involved, a note per rank at its call site, and the
// last collectives of each rank side by side, aligned by sequence number,
// with the diverging row marked.
#pragma once

#include "Matcher.h"
#include "Symbolizer.h"

#include <string>
#include <vector>

namespace lockstep::run {

/// "MPI_Allreduce(count=1, MPI_INT, MPI_SUM)".
std::string describeCall(const Matcher &M, const Call &C);

/// Short name of the divergence kind: "mismatch", "rank-left", "deadlock", "stall".
const char *kindName(DivergenceKind K);

/// The error, its notes and the side-by-side trace(s).
std::string renderDiagnosis(const Matcher &M, const std::vector<Location> &Sites,
                            double StallTimeoutSeconds);

/// The calls that make up the divergence, by rank (what each rank was
/// doing at the diverging collective). Used for notes, verdicts and reports.
struct DivergingCall {
  int Rank;
  uint64_t Comm, Seq;
  const Call *What; // null: the rank never made this call
};
std::vector<DivergingCall> divergingCalls(const Matcher &M);

/// Ranks to show for a communicator: those involved first, at most \p Max.
std::vector<int> shownRanks(const Matcher &M, uint64_t Comm, size_t Max);

/// "0, 2, 3" or "0-3".
std::string rankList(std::vector<int> Ranks);

} // namespace lockstep::run
