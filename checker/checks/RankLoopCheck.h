// lockstep-rank-loop: a collective, or a call that performs one, inside a
// loop whose trip count differs between ranks.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankLoopCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportLoop(const analysis::LoopDivergence &D, clang::ASTContext &Context) override;
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
