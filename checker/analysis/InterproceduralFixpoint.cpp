// The interprocedural fixed points of a translation unit: rank dependence
// (facts, parameter seeds and shared writes, rounds until nothing changes)
// and the collective summaries, callees first.
#include "TranslationUnitAnalysis.h"
#include "Limits.h"

namespace lockstep::analysis {
using namespace clang;

// Functions read each other's facts (return values, out-parameters) and the
// shared facts (fields, globals); parameters are seeded from call sites.
// Everything only grows, so a few rounds reach the fixed point; after the
// first, only the functions whose inputs changed are analysed again.
void TranslationUnitAnalysis::computeDependence() {
  std::vector<const FunctionCFG *> Pending;
  for (const auto &Function : Functions)
    Pending.push_back(Function.get());
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionCFG *>> Callers;
  auto Seeded = [&](const FunctionCFG *Function) {
    std::vector<bool> Present;
    for (const Provenance *Seed : Env.seeds.lookup(Function->decl()->getCanonicalDecl()))
      Present.push_back(Seed != nullptr);
    return Present;
  };
  for (unsigned Round = 0; !Pending.empty(); ++Round) {
    if (Round == limits::DependenceRounds) {
      for (const FunctionCFG *Function : Pending)
        Limits.push_back({Function->decl(), Function->decl()->getLocation(),
                          "what its callees return did not settle within " +
                              std::to_string(limits::DependenceRounds) +
                              " rounds; some rank-dependent values may be missed"});
      break;
    }
    llvm::DenseSet<const FunctionDecl *> NewFacts;
    for (const FunctionCFG *Function : Pending) {
      FunctionDependence Result = analyzeDependence(*Function, Env);
      if (!Result.settled)
        Limits.push_back({Function->decl(), Function->decl()->getLocation(),
                          "its values did not settle within " +
                              std::to_string(limits::DependenceVisitsPerBlock) +
                              " visits per block; some rank-dependent values may be missed"});
      FunctionFacts &Facts = Env.facts[Function->decl()->getCanonicalDecl()];
      if (!Facts.sameAs(Result.facts)) {
        Facts = Result.facts;
        NewFacts.insert(Function->decl()->getCanonicalDecl());
      }
      if (Round == 0)
        for (const CallSiteRecord &Call : Result.calls)
          Callers[Call.callee].push_back(Function);
      Dependence[Function] = std::move(Result);
    }
    llvm::DenseMap<const FunctionCFG *, std::vector<bool>> SeededBefore;
    for (const auto &Function : Functions)
      SeededBefore[Function.get()] = Seeded(Function.get());
    computeSeeds();
    llvm::DenseSet<const ValueDecl *> NewShared = publishSharedWrites();

    llvm::DenseSet<const FunctionCFG *> Next;
    for (const FunctionDecl *Changed : NewFacts)
      for (const FunctionCFG *Caller : Callers.lookup(Changed))
        Next.insert(Caller);
    for (const auto &Function : Functions) {
      const FunctionDependence &Result = Dependence[Function.get()];
      if (SeededBefore[Function.get()] != Seeded(Function.get()) ||
          llvm::any_of(NewShared, [&](const ValueDecl *D) { return Result.sharedReads.count(D); }))
        Next.insert(Function.get());
    }
    // In the functions' order, not the set's: which provenance a value keeps
    // (the first one merged) must not change from run to run.
    Pending.clear();
    for (const auto &Function : Functions)
      if (Next.count(Function.get()))
        Pending.push_back(Function.get());
  }
}

void TranslationUnitAnalysis::computeSeeds() {
  Env.seeds.clear();
  llvm::DenseSet<const FunctionDecl *> Called;
  for (const auto &[Function, Result] : Dependence)
    for (const CallSiteRecord &Call : Result.calls)
      Called.insert(Call.callee);
  // Parameters of functions nobody in this file calls come from outside:
  // only their names tell whether they hold a rank.
  for (const auto &Function : Functions) {
    const FunctionDecl *FD = Function->decl();
    auto &Seeds = Env.seeds[FD->getCanonicalDecl()];
    Seeds.assign(FD->getNumParams(), nullptr);
    if (Called.count(FD->getCanonicalDecl()))
      continue;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (Classifier.isRankName(FD->getParamDecl(I)->getName()))
        Seeds[I] = Env.rankName(FD->getParamDecl(I));
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Function, Result] : Dependence) {
      for (const CallSiteRecord &Call : Result.calls) {
        auto It = Env.seeds.find(Call.callee);
        if (It == Env.seeds.end())
          continue;
        auto &Seeds = It->second;
        for (size_t I = 0; I < Call.args.size() && I < Seeds.size(); ++I) {
          if (Seeds[I])
            continue;
          if (const Provenance *Source = Env.resolve(Call.args[I], Function->decl())) {
            const ParmVarDecl *Param = Call.callee->getParamDecl(I);
            Seeds[I] = Arena.make(Provenance::Kind::Parameter, Param->getNameAsString(),
                                  Param->getLocation(), Source);
            Changed = true;
          }
        }
      }
    }
  }
}

