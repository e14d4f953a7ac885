// lockstep-rank-branch: a collective, or a call that performs one, runs only
// on some ranks because of a rank-dependent branch.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankBranchCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
  void reportLimit(const analysis::AnalysisLimit &L, clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
