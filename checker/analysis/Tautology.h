// Comparisons of the rank that hold (or fail) on every rank, such as
// `rank >= 0` or `rank < size`: they are not divergence.
#pragma once

#include "RankValue.h"

#include "clang/AST/Expr.h"

#include <functional>

namespace lockstep::analysis {

struct TautologyOperands {
  std::function<RankValue(const clang::Expr *)> ValueOf;
  std::function<bool(const clang::Expr *)> NamedAsWorldSize;
};

/// True when \p Condition compares the rank with 0 or with the world size so
/// that its outcome is the same on every rank.
bool isRankTautology(const clang::Expr *Condition, const clang::ASTContext &Context,
                     const TautologyOperands &Operands);

} // namespace lockstep::analysis
