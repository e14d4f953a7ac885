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

/// Whether \p Body may write \p Var other than by its name: it takes its
/// address, binds a non-const reference to it, hands it to a non-const
/// reference parameter or captures it by reference in a lambda. The step
/// countedLoop sees is then not all that changes a counter.
bool aliased(const clang::VarDecl *Var, const clang::Stmt *Body);

std::optional<CountedLoop> countedLoop(const clang::Stmt *Loop, const clang::ParentMap &Parents,
                                       ConditionFormula &Conditions, FormulaArena &Arena);

inline std::optional<FormulaRef> tripCount(const clang::Stmt *Loop, const clang::ParentMap &Parents,
                                           ConditionFormula &Conditions, FormulaArena &Arena) {
  if (std::optional<CountedLoop> Counted = countedLoop(Loop, Parents, Conditions, Arena))
    return Counted->Trip;
  return std::nullopt;
}

} // namespace lockstep::analysis
