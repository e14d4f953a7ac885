#include "GroupBalance.h"
#include "BlockWorklist.h"
#include "CallSite.h"
#include "CorrelatedBranches.h"
#include "Divergence.h"
#include "GroupGuards.h"
#include "Limits.h"

#include "clang/AST/DeclCXX.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace lockstep::analysis {
using namespace clang;

namespace {

constexpr int MinDepth = -4, MaxDepth = 8; // bounds keep loops that only open finite

/// What one path knows at a given depth: the call that opened the outermost
/// group, the end that found nothing open, and the exit taken while open.
struct DepthInfo {
  SourceLocation Opened;
  std::string Opener;
  SourceLocation Unmatched;
  std::string Closer;
  const Stmt *LeftBy = nullptr;
};
/// A depth, and the arm each correlated condition took on the way (bit I of
/// `known` and `taken` for condition I).
struct PathKey {
  int Depth = 0;
  uint32_t Known = 0, Taken = 0;
  bool operator<(const PathKey &O) const {
    return std::tie(Depth, Known, Taken) < std::tie(O.Depth, O.Known, O.Taken);
  }
  bool operator!=(const PathKey &O) const { return O < *this || *this < O; }
};
using DepthState = std::map<PathKey, DepthInfo>;

/// Joins what flows along arm \p Arm of a branch on correlated condition
/// \p Condition (none: -1): paths that took the other arm at an earlier test
/// of the same condition cannot take this one.
void mergeInto(DepthState &Into, const DepthState &From, int Condition, unsigned Arm) {
  static_assert(limits::MaxCorrelatedConditions <= 32, "one bit per condition");
  for (const auto &[Known, Info] : From) {
    PathKey Key = Known;
    if (Condition >= 0) {
      const uint32_t Bit = 1u << Condition, Taken = Arm == 0 ? Bit : 0;
      if ((Key.Known & Bit) && (Key.Taken & Bit) != Taken)
        continue;
      Key.Known |= Bit;
      Key.Taken |= Taken;
    }
    Into.emplace(Key, Info);
  }
}

/// What flows into \p Block along the edges walks follow (the entry starts
/// at depth 0).
DepthState joinPredecessors(const FunctionCFG &Function, const CFGBlock &Block,
                            const std::vector<DepthState> &Out, const std::vector<bool> &Visited,
                            const CorrelatedBranches &Correlated, ErrorPaths &Paths) {
  DepthState State;
  if (&Block == &Function.cfg().getEntry())
    State[PathKey()] = DepthInfo();
  for (const CFGBlock::AdjacentBlock &Pred : Block.preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !Visited[P->getBlockID()])
      continue;
    auto Condition = Correlated.Condition.find(P);
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : P->succs()) {
      unsigned Arm = Index++;
      if (Succ.getReachableBlock() == &Block && Paths.follows(Function, *P, Arm))
        mergeInto(State, Out[P->getBlockID()],
                  Condition == Correlated.Condition.end() ? -1 : int(Condition->second), Arm);
    }
  }
  return State;
}

bool sameDepths(const DepthState &A, const DepthState &B) {
  if (A.size() != B.size())
    return false;
  for (auto IA = A.begin(), IB = B.begin(); IA != A.end(); ++IA, ++IB)
    if (IA->first != IB->first)
      return false;
  return true;
}

DepthState shift(const DepthState &In, int Delta, SourceLocation Site, const std::string &Name) {
  DepthState Out;
  for (const auto &[From, FromInfo] : In) {
    PathKey Key = From;
    DepthInfo Info = FromInfo;
    const int Depth = Key.Depth, Next = std::clamp(Depth + Delta, MinDepth, MaxDepth);
    if (Depth <= 0 && Next > 0 && Info.Opened.isInvalid()) {
      Info.Opened = Site;
      Info.Opener = Name;
    }
    if (Next < 0 && Depth >= 0 && Info.Unmatched.isInvalid()) {
      Info.Unmatched = Site;
      Info.Closer = Name;
    }
    Key.Depth = Next;
    Out.emplace(Key, Info);
  }
  return Out;
}

