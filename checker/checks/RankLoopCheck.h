// lockstep-rank-loop: a collective, or a call that performs one, inside a
// loop whose trip count differs between ranks.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankLoopCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void report(const analysis::TranslationUnitAnalysis &Analysis,
              clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
