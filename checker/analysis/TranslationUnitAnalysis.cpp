#include "TranslationUnitAnalysis.h"
#include "Limits.h"
#include "SourceText.h"
#include "TripCount.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <optional>
#include <set>

namespace lockstep::analysis {
using namespace clang;

namespace {

constexpr unsigned MaxRounds = 6;

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(ASTContext &Context) : SM(Context.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // System headers hold no user collectives and would dominate the cost.
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !FD->isInvalidDecl() && !SM.isInSystemHeader(FD->getLocation()))
      Found.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    if (CXXMethodDecl *Call = Lambda->getCallOperator())
      if (!Call->isDependentContext() && !Call->getDescribedFunctionTemplate())
        VisitFunctionDecl(Call);
    return true;
  }

  std::vector<const FunctionDecl *> Found;

private:
  const SourceManager &SM;
};

/// The communicator argument of a collective call as written; empty when
/// the rules name none.
std::string writtenCommunicator(const CallExpr *Call, const CallClassifier &Classifier,
                                const ASTContext &Context) {
  const FunctionDecl *Callee = resolvedCallee(Call);
  const CalleeRole *Role = Callee ? &Classifier.classify(Callee) : nullptr;
  const Expr *Comm =
      Role && Role->collective ? ruleArgument(Call, Role->collective->comm) : nullptr;
  return Comm ? sourceText(Comm, Context) : "";
}

} // namespace

TranslationUnitAnalysis::TranslationUnitAnalysis(ASTContext &Context,
                                                 const CallClassifier &Classifier,
                                                 const ExternalSummaries *External,
                                                 bool KeepPending, PathOptions Options)
    : Classifier(Classifier), External(External), Env(Classifier, Arena, this->External),
      Solver(Formulas), Members(Formulas) {
  collectFunctions(Context);
  computeDependence();
  Paths = std::make_unique<ErrorPaths>(Classifier, ByDecl, Options);
  Indirect = std::make_unique<IndirectCalls>(ByDecl);
  Events = std::make_unique<CollectiveEvents>(Classifier, ByDecl, this->External, *Indirect,
                                              /*KeepPending=*/false);
  Builder = std::make_unique<SequenceBuilder>(Formulas, Table, *Events, *Paths);
  if (KeepPending) {
    PendingEvents = std::make_unique<CollectiveEvents>(Classifier, ByDecl, this->External,
                                                       *Indirect, /*KeepPending=*/true);
    PendingBuilder = std::make_unique<SequenceBuilder>(Formulas, Table, *PendingEvents, *Paths);
  }
  collectSplits();
  summarize(*Events, *Builder);
  if (PendingEvents)
    summarize(*PendingEvents, *PendingBuilder);
  findDivergences();
  findRankArguments();
  findGroupImbalances();
}

TranslationUnitAnalysis::~TranslationUnitAnalysis() = default;

