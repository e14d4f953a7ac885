// Which check reports which engine result: the one place that decides it,
// so that every result the engine produces goes to exactly one check.
#pragma once

#include "CheckTable.h"

#include "../analysis/TranslationUnitAnalysis.h"

#include <variant>
#include <vector>

namespace lockstep::checks {

/// One result of the engine for one translation unit.
using EngineResult = std::variant<const analysis::Divergence *, const analysis::LoopDivergence *,
                                  const analysis::RankArgument *, const analysis::GroupImbalance *,
                                  const analysis::AnalysisLimit *>;

/// Every result of \p Analysis.
std::vector<EngineResult> engineResults(const analysis::TranslationUnitAnalysis &Analysis);

/// The check that reports \p Result.
CheckId route(const EngineResult &Result);

} // namespace lockstep::checks
