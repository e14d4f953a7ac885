#include "CollectiveEvents.h"
#include "CallSite.h"
#include "DecidingParameters.h"
#include "IntercommRoots.h"
#include "SourceText.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ScopeExit.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <set>

namespace lockstep::analysis {
using namespace clang;

namespace {

/// What ranks compare: equal constants are equal however they are written.
std::string comparable(const Expr *E, ASTContext &Context) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult Result;
  if (!E->isValueDependent() && E->EvaluateAsInt(Result, Context))
    return llvm::toString(Result.Val.getInt(), 10);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  E->printPretty(OS, nullptr, Context.getPrintingPolicy());
  return OS.str();
}

/// The parameter \p E names, when it is one alone (`c`, not `c + 1`).
const ParmVarDecl *namedParameter(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
}

/// Whether \p E reads a variable local to the function it is written in
/// (a lambda's captures are its enclosing function's).
bool readsLocal(const Expr *E) {
  bool Local = false;
  forEachStmtInOrder(E, [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Local |= Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
             !Ref->refersToEnclosingVariableOrCapture();
  });
  return Local;
}

/// The argument the call \p Site passes for parameter \p Index.
const Expr *argumentAt(const Stmt *Site, unsigned Index) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Site);
  if (!Call)
    return nullptr;
  std::vector<const Expr *> Args = explicitArguments(Call);
  return Index < Args.size() ? Args[Index] : nullptr;
}

} // namespace

/// The constructor a library call at \p Site runs in place
/// (`opt.emplace(world)`, `std::make_unique<Group>(world)`).
static const CXXConstructorDecl *inPlace(const Stmt *Site) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Site);
  return Call ? constructedInPlace(Call) : nullptr;
}

/// The destructor of the object a call makes on the heap (\p Site: the
/// constructor call of a `new`, or `std::make_unique`), which runs wherever
/// it is destroyed later; null for any other call.
static const CXXDestructorDecl *heapDestructor(const FunctionDecl *Callee, const Stmt *Site,
                                               const ParentMap &Parents) {
  const Stmt *Made = Site;
  if (isa<CXXConstructorDecl>(Callee)) // a `new`'s, not an argument's of make_unique
    Made = dyn_cast_or_null<CXXNewExpr>(
        Parents.getParentIgnoreParenImpCasts(const_cast<Stmt *>(Site)));
  const CXXRecordDecl *Class = heapClass(dyn_cast_or_null<Expr>(Made));
  return Class && Class->hasDefinition() ? Class->getDestructor() : nullptr;
}

