// Whether two collective sequences differ for two ranks, as a formula over
// the ranks: compared on the communicators both ranks belong to, loops by
// their trip counts, nonblocking starts in their canonical order.
#pragma once

#include "CollectiveEvents.h"
#include "Formula.h"
#include "GuardedSequences.h"
#include "Membership.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace lockstep::analysis {

/// Events of a sequence that no rank outside those running it takes part
/// in: calls only their callers make (on MPI_COMM_SELF, over a group's
/// members), and calls on the communicators, files and windows such calls
/// created (`MPI_File_open(MPI_COMM_SELF, ..., &fh)`, then
/// `MPI_File_close(&fh)`, where `fh` is opened on other communicators
/// elsewhere). Fed a sequence's events in order.
class CallersOwnEvents {
public:
  bool skip(const CollectiveEvent &Event) {
    if (Event.callersOnly() && Event.Creates)
      Created.insert(Event.Creates);
    else if (Event.Creates) // the variable now holds a handle others share
      Created.erase(Event.Creates);
    return Event.callersOnly() ||
           (Event.CommunicatorDecl && Created.count(Event.CommunicatorDecl)) ||
           (Event.Handle && Created.count(Event.Handle));
  }

private:
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> Created;
};

/// When rank 1 running the events \p KeysA and rank 2 running \p KeysB
/// (keys of \p Table) perform different collectives: a formula over the two
/// ranks (Arena.inRank), truth when they always do.
FormulaRef sequencesDiffer(const std::vector<unsigned> &KeysA, const std::vector<unsigned> &KeysB,
                           const SequenceTable &Table, FormulaArena &Arena, Membership &Members);

} // namespace lockstep::analysis