void TranslationUnitAnalysis::collectFunctions(ASTContext &Context) {
  FunctionCollector Collector(Context);
  Collector.TraverseDecl(Context.getTranslationUnitDecl());
  for (const FunctionDecl *FD : Collector.Found) {
    const FunctionDecl *Key = FD->getCanonicalDecl();
    if (ByDecl.count(Key))
      continue;
    if (std::unique_ptr<FunctionCFG> Function = FunctionCFG::build(FD, Context)) {
      ByDecl[Key] = Function.get();
      Functions.push_back(std::move(Function));
    }
  }
}

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
  for (unsigned Round = 0; Round < MaxRounds && !Pending.empty(); ++Round) {
    llvm::DenseSet<const FunctionDecl *> NewFacts;
    for (const FunctionCFG *Function : Pending) {
      FunctionDependence Result = analyzeDependence(*Function, Env);
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
    Pending.assign(Next.begin(), Next.end());
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

FunctionShape &TranslationUnitAnalysis::shapeOf(const FunctionCFG &Function) {
  std::unique_ptr<FunctionShape> &Slot = Shapes[&Function];
  if (!Slot) {
    const FunctionDependence &Result = Dependence[&Function];
    const FunctionDecl *FD = Function.decl();
    ConditionFacts Facts{
        [&Result](const Expr *E) -> const RankValue * {
          auto It = Result.values.find(E);
          return It == Result.values.end() ? nullptr : &It->second;
        },
        [this, FD](const RankValue &Value) { return Env.resolve(Value, FD) != nullptr; },
        [this](const ValueDecl *Comm) { return Members.isNull(Comm); },
        [this](const ValueDecl *Comm) { return Members.isSplit(Comm); }};
    Slot = std::make_unique<FunctionShape>(Function, Formulas, std::move(Facts));
  }
  return *Slot;
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

bool TranslationUnitAnalysis::tripAgreed(FunctionShape &Shape, const CFGBlock &Header) {
  const Stmt *Loop = Header.getTerminatorStmt();
  std::optional<FormulaRef> Trip =
      Loop ? tripCount(Loop, Shape.function().parents(), Shape.conditions(), Formulas)
           : std::nullopt;
  if (!Trip)
    return false;
  FormulaRef Reach = Shape.reaching(&Header);
  FormulaRef Question = Formulas.conjoin(
      Formulas.conjoin(Formulas.inRank(1, Reach), Formulas.inRank(2, Reach)),
      Formulas.compare(FormulaOp::Ne, Formulas.inRank(1, *Trip), Formulas.inRank(2, *Trip)));
  RankWitness Ignored;
  return Solver.decide({Question}, Ignored) == Answer::Never;
}

void TranslationUnitAnalysis::findDivergences() {
  // One finding per site, also across the instantiations of a template.
  std::set<unsigned> Reported;
  DivergenceFinder Finder(*Builder, Table, Solver, Formulas, Members, Limits);
  std::optional<DivergenceFinder> PendingFinder;
  if (PendingBuilder)
    PendingFinder.emplace(*PendingBuilder, Table, Solver, Formulas, Members, Limits);
  for (const auto &Function : Functions) {
    const FunctionDependence &Result = Dependence[Function.get()];
    // Inner branches and loops first (Clang numbers blocks from the exit
    // backwards), so a collective is reported where it is decided most closely.
    std::vector<const CFGBlock *> Blocks(Function->cfg().begin(), Function->cfg().end());
    std::sort(Blocks.begin(), Blocks.end(), [](const CFGBlock *A, const CFGBlock *B) {
      return A->getBlockID() < B->getBlockID();
    });
    std::optional<std::vector<CollectiveEvent>> FunctionEvents;
    std::vector<JoinRegion> Regions;
    // The pending pass matters only where calls still wait for a summary.
    bool HasPending = false;
    if (PendingFinder)
      for (const CFGBlock *B : Blocks)
        for (const CollectiveEvent &Event : PendingEvents->blockEvents(*Function, *B))
          HasPending |= Event.pending;
    for (const CFGBlock *Block : Blocks) {
      auto It = Result.conditions.find(Block);
      if (It == Result.conditions.end())
        continue;
      const Provenance *Source = Env.resolve(It->second, Function->decl());
      if (!Source || Paths->onErrorPath(*Function, *Block))
        continue;
      const bool Loop = isLoopBranch(*Block);
      Branches.push_back({Function->decl(), decidingCondition(*Block), Source, Loop});
      // The pending pass only adds findings about calls still to resolve:
      // what the other files do must not change the ones known here.
      auto Keep = [&](const CollectiveEvent &Event, bool Pending) {
        return Event.pending == Pending && Reported.insert(Event.site.getRawEncoding()).second;
      };
      FunctionShape &Shape = shapeOf(*Function);
      if (!Loop) {
        for (bool Pending : {false, true})
          if (DivergenceFinder *With = Pending ? (HasPending ? &*PendingFinder : nullptr) : &Finder)
            for (Divergence &D : With->at(Shape, *Block, Source))
              if (Keep(D.event, Pending))
                Divergences.push_back(std::move(D));
        continue;
      }
      if (tripAgreed(Shape, *Block))
        continue;
      if (!FunctionEvents) {
        FunctionEvents.emplace();
        CollectiveEvents &With = PendingEvents ? *PendingEvents : *Events;
        for (const CFGBlock *B : Function->cfg())
          for (const CollectiveEvent &Event : With.blockEvents(*Function, *B))
            FunctionEvents->push_back(Event);
        Regions = joinRegions(*Function, Classifier);
      }
      for (LoopDivergence &D :
           analysis::loopDivergences(*Function, *Block, Source, *FunctionEvents, Regions))
        if (Keep(D.event, D.event.pending))
          LoopDivergences.push_back(std::move(D));
    }
    if (auto Shape = Shapes.find(Function.get());
        Shape != Shapes.end() && Shape->second->conditions().truncated())
      Limits.push_back({Function->decl(), Function->decl()->getLocation(),
                        "an expression with more than " +
                            std::to_string(limits::MaxExpressionNodes) +
                            " operands was taken as an unknown per-rank value"});
  }
}

void TranslationUnitAnalysis::findRankArguments() {
  std::set<std::pair<unsigned, std::string>> Reported;
  for (const auto &Function : Functions)
    for (const AgreedArgument &Argument : Dependence[Function.get()].agreedArguments) {
      const Provenance *Source = Env.resolve(Argument.value, Function->decl());
      if (std::string(Argument.role) == "communicator" && fromSplit(Source))
        continue; // each part of a split uses its own: membership decides
      if (Source && Reported.emplace(Argument.argument->getBeginLoc().getRawEncoding(),
                                     Argument.role).second)
        RankArguments.push_back({Function->decl(), Argument.call, Argument.collective,
                                 Argument.role, Argument.argument, Source,
                                 writtenCommunicator(Argument.call, Classifier,
                                                     Function->context())});
    }
}

void TranslationUnitAnalysis::findGroupImbalances() {
  GroupBalance Balance(Classifier, ByDecl, *Events, *Paths, Limits);
  std::set<unsigned> Reported;
  for (const auto &Function : Functions)
    for (GroupImbalance &Problem : Balance.check(*Function))
      if (Reported.insert(Problem.site.getRawEncoding()).second)
        GroupImbalances.push_back(std::move(Problem));
}

// A split's colour, as a formula over the rank: who shares each part.
void TranslationUnitAnalysis::collectSplits() {
  for (const auto &Function : Functions)
    for (const RankSplit &Split : Dependence[Function.get()].splits)
      if (Env.resolve(Split.value, Function->decl()))
        Members.addSplit(Split.communicator,
                         shapeOf(*Function).conditions().expression(Split.color));
}

ExternalSummaries TranslationUnitAnalysis::exportSummaries() const {
  ExternalSummaries Out;
  for (const auto &Function : Functions) {
    const FunctionDecl *FD = Function->decl();
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    if (!FD->isExternallyVisible() || (Method && Method->getParent()->isLambda()))
      continue;
    ExternalFunction Summary;
    Summary.name = FD->getQualifiedNameAsString();
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    auto Point = [&](SourceLocation Loc) {
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
      return P.isValid() ? SourcePoint{P.getFilename(), P.getLine(), P.getColumn()} : SourcePoint{};
    };
    if (const FunctionSummary *Sequences = Events->functionSummary(FD)) {
      for (const CollectiveEvent &Event : Sequences->events) {
        if (Event.groupMarker)
          continue;
        const auto *Param = dyn_cast_or_null<ParmVarDecl>(Event.communicatorDecl);
        Summary.collectives.push_back(
            {Event.collective,
             Event.externalSite.file.empty() ? Point(Event.collectiveSite) : Event.externalSite,
             Event.communicator,
             Param && Param->getDeclContext() == FD ? std::optional(Param->getFunctionScopeIndex())
                                                    : std::nullopt});
        if (Sequences->several)
          break;
      }
      Summary.severalSequences = Sequences->several && !Summary.collectives.empty();
    }
    const RankValue &Returned = Env.facts.lookup(FD->getCanonicalDecl()).returnValue;
    if (const Provenance *Source = Returned.source) {
      // The note names where the rank comes from: an assignment under a
      // condition has no name of its own, what it derives from does.
      while (Source->name.empty() && Source->via)
        Source = Source->via;
      Summary.returnsRank = true;
      Summary.rankSource = Source->name.empty() ? Summary.name : Source->name;
      Summary.rankSite = Source->kind == Provenance::Kind::External
                             ? SourcePoint{Source->file, Source->line, Source->column}
                             : Point(Source->loc);
    }
    if (Summary.performsCollectives() || Summary.returnsRank)
      Out.emplace(usrOf(FD), std::move(Summary));
  }
  return Out;
}

} // namespace lockstep::analysis
