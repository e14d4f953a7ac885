// Who takes part in a communicator: one made by a split with colour c(rank)
// holds the ranks whose colour equals mine, and none where the colour is
// MPI_UNDEFINED / NCCL_SPLIT_NOCOLOR (there the handle is null). Collectives
// on it are compared only between two ranks that are both members of the
// same one. Handles tested against MPI_COMM_NULL whose origin lockstep does
// not know get a per-rank "is null" symbol.
#pragma once

#include "Formula.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace lockstep::analysis {

/// The colour standing for MPI_UNDEFINED and NCCL_SPLIT_NOCOLOR in formulas.
constexpr int64_t UndefinedColour = INT32_MIN;

class Membership {
public:
  explicit Membership(FormulaArena &Arena) : Arena(Arena) {}

  /// \p Comm is made by a split with colour \p Colour (over the rank).
  void addSplit(const clang::ValueDecl *Comm, FormulaRef Colour);
  bool isSplit(const clang::ValueDecl *Comm) const;

  /// `Comm == MPI_COMM_NULL` on one rank.
  FormulaRef isNull(const clang::ValueDecl *Comm);

  /// The condition for two ranks to share the communicator \p Comm holds;
  /// nullopt for communicators every rank shares.
  std::optional<FormulaRef> shared(const clang::ValueDecl *Comm);

private:
  FormulaArena &Arena;
  // A split's colour; nullopt when several splits write the same handle.
  llvm::DenseMap<const clang::ValueDecl *, std::optional<FormulaRef>> Colours;
  llvm::DenseMap<const clang::ValueDecl *, FormulaRef> NullTests; // handles of unknown origin
};

} // namespace lockstep::analysis
