// The interprocedural fixed points of a translation unit: rank dependence
// (facts, parameter seeds and shared writes, rounds until nothing changes)
// and the collective summaries, callees first.
#include "CallSite.h"
#include "Limits.h"
#include "TranslationUnitAnalysis.h"

namespace lockstep::analysis {
using namespace clang;

// Functions read each other's facts (return values, out-parameters) and the
// shared facts (fields, globals); parameters are seeded from call sites.
// Everything only grows, so a few rounds reach the fixed point. The first
// round goes callees first, so most callers read final facts; a function is
// analysed again only when something it read changed after it was analysed.
// Its results name its parameters (RankValue::Params), so new seeds matter
// only to a flow that read them.
/// 0: \p Source is null, 1: pending on another file, 2: known here.
static uint8_t certainty(const Provenance *Source) { return !Source ? 0 : Source->Pending ? 1 : 2; }

void TranslationUnitAnalysis::computeDependence() {
  std::vector<const FunctionCFG *> Pending = calleesFirst();
  // Growing these moves every function's result: sized once.
  Dependence.reserve(Functions.size());
  Env.Facts.reserve(Functions.size());
  llvm::DenseMap<const FunctionDecl *, unsigned> FactsChangedAt;
  llvm::DenseMap<const ValueDecl *, unsigned> PublishedAt;
  llvm::DenseMap<const FunctionCFG *, unsigned> AnalysedAt;
  unsigned Clock = 0;
  // How each parameter (and each field of a struct parameter) is seeded.
  using ParameterSeeds = std::vector<std::vector<uint8_t>>;
  auto Seeded = [&](const FunctionCFG *Function) {
    const FunctionDecl *FD = Function->decl();
    ParameterSeeds Present(FD->getNumParams(), std::vector<uint8_t>(1, 0));
    // A parameter's certainty, and its elements' above it.
    for (const auto *Map : {&Env.Seeds, &Env.ElementSeeds})
      if (auto It = Map->find(FD->getCanonicalDecl()); It != Map->end())
        for (size_t I = 0; I < It->second.size() && I < Present.size(); ++I)
          Present[I][0] += (Map == &Env.Seeds ? 1 : 3) * certainty(It->second[I]);
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (const DependenceEnvironment::FieldSeedMap *Fields = Env.fieldSeedsOf(FD, I)) {
        Present[I].push_back(3); // field by field, then each field
        for (const auto &[Field, Seed] : *Fields)
          Present[I].push_back(certainty(Seed));
      }
    return Present;
  };
  // Whether the flow of \p Function read seeds that changed from \p Before
  // to \p After (it tracks the first 64 parameters).
  auto ReadsChanged = [&](const FunctionCFG &Function, const ParameterSeeds &Before,
                          const ParameterSeeds &After) {
    const FunctionDependence &Result = Dependence[&Function];
    for (size_t I = 0; I < Before.size() && I < 64; ++I)
      if ((Result.FieldSeedsRead >> I & 1) &&
          !std::equal(Before[I].begin() + 1, Before[I].end(), After[I].begin() + 1, After[I].end()))
        return true;
    return llvm::any_of(Result.SplitLookups, [&](const auto &Lookup) {
      return Env.splitBehind(Lookup.first, Function.decl()) != Lookup.second;
    });
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
    for (const FunctionCFG *Function : Pending) {
      AnalysedAt[Function] = ++Clock;
      FunctionDependence Result = analyzeDependence(*Function, Env);
      if (!Result.Settled)
        Limits.push_back({Function->decl(), Function->decl()->getLocation(),
                          "its values did not settle within " +
                              std::to_string(limits::DependenceVisitsPerBlock) +
                              " visits per block; some rank-dependent values may be missed"});
      const FunctionDecl *Decl = Function->decl()->getCanonicalDecl();
      FunctionFacts &Facts = Env.Facts[Decl];
      if (!Facts.sameAs(Result.Facts)) {
        Facts = Result.Facts;
        FactsChangedAt[Decl] = Clock;
      }
      FunctionDependence &Stored = Dependence[Function] = std::move(Result);
      for (const ValueDecl *D : publishSharedWrites(*Function, Stored))
        PublishedAt[D] = Clock;
    }
    std::vector<ParameterSeeds> SeededBefore;
    for (const auto &Function : Functions)
      SeededBefore.push_back(Seeded(Function.get()));
    computeSeeds();
    computeFieldSeeds();
    // New seeds change a flow only where it read them (FieldSeedsRead,
    // SplitLookups). The others keep their results, which name parameters,
    // and only publish their writes again, resolved with the new seeds.
    std::vector<bool> Reseeded(Functions.size());
    for (size_t I = 0; I < Functions.size(); ++I) {
      const FunctionCFG *Function = Functions[I].get();
      ParameterSeeds Now = Seeded(Function);
      if (Now == SeededBefore[I])
        continue;
      Reseeded[I] = ReadsChanged(*Function, SeededBefore[I], Now);
      if (Reseeded[I])
        continue;
      ++Clock;
      for (const ValueDecl *D : publishSharedWrites(*Function, Dependence[Function]))
        PublishedAt[D] = Clock;
    }

    // In the functions' order: which provenance a value keeps (the first
    // one merged) must not change from run to run.
    Pending.clear();
    for (size_t I = 0; I < Functions.size(); ++I) {
      const FunctionCFG *Function = Functions[I].get();
      const FunctionDependence &Result = Dependence[Function];
      const unsigned Since = AnalysedAt[Function];
      auto After = [Since](const auto &Times, const auto *Key) {
        auto It = Times.find(Key);
        return It != Times.end() && It->second > Since;
      };
      if (Reseeded[I] ||
          llvm::any_of(
              Result.Calls,
              [&](const CallSiteRecord &Call) { return After(FactsChangedAt, Call.Callee); }) ||
          llvm::any_of(Result.SharedReads,
                       [&](const ValueDecl *D) { return After(PublishedAt, D); }))
        Pending.push_back(Function);
    }
  }
}

// Post-order of the direct calls between the file's functions, from each
// function in source order: leaves first, and otherwise the file's order.
std::vector<const FunctionCFG *> TranslationUnitAnalysis::calleesFirst() const {
  std::vector<const FunctionCFG *> Order;
  llvm::DenseSet<const FunctionCFG *> Started;
  auto CalleesOf = [&](const FunctionCFG *Function) {
    std::vector<const FunctionCFG *> Callees;
    for (const CFGBlock *Block : Function->cfg())
      forEachCall(*Block, Function->context(),
                  [&](const FunctionDecl *Callee, SourceLocation, const Stmt *) {
                    if (const FunctionCFG *Found = ByDecl.lookup(Callee->getCanonicalDecl()))
                      Callees.push_back(Found);
                  });
    return Callees;
  };
  for (const auto &Root : Functions) {
    if (!Started.insert(Root.get()).second)
      continue;
    std::vector<std::pair<const FunctionCFG *, std::vector<const FunctionCFG *>>> Stack;
    Stack.push_back({Root.get(), CalleesOf(Root.get())});
    while (!Stack.empty()) {
      auto &[Function, Callees] = Stack.back();
      if (Callees.empty()) {
        Order.push_back(Function);
        Stack.pop_back();
        continue;
      }
      const FunctionCFG *Callee = Callees.front();
      Callees.erase(Callees.begin());
      if (Started.insert(Callee).second)
        Stack.push_back({Callee, CalleesOf(Callee)});
    }
  }
  return Order;
}

void TranslationUnitAnalysis::computeSeeds() {
  Env.Seeds.clear();
  Env.ElementSeeds.clear();
  llvm::DenseSet<const FunctionDecl *> Called;
  for (const auto &[Function, Result] : Dependence)
    for (const CallSiteRecord &Call : Result.Calls)
      Called.insert(Call.Callee);
  // Parameters of functions nobody in this file calls come from outside:
  // only their names tell whether they hold a rank.
  for (const auto &Function : Functions) {
    const FunctionDecl *FD = Function->decl();
    auto &Seeds = Env.Seeds[FD->getCanonicalDecl()];
    Seeds.assign(FD->getNumParams(), nullptr);
    Env.ElementSeeds[FD->getCanonicalDecl()].assign(FD->getNumParams(), nullptr);
    if (Called.count(FD->getCanonicalDecl()))
      continue;
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (Classifier.isRankName(FD->getParamDecl(I)->getName()))
        Seeds[I] = Env.rankName(FD->getParamDecl(I));
  }
  // Passes in source order until nothing changes; a caller whose own seeds
  // did not change since it was last visited passes what it passed then, so
  // only the callees seeded anew are visited again.
  llvm::DenseMap<const FunctionDecl *, size_t> IndexOf;
  for (size_t I = 0; I < Functions.size(); ++I)
    IndexOf.try_emplace(Functions[I]->decl()->getCanonicalDecl(), I);
  std::vector<bool> Dirty(Functions.size(), true);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t F = 0; F < Functions.size(); ++F) {
      if (!Dirty[F])
        continue;
      Dirty[F] = false;
      const FunctionCFG &Function = *Functions[F];
      for (const CallSiteRecord &Call : Dependence[&Function].Calls) {
        auto It = Env.Seeds.find(Call.Callee);
        if (It == Env.Seeds.end())
          continue;
        auto Seed = [&](std::vector<const Provenance *> &Seeds,
                        const std::vector<RankValue> &Args) {
          for (size_t I = 0; I < Args.size() && I < Seeds.size(); ++I) {
            if (const Provenance *Source = Env.resolve(Args[I], Function.decl());
                saysMoreOfParameter(Source, Seeds[I])) {
              const ParmVarDecl *Param = Call.Callee->getParamDecl(I);
              Seeds[I] = Arena.make(Provenance::Kind::Parameter, Param->getNameAsString(),
                                    Param->getLocation(), Source);
              Changed = true;
              if (auto Callee = IndexOf.find(Call.Callee); Callee != IndexOf.end())
                Dirty[Callee->second] = true;
            }
          }
        };
        Seed(It->second, Call.Args);
        Seed(Env.ElementSeeds[Call.Callee], Call.ArgElements);
      }
    }
  }
}

