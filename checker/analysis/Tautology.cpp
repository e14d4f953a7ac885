#include "Tautology.h"

#include "clang/AST/ASTContext.h"

#include <optional>

namespace lockstep::analysis {
using namespace clang;

namespace {

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Context) {
  Expr::EvalResult Result;
  if (E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

/// The comparison `rank Op bound` seen from the rank's side.
BinaryOperatorKind mirrored(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return BO_GT;
  case BO_GT:
    return BO_LT;
  case BO_LE:
    return BO_GE;
  case BO_GE:
    return BO_LE;
  default:
    return Op;
  }
}

/// Rank r in [0, size-1]. Is `r Op c` constant for every such r?
bool constantAgainstZeroBased(BinaryOperatorKind Op, int64_t C) {
  switch (Op) {
  case BO_GE:
    return C <= 0; // always true
  case BO_GT:
    return C < 0; // always true
  case BO_LT:
    return C <= 0; // always false
  case BO_LE:
    return C < 0; // always false
  case BO_EQ:
  case BO_NE:
    return C < 0; // never equal
  default:
    return false;
  }
}

/// Is `r Op size - Offset` constant for every rank r in [0, size-1]?
bool constantAgainstSize(BinaryOperatorKind Op, int64_t Offset) {
  if (Offset == 0)
    return Op == BO_LT || Op == BO_LE || Op == BO_GE || Op == BO_GT || Op == BO_EQ || Op == BO_NE;
  if (Offset == 1)
    return Op == BO_LE || Op == BO_GT;
  return false;
}

} // namespace

bool isRankTautology(const Expr *Condition, const ASTContext &Context,
                     const TautologyOperands &Operands) {
  const auto *Compare = dyn_cast<BinaryOperator>(Condition->IgnoreParenImpCasts());
  if (!Compare || !Compare->isComparisonOp())
    return false;
  const Expr *Rank = Compare->getLHS()->IgnoreParenCasts();
  const Expr *Bound = Compare->getRHS()->IgnoreParenCasts();
  BinaryOperatorKind Op = Compare->getOpcode();
  if (!Operands.ValueOf(Rank).ExactRank) {
    std::swap(Rank, Bound);
    Op = mirrored(Op);
    if (!Operands.ValueOf(Rank).ExactRank)
      return false;
  }
  if (std::optional<int64_t> C = constantOf(Bound, Context))
    return constantAgainstZeroBased(Op, *C);

  auto IsWorldSize = [&](const Expr *E) {
    E = E->IgnoreParenCasts();
    RankValue V = Operands.ValueOf(E);
    return !V.dependent() && (V.ExactSize || Operands.NamedAsWorldSize(E));
  };
  if (IsWorldSize(Bound))
    return constantAgainstSize(Op, 0);
  if (const auto *Minus = dyn_cast<BinaryOperator>(Bound); Minus && Minus->getOpcode() == BO_Sub)
    if (std::optional<int64_t> Offset = constantOf(Minus->getRHS(), Context))
      return IsWorldSize(Minus->getLHS()) && constantAgainstSize(Op, *Offset);
  return false;
}

} // namespace lockstep::analysis
