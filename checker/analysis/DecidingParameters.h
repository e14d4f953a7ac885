// The parameters whose values decide which collectives a function runs, or
// how often: a caller that passes one value on some ranks and another on
// the others (`if (rank < half) phase(3); else phase(5);`) makes the ranks
// run different sequences through one function.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace clang {
class CFGBlock;
class ParmVarDecl;
} // namespace clang

namespace lockstep::analysis {

class FunctionCFG;

/// The parameters of a function that decide its collectives, in
/// declaration order: those read by any test, and those read by the tests
/// of its loops (a function that runs one sequence can differ only in how
/// often its loops run).
struct DecidingParameters {
  std::vector<const clang::ParmVarDecl *> All, Loops;
};

/// The parameters of \p Function read by the test of a branch or loop that
/// decides (through control dependence, transitively) whether a block for
/// which \p RunsCollectives holds runs: read directly, or through local
/// variables assigned only from values that read them.
DecidingParameters
decidingParameters(const FunctionCFG &Function,
                   llvm::function_ref<bool(const clang::CFGBlock &)> RunsCollectives);

} // namespace lockstep::analysis
