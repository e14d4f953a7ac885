// Reads of a constant table in conditions: `kLayers[stage]` of `static const
// int kLayers[] = {5, 8, 8, 3};` is the element the index picks, so two ranks
// with the same index read the same value.
#pragma once

#include "Formula.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace lockstep::analysis {

/// \p E as a choice over its index's values, when it reads an element of a
/// const array whose initialiser is integer constants (at most
/// limits::ConstantTableElements of them); \p Index translates the index.
std::optional<FormulaRef>
constantTableRead(const clang::Expr *E, const clang::ASTContext &Context, FormulaArena &Arena,
                  llvm::function_ref<FormulaRef(const clang::Expr *)> Index);

} // namespace lockstep::analysis