/// How \p Field is spelled inside an \p Outer: `rows`, or `grid.rows` for a
/// field of a struct inside it (the first such path, breadth first).
static std::string fieldSpelling(QualType Outer, const FieldDecl *Field) {
  const RecordDecl *Record = Outer->getAsRecordDecl();
  std::vector<std::pair<const RecordDecl *, std::string>> Inside;
  if (Record && Record->getDefinition())
    Inside.push_back({Record->getDefinition(), ""});
  for (size_t I = 0; I < Inside.size(); ++I) {
    auto [Struct, Prefix] = Inside[I];
    for (const FieldDecl *Member : Struct->fields()) {
      std::string Spelled = Prefix + Member->getNameAsString();
      if (Member == Field)
        return Spelled;
      if (const RecordDecl *Inner = Member->getType()->getAsRecordDecl();
          Inner && Inner->getDefinition())
        Inside.push_back({Inner->getDefinition(), Spelled + "."});
    }
  }
  return Field->getNameAsString();
}

// Struct parameters that every call passes field by field are seeded field
// by field (after the whole parameters, whose seeds resolve the callers'
// values).
void TranslationUnitAnalysis::computeFieldSeeds() {
  Env.FieldSeeds.clear();
  // Parameters some call passes as a whole (or leaves to a default argument).
  llvm::DenseMap<const FunctionDecl *, std::vector<bool>> Whole;
  for (const auto &Function : Functions)
    for (const CallSiteRecord &Call : Dependence[Function.get()].Calls) {
      std::vector<bool> &Flags = Whole[Call.Callee];
      Flags.resize(Call.Callee->getNumParams(), false);
      for (size_t I = 0; I < Flags.size(); ++I)
        Flags[I] = Flags[I] || I >= Call.ArgFields.size() || !Call.ArgFields[I];
    }
  // In source order: the first caller that passes a per-rank field names it.
  for (const auto &Function : Functions)
    for (const CallSiteRecord &Call : Dependence[Function.get()].Calls) {
      const std::vector<bool> &Flags = Whole[Call.Callee];
      auto &Slots = Env.FieldSeeds[Call.Callee];
      Slots.resize(Flags.size());
      for (size_t I = 0; I < Flags.size(); ++I) {
        if (Flags[I])
          continue;
        DependenceEnvironment::FieldSeedMap &Seeds = Slots[I] ? *Slots[I] : Slots[I].emplace();
        for (const auto &[Field, Value] : *Call.ArgFields[I]) {
          const Provenance *&Seed = Seeds[Field];
          if (const Provenance *Source = Env.resolve(Value, Function->decl());
              saysMoreOfParameter(Source, Seed)) {
            const ParmVarDecl *Param = Call.Callee->getParamDecl(I);
            QualType Type = Param->getType().getNonReferenceType();
            Seed = Arena.make(
                Provenance::Kind::Parameter,
                Param->getNameAsString() + (Type->isPointerType() ? "->" : ".") +
                    fieldSpelling(Type->isPointerType() ? Type->getPointeeType() : Type, Field),
                Param->getLocation(), Source);
          }
        }
      }
    }
}

