#include "IndirectCalls.h"
#include "CallSite.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"

#include <tuple>

namespace lockstep::analysis {
using namespace clang;

/// Whether \p Call is `std::move(x)` or `std::forward<T>(x)`: `x` itself.
static bool passesThrough(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Call->getNumArgs() == 1 && Callee && Callee->isInStdNamespace() &&
         Callee->getIdentifier() && (Callee->getName() == "move" || Callee->getName() == "forward");
}

/// The one call operator of a function object of the user's that \p E
/// builds (`GradNormMonitor(pg, 4)`, `NormMonitor{comm}`); null otherwise.
static const CXXMethodDecl *callOperatorOf(const Expr *E) {
  const CXXRecordDecl *Class = isa_and_nonnull<CXXConstructExpr, InitListExpr>(E)
                                   ? E->getType()->getAsCXXRecordDecl()
                                   : nullptr;
  if (!Class || !Class->hasDefinition() || Class->isLambda() || Class->isInStdNamespace())
    return nullptr;
  const CXXMethodDecl *Call = nullptr;
  for (const CXXMethodDecl *Method : Class->methods())
    if (Method->getOverloadedOperator() == OO_Call) {
      if (Call)
        return nullptr; // overloaded: which one runs depends on the arguments
      Call = Method;
    }
  return Call;
}

/// \p E without the conversions that wrap a value into a std::function or a
/// smart pointer of a base class, nor `std::move`.
static const Expr *unwrapped(const Expr *E) {
  for (const Expr *Previous = nullptr; E && E != Previous;) {
    Previous = E;
    E = E->IgnoreImplicit()->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && passesThrough(Call))
      E = Call->getArg(0);
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Literal = dyn_cast<CompoundLiteralExpr>(E)) // C's `(entry_t){cb, arg}`
      E = Literal->getInitializer();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1 && !callOperatorOf(Construct))
      E = Construct->getArg(0); // a conversion, not a function object
    else if (const auto *Address = dyn_cast<UnaryOperator>(E);
             Address && Address->getOpcode() == UO_AddrOf)
      E = Address->getSubExpr();
  }
  return E;
}

/// The function a stored callable runs: `[&] { ... }`, `&sync`, `sync`, a
/// function object.
static const FunctionDecl *storedFunction(const Expr *E) {
  E = unwrapped(E);
  if (const auto *Lambda = dyn_cast_or_null<LambdaExpr>(E))
    return Lambda->getCallOperator();
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E)) {
    // `auto step = [&](int v) { ... };` handed on as `step`.
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    const CXXRecordDecl *Closure =
        Var ? Var->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
    if (Closure && Closure->isLambda())
      return Closure->getLambdaCallOperator();
    return dyn_cast<FunctionDecl>(Ref->getDecl());
  }
  return callOperatorOf(E);
}

/// Whether storage of type \p Type holds a callable that a call through it
/// runs: a function pointer or reference, or a `std::function`.
static bool holdsCallable(QualType Type) {
  Type = Type.getNonReferenceType();
  if (Type->isFunctionPointerType() || Type->isFunctionType() ||
      Type->isMemberFunctionPointerType())
    return true;
  const CXXRecordDecl *Class = Type->getAsCXXRecordDecl();
  return Class && Class->isInStdNamespace() && Class->getIdentifier() &&
         llvm::is_contained({"function", "move_only_function", "copyable_function"},
                            Class->getName());
}

/// The polymorphic class a pointer, a reference or a smart pointer of type
/// \p Type refers to; null for any other type.
static const CXXRecordDecl *polymorphicPointee(QualType Type) {
  Type = Type.getNonReferenceType();
  QualType Pointee = Type->getPointeeType();
  if (const auto *Smart = Type->getAs<TemplateSpecializationType>();
      Pointee.isNull() && Smart && !Smart->template_arguments().empty() &&
      Smart->template_arguments()[0].getKind() == TemplateArgument::Type)
    Pointee = Smart->template_arguments()[0].getAsType();
  const CXXRecordDecl *Class = Pointee.isNull() ? nullptr : Pointee->getAsCXXRecordDecl();
  return Class && Class->hasDefinition() && Class->isPolymorphic() ? Class : nullptr;
}

