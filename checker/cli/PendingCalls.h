// Findings about calls to functions of other files, resolved once every
// file's summaries are known: the engine names such a callee's collective
// "lockstep-pending:<USR>"; the finding is kept, with the real collective
// and a note in the file that performs it, when the callee performs one, and
// dropped when it does not.
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
