#include "Divergence.h"
#include "Exceptions.h"
#include "Limits.h"
#include "SequenceDifference.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <set>

namespace lockstep::analysis {
using namespace clang;

/// Where a remark about \p Branch goes: its `if`, loop or `switch`, or the
/// call that may throw.
static SourceLocation branchLocation(const CFGBlock &Branch) {
  const Stmt *Terminator = Branch.getTerminatorStmt();
  return (Terminator ? Terminator : decidingCondition(Branch))->getBeginLoc();
}

namespace {

BranchArm describeArm(const CFGBlock &Branch, unsigned Index, const CFGBlock *Target) {
  BranchArm Arm;
  if (exceptionalCall(Branch)) {
    Arm.K = Index == 0 ? BranchArm::Kind::Returns : BranchArm::Kind::Throws;
    return Arm;
  }
  if (isa<SwitchStmt>(Branch.getTerminatorStmt())) {
    const Stmt *Label = Target ? Target->getLabel() : nullptr;
    Arm.K = isa_and_nonnull<CaseStmt>(Label) ? BranchArm::Kind::Case : BranchArm::Kind::Default;
    Arm.Label = Label;
    return Arm;
  }
  Arm.K = Index == 0 ? BranchArm::Kind::True : BranchArm::Kind::False;
  return Arm;
}

/// Which truth of \p Condition, the whole condition of an `if`, loop or
/// `?:`, the statements at \p Site run under; none when \p Site is in
/// neither arm.
std::optional<bool> truthAt(const Expr *Condition, SourceLocation Site, const ParentMap &Parents,
                            const SourceManager &SM) {
  const Stmt *Owner = Parents.getParentIgnoreParenImpCasts(const_cast<Expr *>(Condition));
  auto In = [&](const Stmt *S) { return S && sourceContains(SM, S->getSourceRange(), Site); };
  if (const auto *If = dyn_cast_or_null<IfStmt>(Owner)) {
    if (In(If->getThen()))
      return true;
    if (In(If->getElse()))
      return false;
  } else if (const auto *Choice = dyn_cast_or_null<ConditionalOperator>(Owner)) {
    if (In(Choice->getTrueExpr()))
      return true;
    if (In(Choice->getFalseExpr()))
      return false;
  } else if (const auto *While = dyn_cast_or_null<WhileStmt>(Owner)) {
    if (In(While->getBody()))
      return true;
  } else if (const auto *For = dyn_cast_or_null<ForStmt>(Owner)) {
    if (In(For->getBody()))
      return true;
  }
  return std::nullopt;
}

/// The condition as the user wrote it: the `a || b` chain around the operand
/// a branch block tests, and the truth of that chain on the ranks that reach
/// \p Site (\p Truth is the operand's). Stays below an operand that holds
/// the site itself (`rank == 0 && MPI_Barrier(comm) == 0`).
std::pair<const Expr *, bool> wholeCondition(const Expr *Operand, bool Truth, SourceLocation Site,
                                             const ParentMap &Parents, const SourceManager &SM) {
  const Expr *Known = Operand, *Current = Operand;
  bool KnownTruth = Truth;
  std::optional<bool> CurrentTruth = Truth;
  auto Parent = [&](const Expr *E) { // ParentMap takes mutable statements, reads only
    return Parents.getParentIgnoreParenImpCasts(const_cast<Expr *>(E));
  };
  while (const auto *Chain = dyn_cast_or_null<BinaryOperator>(Parent(Current))) {
    if (!Chain->isLogicalOp() || sourceContains(SM, Chain->getSourceRange(), Site))
      break;
    // `a && x` and `a || x` are `x` wherever `x` is tested; `x && b` is false
    // where `x` is, `x || b` true where `x` is; otherwise the arms decide.
    const bool Left = Chain->getLHS()->IgnoreParenImpCasts() == Current->IgnoreParenImpCasts();
    if (Left && CurrentTruth != (Chain->getOpcode() == BO_LOr))
      CurrentTruth.reset();
    Current = Chain;
    if (CurrentTruth) {
      Known = Current;
      KnownTruth = *CurrentTruth;
    }
  }
  if (!CurrentTruth)
    if (std::optional<bool> ByArm = truthAt(Current, Site, Parents, SM))
      return {Current, *ByArm};
  return {Known, KnownTruth};
}

bool sameCollectives(std::vector<unsigned> A, std::vector<unsigned> B) {
  std::sort(A.begin(), A.end());
  std::sort(B.begin(), B.end());
  return A == B;
}

} // namespace

void DivergenceFinder::limit(FunctionShape &Shape, SourceLocation Where, std::string What) {
  Limits.push_back({Shape.function().decl(), Where, std::move(What)});
}

std::vector<DivergenceFinder::Distinct> DivergenceFinder::distinct(const RegionSequences &Region) {
  std::vector<Distinct> Classes;
  for (const GuardedSequence &S : Region.Sequences) {
    auto It = std::find_if(Classes.begin(), Classes.end(),
                           [&](const Distinct &D) { return D.Keys == S.Keys; });
    if (It == Classes.end()) {
      Classes.push_back({S.Keys, S.Guard, {&S}});
    } else {
      It->Guard = Arena.disjoin(It->Guard, S.Guard);
      It->Members.push_back(&S);
    }
  }
  // In the order of the arms, as the user reads the branch.
  for (Distinct &D : Classes)
    std::stable_sort(
        D.Members.begin(), D.Members.end(),
        [](const GuardedSequence *A, const GuardedSequence *B) { return A->Arm < B->Arm; });
  auto FirstArm = [](const Distinct &D) { return D.Members.front()->Arm; };
  std::stable_sort(Classes.begin(), Classes.end(),
                   [&](const Distinct &A, const Distinct &B) { return FirstArm(A) < FirstArm(B); });
  return Classes;
}

FormulaRef DivergenceFinder::differ(uint32_t A, uint32_t B) {
  return sequencesDiffer(Table.keys(A), Table.keys(B), Table, Arena, Members);
}

std::vector<FormulaRef>
DivergenceFinder::pairQuestions(const std::vector<Distinct> &Classes, FormulaRef Reach,
                                std::vector<std::pair<size_t, size_t>> &Pairs) {
  FormulaRef BothReach = Arena.conjoin(Arena.inRank(1, Reach), Arena.inRank(2, Reach));
  std::vector<FormulaRef> Questions;
  for (size_t I = 0; I < Classes.size(); ++I)
    for (size_t J = I + 1; J < Classes.size(); ++J) {
      FormulaRef Q = Arena.conjoin(BothReach, Arena.conjoin(Arena.inRank(1, Classes[I].Guard),
                                                            Arena.inRank(2, Classes[J].Guard)));
      Questions.push_back(Arena.conjoin(Q, differ(Classes[I].Keys, Classes[J].Keys)));
      Pairs.push_back({I, J});
    }
  return Questions;
}

// Ranks next to the claim's witness, all seeing one assignment of the
// symbols (per-rank ones equal across them: one the program can meet), each
// run along its own path. Two of them whose sequences differ whatever the
// ranks (no trip count or split to compare) are a real witness that the
// region does not balance, found without walking every path through it.
bool DivergenceFinder::splitNearWitness(FunctionShape &Shape, const CFGBlock *From,
                                        const CFGBlock *Stop, const RankWitness &Witness) {
  if (!Witness.Rank1 || !Witness.Rank2 || !Witness.Size)
    return false;
  const int64_t Size = *Witness.Size;
  FormulaRef Reach = Shape.reaching(From);
  std::vector<uint32_t> Runs;
  for (int64_t R : {*Witness.Rank1, *Witness.Rank2, int64_t(0), int64_t(1), *Witness.Rank1 - 1,
                    *Witness.Rank1 + 1, *Witness.Rank2 - 1, *Witness.Rank2 + 1}) {
    if (R < 0 || R >= Size || Arena.holdsOnRank(Reach, R, Size) != true)
      continue;
    std::optional<uint32_t> Keys = Builder.run(Shape, From, Stop, R, Size);
    if (!Keys)
      return false;
    for (uint32_t Other : Runs)
      if (Other != *Keys && differ(*Keys, Other) == Arena.truth())
        return true;
    Runs.push_back(*Keys);
  }
  return false;
}

Answer DivergenceFinder::balanced(FunctionShape &Shape, const CFGBlock *From, const CFGBlock *Stop,
                                  const RankWitness &Witness) {
  if (splitNearWitness(Shape, From, Stop, Witness))
    return Answer::Holds;
  GuardedSequence Start;
  Start.Guard = Arena.truth();
  RegionSequences Region = Builder.region(Shape, {{From, Start}}, Stop);
  if (Region.Overflow)
    return Answer::Unknown;
  std::vector<Distinct> Classes = distinct(Region);
  if (Classes.size() < 2)
    return Answer::Never;
  if (Classes.size() > limits::MaxWidenedSequences)
    return Answer::Unknown;
  std::vector<std::pair<size_t, size_t>> Pairs;
  RankWitness Ignored;
  return Solver.decide(pairQuestions(Classes, Shape.reaching(From), Pairs), Ignored);
}

/// One branch's claim: its arms, the distinct sequences after it, the pairs
/// of them two ranks can run, and the witness the solver found.
struct DivergenceFinder::Claim {
  FunctionShape &Shape;
  const CFGBlock &Branch;
  const Provenance *Source;
  std::vector<BranchArm> Arms;
  std::vector<Distinct> Classes;
  std::vector<std::pair<size_t, size_t>> Pairs, Reported;
  RankWitness Witness;
  // Whether the witness is a job and two ranks alone: its question reads
  // nothing but the rank, the size and constants.
  bool WitnessOverRanks = false;
  const Stmt *Statement = nullptr;
};

std::vector<std::pair<const CFGBlock *, GuardedSequence>>
DivergenceFinder::armStarts(FunctionShape &Shape, const CFGBlock &Branch,
                            std::vector<BranchArm> &Arms) {
  std::vector<std::pair<const CFGBlock *, GuardedSequence>> Starts;
  unsigned Index = 0;
  for (const CFGBlock::AdjacentBlock &Succ : Branch.succs()) {
    const CFGBlock *Target = Succ.getReachableBlock();
    unsigned EdgeIndex = Index++;
    if (!Target || !Builder.follows(Shape.function(), Branch, EdgeIndex))
      continue;
    FormulaRef Edge = Shape.conditions().edge(Branch, EdgeIndex);
    auto Known = std::find_if(Starts.begin(), Starts.end(),
                              [&](const auto &Start) { return Start.first == Target; });
    if (Known != Starts.end()) { // several cases of a switch share a block
      Known->second.Guard = Arena.disjoin(Known->second.Guard, Edge);
      continue;
    }
    GuardedSequence Start;
    Start.Arm = Arms.size();
    Start.Guard = Edge;
    if (EdgeIndex == 1) // the ranks where the call throws leave the `try` there
      Start.Leaving = exceptionalCall(Branch);
    Arms.push_back(describeArm(Branch, EdgeIndex, Target));
    Starts.push_back({Target, Start});
  }
  return Starts;
}

// Branches around this one may balance it: widen the region towards its
// dominators and post-dominators before making a claim.
bool DivergenceFinder::balancedAround(FunctionShape &Shape, const CFGBlock &Branch,
                                      const CFGBlock *Stop, const RankWitness &Witness) {
  const FunctionCFG &Function = Shape.function();
  for (unsigned Width = 1; Width <= 2 * limits::CorrelationSteps; ++Width)
    for (unsigned Back = 0; Back <= std::min(Width, limits::CorrelationSteps); ++Back) {
      unsigned Forward = Width - Back;
      if (Forward > limits::CorrelationSteps)
        continue;
      const CFGBlock *From = &Branch, *To = Stop;
      for (unsigned I = 0; I < Back && From; ++I)
        From = Shape.immediateDominator(From);
      for (unsigned I = 0; I < Forward && To && To != &Function.cfg().getExit(); ++I)
        To = Function.immediatePostDominator(To);
      if (!From || !To || !Shape.sameIterations(From, &Branch))
        continue;
      // Neighbouring branches widen to the same regions (branch k one step
      // back is branch k-1 one step forward): decide each region once.
      auto [Known, Inserted] = Widened.try_emplace({From, To}, Answer::Unknown);
      if (Inserted)
        Known->second = balanced(Shape, From, To, Witness);
      if (Known->second == Answer::Never)
        return true;
    }
  return false;
}

// The blocks of a cycle with two ways in: those between its head and latch
// in reverse post-order that go round to the latch.
bool DivergenceFinder::cycleRunsCollectives(FunctionShape &Shape) {
  const FunctionCFG &Function = Shape.function();
  for (auto [Head, Latch] : Shape.irreducibleSpans()) {
    llvm::DenseSet<const CFGBlock *> Seen;
    std::vector<const CFGBlock *> Work{Function.reversePostOrder()[Latch]};
    while (!Work.empty()) {
      const CFGBlock *Block = Work.back();
      Work.pop_back();
      if (!Seen.insert(Block).second)
        continue;
      if (Builder.runsCollectives(Function, *Block))
        return true;
      for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
        if (const CFGBlock *P = Pred.getReachableBlock();
            P && Shape.reachable(P) && Shape.order(P) >= Head && Shape.order(P) <= Latch)
          Work.push_back(P);
    }
  }
  return false;
}

// Branches nested thousands deep (an else-if ladder) walk each region again
// inside the next: one function's walks share a bound, so the cost stays
// linear in the rest of the file.
std::vector<Divergence> DivergenceFinder::at(FunctionShape &Shape, const CFGBlock &Branch,
                                             const Provenance *Source) {
  const FunctionCFG *Function = &Shape.function();
  if (uint64_t Spent = Walked.lookup(Function); Spent > limits::MaxWalkedBlocks) {
    if (Spent != ~uint64_t(0)) {
      limit(Shape, branchLocation(Branch),
            "comparing the arms of its branches visited more than " +
                std::to_string(limits::MaxWalkedBlocks) +
                " blocks; this branch and those compared after it are not checked");
      Walked[Function] = ~uint64_t(0);
    }
    return {};
  }
  // How often each rank goes round a cycle with two ways in is not
  // compared: where collectives run in one, say so, once per function.
  if (CyclesNoted.insert(Function).second && cycleRunsCollectives(Shape))
    limit(Shape, branchLocation(Branch),
          "collectives run in a cycle entered other than through its head (a goto into a "
          "loop); how many times each rank runs them is not compared");
  uint64_t Before = Builder.walkedBlocks();
  std::vector<Divergence> Found = compareArms(Shape, Branch, Source);
  Walked[Function] += Builder.walkedBlocks() - Before;
  return Found;
}

std::vector<Divergence> DivergenceFinder::compareArms(FunctionShape &Shape, const CFGBlock &Branch,
                                                      const Provenance *Source) {
  const FunctionCFG &Function = Shape.function();
  // Arms that run no collective and do not leave cannot diverge (a `?:`
  // chain computing a value): skip the walk.
  if (!Builder.decidesCollectives(Shape, Branch))
    return {};
  const CFGBlock *Stop = Function.immediatePostDominator(&Branch);
  Claim C{Shape, Branch, Source};
  auto Starts = armStarts(Shape, Branch, C.Arms);
  if (C.Arms.size() < 2)
    return {};
  RegionSequences Region = Builder.region(Shape, Starts, Stop);
  if (Region.Overflow) {
    limit(Shape, branchLocation(Branch),
          "more than " + std::to_string(limits::MaxSequences) +
              " distinct collective sequences follow this branch");
    return {};
  }
  C.Classes = distinct(Region);
  if (C.Classes.size() < 2)
    return {};
  std::vector<FormulaRef> Questions = pairQuestions(C.Classes, Shape.reaching(&Branch), C.Pairs);
  Answer Diverges = Solver.decide(Questions, C.Witness);
  if (Diverges == Answer::Never)
    return {};
  if (Diverges == Answer::Unknown) {
    limit(Shape, branchLocation(Branch),
          "the solver could not decide whether ranks diverge at this branch");
    return {};
  }
  if (balancedAround(Shape, Branch, Stop, C.Witness))
    return {};
  const FormulaArena::EvaluationPlan Plan = Arena.plan(Questions[C.Witness.Alternative]);
  C.WitnessOverRanks = !Plan.HasSymbols;
  if (C.WitnessOverRanks)
    RankSolver::smallestJob(Arena, Plan, C.Witness);
  // Report each pair of sequences that two ranks can run, as the arms differ.
  if (C.Classes.size() <= 4) {
    for (size_t P = 0; P < C.Pairs.size(); ++P) {
      RankWitness Ignored;
      if (P == C.Witness.Alternative || Solver.decide({Questions[P]}, Ignored) == Answer::Holds)
        C.Reported.push_back(C.Pairs[P]);
    }
  } else {
    C.Reported.push_back(C.Pairs[C.Witness.Alternative]);
  }
  C.Statement = branchStatement(Branch, Function.parents());
  std::vector<Divergence> Found;
  for (size_t P = 0; P < C.Reported.size(); ++P)
    for (bool Swapped : {false, true})
      reportPair(C, P, Swapped, Found);
  dropLeavingSide(Found);
  return Found;
}

// `if (rank == 0 && bad) { MPI_Finalize(); return 1; }`: where ranks skip a
// collective because the others left, what the leaving ranks run on their
// way out is the same hang, not a second one; its remedy (move the call out
// of the branch) would be wrong.
void DivergenceFinder::dropLeavingSide(std::vector<Divergence> &Found) {
  llvm::erase_if(Found, [&](const Divergence &Own) {
    return Own.K == Divergence::Kind::OnlySomeRanks && Own.OtherEvent &&
           llvm::any_of(Found, [&](const Divergence &Skipped) {
             return Skipped.K == Divergence::Kind::SkippedAfterExit &&
                    Skipped.Branch == Own.Branch && Skipped.Event.Site == Own.OtherEvent->Site &&
                    Skipped.Arm.K == Own.Arm.K && Skipped.Arm.Label == Own.Arm.Label;
           });
  });
}

/// Keeps the events of a sequence (and their keys) that \p Keep accepts.
static void keepEvents(std::vector<unsigned> &Keys, std::vector<const CollectiveEvent *> &Events,
                       llvm::function_ref<bool(const CollectiveEvent &)> Keep) {
  size_t Kept = 0;
  for (size_t I = 0; I < Events.size(); ++I)
    if (Keep(*Events[I])) {
      Keys[Kept] = Keys[I];
      Events[Kept++] = Events[I];
    }
  Keys.resize(Kept);
  Events.resize(Kept);
}

// Where two sequences of a pair first differ, and how.
void DivergenceFinder::reportPair(const Claim &C, size_t P, bool Swapped,
                                  std::vector<Divergence> &Found) {
  size_t I = Swapped ? C.Reported[P].second : C.Reported[P].first;
  size_t J = Swapped ? C.Reported[P].first : C.Reported[P].second;
  // Members of the two classes that took different arms, when there are
  // any: `if (rank == 0 && step % 100 == 0) f();` puts the arm of `rank == 0`
  // that skips `f` in the class of the other arm.
  const GuardedSequence *Mine = C.Classes[I].Members.front();
  const GuardedSequence *Theirs = C.Classes[J].Members.front();
  for (const GuardedSequence *A : C.Classes[I].Members)
    if (auto B = llvm::find_if(C.Classes[J].Members,
                               [&](const GuardedSequence *B) { return B->Arm != A->Arm; });
        B != C.Classes[J].Members.end()) {
      Mine = A;
      Theirs = *B;
      break;
    }
  std::vector<unsigned> KeysA = Table.keys(Mine->Keys), KeysB = Table.keys(Theirs->Keys);
  std::vector<const CollectiveEvent *> A = Table.events(Mine->Events),
                                       B = Table.events(Theirs->Events);
  // What only the ranks of one side take part in is no difference.
  const CallersOwnEvents::Creations Both = CallersOwnEvents::createdByBoth(A, B);
  for (auto [Keys, Events] : {std::pair{&KeysA, &A}, std::pair{&KeysB, &B}}) {
    CallersOwnEvents CallersOwn(Both);
    keepEvents(*Keys, *Events, [&](const CollectiveEvent &E) { return !CallersOwn.skip(E); });
  }
  // Calls on a split communicator differ only between members of one part:
  // where the sequences differ on the communicators every rank shares, the
  // warning names a call there (`MPI_Barrier(world)` after `MPI_Reduce(io)`
  // that only the members of `io` make).
  auto OnShared = [&](const CollectiveEvent &E) {
    return !E.CommunicatorDecl || !Members.shared(E.CommunicatorDecl);
  };
  std::vector<unsigned> SharedKeysA = KeysA, SharedKeysB = KeysB;
  std::vector<const CollectiveEvent *> SharedA = A, SharedB = B;
  keepEvents(SharedKeysA, SharedA, OnShared);
  keepEvents(SharedKeysB, SharedB, OnShared);
  if (SharedKeysA != SharedKeysB) {
    KeysA = std::move(SharedKeysA), A = std::move(SharedA);
    KeysB = std::move(SharedKeysB), B = std::move(SharedB);
  }
  size_t K = 0;
  while (K < KeysA.size() && K < KeysB.size() && (KeysA[K] == KeysB[K] || mayMatch(*A[K], *B[K])))
    ++K;
  const bool MineLonger = K < KeysA.size(), TheirsLonger = K < KeysB.size();
  auto Report = [&](Divergence::Kind Kind, const CollectiveEvent *OtherEvent) {
    Found.push_back(divergence(C, Kind, *Mine, *A[K], *Theirs, OtherEvent, P));
    std::optional<RankWitness> &Witness = Found.back().Witness;
    if (!Witness)
      return;
    if (Swapped)
      std::swap(Witness->Rank1, Witness->Rank2); // the first runs `Mine`
    // A class may hold the arms of several sites: keep ranks that run these.
    auto Runs = [&](const GuardedSequence &Side, const std::optional<int64_t> &Rank) {
      return Rank && Arena.holdsOnRank(Side.Guard, *Rank, *Witness->Size) == true;
    };
    if (!Witness->Size || !Runs(*Mine, Witness->Rank1) || !Runs(*Theirs, Witness->Rank2))
      Witness.reset();
  };
  // One side runs one more event and then the same as the other: that event
  // is what only some ranks run, whatever comes after it.
  auto Inserted = [&](const std::vector<unsigned> &Longer, const std::vector<unsigned> &Shorter) {
    return Longer.size() == Shorter.size() + 1 &&
           std::equal(Longer.begin() + K + 1, Longer.end(), Shorter.begin() + K);
  };
  if (MineLonger && TheirsLonger && Inserted(KeysA, KeysB)) {
    Report(Divergence::Kind::OnlySomeRanks, nullptr);
  } else if (MineLonger && TheirsLonger && Inserted(KeysB, KeysA)) {
    // reported from the other side, at the event it runs in addition
  } else if (MineLonger && TheirsLonger) {
    bool Permuted = sameCollectives(KeysA, KeysB);
    bool SameLoop = matchingIterations(Table, *A[K], *B[K]);
    if (SameLoop) {
      if (!Swapped) // one report per pair, at the first arm's loop
        Report(firstDifferingArgument(*A[K], *B[K]) ? Divergence::Kind::Arguments
                                                    : Divergence::Kind::TripCount,
               B[K]);
    } else if (A[K]->Loop != B[K]->Loop) {
      if (A[K]->Loop) // a loop against a single call: the loop runs on some ranks only
        Report(Divergence::Kind::OnlySomeRanks, nullptr);
    } else if (!Swapped && Permuted)
      Report(Divergence::Kind::Order, B[K]);
    else if (!Swapped && A[K]->Collective == B[K]->Collective) {
      // The same collective: different trip counts of it (`vCycle<1>`
      // against `vCycle<2>`), an agreed argument that differs, or else
      // different calls that run it (other communicators, other sequences).
      if (A[K]->Loop && B[K]->Loop)
        Report(Divergence::Kind::TripCount, B[K]);
      else if (firstDifferingArgument(*A[K], *B[K]))
        Report(Divergence::Kind::Arguments, B[K]);
      else
        Report(Divergence::Kind::OnlySomeRanks, B[K]);
    } else if (A[K]->Collective != B[K]->Collective && !Permuted)
      Report(Divergence::Kind::OnlySomeRanks, B[K]);
  } else if (MineLonger) {
    Report(Divergence::Kind::OnlySomeRanks, nullptr);
  }
}

// The arm that \p Runs took, with the other cases of \p Switch whose ranks
// run the same sequence, where each arm's ranks run one sequence.
BranchArm DivergenceFinder::armOf(const std::vector<BranchArm> &Arms,
                                  const std::vector<Distinct> &Classes, const GuardedSequence &Runs,
                                  const SwitchStmt *Switch) {
  BranchArm Arm = Arms[Runs.Arm];
  if (!Switch || (Arm.K != BranchArm::Kind::Case && Arm.K != BranchArm::Kind::Default))
    return Arm;
  std::vector<int> ClassOf(Arms.size(), -1); // -2: runs several sequences
  for (size_t K = 0; K < Classes.size(); ++K)
    for (const GuardedSequence *Member : Classes[K].Members) {
      int &Of = ClassOf[Member->Arm];
      Of = Of == -1 || Of == int(K) ? int(K) : -2;
    }
  const int Mine = ClassOf[Runs.Arm];
  if (Mine < 0 || llvm::is_contained(ClassOf, -2))
    return Arm; // an arm whose ranks run different sequences belongs to no side
  llvm::SmallPtrSet<const Stmt *, 8> Alike;
  bool WithDefault = false;
  for (size_t Other = 0; Other < Arms.size(); ++Other)
    if (ClassOf[Other] == Mine) {
      WithDefault |= Arms[Other].K == BranchArm::Kind::Default;
      Alike.insert(Arms[Other].Label);
    }
  // Every case of the switch, also those whose ranks leave (`case 2:
  // MPI_Abort(...)`), in source order; a GNU range has no one value to name.
  std::vector<const CaseStmt *> Cases;
  for (const SwitchCase *Label = Switch->getSwitchCaseList(); Label;
       Label = Label->getNextSwitchCase())
    if (const auto *Case = dyn_cast<CaseStmt>(Label)) {
      if (Case->caseStmtIsGNURange())
        return Arm;
      Cases.push_back(Case);
    }
  llvm::sort(Cases, [](const CaseStmt *A, const CaseStmt *B) {
    return A->getBeginLoc().getRawEncoding() < B->getBeginLoc().getRawEncoding();
  });
  for (const CaseStmt *Case : Cases)
    if (Case != Arm.Label)
      (Alike.count(Case) ? Arm.Alike : Arm.Unlike).push_back(Case);
  // With the default arm, the ranks are those of no other case.
  if (WithDefault) {
    Arm.K = BranchArm::Kind::Default;
    Arm.Alike.clear();
  } else {
    Arm.Unlike.clear();
  }
  return Arm;
}

Divergence DivergenceFinder::divergence(const Claim &C, Divergence::Kind Kind,
                                        const GuardedSequence &Runs, const CollectiveEvent &Event,
                                        const GuardedSequence &Other,
                                        const CollectiveEvent *OtherEvent, size_t Pair) {
  const FunctionCFG &Function = C.Shape.function();
  const SourceManager &SM = Function.context().getSourceManager();
  Divergence D;
  D.K = Kind;
  D.Function = Function.decl();
  D.Event = Event;
  D.Condition = decidingCondition(C.Branch);
  D.Branch = C.Statement;
  const auto *Switch = dyn_cast_or_null<SwitchStmt>(C.Branch.getTerminatorStmt());
  D.Arm = armOf(C.Arms, C.Classes, Runs, Switch);
  D.OtherArm = armOf(C.Arms, C.Classes, Other, Switch);
  D.Source = C.Source;
  D.Leaving = Other.Leaving;
  if (OtherEvent)
    D.OtherEvent = *OtherEvent;
  if (C.WitnessOverRanks && C.Pairs[C.Witness.Alternative] == C.Reported[Pair])
    D.Witness = C.Witness;
  if (Kind == Divergence::Kind::OnlySomeRanks && Other.Leaving && C.Statement &&
      sourceContains(SM, C.Statement->getSourceRange(), Other.Leaving->getBeginLoc()) &&
      !sourceContains(SM, C.Statement->getSourceRange(), Event.Site)) {
    D.K = Divergence::Kind::SkippedAfterExit;
    D.Arm = D.OtherArm;
  }
  // The ranks where the call throws leave the rest of the `try`.
  if (Kind == Divergence::Kind::OnlySomeRanks && D.Arm.K == BranchArm::Kind::Returns &&
      Other.Leaving) {
    D.K = Divergence::Kind::SkippedAfterExit;
    D.Arm = D.OtherArm;
  }
  if (D.Condition && (D.Arm.K == BranchArm::Kind::True || D.Arm.K == BranchArm::Kind::False)) {
    SourceLocation Site =
        D.K == Divergence::Kind::SkippedAfterExit ? D.Leaving->getBeginLoc() : Event.Site;
    auto [Whole, Truth] =
        wholeCondition(D.Condition, D.Arm.K == BranchArm::Kind::True, Site, Function.parents(), SM);
    D.Condition = Whole;
    D.Arm.K = Truth ? BranchArm::Kind::True : BranchArm::Kind::False;
  }
  return D; // the caller keeps one finding per site
}

} // namespace lockstep::analysis