/// The storage whose element \p E is (`table[i]`, `hooks.at(i)`), or that
/// \p E names.
static const ValueDecl *holderOf(const Expr *E) {
  const Expr *Index;
  const Expr *Base = E ? accessedBase(E->IgnoreParenImpCasts(), Index) : nullptr;
  return namedStorage(Base ? Base : E);
}

/// Whether \p Callee, a function not analysed here, runs the callables it
/// is passed: algorithms do (`std::for_each`, `std::call_once`,
/// `std::visit`); methods keep them (`hooks.push_back(f)`, `post = f`), and
/// so do the functions that wrap one into a value.
static bool runsPassedCallables(const FunctionDecl *Callee) {
  if (isa<CXXMethodDecl>(Callee))
    return false;
  const IdentifierInfo *Name = Callee->getIdentifier();
  return !Callee->isInStdNamespace() || !Name ||
         !llvm::is_contained({"bind", "bind_front", "bind_back", "move", "forward", "ref", "cref",
                              "make_pair", "make_tuple", "forward_as_tuple", "make_optional",
                              "make_shared", "make_unique", "swap", "exchange"},
                             Name->getName());
}

/// The callable parameter \p E names, if it names one.
static const ParmVarDecl *callableParameter(const Expr *E) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(holderOf(unwrapped(E)));
  return Param && holdsCallable(Param->getType()) ? Param : nullptr;
}

IndirectCalls::IndirectCalls(
    const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions)
    : Functions(Functions) {
  // In the order of the declarations, not of the map: the overrides a call
  // may run are named in the order they were found.
  // (Decl::getID searches the allocator's slabs: taken once per function.)
  std::vector<std::tuple<int64_t, const FunctionDecl *, const FunctionCFG *>> Ordered;
  Ordered.reserve(Functions.size());
  for (const auto &[Decl, Function] : Functions)
    Ordered.emplace_back(Decl->getID(), Decl, Function);
  llvm::sort(Ordered, [](const auto &A, const auto &B) { return std::get<0>(A) < std::get<0>(B); });
  for (const auto &[ID, Decl, Function] : Ordered) {
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Decl)) {
      std::vector<const CXXMethodDecl *> Pending(Method->begin_overridden_methods(),
                                                 Method->end_overridden_methods());
      while (!Pending.empty()) {
        const CXXMethodDecl *Base = Pending.back();
        Pending.pop_back();
        Overriders[Base->getCanonicalDecl()].push_back(Decl);
        Pending.insert(Pending.end(), Base->begin_overridden_methods(),
                       Base->end_overridden_methods());
      }
    }
    if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Function->decl()))
      for (const CXXCtorInitializer *Init : Constructor->inits())
        if (Init->getMember())
          store(Init->getMember(), Init->getInit());
    recordStores(*Function->decl());
  }
  copyStored();
  closeInvoked();
}

/// What a call runs through when it names no function: the member pointer
/// of `(s.*f)()`, the object of a call operator (`f(x)` on a std::function),
/// or the callee expression (`fp()` on a pointer).
static const Expr *calledCallable(const CallExpr *Call) {
  if (const Expr *MemberPointer = calledMemberPointer(Call))
    return MemberPointer;
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
      Operator && Operator->getOperator() == OO_Call)
    return Operator->getArg(0);
  return Call->getCallee();
}

// `f()`, `fn(comm)`, `std::for_each(b, e, f)` run the parameter `f`,
// `hooks_.push_back(f)` keeps it to run; `run(f)` runs it where `run` runs
// its own parameter.
void IndirectCalls::recordInvocations(const CallExpr *Call) {
  if (const ParmVarDecl *Param = callableParameter(calledCallable(Call))) {
    Invoked.insert(Param);
    RunDuringCall.insert(Param);
  }
  const FunctionDecl *Callee = resolvedCallee(Call);
  if (!Callee)
    return;
  const bool Analysed = Functions.count(Callee->getCanonicalDecl());
  std::vector<const Expr *> Args = explicitArguments(Call);
  for (size_t I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *Param = callableParameter(Args[I]);
    if (!Param)
      continue;
    // A library method keeps it to run later (`hooks_.push_back(std::move(f))`,
    // `on_step_ = f`): on the ranks that made this call only.
    if (!Analysed && (isa<CXXMethodDecl>(Callee) || runsPassedCallables(Callee))) {
      Invoked.insert(Param);
      if (runsPassedCallables(Callee))
        RunDuringCall.insert(Param);
    } else if (I < Callee->getNumParams())
      PassedOn.push_back({Param, Callee->getParamDecl(I)});
  }
}

