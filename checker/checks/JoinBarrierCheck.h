// lockstep-join-barrier: inside an uneven-input join region, a collective the
// join protocol does not shadow misaligns the ranks that joined early.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class JoinBarrierCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportLoop(const analysis::LoopDivergence &D, clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
