// Whether two collective sequences differ for two ranks, as a formula over
// the ranks: compared on the communicators both ranks belong to, loops by
// their trip counts, nonblocking starts in their canonical order.
#pragma once

#include "CollectiveEvents.h"
#include "Formula.h"
#include "GuardedSequences.h"
#include "Membership.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace lockstep::analysis {

/// Events of a sequence that no rank outside those running it takes part
/// in: calls only their callers make (on MPI_COMM_SELF, over a group's
/// members), and calls on the communicators, files and windows such calls
/// created (`MPI_File_open(MPI_COMM_SELF, ..., &fh)`, then
/// `MPI_File_close(&fh)`, where `fh` is opened on other communicators
/// elsewhere). Fed a sequence's events in order. A handle made over a
/// group's members that the sequence it is compared with creates by the same
/// call (\p CreatedByBoth) has the ranks of both as members: what they do
/// on it is compared (not one made on MPI_COMM_SELF).
class CallersOwnEvents {
public:
  using Creations = llvm::SmallVector<std::pair<const clang::ValueDecl *, const clang::Stmt *>, 2>;
  CallersOwnEvents() = default;
  explicit CallersOwnEvents(Creations CreatedByBoth) : CreatedByBoth(std::move(CreatedByBoth)) {}

  bool skip(const CollectiveEvent &Event) {
    if (Event.callersOnly() && Event.Creates)
      Created[Event.Creates] = Event.SiteStmt;
    else if (Event.Creates) // the variable now holds a handle others share
      Created.erase(Event.Creates);
    return Event.callersOnly() || own(Event.CommunicatorDecl) || own(Event.Handle);
  }

  /// The handles callers-only calls create in both \p A and \p B, with the
  /// call creating each.
  static Creations createdByBoth(llvm::ArrayRef<const CollectiveEvent *> A,
                                 llvm::ArrayRef<const CollectiveEvent *> B);

private:
  bool own(const clang::ValueDecl *Handle) const {
    auto It = Handle ? Created.find(Handle) : Created.end();
    return It != Created.end() && !llvm::is_contained(CreatedByBoth, *It);
  }

  llvm::SmallDenseMap<const clang::ValueDecl *, const clang::Stmt *, 4> Created;
  Creations CreatedByBoth;
};

/// When rank 1 running the events \p KeysA and rank 2 running \p KeysB
/// (keys of \p Table) perform different collectives: a formula over the two
/// ranks (Arena.inRank), truth when they always do.
FormulaRef sequencesDiffer(const std::vector<unsigned> &KeysA, const std::vector<unsigned> &KeysB,
                           const SequenceTable &Table, FormulaArena &Arena, Membership &Members);

} // namespace lockstep::analysis
