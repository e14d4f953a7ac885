// lockstep-rank-branch: a collective, or a call that performs one, runs only
// on some ranks because of a rank-dependent branch.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankBranchCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void report(const analysis::TranslationUnitAnalysis &Analysis,
              clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