CollectiveEvents::CollectiveEvents(
    const CallClassifier &Classifier,
    const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions,
    const ExternalIndex &External, const IndirectCalls &Indirect,
    const HandleCommunicators &Handles, const WrapperObjects &Wrappers, EventStrings &Strings,
    bool KeepPending)
    : Classifier(Classifier), Functions(Functions), External(External), Indirect(Indirect),
      Handles(Handles), Wrappers(Wrappers), Strings(Strings), KeepPending(KeepPending),
      Statics(
          Functions,
          [this](const FunctionDecl *FD) {
            const CalleeRole &Role = this->Classifier.classify(FD);
            return Role.synchronizes() || Role.GroupMarker || performsCollectives(FD);
          },
          [this](const Stmt *Site) {
            auto Performs = [this](const FunctionDecl *FD) { return performsCollectives(FD); };
            if (llvm::any_of(this->Indirect.targets(Site), Performs))
              return true;
            return llvm::any_of(this->Indirect.passedCallables(Site),
                                [&](const IndirectCalls::Runnable &Passed) {
                                  return llvm::any_of(Passed.Targets, Performs);
                                });
          }) {
  // Which functions perform collectives: direct ones, then their callers.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Calls;
  for (const auto &[Decl, Function] : Functions) {
    for (const CFGBlock *Block : Function->cfg())
      forEachCall(
          *Block, Function->context(),
          [&, Decl = Decl, Parents = &Function->parents()](const FunctionDecl *Callee,
                                                           SourceLocation, const Stmt *Site) {
            std::vector<const FunctionDecl *> Targets = Indirect.targets(Site);
            for (const FunctionDecl *Target : Targets)
              if (waitsOn(Target))
                Waiting.insert(Decl);
            if (!Targets.empty()) {
              Calls[Decl].insert(Calls[Decl].end(), Targets.begin(), Targets.end());
              return;
            }
            if (!Callee)
              return;
            if (waitsOn(Callee))
              Waiting.insert(Decl);
            const CalleeRole &Role = Classifier.classify(Callee);
            if (Role.synchronizes() || Role.GroupMarker || externallyPerforming(Callee)) {
              Performing.insert(Decl);
              return;
            }
            Calls[Decl].push_back(Callee->getCanonicalDecl());
            if (const CXXConstructorDecl *Made = inPlace(Site))
              Calls[Decl].push_back(Made->getCanonicalDecl());
            if (const CXXDestructorDecl *Dtor = heapDestructor(Callee, Site, *Parents))
              Calls[Decl].push_back(Dtor->getCanonicalDecl());
            for (const IndirectCalls::Runnable &Passed : Indirect.passedCallables(Site))
              Calls[Decl].insert(Calls[Decl].end(), Passed.Targets.begin(), Passed.Targets.end());
          },
          /*Unnamed=*/true);
  }
  // Spread to callers once per call edge: rounds over every caller would
  // cost the depth of a call chain times its length.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> CallersOf;
  for (const auto &[Caller, List] : Calls)
    for (const FunctionDecl *Callee : List)
      CallersOf[Callee].push_back(Caller);
  for (llvm::DenseSet<const FunctionDecl *> *Set : {&Performing, &Waiting}) {
    std::vector<const FunctionDecl *> Work(Set->begin(), Set->end());
    while (!Work.empty()) {
      auto Callers = CallersOf.find(Work.back());
      Work.pop_back();
      if (Callers == CallersOf.end())
        continue;
      for (const FunctionDecl *Caller : Callers->second)
        if (Set->insert(Caller).second)
          Work.push_back(Caller);
    }
  }
  for (const auto &[Caller, List] : Calls)
    for (const FunctionDecl *Callee : List)
      if (Performing.count(Callee) && cfgOf(Callee) && !llvm::is_contained(Callees[Caller], Callee))
        Callees[Caller].push_back(Callee);
}

const std::vector<const FunctionDecl *> &
CollectiveEvents::performingCallees(const FunctionDecl *FD) const {
  static const std::vector<const FunctionDecl *> None;
  auto It = Callees.find(FD->getCanonicalDecl());
  return It == Callees.end() ? None : It->second;
}

const FunctionSummary *CollectiveEvents::functionSummary(const FunctionDecl *FD) const {
  auto It = Summaries.find(FD->getCanonicalDecl());
  return It == Summaries.end() ? nullptr : &It->second;
}

void CollectiveEvents::setSummary(const FunctionDecl *FD, FunctionSummary Summary) {
  Summaries[FD->getCanonicalDecl()] = std::move(Summary);
}

bool CollectiveEvents::performsCollectives(const FunctionDecl *FD) const {
  return Performing.count(FD->getCanonicalDecl()) || externallyPerforming(FD);
}

bool CollectiveEvents::externallyPerforming(const FunctionDecl *Callee) const {
  if (cfgOf(Callee))
    return false;
  const ExternalFunction *Summary = External.find(Callee);
  return Summary ? Summary->performsCollectives() : pendingCandidate(Callee);
}

bool CollectiveEvents::waits(const FunctionDecl *FD) const {
  return Waiting.count(FD->getCanonicalDecl());
}

// A call of \p Callee is a pending event: no file here or summarised defines it.
bool CollectiveEvents::waitsOn(const FunctionDecl *Callee) const {
  return !cfgOf(Callee) && !External.find(Callee) && pendingCandidate(Callee);
}