/// What the depths at a function's exit say: a group open on some paths
/// only, or one every path leaves open (or closes without opening), is a
/// problem of \p FD; an equal change on every path of a helper that only
/// opens or closes groups is its callers' \p Delta.
template <typename HelperFn>
void judgeExit(const DepthState &AtExit, const FunctionDecl *FD, HelperFn IsGroupHelper,
               std::vector<GroupImbalance> &Problems, int &Delta) {
  if (AtExit.empty())
    return;
  const auto &[LowKey, LowInfo] = *AtExit.begin();
  const auto &[HighKey, HighInfo] = *AtExit.rbegin();
  const int Lowest = LowKey.Depth, Highest = HighKey.Depth;
  GroupImbalance Problem;
  Problem.Function = FD;
  if (Lowest != Highest) {
    if (Highest > 0 && HighInfo.Opened.isValid()) {
      Problem.K = GroupImbalance::Kind::LeftOpen;
      Problem.Site = HighInfo.Opened;
      Problem.Marker = HighInfo.Opener;
      Problem.Leaving = HighInfo.LeftBy;
    } else {
      Problem.K = GroupImbalance::Kind::UnmatchedEnd;
      Problem.Site = LowInfo.Unmatched;
      Problem.Marker = LowInfo.Closer;
    }
    Problems.push_back(Problem);
    return; // the callers see no net change: the problem is reported here
  }
  if (Lowest == 0 || IsGroupHelper()) {
    Delta = Lowest;
    return;
  }
  Problem.K = Lowest > 0 ? GroupImbalance::Kind::NeverClosed : GroupImbalance::Kind::UnmatchedEnd;
  Problem.Site = Lowest > 0 ? HighInfo.Opened : LowInfo.Unmatched;
  Problem.Marker = Lowest > 0 ? HighInfo.Opener : LowInfo.Closer;
  if (Problem.Site.isValid())
    Problems.push_back(Problem);
}

} // namespace

std::vector<GroupImbalance> GroupBalance::check(const FunctionCFG &Function) {
  return analyse(Function.decl()).Problems;
}

const GroupBalance::Outcome &GroupBalance::analyse(const FunctionDecl *FD) {
  static const Outcome Unknown;
  FD = FD->getCanonicalDecl();
  if (auto It = Outcomes.find(FD); It != Outcomes.end())
    return It->second;
  auto Function = Functions.find(FD);
  if (Function == Functions.end() || !Events.performsCollectives(FD) ||
      !InProgress.insert(FD).second)
    return Unknown; // no body here, or recursion: no group effect assumed
  Outcome Result = run(*Function->second);
  InProgress.erase(FD);
  return Outcomes[FD] = std::move(Result);
}

bool GroupBalance::isGroupHelper(const FunctionCFG &Function) {
  if (isa<CXXConstructorDecl, CXXDestructorDecl>(Function.decl()))
    return true;
  const FunctionSummary *Summary = Events.functionSummary(Function.decl());
  return Summary && Summary->OnlyGroupMarkers;
}

// Whether an exception may leave \p Callee other than from the failing arm
// of a status check: `if (r != ncclSuccess) throw ...;` in a checking
// helper reports an error, and the job is broken on that rank whatever its
// groups hold. A `throw` out of the body, or a call to such a function, on
// a path the walks follow; an override's throws are its overridden
// method's (a virtual call may run it). Once per file, with a worklist.
bool GroupBalance::throwsPastStatusChecks(const FunctionDecl *Callee) {
  if (!Callee || !Throwing.mayThrow(Callee))
    return false;
  if (!ThrowingPastChecks) {
    ThrowingPastChecks.emplace();
    llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Callers;
    std::vector<const FunctionDecl *> Work;
    for (const auto &[Key, Function] : Functions) {
      if (!Throwing.mayThrow(Key))
        continue;
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Key))
        for (const CXXMethodDecl *Overridden : Method->overridden_methods())
          Callers[Key].push_back(Overridden->getCanonicalDecl());
      const CFGBlock &Exit = Function->cfg().getExit();
      bool Throws = false;
      for (const CFGBlock *Block : Function->cfg()) {
        if (Paths.onErrorPath(*Function, *Block) || exceptionalCall(*Block))
          continue;
        for (const CFGElement &Element : *Block) {
          auto S = Element.getAs<CFGStmt>();
          if (S && isa<CXXThrowExpr>(S->getStmt()))
            Throws =
                Throws || llvm::any_of(Block->succs(), [&](const CFGBlock::AdjacentBlock &Succ) {
                  return Succ.getReachableBlock() == &Exit;
                });
          else if (const auto *Call = S ? dyn_cast<CallExpr>(S->getStmt()) : nullptr)
            if (const FunctionDecl *Target = Call->getDirectCallee();
                Target && Throwing.mayThrow(Target))
              Callers[Target->getCanonicalDecl()].push_back(Key);
        }
      }
      if (Throws && ThrowingPastChecks->insert(Key).second)
        Work.push_back(Key);
    }
    while (!Work.empty()) {
      const FunctionDecl *Thrower = Work.back();
      Work.pop_back();
      for (const FunctionDecl *Caller : Callers.lookup(Thrower))
        if (ThrowingPastChecks->insert(Caller).second)
          Work.push_back(Caller);
    }
  }
  return ThrowingPastChecks->count(Callee->getCanonicalDecl());
}

