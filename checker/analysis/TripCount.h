// The number of times a counted loop runs, as a formula: `for (i = a; i < b;
// i += c)`, `i = a; while (i < b) { ...; ++i; }` and their mirror images.
// Loops of other shapes have no trip count here.
#pragma once

#include "ConditionFormula.h"

#include "clang/AST/Stmt.h"

#include <optional>

namespace lockstep::analysis {

/// A counted loop: its counter, the counter's first value and how many
/// times the loop runs. The body writes the counter only by its step, so two
/// ranks with the same start and trip count see the same counter values.
struct CountedLoop {
  const clang::VarDecl *Counter;
  FormulaRef Start, Trip;
};

std::optional<CountedLoop> countedLoop(const clang::Stmt *Loop, const clang::ParentMap &Parents,
                                       ConditionFormula &Conditions, FormulaArena &Arena);

inline std::optional<FormulaRef> tripCount(const clang::Stmt *Loop, const clang::ParentMap &Parents,
                                           ConditionFormula &Conditions, FormulaArena &Arena) {
  if (std::optional<CountedLoop> Counted = countedLoop(Loop, Parents, Conditions, Arena))
    return Counted->Trip;
  return std::nullopt;
}

} // namespace lockstep::analysis