// Only the user's own functions can hide collectives in another file: not
// library functions from system headers, builtins or what the rules know.
bool CollectiveEvents::pendingCandidate(const FunctionDecl *Callee) const {
  if (!KeepPending || Callee->hasBody() || Callee->getBuiltinID() || !Callee->isExternallyVisible())
    return false;
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.isKnown() || Role.EnvironmentReader || Role.Converter)
    return false;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(Callee->getLocation());
}

const FunctionCFG *CollectiveEvents::cfgOf(const FunctionDecl *FD) const {
  auto It = Functions.find(FD->getCanonicalDecl());
  return It == Functions.end() ? nullptr : It->second;
}

// The storage a communicator argument names, through an accessor of this
// file; or the accessor of another file whose summary says it returns a
// split communicator (Membership asks that summary for the colour).
const ValueDecl *CollectiveEvents::communicatorKey(const Expr *Arg) const {
  if (const ValueDecl *Storage = accessedStorage(Arg))
    return Storage;
  const auto *Call = dyn_cast<CallExpr>(Arg->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const ExternalFunction *Summary = Callee ? External.find(Callee) : nullptr;
  return Summary && !Summary->SplitByPart.empty() ? Callee->getCanonicalDecl() : nullptr;
}

/// Whether a communicator argument reads a field of the object the
/// function runs on: `comm_`, `this->comm_`, `comm()` of an accessor.
static bool readThroughThis(const Expr *Arg) {
  return isa_and_nonnull<CXXThisExpr>(fieldOwner(Arg));
}

/// Whether \p Comm is a library's predefined handle: an integer constant
/// (MPICH's `MPI_COMM_WORLD`) or the address of a global object (Open
/// MPI's `&ompi_mpi_comm_world`), not a variable that may hold any handle.
static bool predefinedHandle(const Expr *Comm, ASTContext &Context) {
  const Expr *E = Comm->IgnoreParenCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Unary->getSubExpr()->IgnoreParenCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return Var && Var->hasGlobalStorage() && !Var->isStaticLocal();
  }
  Expr::EvalResult Value;
  return !E->HasSideEffects(Context) && E->EvaluateAsInt(Value, Context);
}

CollectiveEvent CollectiveEvents::directEvent(const CallExpr *Call, const CalleeRole &Role,
                                              ASTContext &Context) const {
  CollectiveEvent Event;
  Event.Collective = Strings.save(Role.Name);
  Event.Site = Event.CollectiveSite = Call->getBeginLoc();
  Event.SiteStmt = Call;
  Event.GroupMarker = Role.GroupMarker != nullptr;
  Event.GroupBegins = Role.GroupMarker && Role.GroupMarker->Role == rules::GroupRole::Begin;
  Event.ShadowedBy = Strings.save(llvm::ArrayRef(Role.ShadowedBy));
  Event.JoinBoundary = Role.JoinBegin || Role.JoinEnd;
  Event.Key = Event.Collective;
  if (!Role.Collective)
    return Event;
  llvm::SmallVector<EventArgument, 4> Arguments;
  for (const auto &[RoleName, Ref] : agreedArguments(*Role.Collective, Call, Context)) {
    const Expr *Arg = ruleArgument(Call, *Ref);
    // A file or window runs its collectives on the communicator it was
    // created on (`MPI_File_close(&fh)`), wherever that is.
    bool OfHandle = !Arg && Ref == &Role.Collective->Comm;
    if (OfHandle)
      Arg = Handles.creator(namedStorage(ruleArgument(Call, Role.Collective->Handle)));
    if (!Arg)
      continue;
    EventArgument Argument{Strings.save(RoleName),
                           Strings.save(comparable(Arg, Context)),
                           Strings.save(sourceText(Arg, Context)),
                           OfHandle ? nullptr : namedParameter(Arg),
                           readsLocal(Arg),
                           Ref == &Role.Collective->Root && namesIntercommMarker(Arg, Context)};
    if (Ref == &Role.Collective->Comm) {
      Event.Communicator = Argument.Written;
      Event.CommunicatorDecl = communicatorKey(Arg);
      Event.OwnField = readThroughThis(Arg);
      Event.SelfCommunicator = Handles.holdsSelf(Arg, Context);
      Event.PredefinedCommunicator = predefinedHandle(Arg, Context);
      // `writers.get()`, `writers.comm_`: the communicator of an object
      // that stands for its own.
      const auto *Field = dyn_cast_or_null<FieldDecl>(Event.CommunicatorDecl);
      if (const Expr *Object = Field && !Event.OwnField ? fieldOwner(Arg) : nullptr)
        if (const ValueDecl *Holder = Wrappers.objectFor(Object, Field)) {
          Event.CommunicatorDecl = Holder;
          Event.WrapperField = Field;
        }
      if (!Event.WrapperField)
        Event.CommunicatorDecl = Handles.original(Event.CommunicatorDecl);
    }
    Arguments.push_back(Argument);
  }
  Event.AgreedArguments = Strings.save(llvm::ArrayRef(Arguments));
  Event.Key = keyOf(Event.Collective, Event.AgreedArguments);
  Event.GroupMembers = Role.Collective->Group.K != rules::ArgRef::Kind::Absent;
  Event.StartsLocally = Role.Collective->StartsLocally;
  // Only a local variable names one handle: a field is every object's.
  const ValueDecl *Made = namedStorage(ruleArgument(Call, Role.Collective->NewComm));
  if (!Made)
    Made = namedStorage(ruleArgument(Call, Role.Collective->NewHandle));
  if (const auto *Var = dyn_cast_or_null<VarDecl>(Made); Var && Var->hasLocalStorage())
    Event.Creates = Var;
  Event.Handle = namedStorage(ruleArgument(Call, Role.Collective->Handle));
  return Event;
}

