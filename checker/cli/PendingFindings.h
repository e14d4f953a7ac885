// Findings that wait for other files' summaries, resolved once every file's
// summaries are known:
// - a pending call (findings::Call) gets the callee's collective and the
//   communicator it receives, and the finding's own collective gets the note
//   into the callee's file; a finding whose callee performs no collective is
//   dropped;
// - a pending read (findings::PendingRead) stands when a summary says another
//   file writes that field or global, or returns from that function, a
//   per-rank value, and gets the note at the rank's source there; a finding
//   none of whose reads is per-rank is dropped.
// The finding is then rendered again from its wording.
#pragma once

#include "FindingsOutput.h"

#include "../analysis/ExternalSummary.h"

#include <vector>

namespace lockstep::cli {

/// \p Findings with every pending finding resolved against \p Summaries.
/// With \p KeepUnresolved (a shard that has not seen every file), a pending
/// finding whose callee or storage no summary names stays pending.
std::vector<Finding> resolvePending(std::vector<Finding> Findings,
                                    const analysis::ExternalSummaries &Summaries,
                                    bool KeepUnresolved);

} // namespace lockstep::cli