void IndirectCalls::closeInvoked() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Outer, Inner] : PassedOn) {
      if (Invoked.count(Inner) && Invoked.insert(Outer).second)
        Changed = true;
      if (RunDuringCall.count(Inner) && RunDuringCall.insert(Outer).second)
        Changed = true;
    }
  }
}

// Until nothing changes: a copy of a copy holds the original's callables.
void IndirectCalls::copyStored() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[To, From] : Copies) {
      auto It = Stored.find(From);
      if (It == Stored.end())
        continue;
      std::vector<const FunctionDecl *> Targets = It->second; // Stored may grow
      std::vector<const FunctionDecl *> &Into = Stored[To];
      for (const FunctionDecl *Target : Targets)
        if (!llvm::is_contained(Into, Target)) {
          Into.push_back(Target);
          Changed = true;
        }
    }
  }
}

// `fn = rank == 0 ? bar : nop` stores either arm: each is a store of its
// own (an explicit stack: `?:` chains run thousands of arms deep). A braced
// struct stores its function pointers in their fields too (`const Ops kOps
// = {dot_allreduce, norm_l2};` for `ops.dot(...)`).
void IndirectCalls::store(const ValueDecl *Storage, const Expr *Value) {
  std::vector<std::pair<const ValueDecl *, const Expr *>> Arms{{Storage, Value}};
  while (!Arms.empty()) {
    auto [Into, Arm] = Arms.back();
    Arms.pop_back();
    const Expr *Bare = unwrapped(Arm);
    if (const auto *Choice = dyn_cast_or_null<ConditionalOperator>(Bare)) {
      Arms.push_back({Into, Choice->getFalseExpr()});
      Arms.push_back({Into, Choice->getTrueExpr()});
    } else if (const auto *Table = dyn_cast_or_null<InitListExpr>(Bare)) {
      if (callOperatorOf(Table)) { // `NormMonitor{comm}`
        storeOne(Into, Arm);
        continue;
      }
      for (const Expr *Part : llvm::reverse(Table->inits())) // `{sync, skip}`
        Arms.push_back({Into, Part});
      // An aggregate's initializers list its bases first, and unnamed
      // bit-fields take none.
      if (const RecordDecl *Record = Table->getType()->getAsRecordDecl();
          Record && !Record->isUnion()) {
        const auto *Class = dyn_cast<CXXRecordDecl>(Record);
        unsigned I = Class && Class->hasDefinition() ? Class->getNumBases() : 0;
        for (const FieldDecl *Field : Record->fields()) {
          if (Field->isUnnamedBitField())
            continue;
          if (I < Table->getNumInits() && holdsCallable(Field->getType()))
            Arms.push_back({Field, Table->getInit(I)});
          ++I;
        }
      }
    } else if (const auto *Made = dyn_cast_or_null<CallExpr>(Bare);
               Made && Into && returnsCallables(resolvedCallee(Made))) {
      Copies.push_back({Into, resolvedCallee(Made)->getCanonicalDecl()}); // `h = make_hook(rank)`
    } else if (const ValueDecl *From = Bare && !isa<DeclRefExpr>(Bare) ? holderOf(Bare) : nullptr;
               From && Into && From != Into) {
      Copies.push_back({Into, From}); // `actions[rank & 1]`
    } else if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Bare);
               Ref && Into && isa<VarDecl>(Ref->getDecl()) && Ref->getDecl() != Into &&
               holdsCallable(Ref->getDecl()->getType())) {
      Copies.push_back({Into, Ref->getDecl()}); // `on_step_(std::move(callback))`
    } else {
      storeOne(Into, Arm);
    }
  }
}

// A function of the file that returns a std::function or a function
// pointer: a call of it holds what its returns hold.
bool IndirectCalls::returnsCallables(const FunctionDecl *Callee) const {
  return Callee && Functions.count(Callee->getCanonicalDecl()) &&
         holdsCallable(Callee->getReturnType());
}

