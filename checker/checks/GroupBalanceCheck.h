// lockstep-group-balance: an NCCL group left open on some path, an end without
// a start, or group calls that only some ranks make.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class GroupBalanceCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void report(const analysis::TranslationUnitAnalysis &Analysis,
              clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
