#include "Divergence.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <set>

namespace lockstep::analysis {
using namespace clang;

namespace {

struct Arm {
  BranchArm description;
  PathSet paths;
};

BranchArm describeArm(const CFGBlock &Branch, unsigned Index, const CFGBlock *Target) {
  BranchArm Arm;
  if (isa<SwitchStmt>(Branch.getTerminatorStmt())) {
    const Stmt *Label = Target ? Target->getLabel() : nullptr;
    Arm.kind = isa_and_nonnull<CaseStmt>(Label) ? BranchArm::Kind::Case : BranchArm::Kind::Default;
    Arm.label = Label;
    return Arm;
  }
  Arm.kind = Index == 0 ? BranchArm::Kind::True : BranchArm::Kind::False;
  return Arm;
}

size_t commonPrefix(const EventPath &A, const EventPath &B) {
  size_t K = 0;
  while (K < A.events.size() && K < B.events.size() && A.events[K].key == B.events[K].key)
    ++K;
  return K;
}

bool sameCollectives(const EventPath &A, const EventPath &B) {
  std::multiset<std::string> KeysA, KeysB;
  for (const CollectiveEvent &E : A.events)
    KeysA.insert(E.key);
  for (const CollectiveEvent &E : B.events)
    KeysB.insert(E.key);
  return KeysA == KeysB;
}

} // namespace

std::vector<Divergence> branchDivergences(const FunctionCFG &Function, const CFGBlock &Branch,
                                          const Provenance *Source, CollectiveEvents &Events) {
  std::vector<Divergence> Found;
  const CFGBlock *Stop = Function.immediatePostDominator(&Branch);
  std::vector<Arm> Arms;
  std::set<const CFGBlock *> Targets;
  unsigned Index = 0;
  for (const CFGBlock::AdjacentBlock &Succ : Branch.succs()) {
    const CFGBlock *Target = Succ.getReachableBlock();
    if (Target && Targets.insert(Target).second) {
      Arms.push_back({describeArm(Branch, Index, Target), Events.paths(Function, Target, Stop)});
      if (Arms.back().paths.overflow)
        return Found; // too many paths to make a claim without risking a false alarm
    }
    ++Index;
  }
  if (Arms.size() < 2)
    return Found;

  const Stmt *Statement = branchStatement(Branch, Function.parents());
  const SourceManager &SM = Function.context().getSourceManager();
  auto Report = [&](Divergence::Kind Kind, const Arm &Runs, const CollectiveEvent &Event,
                    const Arm &Other, const EventPath &OtherPath,
                    const CollectiveEvent *OtherEvent) {
    if (Event.loopBack || (OtherEvent && OtherEvent->loopBack))
      return;
    Divergence D;
    D.kind = Kind;
    D.function = Function.decl();
    D.event = Event;
    D.condition = decidingCondition(Branch);
    D.branch = Statement;
    D.arm = Runs.description;
    D.armCount = Arms.size();
    D.source = Source;
    D.leaving = OtherPath.leaving;
    if (OtherEvent)
      D.otherEvent = *OtherEvent;
    if (Kind == Divergence::Kind::OnlySomeRanks && OtherPath.leaving &&
        sourceContains(SM, Statement->getSourceRange(), OtherPath.leaving->getBeginLoc()) &&
        !sourceContains(SM, Statement->getSourceRange(), Event.site)) {
      D.kind = Divergence::Kind::SkippedAfterExit;
      D.arm = Other.description;
    }
    Found.push_back(std::move(D)); // the caller keeps one finding per site
  };

  for (size_t I = 0; I < Arms.size(); ++I) {
    for (size_t J = 0; J < Arms.size(); ++J) {
      if (I == J || Arms[I].paths.sameSequencesAs(Arms[J].paths))
        continue;
      std::set<std::string> OtherSignatures;
      for (const EventPath &Path : Arms[J].paths.paths)
        OtherSignatures.insert(Path.signature());
      for (const EventPath &Path : Arms[I].paths.paths) {
        if (OtherSignatures.count(Path.signature()))
          continue;
        // Compare with the path of the other arm that agrees the longest.
        const EventPath *Closest = nullptr;
        size_t K = 0;
        for (const EventPath &Candidate : Arms[J].paths.paths) {
          size_t Length = commonPrefix(Path, Candidate);
          if (!Closest || Length > K) {
            Closest = &Candidate;
            K = Length;
          }
        }
        const bool Mine = K < Path.events.size(), Theirs = K < Closest->events.size();
        if (Mine && Theirs) {
          const CollectiveEvent &A = Path.events[K], &B = Closest->events[K];
          if (I < J && sameCollectives(Path, *Closest))
            Report(Divergence::Kind::Order, Arms[I], A, Arms[J], *Closest, &B);
          else if (I < J && A.collective == B.collective)
            Report(Divergence::Kind::Arguments, Arms[I], A, Arms[J], *Closest, &B);
          else if (A.collective != B.collective && !sameCollectives(Path, *Closest))
            Report(Divergence::Kind::OnlySomeRanks, Arms[I], A, Arms[J], *Closest, &B);
        } else if (Mine) {
          Report(Divergence::Kind::OnlySomeRanks, Arms[I], Path.events[K], Arms[J], *Closest,
                 nullptr);
        } else if (Theirs) {
          Report(Divergence::Kind::OnlySomeRanks, Arms[J], Closest->events[K], Arms[I], Path,
                 nullptr);
        }
      }
    }
  }
  return Found;
}

} // namespace lockstep::analysis