void IndirectCalls::storeOne(const ValueDecl *Storage, const Expr *Value) {
  if (Storage && polymorphicPointee(Storage->getType())) {
    // A null pointer (`nullptr`, an empty smart pointer) holds no class;
    // anything else unknown, every one.
    const Expr *Bare = unwrapped(Value);
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Bare);
    bool Null = (Construct && Construct->getNumArgs() == 0) ||
                (Bare && Bare->isNullPointerConstant(Storage->getASTContext(),
                                                     Expr::NPC_ValueDependentIsNotNull));
    if (const CXXRecordDecl *Class = heapClass(unwrapped(Value)))
      StoredClasses[Storage].push_back(Class);
    else if (!Null)
      UnknownClasses.insert(Storage);
  }
  if (const FunctionDecl *Target = storedFunction(Value); Storage && Target)
    addTarget(Stored[Storage], Target);
}

// `std::function<void()> f = [&] { ... };`, `hook_ = &sync;`,
// `on_step_ = [this] { ... };`, the initializer of a global or a field the
// body uses (`void (*g_step)(MPI_Comm) = advance;`, `Fn fns[2] = {a, b};`),
// and what a factory returns, held by the function itself as storage.
void IndirectCalls::recordStores(const FunctionDecl &Function) {
  llvm::DenseSet<const ValueDecl *> InitializersSeen; // once per body
  const bool Factory = holdsCallable(Function.getReturnType());
  llvm::DenseSet<const Stmt *> NestedReturns; // a nested lambda's, not the factory's
  forEachStmtInOrder(Function.getBody(), [&](const Stmt *S) {
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S); Lambda && Factory)
      forEachStmtInOrder(Lambda->getBody(), [&](const Stmt *Inner) {
        if (isa<ReturnStmt>(Inner))
          NestedReturns.insert(Inner);
      });
    if (const auto *Call = dyn_cast<CallExpr>(S))
      recordInvocations(Call);
    if (const auto *Return = dyn_cast<ReturnStmt>(S);
        Return && Factory && Return->getRetValue() && !NestedReturns.count(Return)) {
      store(Function.getCanonicalDecl(), Return->getRetValue());
    } else if (const auto *Member = dyn_cast<MemberExpr>(S)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (Field && Field->hasInClassInitializer() && Field->getInClassInitializer() &&
          InitializersSeen.insert(Field).second)
        store(Field, Field->getInClassInitializer());
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (Var && Var->isFileVarDecl() && Var->getInit() && InitializersSeen.insert(Var).second &&
          (Var->getType()->isFunctionPointerType() || Var->getType()->isRecordType() ||
           Var->getType()->isArrayType()))
        store(Var, Var->getInit());
    } else if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      for (const auto *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit())
          store(Var, Var->getInit());
    } else if (const auto *Assign = dyn_cast<BinaryOperator>(S);
               Assign && Assign->getOpcode() == BO_Assign) {
      store(holderOf(Assign->getLHS()), Assign->getRHS()); // `g_hooks.fn[n] = fn` too
    } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
               Operator && Operator->getOperator() == OO_Equal && Operator->getNumArgs() == 2) {
      store(holderOf(Operator->getArg(0)), Operator->getArg(1));
    } else if (const auto *Reset = dyn_cast<CXXMemberCallExpr>(S);
               Reset && Reset->getNumArgs() == 1 && Reset->getMethodDecl() &&
               Reset->getMethodDecl()->getIdentifier() &&
               Reset->getMethodDecl()->getName() == "reset") {
      store(namedStorage(Reset->getImplicitObjectArgument()), Reset->getArg(0)); // `p.reset(new T)`
    } else if (const auto *Add = dyn_cast<CXXMemberCallExpr>(S);
               Add && Add->getNumArgs() >= 1 && Add->getMethodDecl() &&
               Add->getMethodDecl()->getIdentifier() &&
               !Functions.count(Add->getMethodDecl()->getCanonicalDecl()) &&
               !isa<CXXDefaultArgExpr>(Add->getArg(Add->getNumArgs() - 1)) &&
               llvm::is_contained({"push_back", "emplace_back", "push_front", "emplace", "insert",
                                   "try_emplace", "insert_or_assign"},
                                  Add->getMethodDecl()->getName())) {
      // A list or a map of hooks: the element is the last argument
      // (`callbacks_.emplace(name, std::move(cb))`).
      store(namedStorage(Add->getImplicitObjectArgument()), Add->getArg(Add->getNumArgs() - 1));
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      storeArguments(resolvedCallee(Call), explicitArguments(Call));
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      storeArguments(Construct->getConstructor(),
                     llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()));
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
      if (const ValueDecl *From = holderOf(Range->getRangeInit()))
        Copies.push_back({Range->getLoopVariable(), From}); // `for (auto &h : hooks) h();`
    }
  });
}