// What every rank must agree on: the operation and the agreed arguments.
llvm::StringRef CollectiveEvents::keyOf(llvm::StringRef Collective,
                                        llvm::ArrayRef<EventArgument> Arguments) const {
  std::string Key = Collective.str();
  for (const EventArgument &Argument : Arguments)
    Key += ("|" + Argument.Role + "=" + Argument.Value).str();
  return Strings.save(Key);
}

void CollectiveEvents::addArguments(CollectiveEvent &Event,
                                    llvm::ArrayRef<EventArgument> Arguments) const {
  if (Arguments.empty())
    return;
  llvm::SmallVector<EventArgument, 4> All(Event.AgreedArguments);
  All.append(Arguments.begin(), Arguments.end());
  Event.AgreedArguments = Strings.save(llvm::ArrayRef(All));
  Event.Key = Strings.save(Event.Key + keyOf("", Arguments));
}

const DecidingParameters &CollectiveEvents::decidingParameters(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  if (auto Known = Deciding.find(FD); Known != Deciding.end())
    return Known->second;
  DecidingParameters Found;
  if (const FunctionCFG *Function = cfgOf(FD))
    Found = analysis::decidingParameters(
        *Function, [&](const CFGBlock &Block) { return callsCollectives(*Function, Block); });
  return Deciding[FD] = std::move(Found);
}

// Whether a call of \p Block runs a collective, itself or in what it calls:
// decided from the calls alone, so that it holds while the function's own
// events are being worked out (recursion).
bool CollectiveEvents::callsCollectives(const FunctionCFG &Function, const CFGBlock &Block) const {
  bool Calls = false;
  forEachCall(
      Block, Function.context(),
      [&](const FunctionDecl *Callee, SourceLocation, const Stmt *Site) {
        if (Calls)
          return;
        if (Callee) {
          const CalleeRole &Role = Classifier.classify(Callee);
          Calls = Role.synchronizes() || Role.GroupMarker || performsCollectives(Callee);
        }
        for (const FunctionDecl *Target : Indirect.targets(Site))
          Calls |= performsCollectives(Target);
      },
      /*Unnamed=*/true);
  return Calls;
}