llvm::DenseSet<const ValueDecl *> TranslationUnitAnalysis::publishSharedWrites() {
  llvm::DenseSet<const ValueDecl *> Published;
  for (const auto &[Function, Result] : Dependence) {
    for (const SharedWrite &Write : Result.sharedWrites) {
      if (Env.shared.count(Write.decl))
        continue;
      if (const Provenance *Source = Env.resolve(Write.value, Function->decl())) {
        RankValue Value;
        Value.source = Source;
        Value.exactRank = Write.value.exactRank;
        Env.shared[Write.decl] = Value;
        Published.insert(Write.decl);
      }
    }
  }
  return Published;
}
// Callees first, with an explicit stack: call chains can be thousands deep.
// A function met again while its callees are summarised (recursion) is an
// opaque call for them.
void TranslationUnitAnalysis::summarize(CollectiveEvents &With, SequenceBuilder &Walker) {
  llvm::DenseSet<const FunctionDecl *> Started;
  for (const auto &Root : Functions) {
    const FunctionDecl *RootDecl = Root->decl()->getCanonicalDecl();
    if (!With.performsCollectives(RootDecl) || !Started.insert(RootDecl).second)
      continue;
    std::vector<std::pair<const FunctionDecl *, size_t>> Stack{{RootDecl, 0}};
    while (!Stack.empty()) {
      auto &[FD, Next] = Stack.back();
      const std::vector<const FunctionDecl *> &Callees = With.performingCallees(FD);
      if (Next < Callees.size()) {
        const FunctionDecl *Callee = Callees[Next++];
        if (Started.insert(Callee).second)
          Stack.push_back({Callee, 0});
        continue;
      }
      const FunctionDecl *Done = FD;
      Stack.pop_back();
      auto Function = ByDecl.find(Done);
      if (Function == ByDecl.end())
        continue;
      FunctionShape &Shape = shapeOf(*Function->second);
      const CFG &Graph = Function->second->cfg();
      GuardedSequence Start;
      Start.guard = Formulas.truth();
      RegionSequences Region = Walker.region(Shape, {{&Graph.getEntry(), Start}}, &Graph.getExit());
      FunctionSummary Summary;
      for (const GuardedSequence &S : Region.sequences) {
        Summary.several |= S.keys != Region.sequences.front().keys;
        for (const CollectiveEvent *Event : Table.events(S.events))
          Summary.onlyGroupMarkers &= Event->groupMarker;
      }
      if (Region.overflow) {
        Summary.several = true;
        Limits.push_back({Done, Done->getLocation(),
                          "more than " + std::to_string(limits::MaxSequences) +
                              " distinct collective sequences; its callers see one opaque call"});
      }
      for (const GuardedSequence &S : Region.sequences)
        if (S.events || !Summary.several) {
          for (const CollectiveEvent *Event : Table.events(S.events))
            Summary.events.push_back(*Event);
          break;
        }
      if (Summary.events.size() > limits::MaxSummaryEvents) {
        Summary.several = true; // its callers see `call f`
        Summary.events.resize(1);
      }
      With.setSummary(Done, std::move(Summary));
    }
  }
}

} // namespace lockstep::analysis
