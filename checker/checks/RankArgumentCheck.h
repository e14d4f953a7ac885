// lockstep-rank-argument: an argument every rank must pass identically (root,
// count, datatype, operator, communicator) differs between ranks.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankArgumentCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportArgument(const analysis::RankArgument &A, clang::ASTContext &Context) override;
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
