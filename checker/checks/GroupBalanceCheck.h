// lockstep-group-balance: an NCCL group left open on some path, an end without
// a start, or group calls that only some ranks make.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class GroupBalanceCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportImbalance(const analysis::GroupImbalance &P, clang::ASTContext &Context) override;
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
