// Findings about calls to functions of other files, resolved once every
// file's summaries are known: a pending call (findings::Call) gets the
// callee's collective and the communicator it receives, the finding's own
// collective gets the note into the callee's file, and the finding is
// rendered again from its wording. A finding whose callee performs no
// collective is dropped.
#pragma once

#include "FindingsOutput.h"

#include "../analysis/ExternalSummary.h"

#include <vector>

namespace lockstep::cli {

/// \p Findings with every pending finding resolved against \p Summaries.
/// With \p KeepUnresolved (a shard that has not seen every file), a pending
/// finding whose callee no summary names stays pending.
std::vector<Finding> resolvePending(std::vector<Finding> Findings,
                                    const analysis::ExternalSummaries &Summaries,
                                    bool KeepUnresolved);

} // namespace lockstep::cli