// `run([&] { MPI_Barrier(comm); })` where `run(const std::function<void()> &f)`
// calls `f()`: the parameter holds what the callers pass.
void IndirectCalls::storeArguments(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
  if (!Callee || !Functions.count(Callee->getCanonicalDecl()))
    return;
  for (size_t I = 0; I < Args.size() && I < Callee->getNumParams(); ++I)
    if (const ParmVarDecl *Param = Callee->getParamDecl(I); holdsCallable(Param->getType()))
      store(Param, Args[I]);
}

// A generic lambda runs as the instances the translation unit made of it.
void IndirectCalls::addTarget(std::vector<const FunctionDecl *> &Targets,
                              const FunctionDecl *Target) const {
  std::vector<const FunctionDecl *> Instances{Target};
  if (const FunctionTemplateDecl *Template = Target->getDescribedFunctionTemplate())
    Instances.assign(Template->spec_begin(), Template->spec_end());
  for (const FunctionDecl *Instance : Instances)
    if (Functions.count(Instance->getCanonicalDecl()) &&
        !llvm::is_contained(Targets, Instance->getCanonicalDecl()))
      Targets.push_back(Instance->getCanonicalDecl());
}

// A pointer to a virtual method dispatches on the object: the method or any
// override runs.
void IndirectCalls::addMethodTargets(std::vector<const FunctionDecl *> &Targets,
                                     const FunctionDecl *Target) const {
  addTarget(Targets, Target);
  const auto *Method = dyn_cast<CXXMethodDecl>(Target);
  if (!Method || !Method->isVirtual())
    return;
  if (auto Overriding = Overriders.find(Method->getCanonicalDecl()); Overriding != Overriders.end())
    for (const FunctionDecl *Override : Overriding->second)
      addTarget(Targets, Override);
}

std::vector<IndirectCalls::Runnable> IndirectCalls::passedCallables(const Stmt *Site) const {
  const auto *Call = dyn_cast_or_null<CallExpr>(Site);
  const FunctionDecl *Callee = Call ? resolvedCallee(Call) : nullptr;
  std::vector<Runnable> Passed;
  if (!Callee)
    return Passed;
  const bool Analysed = Functions.count(Callee->getCanonicalDecl());
  if (!Analysed && !runsPassedCallables(Callee))
    return Passed;
  std::vector<const Expr *> Args = explicitArguments(Call);
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Analysed && (I >= Callee->getNumParams() || !Invoked.count(Callee->getParamDecl(I))))
      continue;
    std::vector<const FunctionDecl *> Targets;
    const Expr *Bare = unwrapped(Args[I]);
    if (const FunctionDecl *Target = storedFunction(Bare)) {
      addMethodTargets(Targets, Target); // `run(s, &Solver::step)`
    } else if (const auto *Set = dyn_cast_or_null<CXXConstructExpr>(Bare)) {
      for (const Expr *Part : Set->arguments()) // `Overloaded{[&](A &) {...}, [&](B &) {...}}`
        if (const FunctionDecl *Target = storedFunction(Part))
          addTarget(Targets, Target);
    } else if (const auto *List = dyn_cast_or_null<InitListExpr>(Bare)) {
      for (const Expr *Part : List->inits())
        if (const FunctionDecl *Target = storedFunction(Part))
          addTarget(Targets, Target);
    } else if (const auto *Made = dyn_cast_or_null<CallExpr>(Bare);
               Made && returnsCallables(resolvedCallee(Made))) {
      // What a factory returns (`on_epoch_end(make_logger(comm, "[train]"))`).
      if (auto It = Stored.find(resolvedCallee(Made)->getCanonicalDecl()); It != Stored.end())
        for (const FunctionDecl *Target : It->second)
          addTarget(Targets, Target);
    } else if (const ValueDecl *Holder = holderOf(Args[I]); Holder && !isa<ParmVarDecl>(Holder)) {
      // A parameter's callables are its callers' to pass.
      if (auto It = Stored.find(Holder); It != Stored.end())
        for (const FunctionDecl *Target : It->second)
          addTarget(Targets, Target);
    }
    if (!Targets.empty())
      Passed.push_back(
          {Args[I], std::move(Targets), Analysed && !RunDuringCall.count(Callee->getParamDecl(I))});
  }
  return Passed;
}

