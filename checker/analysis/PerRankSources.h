// Per-rank data sources (rules `per_rank_sources`): a clock, a random number,
// a host or device query, a received message. Each rank reads its own value,
// so what is computed from it differs between ranks until a collective
// agrees on it; the provenance names the source for the notes.
#pragma once

#include "FunctionCFG.h"
#include "RankValue.h"

#include "RuleSet.h"

namespace lockstep::analysis {

/// The data that \p Call (to \p Name, as the rules call it) hands each rank,
/// which differs between ranks for the reason \p Why ("a clock reading").
/// \p Received is what receives the data: the call itself for a returned
/// value, or the out argument; the provenance names the variable it lands
/// in when there is one (`double t = MPI_Wtime();`, `gethostname(host, n)`).
/// \p Via is what makes it differ when that has a source of its own, and
/// \p MembersOf a communicator on whose members it is the same.
const Provenance *perRankData(const clang::CallExpr *Call, const clang::Expr *Received,
                              const std::string &Name, const std::string &Why,
                              ProvenanceArena &Arena, const FunctionCFG &Function,
                              const Provenance *Via = nullptr,
                              const clang::ValueDecl *MembersOf = nullptr);

} // namespace lockstep::analysis
