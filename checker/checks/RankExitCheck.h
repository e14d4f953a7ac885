// lockstep-rank-exit: a collective that some ranks never reach because they
// left earlier under a rank-dependent condition (return, break, continue,
// goto, throw, exit).
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankExitCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
