// Splits a helper hands back to its callers: `make_half(w)` that returns the
// handle its `MPI_Comm_split(w, rank % 2, rank, &half)` made, or
// `split_pairs(w, rank, &pair)` that splits into its pointer parameter. The
// caller's handle (`MPI_Comm half = make_half(world);`, `pair`) is then the
// part the helper's colour names, so collectives only its members make stay
// quiet in the caller as where the split is written.
#pragma once

#include <vector>

namespace clang {
class CallExpr;
class ValueDecl;
} // namespace clang

namespace lockstep::analysis {

class FunctionCFG;
class ParameterBindings;
struct RankSplit;

/// A caller's handle that receives a helper's split.
struct HandedBackSplit {
  const FunctionCFG *Caller;
  const clang::CallExpr *Call;
  const clang::ValueDecl *Storage; // where the caller keeps it
  const clang::ValueDecl *Parent;  // what it was split from, in the caller's terms
};

/// Where the calls this translation unit makes of \p Helper keep the
/// communicator \p Split made there; empty when the helper neither returns
/// that handle on every return nor writes it through a pointer or reference
/// parameter, or when no call keeps it in named storage.
std::vector<HandedBackSplit> handedBack(const FunctionCFG &Helper, const RankSplit &Split,
                                        const ParameterBindings &Bindings);

} // namespace lockstep::analysis
