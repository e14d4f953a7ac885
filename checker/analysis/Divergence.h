// Divergence: two ranks that agree on every uniform value run different
// collective sequences from a rank-dependent branch on. Decided on the
// guarded sequences of the branch's region (GuardedSequences) with the rank
// solver, and widened to neighbouring branches before a claim is made, so
// branches that balance each other (`if (rank % 2) f(); if (!(rank % 2))
// f();`) stay quiet. The results are plain data; the checks turn them into
// diagnostics.
#pragma once

#include "CollectiveEvents.h"
#include "GuardedSequences.h"
#include "Membership.h"
#include "RankSolver.h"
#include "RankValue.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace lockstep::analysis {

/// One way out of a branch: `if` true/false, a `case`, `default`.
struct BranchArm {
  // Returns, Throws: the arms of a call that may throw into the handlers of
  // a `try` (exceptionalCall).
  enum class Kind { True, False, Case, Default, Returns, Throws };
  Kind K = Kind::True;
  const clang::Stmt *Label = nullptr; // the case or default statement
  // Of a `switch`, the other cases whose ranks run the same (`case 0: case
  // 2:`); of the default arm (or a case that falls into it), the cases whose
  // ranks do not: `rank` is not 1.
  std::vector<const clang::CaseStmt *> Alike, Unlike;
};

struct Divergence {
  enum class Kind {
    OnlySomeRanks,    // the collective runs only on the ranks of one arm
    SkippedAfterExit, // the ranks of another arm left (return, break, throw, ...) before it
    Order,            // the arms run the same collectives in different orders
    Arguments,        // the arms run the same collective with different agreed arguments
    TripCount,        // the arms run the same loop of collectives a different number of times
    // A call runs one of several functions with different collectives, and
    // what chooses the function (Condition: the object, the callable)
    // differs between ranks.
    Dispatch,
  };
  Kind K = Kind::OnlySomeRanks;
  const clang::FunctionDecl *Function = nullptr;
  CollectiveEvent Event;                  // where the warning goes
  const clang::Expr *Condition = nullptr; // the rank-dependent condition
  const clang::Stmt *Branch = nullptr;    // the if, switch, ?: or && / || chain
  BranchArm Arm;                        // ranks that run `Event` (that leave, for SkippedAfterExit)
  BranchArm OtherArm;                   // ranks that run `OtherEvent`
  const Provenance *Source = nullptr;   // why the condition differs between ranks
  const clang::Stmt *Leaving = nullptr; // how the other ranks left, when they did
  std::optional<CollectiveEvent> OtherEvent;        // what the other ranks run instead
  const clang::FunctionDecl *OtherTarget = nullptr; // Dispatch: the function they reach instead
  bool OtherSharesPrefix = false; // Dispatch: both call the same collectives before `Event`
  bool OtherPaired = true;        // Dispatch: `OtherEvent` is where the sequences differ
  // Dispatch through a method's virtual call on its own object (`run()`
  // calling `on_step_end()`): that call.
  const clang::CXXMemberCallExpr *Inner = nullptr;
  // A job and two ranks of it that diverge here, the first running `Event`,
  // when the question reads nothing but the rank, the size and constants.
  std::optional<RankWitness> Witness;
  // Arms Returns and Throws: where the called function throws, and which
  // function that is (an override, for a virtual call).
  clang::SourceLocation ThrowSite;
  const clang::FunctionDecl *Thrower = nullptr;
};

/// A bound of limits.h reached while analysing a function: the claims made
/// about it may be incomplete.
struct AnalysisLimit {
  const clang::FunctionDecl *Function = nullptr;
  clang::SourceLocation Where;
  std::string What; // "more than 64 distinct collective sequences", ...
};

class DivergenceFinder {
public:
  DivergenceFinder(SequenceBuilder &Builder, SequenceTable &Table, RankSolver &Solver,
                   FormulaArena &Arena, Membership &Members, std::vector<AnalysisLimit> &Limits)
      : Builder(Builder), Table(Table), Solver(Solver), Arena(Arena), Members(Members),
        Limits(Limits) {}

  /// The divergences of one rank-dependent branch block of \p Shape's function.
  std::vector<Divergence> at(FunctionShape &Shape, const clang::CFGBlock &Branch,
                             const Provenance *Source);

private:
  std::vector<Divergence> compareArms(FunctionShape &Shape, const clang::CFGBlock &Branch,
                                      const Provenance *Source);
  struct Distinct {
    uint32_t Keys;
    FormulaRef Guard;
    std::vector<const GuardedSequence *> Members;
  };
  std::vector<Distinct> distinct(const RegionSequences &Region);
  static BranchArm armOf(const std::vector<BranchArm> &Arms, const std::vector<Distinct> &Classes,
                         const GuardedSequence &Runs, const clang::SwitchStmt *Switch);
  FormulaRef differ(uint32_t A, uint32_t B);
  std::vector<FormulaRef> pairQuestions(const std::vector<Distinct> &Classes, FormulaRef Reach,
                                        std::vector<std::pair<size_t, size_t>> &Pairs);
  /// Whether ranks reaching \p From can run different sequences up to
  /// \p Stop; \p Witness, two ranks that diverge at the branch being
  /// widened, points to ranks worth trying first.
  Answer balanced(FunctionShape &Shape, const clang::CFGBlock *From, const clang::CFGBlock *Stop,
                  const RankWitness &Witness);
  bool splitNearWitness(FunctionShape &Shape, const clang::CFGBlock *From,
                        const clang::CFGBlock *Stop, const RankWitness &Witness);
  bool balancedAround(FunctionShape &Shape, const clang::CFGBlock &Branch,
                      const clang::CFGBlock *Stop, const RankWitness &Witness);
  /// Where each arm of \p Branch starts, under the condition of its edges.
  std::vector<std::pair<const clang::CFGBlock *, GuardedSequence>>
  armStarts(FunctionShape &Shape, const clang::CFGBlock &Branch, std::vector<BranchArm> &Arms);
  struct Claim;
  void reportPair(const Claim &C, size_t P, bool Swapped, std::vector<Divergence> &Found);
  static void dropLeavingSide(std::vector<Divergence> &Found);
  Divergence divergence(const Claim &C, Divergence::Kind Kind, const GuardedSequence &Runs,
                        const CollectiveEvent &Event, const GuardedSequence &Other,
                        const CollectiveEvent *OtherEvent, size_t Pair);
  void limit(FunctionShape &Shape, clang::SourceLocation Where, std::string What);
  bool cycleRunsCollectives(FunctionShape &Shape);

  SequenceBuilder &Builder;
  SequenceTable &Table;
  RankSolver &Solver;
  FormulaArena &Arena;
  Membership &Members;
  std::vector<AnalysisLimit> &Limits;
  /// Blocks the walks for each function's branches visited (limits::MaxWalkedBlocks);
  /// ~0: the bound was reached and reported.
  llvm::DenseMap<const FunctionCFG *, uint64_t> Walked;
  /// Functions whose cycles with two ways in were looked at for collectives.
  llvm::DenseSet<const FunctionCFG *> CyclesNoted;
  /// balanced() of the regions widened so far, by (first block, stop).
  llvm::DenseMap<std::pair<const clang::CFGBlock *, const clang::CFGBlock *>, Answer> Widened;
};

} // namespace lockstep::analysis