void CollectiveEvents::addCallEvents(const FunctionDecl *Callee, SourceLocation Site,
                                     const Stmt *SiteStmt, std::vector<CollectiveEvent> &Out) {
  const CalleeRole &Role = Classifier.classify(Callee);
  if (!cfgOf(Callee)) { // defined in another file
    CollectiveEvent Event;
    Event.Site = Site;
    Event.SiteStmt = SiteStmt;
    Event.Via = Callee;
    Event.ShadowedBy = Strings.save(llvm::ArrayRef(Role.ShadowedBy));
    if (const ExternalFunction *Summary = External.find(Callee)) {
      for (const ExternalFunction::Collective &C : Summary->Collectives) {
        Event.Collective = Event.Key = Strings.save(C.Name);
        Event.ExternalSite = &C.Site;
        const Expr *Passed =
            C.CommunicatorParam ? argumentAt(SiteStmt, *C.CommunicatorParam) : nullptr;
        Event.Communicator =
            Strings.save(Passed ? sourceText(Passed, Callee->getASTContext()) : C.Communicator);
        Out.push_back(Event);
        if (Summary->SeveralSequences) {
          Out.back().Key = Strings.save("call " + External.usr(Callee));
          return;
        }
      }
      return;
    }
    Event.PendingUsr = Strings.save(External.usr(Callee));
    // The engine tells events apart by collective; no message names this one.
    Event.Key = Event.Collective = Strings.save("call " + Event.PendingUsr);
    Out.push_back(std::move(Event));
    return;
  }
  const FunctionSummary *Inner = functionSummary(Callee);
  ASTContext &Context = Callee->getASTContext();
  // What the caller passes for a parameter of the callee (if \p Param is
  // one), worked out once per parameter for every event that names it.
  struct PassedArgument {
    EventArgument Argument; // its role left empty
    const ValueDecl *Storage;
    bool Self; // MPI_COMM_SELF
  };
  llvm::SmallDenseMap<const ParmVarDecl *, std::optional<PassedArgument>, 4> Passed;
  auto PassedFor = [&](const ParmVarDecl *Param) -> const PassedArgument * {
    const auto *Owner = Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
    if (!Owner || Owner->getCanonicalDecl() != Callee->getCanonicalDecl())
      return nullptr;
    auto [It, Inserted] = Passed.try_emplace(Param);
    if (Inserted)
      if (const Expr *Arg = argumentAt(SiteStmt, Param->getFunctionScopeIndex()))
        It->second = PassedArgument{{"", Strings.save(comparable(Arg, Context)),
                                     Strings.save(sourceText(Arg, Context)), namedParameter(Arg),
                                     readsLocal(Arg), namesIntercommMarker(Arg, Context)},
                                    communicatorKey(Arg),
                                    Handles.holdsSelf(Arg, Context)};
    return It->second ? &*It->second : nullptr;
  };
  auto Rebase = [&](CollectiveEvent Event) {
    // A communicator the callee receives is the caller's argument.
    if (const PassedArgument *Arg =
            PassedFor(dyn_cast_or_null<ParmVarDecl>(Event.CommunicatorDecl))) {
      if (Event.WrapperField) { // an object: the caller's, if it stands for its communicator
        const VarDecl *Object =
            Wrappers.objectFor(dyn_cast_or_null<VarDecl>(Arg->Storage), Event.WrapperField);
        Event.CommunicatorDecl =
            Object ? static_cast<const ValueDecl *>(Object) : Event.WrapperField;
        if (!Object)
          Event.WrapperField = nullptr;
        Event.OwnField = false;
      } else {
        Event.CommunicatorDecl = Handles.original(Arg->Storage);
        Event.Communicator = Arg->Argument.Written;
        Event.SelfCommunicator = Arg->Self;
      }
    } else if (const auto *Field = dyn_cast_or_null<FieldDecl>(Event.CommunicatorDecl);
               Field && Event.OwnField) {
      // The communicator field of the object the method is called on; the
      // caller's own only where it calls the method on itself.
      const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(SiteStmt);
      const Expr *Object = Member ? Member->getImplicitObjectArgument() : nullptr;
      if (const ValueDecl *Holder = Object ? Wrappers.objectFor(Object, Field) : nullptr) {
        Event.CommunicatorDecl = Holder;
        Event.WrapperField = Field;
      }
      Event.OwnField =
          Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) && !Event.WrapperField;
    }
    // So is an agreed argument: the ranks compare what the caller passes.
    if (llvm::any_of(Event.AgreedArguments,
                     [&](const EventArgument &A) { return PassedFor(A.Parameter); })) {
      llvm::SmallVector<EventArgument, 4> Arguments(Event.AgreedArguments);
      bool SameValues = true; // strings are saved once: compared by address
      for (EventArgument &Argument : Arguments)
        if (const PassedArgument *Arg = PassedFor(Argument.Parameter)) {
          SameValues &= Arg->Argument.Value.data() == Argument.Value.data();
          Argument = {
              Argument.Role,         Arg->Argument.Value,
              Arg->Argument.Written, Arg->Argument.Parameter,
              Arg->Argument.Local,   Argument.Role == "root" && Arg->Argument.IntercommMarker};
        }
      Event.AgreedArguments = Strings.save(llvm::ArrayRef(Arguments));
      // A loop stays a loop: what its calls are passed is part of it.
      if (!SameValues)
        Event.Key = Event.Loop ? Strings.save(Event.Key + keyOf("", Event.AgreedArguments))
                               : keyOf(Event.Collective, Event.AgreedArguments);
    }
    Event.Site = Site;
    Event.SiteStmt = SiteStmt;
    Event.Via = Callee;
    Event.Guard = nullptr; // a guard of the callee is part of the call
    if (!Role.ShadowedBy.empty()) {
      std::vector<const rules::JoinProtocolRule *> Shadows(Event.ShadowedBy);
      Shadows.insert(Shadows.end(), Role.ShadowedBy.begin(), Role.ShadowedBy.end());
      Event.ShadowedBy = Strings.save(llvm::ArrayRef(Shadows));
    }
    Event.JoinBoundary = Role.JoinBegin || Role.JoinEnd;
    return Event;
  };
  // What the callee's branches and loops test: ranks that pass different
  // values run different sequences through it (`phase(3)` against
  // `phase(5)`, `spread(lo, mid)` against `spread(mid, hi)`).
  auto ArgumentsFor = [&](const std::vector<const ParmVarDecl *> &Params) {
    llvm::SmallVector<EventArgument, 2> Arguments;
    for (const ParmVarDecl *Param : Params)
      if (const PassedArgument *Arg = PassedFor(Param))
        Arguments.push_back({Strings.save("argument '" + Param->getName() + "'"),
                             Arg->Argument.Value, Arg->Argument.Written, Arg->Argument.Parameter,
                             Arg->Argument.Local});
    return Arguments;
  };
  const DecidingParameters &Deciding = decidingParameters(Callee);
  if (Inner && !Inner->Several) {
    // One sequence: only its loops' trip counts can turn on what is passed.
    llvm::SmallVector<EventArgument, 2> Trips = ArgumentsFor(Deciding.Loops);
    for (const CollectiveEvent *Event : Inner->Events) {
      Out.push_back(Rebase(*Event));
      if (Out.back().Loop)
        addArguments(Out.back(), Trips);
    }
    return;
  }
  // Several possible sequences (or recursion): the call is one event that
  // only matches a call of the same function.
  CollectiveEvent Event;
  if (Inner && !Inner->Events.empty())
    Event = *Inner->Events.front();
  else if (!Inner) // recursion: its first own collective stands for it
    Event = firstDirectEvent(*cfgOf(Callee));
  Event = Rebase(Event);
  const std::string Name = Callee->getQualifiedNameAsString();
  Event.Key = Strings.save("call " + Name);
  addArguments(Event, ArgumentsFor(Deciding.All));
  Event.GroupMarker = Event.GroupBegins = false;
  if (Event.Collective.empty())
    Event.Collective = Strings.save(Name);
  Out.push_back(std::move(Event));
}

