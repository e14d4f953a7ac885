// Join regions: where an uneven-input join protocol from the rules is active
// in a function (the lifetime of its guard object, or the code between its
// begin and end calls).
#pragma once

#include "CallClassifier.h"
#include "FunctionCFG.h"

#include <vector>

namespace lockstep::analysis {

struct JoinRegion {
  const rules::JoinProtocolRule *Protocol = nullptr;
  clang::SourceRange Range; // from the guard or begin call to the scope end or end call
};

std::vector<JoinRegion> joinRegions(const FunctionCFG &Function, const CallClassifier &Classifier);

} // namespace lockstep::analysis
