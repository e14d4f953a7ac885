// lockstep-rank-branch: a collective, or a call that performs one, runs only
// on some ranks because of a rank-dependent branch, or because what picks the
// function a call runs (an object, a callable) differs between ranks.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankBranchCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
  void reportLimit(const analysis::AnalysisLimit &L, clang::ASTContext &Context) override;

private:
  void reportDispatch(const analysis::Divergence &D, clang::ASTContext &Context);
};

} // namespace lockstep::checks