std::vector<const FunctionDecl *> IndirectCalls::targets(const Stmt *Site) const {
  const auto *Call = dyn_cast_or_null<CallExpr>(Site);
  if (!Call)
    return {};
  // `(s.*step)()` runs what the member pointer holds, not the object's method.
  const Expr *MemberPointer = calledMemberPointer(Call);
  if (const auto *Member = MemberPointer ? nullptr : dyn_cast<CXXMemberCallExpr>(Call)) {
    // A virtual call the compiler cannot bind: the method or any override.
    const CXXMethodDecl *Method = Member->getMethodDecl();
    const auto *Callee = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
    if (!Method || !Method->isVirtual() || resolvedCallee(Call) != Method ||
        (Callee && Callee->hasQualifier()))
      return {};
    auto It = Overriders.find(Method->getCanonicalDecl());
    if (It == Overriders.end())
      return {};
    // Through storage that only ever holds objects of known classes: the
    // overrides those classes run.
    if (const ValueDecl *Holder = namedStorage(dispatchHolder(Call));
        Holder && StoredClasses.count(Holder) && !UnknownClasses.count(Holder)) {
      std::vector<const FunctionDecl *> Targets;
      for (const CXXRecordDecl *Class : StoredClasses.find(Holder)->second)
        if (const CXXMethodDecl *Final = Method->getCorrespondingMethodInClass(Class, true);
            Final && Functions.count(Final->getCanonicalDecl()) &&
            !llvm::is_contained(Targets, Final->getCanonicalDecl()))
          Targets.push_back(Final->getCanonicalDecl());
      return Targets;
    }
    std::vector<const FunctionDecl *> Targets = It->second;
    if (Functions.count(Method->getCanonicalDecl()))
      Targets.push_back(Method->getCanonicalDecl());
    return Targets;
  }
  // A stored callable: `f()` on a std::function, `fp()` on a pointer.
  const FunctionDecl *Direct = Call->getDirectCallee();
  if (Direct && Functions.count(Direct->getCanonicalDecl()))
    return {};
  const Expr *Callable = calledCallable(Call);
  const ValueDecl *Holder = holderOf(Callable);
  if (isa_and_nonnull<ParmVarDecl>(Holder) && holdsCallable(Holder->getType()))
    return {}; // what the callers pass: their calls run it (passedCallables)
  auto It = Holder ? Stored.find(Holder) : Stored.end();
  if (It == Stored.end())
    return {};
  // A field of one object (`sum.fn()` of `Deferred sum{"sum", [] {...}}`):
  // what that object was given, where that is known, not every object's.
  if (const auto *Member = dyn_cast<MemberExpr>(Callable->IgnoreParenImpCasts());
      Member && isa<FieldDecl>(Holder))
    if (auto Own = Stored.find(namedStorage(Member->getBase())); Own != Stored.end()) {
      std::vector<const FunctionDecl *> Given;
      for (const FunctionDecl *Target : It->second)
        if (llvm::is_contained(Own->second, Target))
          Given.push_back(Target);
      if (!Given.empty())
        return Given;
    }
  if (!MemberPointer)
    return It->second;
  std::vector<const FunctionDecl *> Targets;
  for (const FunctionDecl *Target : It->second)
    addMethodTargets(Targets, Target);
  return Targets;
}

} // namespace lockstep::analysis
