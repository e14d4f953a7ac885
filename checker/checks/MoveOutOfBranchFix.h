// The fix-it for a collective that only some ranks run: move it after the
// rank-conditional block, where every rank runs it. Offered only when the
// edit is mechanical and safe.
#pragma once

#include "../analysis/Divergence.h"

#include "clang/Basic/Diagnostic.h"

#include <vector>

namespace lockstep::checks {

/// The edits, or none when the collective is not the last statement of an
/// `if` without else, its value is used, it names something declared in the
/// block, the block can leave early, or macros are involved.
std::vector<clang::FixItHint> moveOutOfBranch(const analysis::Divergence &D,
                                              const clang::ASTContext &Context);

} // namespace lockstep::checks