llvm::SmallVector<const ValueDecl *>
TranslationUnitAnalysis::publishSharedWrites(const FunctionCFG &Function,
                                             const FunctionDependence &Result) {
  llvm::SmallVector<const ValueDecl *> Published;
  auto Publish = [&](auto &Into, const auto &Key, const SharedWrite &Write,
                     const ValueDecl *ReadAs) {
    auto Known = Into.find(Key);
    if (const Provenance *Source = Env.resolve(Write.Value, Function.decl());
        saysMore(Source, Known == Into.end() ? nullptr : Known->second.Source)) {
      RankValue Value;
      Value.Source = Source;
      Value.ExactRank = Write.Value.ExactRank && !Write.Elements;
      Into[Key] = Value;
      Published.push_back(ReadAs);
    }
  };
  for (const SharedWrite &Write : Result.SharedWrites)
    if (Write.Part.Global) // its readers read the global
      Publish(Env.SharedParts, Write.Part, Write, Write.Part.Global);
    else
      Publish(Write.Elements ? Env.SharedElements : Env.Shared, Write.Decl, Write, Write.Decl);
  return Published;
}

// Callees first, with an explicit stack: call chains can be thousands deep.
// A function met again while its callees are summarised (recursion) is an
// opaque call for them.
void TranslationUnitAnalysis::summarize(CollectiveEvents &With, SequenceBuilder &Walker,
                                        const CollectiveEvents *Settled) {
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
      // Without a pending event in reach, a function runs here what it runs
      // without pending events: summarised once (the first pass's).
      if (Settled && !With.waits(Done)) {
        if (const FunctionSummary *Known = Settled->functionSummary(Done))
          With.setSummary(Done, *Known);
        continue;
      }
      FunctionShape &Shape = shapeOf(*Function->second);
      const CFG &Graph = Function->second->cfg();
      GuardedSequence Start;
      Start.Guard = Formulas.truth();
      RegionSequences Region = Walker.region(Shape, {{&Graph.getEntry(), Start}}, &Graph.getExit());
      FunctionSummary Summary;
      for (const GuardedSequence &S : Region.Sequences) {
        Summary.Several |= S.Keys != Region.Sequences.front().Keys;
        for (const CollectiveEvent *Event : Table.events(S.Events))
          Summary.OnlyGroupMarkers &= Event->GroupMarker;
      }
      if (Region.Overflow) {
        Summary.Several = true;
        Limits.push_back({Done, Done->getLocation(),
                          "more than " + std::to_string(limits::MaxSequences) +
                              " distinct collective sequences; its callers see one opaque call"});
      }
      for (const GuardedSequence &S : Region.Sequences)
        if (S.Events || !Summary.Several) {
          Summary.Events = Table.events(S.Events);
          break;
        }
      if (Summary.Events.size() > limits::MaxSummaryEvents) {
        Summary.Several = true; // its callers see `call f`
        Summary.Events.resize(1);
      }
      With.setSummary(Done, std::move(Summary));
    }
  }
}

} // namespace lockstep::analysis
