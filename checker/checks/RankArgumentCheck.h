// lockstep-rank-argument: an argument every rank must pass identically (root,
// count, datatype, operator, communicator) differs between ranks.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {

class RankArgumentCheck : public LockstepCheck {
public:
  using LockstepCheck::LockstepCheck;

protected:
  void report(const analysis::TranslationUnitAnalysis &Analysis,
              clang::ASTContext &Context) override;
};

} // namespace lockstep::checks
