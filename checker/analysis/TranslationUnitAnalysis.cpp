#include "TranslationUnitAnalysis.h"
#include "Exceptions.h"
#include "FreshCommunicators.h"
#include "IntercommRoots.h"
#include "LatchedCollectives.h"
#include "Limits.h"
#include "NeverReturns.h"
#include "SequenceDifference.h"
#include "SourceText.h"
#include "TripCount.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>

namespace lockstep::analysis {
using namespace clang;

namespace {

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  explicit FunctionCollector(ASTContext &Context) : SM(Context.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  // System headers hold no user collectives and would dominate the cost:
  // their declarations are not entered (the instantiations of a user's
  // templates and lambdas live under the user's declarations).
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() && !FD->isInvalidDecl() &&
        !SM.isInSystemHeader(FD->getLocation()))
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

} // namespace

/// The communicator argument of a collective call; null when the rules name none.
static const Expr *communicatorArgument(const CallExpr *Call, const CallClassifier &Classifier) {
  const FunctionDecl *Callee = resolvedCallee(Call);
  const CalleeRole *Role = Callee ? &Classifier.classify(Callee) : nullptr;
  return Role && Role->Collective ? ruleArgument(Call, Role->Collective->Comm) : nullptr;
}

/// Whether a polling loop latches \p Event (LatchedCollectives) around \p
/// Within (a branch, or the loop itself): every rank that leaves the loop
/// makes it once, whichever iteration it makes it in.
static bool latchedAround(const CollectiveEvent &Event, const FunctionCFG &Function,
                          const Stmt *Within) {
  const Stmt *Loop = latchingLoop(Event.SiteStmt, Function);
  return Loop && Within &&
         sourceContains(Function.context().getSourceManager(), Loop->getSourceRange(),
                        Within->getBeginLoc());
}

TranslationUnitAnalysis::TranslationUnitAnalysis(ASTContext &Context,
                                                 const CallClassifier &Classifier,
                                                 const ExternalSummaries *External,
                                                 PendingFacts Pending, PathOptions Options)
    : Classifier(Classifier), External(External), Env(Classifier, Arena, this->External),
      OwnFields(Classifier), Solver(Formulas), Members(Formulas) {
  collectFunctions(Context);
  if (Pending.Enabled)
    Env.PendingRoot = Pending.Root;
  // An accessor of another file that returns a split communicator: its
  // members share the rank in the part its summary names.
  Members.setColoursElsewhere([this](const ValueDecl *D) -> std::optional<FormulaRef> {
    const auto *Accessor = dyn_cast<FunctionDecl>(D);
    const ExternalFunction *Summary = Accessor ? this->External.find(Accessor) : nullptr;
    if (!Summary || Summary->SplitByPart.empty())
      return std::nullopt;
    return Formulas.perRank(Arena.part(Summary->SplitByPart), /*Boolean=*/false);
  });
  Indirect = std::make_unique<IndirectCalls>(ByDecl);
  Bindings = std::make_unique<ParameterBindings>(Functions, Context);
  Members.setParameterStorage([this](const ValueDecl *Comm) -> const ValueDecl * {
    const auto *Param = dyn_cast<ParmVarDecl>(Comm);
    return Param ? Bindings->storage(Param) : nullptr;
  });
  Env.Indirect = Indirect.get();
  Paths = std::make_unique<ErrorPaths>(Classifier, ByDecl, Options);
  Env.Paths = Paths.get();
  for (const auto &Function : Functions)
    Function->ignoreEdges([&](const CFGBlock &Block, unsigned Index) {
      return Paths->follows(*Function, Block, Index);
    });
  Env.OwnFields = &OwnFields;
  computeDependence();
  for (const auto &Function : Functions)
    for (const RankSplit &Split : Dependence[Function.get()].Splits)
      Wrappers.addSplit(Function->decl(), Split);
  for (const auto &Function : Functions)
    Wrappers.noteAssignments(Function->decl());
  Handles = std::make_unique<HandleCommunicators>(Classifier, ByDecl);
  Events = std::make_unique<CollectiveEvents>(Classifier, ByDecl, this->External, *Indirect,
                                              *Handles, Wrappers, Strings, /*KeepPending=*/false);
  Builder = std::make_unique<SequenceBuilder>(Formulas, Table, *Events, *Paths);
  if (Pending.Enabled) {
    PendingEvents = std::make_unique<CollectiveEvents>(Classifier, ByDecl, this->External,
                                                       *Indirect, *Handles, Wrappers, Strings,
                                                       /*KeepPending=*/true);
    PendingBuilder = std::make_unique<SequenceBuilder>(Formulas, Table, *PendingEvents, *Paths);
  }
  collectSplits();
  llvm::DenseSet<const ValueDecl *> Fresh;
  for (const auto &Function : Functions)
    collectFreshCommunicators(Function->decl(), Classifier, Fresh);
  for (const ValueDecl *Comm : Fresh)
    Members.addFresh(Comm);
  summarize(*Events, *Builder);
  if (PendingEvents)
    summarize(*PendingEvents, *PendingBuilder, Events.get());
  findDivergences();
  findDispatchDivergences();
  findRankArguments();
  findGroupImbalances();
}

TranslationUnitAnalysis::~TranslationUnitAnalysis() = default;

void TranslationUnitAnalysis::collectFunctions(ASTContext &Context) {
  FunctionCollector Collector(Context);
  Collector.TraverseDecl(Context.getTranslationUnitDecl());
  Throwing = std::make_unique<ThrowingFunctions>(Collector.Found);
  for (const FunctionDecl *FD : Collector.Found) {
    const FunctionDecl *Key = FD->getCanonicalDecl();
    if (ByDecl.count(Key))
      continue;
    if (std::unique_ptr<FunctionCFG> Function = FunctionCFG::build(FD, Context, Throwing.get())) {
      ByDecl[Key] = Function.get();
      Functions.push_back(std::move(Function));
    }
  }
  cutNeverReturningCalls(Functions, ByDecl, Throwing.get());
}
// With \p WithPending, values read from storage that another file may write
// per rank (Provenance::Pending) count as per-rank too; the findings
// known here use the shape without them.
FunctionShape &TranslationUnitAnalysis::shapeOf(const FunctionCFG &Function, bool WithPending) {
  std::unique_ptr<FunctionShape> &Slot = (WithPending ? PendingShapes : Shapes)[&Function];
  if (!Slot) {
    const FunctionDependence &Result = Dependence[&Function];
    const FunctionDecl *FD = Function.decl();
    ConditionFacts Facts{
        [&Result](const Expr *E) -> const RankValue * {
          auto It = Result.Values.find(E);
          return It == Result.Values.end() ? nullptr : &It->second;
        },
        [&Result](const CFGBlock &Block) -> const RankValue * {
          auto It = Result.Conditions.find(&Block);
          return It == Result.Conditions.end() ? nullptr : &It->second;
        },
        [this, FD, WithPending](const RankValue &Value) {
          const Provenance *Source = Env.resolve(Value, FD);
          return Source && (WithPending || !Source->Pending);
        },
        [this](const ValueDecl *Comm) { return Members.isNull(Comm); },
        [this](const ValueDecl *Comm) { return Members.isSplit(Comm); },
        [this, FD](const RankValue &Value, FormulaRef Symbol) {
          if (const ValueDecl *Comm = sameAmongMembersOf(Env.resolve(Value, FD)))
            Members.sameOnMembers(Comm, Symbol);
        },
        [this, &Function](const CFGBlock &Block, unsigned Index) {
          return Paths->passesStatusCheck(Function, Block, Index);
        },
        [this](const ValueDecl *Field) {
          const auto *Copy = dyn_cast<FieldDecl>(Field);
          return ColourFields.count(Field) || (Copy && CoordinateCopies.count(Copy));
        },
        [this](const FieldDecl *Field, uint64_t At) -> const void * {
          auto It = CoordinateFields.find(Field);
          return It == CoordinateFields.end() || At >= It->second.size() ? nullptr
                                                                         : &It->second[At];
        },
        [this](const ValueDecl *Object, const FieldDecl *Field) {
          return Wrappers.objectFor(Object, Field);
        },
        [this, WithPending](const FieldDecl *Field) {
          auto It = Env.Shared.find(Field);
          const Provenance *Source =
              It != Env.Shared.end() ? It->second.Source : Env.writtenElsewhere(Field);
          for (const auto &[Part, Value] : Env.SharedParts)
            if (!Source && Part.Fields.back() == Field)
              Source = Value.Source;
          return (Source && (WithPending || !Source->Pending)) ||
                 Classifier.isRankName(Field->getName());
        },
        [this, WithPending](const ParmVarDecl *Param) { return passedValue(Param, WithPending); },
        [this](const ValueDecl *Comm) { return Members.passed(Comm); },
        [this](const CallExpr *Call) { return releasesHandle(Call, Classifier); }};
    Slot = std::make_unique<FunctionShape>(Function, Formulas, std::move(Facts));
  }
  return *Slot;
}
// Whether every two ranks that reach the loop (and share \p Comm, when
// only its members meet in the loop's collectives) run it equally often;
// with \p Counter, whether they also count it alike from the same start.
bool TranslationUnitAnalysis::tripAgreed(FunctionShape &Shape, const CFGBlock &Header,
                                         const ValueDecl *Comm, const VarDecl *Counter) {
  const Stmt *Loop = Header.getTerminatorStmt();
  std::optional<CountedLoop> Counted =
      Loop ? countedLoop(Loop, Shape.function().parents(), Shape.conditions(), Formulas)
           : std::nullopt;
  if (!Counted || (Counter && Counted->Counter != Counter))
    return false;
  auto Differs = [&](FormulaRef Value) {
    return Formulas.compare(FormulaOp::Ne, Formulas.inRank(1, Value), Formulas.inRank(2, Value));
  };
  FormulaRef Reach = Shape.reaching(&Header);
  FormulaRef Question =
      Formulas.conjoin(Formulas.conjoin(Formulas.inRank(1, Reach), Formulas.inRank(2, Reach)),
                       Counter ? Formulas.disjoin(Differs(Counted->Trip), Differs(Counted->Start))
                               : Differs(Counted->Trip));
  if (std::optional<FormulaRef> Shared = Members.shared(Comm))
    Question = Formulas.conjoin(Question, *Shared);
  RankWitness Ignored;
  return Solver.decide({Question}, Ignored) == Answer::Never;
}

// The value every call passes for \p Param, as a formula in its callers'
// terms: the same formula at each call (formulas are hash-consed).
std::optional<FormulaRef> TranslationUnitAnalysis::passedValue(const ParmVarDecl *Param,
                                                               bool WithPending) {
  auto Known = PassedValues.find({Param, unsigned(WithPending)});
  if (Known != PassedValues.end())
    return Known->second;
  std::vector<ParameterBindings::Site> Sites = Bindings->sites(Param);
  // A caller whose formulas are being translated (recursion through
  // helpers) is not entered again: its translation would start over.
  if (Sites.empty() || llvm::any_of(Sites, [&](const ParameterBindings::Site &Call) {
        return Translating.count(Call.Caller);
      }))
    return std::nullopt;
  if (BindingDepth == limits::ParameterBindingDepth) {
    const auto *FD = cast<FunctionDecl>(Param->getDeclContext());
    if (BindingLimited.insert(Param).second)
      Limits.push_back({FD, Param->getLocation(),
                        "what its callers pass for '" + Param->getName().str() +
                            "' was followed through " +
                            std::to_string(limits::ParameterBindingDepth) +
                            " callers; the parameter is taken as a value of its own"});
    return std::nullopt;
  }
  ++BindingDepth;
  const FunctionCFG *Callee =
      ByDecl.lookup(cast<FunctionDecl>(Param->getDeclContext())->getCanonicalDecl());
  Translating.insert(Callee);
  std::optional<FormulaRef> Common;
  for (const ParameterBindings::Site &Call : Sites) {
    FormulaRef Passed = shapeOf(*Call.Caller, WithPending).conditions().expression(Call.Argument);
    if (Common && *Common != Passed) {
      Common = std::nullopt;
      break;
    }
    Common = Passed;
  }
  Translating.erase(Callee);
  --BindingDepth;
  return PassedValues[{Param, unsigned(WithPending)}] = Common;
}

// Whether two ranks that share the split communicator \p Comm always
// compute the same value for \p Value: one computed from the colour alone.
bool TranslationUnitAnalysis::sameOnMembers(const FunctionCFG &Function, const Expr *Value,
                                            const ValueDecl *Comm) {
  std::optional<FormulaRef> Shared = Comm ? Members.shared(Comm) : std::nullopt;
  // A colour field's reads are one symbol wherever they are: one written
  // again between the split and the call would read as the colour.
  bool ReadsColourField = false;
  forEachStmtInOrder(Value, [&](const Stmt *S) {
    const auto *Member = dyn_cast<MemberExpr>(S);
    ReadsColourField |= Member && ColourFields.count(Member->getMemberDecl()) &&
                        !ColourFieldsSetOnce.count(Member->getMemberDecl());
  });
  if (!Shared || ReadsColourField)
    return false;
  FunctionShape &Shape = shapeOf(Function, /*WithPending=*/false);
  // The counter of a loop around the call (`for (k = 0; k <= my_row; ++k)`)
  // counts alike on members that start it alike and run it equally often.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts()))
    if (const auto *Counter = dyn_cast<VarDecl>(Ref->getDecl());
        Counter && !aliased(Counter, Function.decl()->getBody()))
      for (const Stmt *S = Value; S; S = Function.parents().getParent(S))
        if (isa<ForStmt, WhileStmt>(S))
          for (const CFGBlock *Block : Function.cfg())
            if (Block->getTerminatorStmt() == S && tripAgreed(Shape, *Block, Comm, Counter))
              return true;
  FormulaRef Formula = Shape.conditions().expression(Value);
  FormulaRef Question =
      Formulas.conjoin(*Shared, Formulas.compare(FormulaOp::Ne, Formulas.inRank(1, Formula),
                                                 Formulas.inRank(2, Formula)));
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
  // Branches on values pending on another file come after those of every
  // function: they only add findings that the merge keeps if a summary says
  // so, and must not take a collective's site from a branch known here.
  auto Visit = [&](const FunctionCFG &Function, bool OnPending) {
    const FunctionDependence &Result = Dependence[&Function];
    // Inner branches and loops first (Clang numbers blocks from the exit
    // backwards), so a collective is reported where it is decided most closely.
    std::vector<std::pair<const CFGBlock *, const Provenance *>> Branching;
    for (const CFGBlock *Block : Function.cfg())
      if (auto It = Result.Conditions.find(Block); It != Result.Conditions.end())
        if (const Provenance *Source = Env.resolve(It->second, Function.decl());
            Source && Source->Pending == OnPending)
          Branching.push_back({Block, Source});
    // A loop whose condition's operand differs already (`residual > tol &&
    // it < max`) is reported there, in the words of the whole condition, not
    // at its last operand that the trip count made per-rank in turn.
    llvm::DenseMap<const CFGBlock *, unsigned> Order;
    for (const auto &Entry : Branching)
      Order[Entry.first] = 2 * Entry.first->getBlockID();
    for (const auto &Entry : Branching)
      if (const CFGBlock *Loop = Function.loopTestedBy(*Entry.first))
        if (auto It = Order.find(Loop); It != Order.end())
          It->second = std::max(It->second, 2 * Entry.first->getBlockID() + 1);
    std::sort(Branching.begin(), Branching.end(),
              [&](const auto &A, const auto &B) { return Order[A.first] < Order[B.first]; });
    // The pending-call pass matters only where calls still wait for a summary.
    bool HasPending = false;
    if (PendingFinder && !Branching.empty() && PendingEvents->waits(Function.decl()))
      for (const CFGBlock *B : Function.cfg())
        for (const CollectiveEvent &Event : PendingEvents->blockEvents(Function, *B))
          HasPending |= Event.pending();
    // The function's collectives, without and with the calls still pending.
    std::optional<std::vector<CollectiveEvent>> FunctionEvents[2];
    std::optional<std::vector<JoinRegion>> Regions;
    for (auto [Block, Source] : Branching) {
      if (Paths->onErrorPath(Function, *Block))
        continue;
      const bool Loop = isLoopBranch(*Block);
      Branches.push_back({Function.decl(), decidingCondition(*Block), Source});
      // The pending pass only adds findings about calls still to resolve:
      // what the other files do must not change the ones known here.
      auto Keep = [&](const CollectiveEvent &Event, bool Pending) {
        return Event.pending() == Pending && Reported.insert(Event.Site.getRawEncoding()).second;
      };
      FunctionShape &Shape = shapeOf(Function, OnPending);
      // The loops whose trip count the branch decides: its own, or those
      // it leaves (`if (rank > 1 && epoch == 3) break;`).
      std::vector<const CFGBlock *> Decided;
      const CFGBlock *Header = Loop ? Block : Function.loopTestedBy(*Block);
      const ValueDecl *Members = sameAmongMembersOf(Source);
      // Of a loop's test, only the ranks its body lets leave the function, where
      // more than a communicator's members differ: the rest is its trip count's.
      for (bool Pending : {false, true})
        if (DivergenceFinder *With = Pending ? (HasPending ? &*PendingFinder : nullptr) : &Finder;
            With && !(Header && (Members || !Shape.loopLeavesFunction(Header))))
          for (Divergence &D : With->at(Shape, *Block, Source))
            if ((!Header || D.K == Divergence::Kind::SkippedAfterExit) &&
                !(D.K == Divergence::Kind::OnlySomeRanks &&
                  latchedAround(D.Event, Function, D.Branch)) &&
                Keep(D.Event, Pending)) {
              std::tie(D.ThrowSite, D.Thrower) = throwSite(*Block);
              Divergences.push_back(std::move(D));
            }
      if (!Loop && Header)
        Decided.push_back(Header); // an operand of its condition decides its trip count
      else if (!Loop)
        Decided = Shape.loopsLeftBy(Block);
      else if (!tripAgreed(Shape, *Block))
        Decided.push_back(Block);
      if (Decided.empty())
        continue;
      if (!Regions)
        Regions = joinRegions(Function, Classifier);
      // The collectives known here first, as the branches' are: a call that
      // still waits for another file's summary must not hide them.
      const bool Waits = PendingEvents && PendingEvents->waits(Function.decl());
      for (bool Pending : {false, true}) {
        if (Pending && !Waits)
          break;
        CollectiveEvents &With = Pending ? *PendingEvents : *Events;
        // The collectives of the blocks \p Header's loop holds (all: null).
        auto EventsIn = [&](const CFGBlock *Header) {
          std::vector<CollectiveEvent> In;
          for (const CFGBlock *B : Function.cfg())
            if (!Header || Shape.inLoop(Header, B))
              for (const CollectiveEvent &Event : With.blockEvents(Function, *B))
                In.push_back(Event);
          return In;
        };
        std::optional<std::vector<CollectiveEvent>> &All = FunctionEvents[Pending];
        if (!All)
          All = EventsIn(nullptr);
        const SourceManager &SM = Function.context().getSourceManager();
        for (const CFGBlock *Header : Decided) {
          std::vector<LoopDivergence> Found = analysis::loopDivergences(
              Function, *Header, *Block, Source,
              loopStatement(*Header, Function.parents()) ? *All : EventsIn(Header), *Regions);
          // Calls only their callers make (on MPI_COMM_SELF, and on what
          // those created) run as often as each rank likes, in source order.
          std::vector<unsigned> Order(Found.size());
          std::iota(Order.begin(), Order.end(), 0u);
          llvm::sort(Order, [&](unsigned A, unsigned B) {
            SourceLocation SiteA = Found[A].Event.Site, SiteB = Found[B].Event.Site;
            return SiteA == SiteB ? A < B : SM.isBeforeInTranslationUnit(SiteA, SiteB);
          });
          CallersOwnEvents Own;
          for (unsigned I : Order)
            if (LoopDivergence &D = Found[I];
                // A trip count the same on every member, of a loop of collectives only they make.
                !Own.skip(D.Event) && !(Members && D.Event.CommunicatorDecl == Members) &&
                !latchedAround(D.Event, Function, loopStatement(*Header, Function.parents())) &&
                !(Loop && D.Event.CommunicatorDecl &&
                  tripAgreed(Shape, *Block, D.Event.CommunicatorDecl)) &&
                Keep(D.Event, D.Event.pending()))
              LoopDivergences.push_back(std::move(D));
        }
      }
    }
  };
  for (bool OnPending : {false, true})
    for (const auto &Function : Functions)
      Visit(*Function, OnPending);
  for (const auto &Function : Functions) {
    auto Shape = Shapes.find(Function.get());
    if (Shape == Shapes.end())
      continue;
    if (Shape->second->conditions().truncated())
      Limits.push_back({Function->decl(), Function->decl()->getLocation(),
                        "an expression with more than " +
                            std::to_string(limits::MaxExpressionNodes) +
                            " operands was taken as an unknown per-rank value"});
    if (Shape->second->conditions().reachingLimited())
      Limits.push_back({Function->decl(), Function->decl()->getLocation(),
                        "a variable assigned on paths that merge more than " +
                            std::to_string(limits::MaxReachingBranches) +
                            " times before a read was taken as an unknown value"});
  }
}

// Where the function a call inside a `try` calls throws, and which function
// that is, for the note.
std::pair<SourceLocation, const FunctionDecl *>
TranslationUnitAnalysis::throwSite(const CFGBlock &Block) const {
  const CallExpr *Call = exceptionalCall(Block);
  if (!Call)
    return {};
  auto Targets = Env.throwingTargets(Call);
  if (Targets.empty())
    return {};
  return {Targets.front().second->ThrowAt, Targets.front().first};
}

std::optional<FormulaRef> TranslationUnitAnalysis::reachingCall(const FunctionCFG &Function,
                                                                const CallExpr *Call) {
  for (const CFGBlock *Block : Function.cfg())
    for (const CFGElement &Element : *Block)
      if (auto S = Element.getAs<CFGStmt>(); S && S->getStmt() == Call)
        return shapeOf(Function, /*WithPending=*/false).reaching(Block);
  return std::nullopt;
}

// A handle a split in this function made is null on the ranks whose colour
// is MPI_UNDEFINED: whether one of them reaches \p Call, which passes the
// handle \p Comm holds. (A parameter or a field may be passed or used only
// where it is not null, which this function does not see.)
std::optional<RankWitness> TranslationUnitAnalysis::nonMemberReaches(const FunctionCFG &Function,
                                                                     const CallExpr *Call,
                                                                     const Expr *Comm) {
  const auto *Local = dyn_cast_or_null<VarDecl>(accessedStorage(Comm));
  if (!Local || !Local->hasLocalStorage() || isa<ParmVarDecl>(Local) || !Members.leavesOut(Local))
    return std::nullopt;
  std::optional<FormulaRef> Reach = reachingCall(Function, Call);
  if (!Reach)
    return std::nullopt;
  FormulaRef Question =
      Formulas.conjoin(Formulas.inRank(1, *Reach), Formulas.inRank(1, Members.isNull(Local)));
  RankWitness Witness;
  if (Solver.decide({Question}, Witness) != Answer::Holds)
    return std::nullopt;
  // The ranks make an example only where nothing else decides the question.
  if (FormulaArena::EvaluationPlan Plan = Formulas.plan(Question); Plan.HasSymbols)
    Witness.Rank1.reset();
  else
    RankSolver::smallestJob(Formulas, Plan, Witness);
  return Witness;
}

void TranslationUnitAnalysis::findRankArguments() {
  std::set<std::pair<unsigned, std::string>> Reported;
  std::optional<IntercommRoots> Intercomm; // asked only about roots that differ
  // Whether every two ranks that reach \p Call pass the same \p Value, an
  // integer (a count, a root): the conditions on the way can pin it (`if (n != 2) goto out;` before
  // `MPI_Bcast(buf, n, ...)`).
  auto AgreedWhereCalled = [&](const FunctionCFG &Function, const CallExpr *Call,
                               const Expr *Value) {
    std::optional<FormulaRef> Reach = reachingCall(Function, Call);
    if (!Reach)
      return false;
    FormulaRef Formula = shapeOf(Function).conditions().expression(Value);
    FormulaRef Question = Formulas.conjoin(
        Formulas.conjoin(Formulas.inRank(1, *Reach), Formulas.inRank(2, *Reach)),
        Formulas.compare(FormulaOp::Ne, Formulas.inRank(1, Formula), Formulas.inRank(2, Formula)));
    RankWitness Ignored;
    return Solver.decide({Question}, Ignored) == Answer::Never;
  };
  for (const auto &Function : Functions)
    for (const AgreedArgument &Argument : Dependence[Function.get()].AgreedArguments) {
      const Provenance *Source = Env.resolve(Argument.Value, Function->decl());
      if (Source && std::string_view(Argument.Role) == "root") {
        if (!Intercomm)
          Intercomm.emplace(Functions, Function->context());
        if (Intercomm->mayBe(Argument.Argument))
          continue;
      }
      // A handle given by its address (`MPI_Comm_free(&c)`): by what it holds.
      const Expr *Compared = Argument.Argument->IgnoreParenImpCasts();
      if (const auto *Address = dyn_cast<UnaryOperator>(Compared);
          Address && Address->getOpcode() == UO_AddrOf)
        Compared = Address->getSubExpr();
      // Each part of a split, or each rank's own group picked from a list
      // (`tp_groups[rank / tp_size]`), uses its own: membership decides,
      // unless ranks of no part reach the call.
      const bool Split = fromSplit(Argument.Value.Source) || fromSplit(Source);
      if (std::string(Argument.Role) == "communicator" &&
          (Split || pickedFromContainer(Argument.Argument))) {
        if (std::optional<RankWitness> Outside =
                Split ? nonMemberReaches(*Function, Argument.Call, Compared) : std::nullopt;
            Outside &&
            Reported.emplace(Argument.Argument->getBeginLoc().getRawEncoding(), Argument.Role)
                .second)
          RankArguments.push_back({Function->decl(), Argument.Call, Argument.Collective,
                                   Argument.Role, Argument.Argument, Source,
                                   sourceText(Compared, Function->context()), Outside});
        continue;
      }
      const Expr *Comm = communicatorArgument(Argument.Call, Classifier);
      const ValueDecl *Members = sameAmongMembersOf(Source);
      if (Members && Comm && accessedStorage(Comm) == Members)
        continue; // the same on every member, and only they make the call
      if (Source && Comm && sameOnMembers(*Function, Compared, accessedStorage(Comm)))
        continue; // computed from the colour of the split that made it (`row_of(rank) % q`)
      if (Source && isInteger(Compared) && AgreedWhereCalled(*Function, Argument.Call, Compared))
        continue;
      if (Source &&
          Reported.emplace(Argument.Argument->getBeginLoc().getRawEncoding(), Argument.Role).second)
        RankArguments.push_back({Function->decl(), Argument.Call, Argument.Collective,
                                 Argument.Role, Argument.Argument, Source,
                                 Comm ? sourceText(Comm, Function->context()) : ""});
    }
}

void TranslationUnitAnalysis::findGroupImbalances() {
  GroupBalance Balance(Classifier, ByDecl, *Events, *Paths, *Throwing, Limits);
  std::set<unsigned> Reported;
  for (const auto &Function : Functions)
    for (GroupImbalance &Problem : Balance.check(*Function))
      if (Reported.insert(Problem.Site.getRawEncoding()).second)
        GroupImbalances.push_back(std::move(Problem));
}

} // namespace lockstep::analysis
