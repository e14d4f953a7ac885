// Who takes part in a communicator: one made by a split with colour c(rank)
// holds the ranks whose colour equals mine, and none where the colour is
// MPI_UNDEFINED / NCCL_SPLIT_NOCOLOR (there the handle is null). Collectives
// on it are compared only between two ranks that are both members of the
// same one. Handles tested against MPI_COMM_NULL whose origin lockstep does
// not know get a per-rank "is null" symbol.
#pragma once

#include "Formula.h"
#include "RankValue.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::analysis {

/// The colour standing for MPI_UNDEFINED and NCCL_SPLIT_NOCOLOR in formulas.
constexpr int64_t UndefinedColour = INT32_MIN;

/// The part of the job a rank counts in when it is not the whole job: the
/// communicator of `MPI_Comm_rank(node, &local_rank)` when the function
/// that calls it made `node`, or the part a summary of another file names.
/// Null: the job. One address per part, for formulas.
const void *
rankPart(const Provenance *Source,
         const std::function<const clang::ValueDecl *(const clang::ValueDecl *)> &Passed = nullptr);

/// The same part as a name that other files' summaries share, or "".
std::string rankPartName(const Provenance *Source);

class Membership {
public:
  explicit Membership(FormulaArena &Arena) : Arena(Arena) {}

  /// \p Comm is made by a split of \p Parent (when named) with colour
  /// \p Colour (over the rank): its members are members of \p Parent too.
  void addSplit(const clang::ValueDecl *Comm, const clang::ValueDecl *Parent, FormulaRef Colour);
  /// \p Copy holds \p Of's part or no communicator, wherever it is written:
  /// it has the same members.
  void addCopy(const clang::ValueDecl *Copy, const clang::ValueDecl *Of);
  /// Where the colour of a communicator made in another file comes from
  /// (an accessor's summary); asked once per communicator.
  void setColoursElsewhere(std::function<std::optional<FormulaRef>(const clang::ValueDecl *)> Of) {
    ColoursElsewhere = std::move(Of);
  }
  /// What a communicator parameter stands for: the storage every call
  /// passes (ParameterBindings), or null.
  void setParameterStorage(std::function<const clang::ValueDecl *(const clang::ValueDecl *)> Of) {
    ParameterStorage = std::move(Of);
  }
  /// The storage a communicator parameter stands for, through chains of
  /// helpers; \p Comm itself when it is no such parameter.
  const clang::ValueDecl *passed(const clang::ValueDecl *Comm) const;
  bool isSplit(const clang::ValueDecl *Comm);
  /// \p Comm is made by a split whose colour names MPI_UNDEFINED (or
  /// NCCL_SPLIT_NOCOLOR) on some ranks: they get no communicator.
  bool leavesOut(const clang::ValueDecl *Comm);
  /// \p Symbol (a per-rank one) has the same value on every member of
  /// \p Comm: two ranks that share it agree on it.
  void sameOnMembers(const clang::ValueDecl *Comm, FormulaRef Symbol);

  /// \p Comm is a handle its function creates and keeps to itself
  /// (collectFreshCommunicators): no other handle holds its communicator.
  void addFresh(const clang::ValueDecl *Comm) { Fresh.insert(Comm); }
  bool isFresh(const clang::ValueDecl *Comm) const { return Fresh.count(Comm); }
  /// `Comm == MPI_COMM_NULL` on one rank.
  FormulaRef isNull(const clang::ValueDecl *Comm);

  /// The condition for two ranks to share the communicator \p Comm holds
  /// (and the communicators it was split from); nullopt for communicators
  /// every rank shares.
  std::optional<FormulaRef> shared(const clang::ValueDecl *Comm);

private:
  std::optional<FormulaRef> sharedItself(const clang::ValueDecl *Comm);
  const std::optional<FormulaRef> *colourOf(const clang::ValueDecl *Comm);

  FormulaArena &Arena;
  std::function<std::optional<FormulaRef>(const clang::ValueDecl *)> ColoursElsewhere;
  std::function<const clang::ValueDecl *(const clang::ValueDecl *)> ParameterStorage;
  // A split's colour; nullopt when several splits write the same handle.
  llvm::DenseMap<const clang::ValueDecl *, std::optional<FormulaRef>> Colours;
  // What a split communicator was split from; null when several splits
  // write the handle from different ones.
  llvm::DenseMap<const clang::ValueDecl *, const clang::ValueDecl *> Parents;
  llvm::DenseMap<const clang::ValueDecl *, FormulaRef> NullTests; // handles of unknown origin
  llvm::DenseSet<const clang::ValueDecl *> Fresh;
  // Per-rank symbols that every member of a communicator agrees on.
  llvm::DenseMap<const clang::ValueDecl *, std::vector<FormulaRef>> OnMembers;
};

} // namespace lockstep::analysis
