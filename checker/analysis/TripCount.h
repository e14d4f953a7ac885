// The number of times a counted loop runs, as a formula: `for (i = a; i < b;
// i += c)`, `i = a; while (i < b) { ...; ++i; }` and their mirror images.
// Loops of other shapes have no trip count here.
#pragma once

#include "ConditionFormula.h"

#include "clang/AST/Stmt.h"

#include <optional>

namespace lockstep::analysis {

std::optional<FormulaRef> tripCount(const clang::Stmt *Loop, const clang::ParentMap &Parents,
                                    ConditionFormula &Conditions, FormulaArena &Arena);

} // namespace lockstep::analysis