// The first collective \p Function calls itself, in the order its blocks
// run (its communicator and arguments are what its callers pass); an empty
// event when it calls none.
CollectiveEvent CollectiveEvents::firstDirectEvent(const FunctionCFG &Function) const {
  for (const CFGBlock *Block : Function.reversePostOrder())
    for (const CFGElement &Element : *Block)
      if (auto S = Element.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
          if (const FunctionDecl *Callee = resolvedCallee(Call))
            if (const CalleeRole &Role = Classifier.classify(Callee);
                Role.Collective && Role.synchronizes())
              return directEvent(Call, Role, Function.context());
  return {};
}

const std::vector<CollectiveEvent> &CollectiveEvents::blockEvents(const FunctionCFG &Function,
                                                                  const CFGBlock &Block) {
  auto [It, Inserted] = BlockEvents.try_emplace(&Block);
  if (!Inserted)
    return It->second;
  std::vector<CollectiveEvent> Events;
  llvm::SmallPtrSet<const VarDecl *, 2> RunHere; // static initializers run by earlier calls
  forEachCall(
      Block, Function.context(),
      [&](const FunctionDecl *Callee, SourceLocation Site, const Stmt *SiteStmt,
          const CFGElement &Element) {
        // A guard's collectives are reported where the guard is declared.
        const size_t Before = Events.size();
        llvm::scope_exit MarkGuard([&] {
          auto Automatic = Element.getAs<CFGAutomaticObjDtor>();
          for (size_t I = Before; Automatic && I < Events.size(); ++I) {
            Events[I].Guard = Automatic->getVarDecl();
            Events[I].DestroyedAt = Events[I].Site;
            Events[I].Site = Automatic->getVarDecl()->getLocation();
          }
        });
        std::vector<const FunctionDecl *> Targets = Indirect.targets(SiteStmt);
        if (!Targets.empty()) {
          addDispatchEvents(Targets, Site, SiteStmt, Events);
          return;
        }
        if (!Callee)
          return;
        const CalleeRole &Role = Classifier.classify(Callee);
        if (Role.synchronizes() || Role.GroupMarker) {
          if (const auto *Call = dyn_cast_or_null<CallExpr>(SiteStmt))
            Events.push_back(directEvent(Call, Role, Function.context()));
        } else {
          // A call that finds its static initialized runs none of its own.
          const VarDecl *Once = performsCollectives(Callee) ? Statics.onceOf(Callee) : nullptr;
          const bool Initialized =
              Once && (!RunHere.insert(Once).second || Statics.runBefore(Function, Block, Once));
          if (performsCollectives(Callee) && !Initialized)
            addCallEvents(Callee, Site, SiteStmt, Events);
          if (const CXXConstructorDecl *Made = inPlace(SiteStmt); Made && performsCollectives(Made))
            addCallEvents(Made, Site, SiteStmt, Events);
          // Its destructor runs later, on the ranks that made the object:
          // `if (rank == 0) session = std::make_unique<Session>(comm);`.
          if (const CXXDestructorDecl *Dtor = heapDestructor(Callee, SiteStmt, Function.parents());
              Dtor && performsCollectives(Dtor))
            addCallEvents(Dtor, Site, SiteStmt, Events);
          // What the call hands the callee to run, after the callee's own
          // collectives: `std::for_each(b, e, [&](auto &g) { allreduce(g); })`,
          // `run([&] { MPI_Barrier(comm); })`.
          for (const IndirectCalls::Runnable &Passed : Indirect.passedCallables(SiteStmt)) {
            const size_t Before = Events.size();
            if (Passed.Targets.size() > 1)
              addDispatchEvents(Passed.Targets, Site, SiteStmt, Events); // one of them runs
            else if (performsCollectives(Passed.Targets.front()))
              addCallEvents(Passed.Targets.front(), Site, SiteStmt, Events);
            for (size_t I = Before; I < Events.size(); ++I)
              Events[I].Kept = Passed.Kept;
          }
        }
      },
      /*Unnamed=*/true);
  return BlockEvents[&Block] = std::move(Events);
}

} // namespace lockstep::analysis