GroupBalance::Outcome GroupBalance::run(const FunctionCFG &Function) {
  const CFG &Graph = Function.cfg();
  std::vector<DepthState> Out(Graph.getNumBlockIDs());
  std::vector<bool> Visited(Graph.getNumBlockIDs(), false);
  BlockWorklist Worklist(Function);
  Worklist.push(&Graph.getEntry());
  bool AnyMarker = false;
  const CorrelatedBranches Correlated = CorrelatedBranches::of(Function);
  if (Correlated.Truncated)
    Limits.push_back({Function.decl(), Function.decl()->getLocation(),
                      "more than " + std::to_string(limits::MaxCorrelatedConditions) +
                          " conditions tested twice; group balance correlates the first ones"});

  // What an exception out of a call takes out of the function: the groups
  // open at the call (one into a handler here follows its exceptional edge).
  DepthState Thrown;
  auto Transfer = [&](const CFGBlock &Block) {
    DepthState State = joinPredecessors(Function, Block, Out, Visited, Correlated, Paths);
    const bool Caught = exceptionalCall(Block);
    forEachCall(Block, Function.context(),
                [&](const FunctionDecl *Callee, SourceLocation Site, const Stmt *Call) {
                  if (!Caught && throwsPastStatusChecks(Callee))
                    for (const auto &[Key, Info] : State)
                      if (Key.Depth > 0)
                        if (auto [It, New] = Thrown.emplace(Key, Info); New && !Info.LeftBy)
                          It->second.LeftBy = Call;
                  const CalleeRole &Role = Classifier.classify(Callee);
                  int Delta = Role.GroupMarker
                                  ? (Role.GroupMarker->Role == rules::GroupRole::Begin ? 1 : -1)
                                  : analyse(Callee).Delta;
                  if (Delta == 0)
                    return;
                  AnyMarker = true;
                  State = shift(State, Delta, Site, Role.Name);
                });
    const Stmt *Leaving = leavingStatement(Block);
    if (isa_and_nonnull<CallExpr>(Leaving))
      return DepthState(); // exit() and friends end the process: nothing stays open
    if (Leaving)
      for (auto &[Key, Info] : State)
        if (Key.Depth > 0 && !Info.LeftBy)
          Info.LeftBy = Leaving;
    return State;
  };

  unsigned Budget = limits::GroupVisitsPerBlock * (Graph.getNumBlockIDs() + 1);
  while (!Worklist.empty()) {
    if (Budget-- == 0) {
      Limits.push_back({Function.decl(), Function.decl()->getLocation(),
                        "the NCCL group depths did not settle within " +
                            std::to_string(limits::GroupVisitsPerBlock) +
                            " visits per block; groups may be reported open or missed"});
      break;
    }
    const CFGBlock *Block = Worklist.pop();
    DepthState State = Transfer(*Block);
    bool Changed = !Visited[Block->getBlockID()] || !sameDepths(State, Out[Block->getBlockID()]);
    Visited[Block->getBlockID()] = true;
    Out[Block->getBlockID()] = std::move(State);
    if (!Changed)
      continue;
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const CFGBlock *Next = Succ.getReachableBlock();
      if (Next && Paths.follows(Function, *Block, Index))
        Worklist.push(Next);
      ++Index;
    }
  }

  Outcome Result;
  // A guard that groups only when asked pairs its own start and end.
  const auto *Member = dyn_cast<CXXMethodDecl>(Function.decl());
  if (AnyMarker && !(Member && conditionalGroupGuard(Member, Classifier))) {
    DepthState AtExit = Transfer(Graph.getExit());
    AtExit.insert(Thrown.begin(), Thrown.end());
    judgeExit(
        AtExit, Function.decl(), [&] { return isGroupHelper(Function); }, Result.Problems,
        Result.Delta);
  }
  return Result;
}

} // namespace lockstep::analysis
