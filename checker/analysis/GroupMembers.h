// Who belongs to an MPI group the function builds (rules' rank_sets): every
// member of a communicator (`MPI_Comm_group`), the ranks an array lists or
// leaves out (`MPI_Group_incl`, `MPI_Group_excl`), or the (first, last,
// stride) ranges it holds (`MPI_Group_range_incl`, `..._excl`), as a
// boolean formula over the rank. A communicator created for the group
// (`MPI_Comm_create`) has exactly those members, so a collective on it
// under `if (rank < n)` is quiet when the group is the first n ranks.
#pragma once

#include "CallClassifier.h"
#include "ConditionFormula.h"
#include "FunctionCFG.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace lockstep::analysis {

struct GroupMembersQuery {
  const FunctionCFG &Function;
  const CallClassifier &Classifier;
  ConditionFormula &Conditions;
  FormulaArena &Arena;
  /// Whether a communicator is a split made in this file: its ranks are
  /// not the job's.
  llvm::function_ref<bool(const clang::ValueDecl *)> IsSplit;
};

/// Whether the calling rank belongs to the group \p Group names where
/// \p Created reads it, built from the members of \p Comm (a communicator
/// every rank of the job holds, whose ranks formulas name as the job's).
/// nullopt when the straight-line code before \p Created does not build the
/// group with one rank_sets call from a group of all of \p Comm's members,
/// or the list that call reads is not known there. \p TooLong is set when
/// a list is longer than limits::MaxListedRanks.
std::optional<FormulaRef> groupMembers(const GroupMembersQuery &Query, const clang::Expr *Group,
                                       const clang::CallExpr *Created, const clang::Expr *Comm,
                                       bool &TooLong);

} // namespace lockstep::analysis
