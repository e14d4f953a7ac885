// Guarded collective sequences: which sequence of collectives a region of a
// function runs, under which condition. Paths with equal sequences merge (the
// conditions are joined with `or`), so the cost follows the number of
// distinct sequences, not the number of paths. Loops are one event each:
// their body's sequence with the trip count (`loop[9]{MPI_Barrier}`).
#pragma once

#include "CollectiveEvents.h"
#include "ConditionFormula.h"
#include "ErrorPaths.h"
#include "Formula.h"
#include "FunctionCFG.h"
#include "FunctionShape.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lockstep::analysis {

/// Sequences of collective events as two tries: by what ranks must agree on
/// (the keys: what is compared) and by occurrence (the events: what is
/// reported). Id 0 is the empty sequence in both. The table refers to the
/// events it is given, which must outlive it (block and loop events are
/// computed once and kept), so a long summary is not copied per path.
class SequenceTable {
public:
  SequenceTable();

  unsigned keyOf(const CollectiveEvent &Event); // interns the event's key
  uint32_t appendKey(uint32_t Sequence, unsigned Key);
  uint32_t appendEvent(uint32_t Sequence, const CollectiveEvent &Event);
  std::vector<unsigned> keys(uint32_t Sequence) const;
  std::vector<const CollectiveEvent *> events(uint32_t Sequence) const;
  const CollectiveEvent &representative(unsigned Key) const { return *Representatives[Key]; }
  uint32_t parentKey(uint32_t Sequence) const;
  uint32_t parentEvent(uint32_t Sequence) const;
  unsigned lastKey(uint32_t Sequence) const;
  const CollectiveEvent &lastEvent(uint32_t Sequence) const;

private:
  struct Node {
    uint32_t Parent;
    unsigned Item;
  };
  std::vector<Node> KeyNodes, EventNodes;
  llvm::DenseMap<std::pair<uint32_t, unsigned>, uint32_t> KeyChildren;
  llvm::DenseMap<std::tuple<uint32_t, unsigned, unsigned>, uint32_t> EventChildren; // by site, key
  // By key (EventStrings keeps each once) and the communicator's storage.
  llvm::DenseMap<std::pair<const char *, const clang::ValueDecl *>, unsigned> KeyIds;
  std::vector<const CollectiveEvent *> Representatives;
  std::vector<const CollectiveEvent *> Occurrences;
};

/// One path class through a region: the arm it took at the region's branch,
/// its sequence, its guard, and how it left the function (if it did).
struct GuardedSequence {
  unsigned Arm = 0;
  uint32_t Keys = 0, Events = 0;
  FormulaRef Guard = 0;
  const clang::Stmt *Leaving = nullptr;
};

struct RegionSequences {
  std::vector<GuardedSequence> Sequences;
  bool Overflow = false; // more than limits::MaxSequences distinct sequences
};

/// Walks regions of functions and builds their guarded sequences.
class SequenceBuilder {
public:
  SequenceBuilder(FormulaArena &Arena, SequenceTable &Table, CollectiveEvents &Events,
                  ErrorPaths &Paths)
      : Arena(Arena), Table(Table), Events(Events), Paths(Paths) {}

  /// Whether walks take edge \p Index out of \p Block (see ErrorPaths).
  bool follows(const FunctionCFG &Function, const clang::CFGBlock &Block, unsigned Index) {
    return Paths.follows(Function, Block, Index);
  }

  /// Whether a collective can run in the blocks \p Branch decides, directly
  /// or through the branches and loops among them, or be skipped by a way
  /// out among them.
  bool decidesCollectives(FunctionShape &Shape, const clang::CFGBlock &Branch);

  /// The sequences from \p Starts (a block and the path class entering it)
  /// up to \p Stop (excluded), or to the function's exit.
  RegionSequences
  region(FunctionShape &Shape,
         const std::vector<std::pair<const clang::CFGBlock *, GuardedSequence>> &Starts,
         const clang::CFGBlock *Stop);

  bool runsCollectives(const FunctionCFG &Function, const clang::CFGBlock &Block) {
    return !Events.blockEvents(Function, Block).empty();
  }

  /// Blocks that region walks have visited so far (for limits::MaxWalkedBlocks).
  uint64_t walkedBlocks() const { return WalkedBlocks; }

  /// The key sequence \p Rank of a job of \p Size runs from \p From up to
  /// \p Stop, its symbols given the values numbered 0, found by following
  /// the one edge whose condition holds on it. None where its path needs more
  /// than that: a loop, an error edge, a condition that compares two ranks
  /// or is undefined there.
  std::optional<uint32_t> run(FunctionShape &Shape, const clang::CFGBlock *From,
                              const clang::CFGBlock *Stop, int64_t Rank, int64_t Size);

private:
  GuardedSequence append(GuardedSequence Sequence, const CollectiveEvent &Event);
  struct Walk; // one walk's pending path classes (GuardedSequences.cpp)
  RegionSequences
  walk(FunctionShape &Shape,
       const std::vector<std::pair<const clang::CFGBlock *, GuardedSequence>> &Starts,
       const clang::CFGBlock *Stop, const clang::CFGBlock *Loop);
  void leaveBlock(Walk &W, const clang::CFGBlock *Block, const clang::CFGBlock *Stop,
                  std::vector<GuardedSequence> &In, const clang::CFGBlock *Loop);
  const CollectiveEvent *loopEvent(FunctionShape &Shape, const clang::CFGBlock *Header);
  bool leavingSkipsCollectives(FunctionShape &Shape, const clang::CFGBlock &Block);
  std::string tripText(std::optional<FormulaRef> Count) const;

  FormulaArena &Arena;
  SequenceTable &Table;
  CollectiveEvents &Events;
  ErrorPaths &Paths;
  llvm::DenseMap<const clang::CFGBlock *, std::unique_ptr<CollectiveEvent>>
      Loops;                                              // null: no collective
  llvm::DenseMap<const clang::CFGBlock *, bool> Decides;  // decidesCollectives, per branch
  llvm::DenseMap<const clang::CFGBlock *, bool> LoopRuns; // a collective in the body, per header
  uint64_t WalkedBlocks = 0;
};

/// Joins \p Entry into \p Into: a path class with the same arm and sequence
/// as one already there widens that one's guard. False when the bound on
/// distinct sequences is exceeded.
bool mergeSequence(std::vector<GuardedSequence> &Into, const GuardedSequence &Entry,
                   FormulaArena &Arena);

} // namespace lockstep::analysis
