// Calls that name no single function in the rank-dependence data flow:
// virtual calls, stored callables, and the callables a call hands its
// callee to run (IndirectCalls finds the targets).
#include "DependenceDataflow.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace lockstep::analysis::dependence {
using namespace clang;

// A call through a pointer, a std::function or a virtual call may run any
// of its targets: the globals they write hold what they wrote afterwards
// (`fp()` where `fp = run`), and their parameters receive the arguments. So
// do those of the callables a call hands its callee to run (`run(cb)` with
// `cb = [&] { stop = ...; }`): a library algorithm, or a function of the
// file that calls that parameter (one that keeps it runs it later).
void Dataflow::applyIndirectCallEffects(const CallExpr *Call) {
  std::vector<const FunctionDecl *> Targets =
      Env.Indirect ? Env.Indirect->targets(Call) : std::vector<const FunctionDecl *>();
  if (Recording) {
    recordDispatchesOnThis(Call);
    recordCallbackArguments(Call);
  }
  std::vector<IndirectCalls::Runnable> Runnables =
      Env.Indirect ? Env.Indirect->passedCallables(Call) : std::vector<IndirectCalls::Runnable>();
  if (!Runnables.empty()) {
    const FunctionDecl *Callee = resolvedCallee(Call);
    auto Runs = Callee ? Env.Facts.find(Callee->getCanonicalDecl()) : Env.Facts.end();
    std::vector<const Expr *> Passed = explicitArguments(Call);
    for (const IndirectCalls::Runnable &Runnable : Runnables) {
      auto Arg = llvm::find(Passed, Runnable.Argument);
      if (Runs != Env.Facts.end() &&
          (Arg == Passed.end() || !Runs->second.CallbackArgs.count(Arg - Passed.begin())))
        continue;
      for (const FunctionDecl *Target : Runnable.Targets)
        if (auto It = Env.Facts.find(Target->getCanonicalDecl()); It != Env.Facts.end())
          writeGlobalsOfCall(It->second, Call);
    }
  }
  if (Targets.empty()) // most calls: nothing more to run
    return;
  if (Recording && Targets.size() > 1) {
    const Expr *Holder = dispatchHolder(Call);
    Result.Dispatches.push_back({Call, Holder, eval(Holder)});
  }
  std::vector<const Expr *> Args = explicitArguments(Call);
  const FunctionDecl *Direct = resolvedCallee(Call);
  for (const FunctionDecl *Target : Targets) {
    if (Direct && Target->getCanonicalDecl() == Direct->getCanonicalDecl())
      continue; // a virtual call's own method: applyCallEffects runs it
    if (auto It = Env.Facts.find(Target->getCanonicalDecl()); It != Env.Facts.end()) {
      writeOutParamsOfCall(It->second, Target, Args);
      writeGlobalsOfCall(It->second, Call);
    }
    recordCall(Target->getDefinition() ? Target->getDefinition() : Target, Args);
  }
}

// What a virtual call or a stored callable returns: what its targets
// return, in the caller's terms (`dy = (*it)->backward(dy)` of a pure
// virtual method, by the overrides' bodies). Where several may run, which
// one does is the holder's to pick (`rank == 0 ? loud : quiet`). With
// \p Own, of a returned container its own state (its size) only. None when
// a target that may run has no summary here.
std::optional<RankValue> Dataflow::returnedByTargets(const CallExpr *Call,
                                                     llvm::ArrayRef<const Expr *> Args,
                                                     bool Own) const {
  std::vector<const FunctionDecl *> Targets =
      Env.Indirect ? Env.Indirect->targets(Call) : std::vector<const FunctionDecl *>();
  std::optional<RankValue> Returned;
  bool Agreed = true;
  for (const FunctionDecl *Target : Targets) {
    const FunctionDecl *Definition = Target->getDefinition();
    if (!Definition || !Definition->hasBody())
      continue; // a pure virtual method runs no body
    auto It = Env.Facts.find(Target->getCanonicalDecl());
    if (It == Env.Facts.end())
      return std::nullopt;
    const RankValue &Summary = Own ? It->second.ReturnedOwn : It->second.ReturnValue;
    RankValue Value = chosenAtCall(It->second, atCall(Summary, Args, Definition), Args, Definition);
    Returned = Returned ? Returned->merge(Value) : Value;
    Agreed = Agreed && It->second.ReturnsAgreed;
  }
  // An object picked under a rank-dependent condition (here, or by the
  // callers for a parameter) may be of another type on other ranks; one
  // whose constructor took per-rank values is not, nor overrides that all
  // return what their (matching) collectives agreed.
  if (const Expr *Holder =
          Returned && Targets.size() > 1 && !Agreed ? dispatchHolder(Call) : nullptr)
    if (RankValue Picked = eval(Holder); Picked.dependent() && Picked.Chosen)
      Returned->combine(Picked);
  return Returned;
}

// `t->run()` where `run` calls the virtual `on_step_end()` on its own
// object: the object `t` holds picks that override as if it were called here.
void Dataflow::recordDispatchesOnThis(const CallExpr *Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  const FunctionDecl *Definition = Method ? Method->getDefinition() : nullptr;
  if (!Env.Indirect || !Definition || !Definition->getBody() || Method->isVirtual() ||
      !Method->getParent()->isPolymorphic() ||
      isa<CXXThisExpr>(Member->getImplicitObjectArgument()->IgnoreParenImpCasts()))
    return;
  std::vector<const Stmt *> Stack{Definition->getBody()};
  while (!Stack.empty()) {
    const Stmt *S = Stack.back();
    Stack.pop_back();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Inner = dyn_cast<CXXMemberCallExpr>(S);
        Inner && isa<CXXThisExpr>(Inner->getImplicitObjectArgument()->IgnoreParenImpCasts()) &&
        Inner->getMethodDecl() && Inner->getMethodDecl()->isVirtual() &&
        Env.Indirect->targets(Inner).size() > 1) {
      const Expr *Holder = dispatchHolder(Call);
      Result.Dispatches.push_back({Call, Holder, eval(Holder), Inner});
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
}

// `std::for_each(layers.begin(), layers.end(), [&](LayerGrad &l) { ... })`:
// a library function runs the callables it is passed on what else it is
// passed, the elements of a range included. Which argument lands in which
// parameter is the library's own business: each parameter receives them all.
//
// A choice among several (`std::visit(Overloaded{...}, source)`) is made by
// the last argument the callables do not come from: the variant.
void Dataflow::recordPassedCallables(const CallExpr *Call, const FunctionDecl *Callee) {
  if (!Recording || !Env.Indirect)
    return;
  std::vector<IndirectCalls::Runnable> Runnables = Env.Indirect->passedCallables(Call);
  if (Runnables.empty())
    return;
  if (Env.Facts.count(Callee->getCanonicalDecl())) {
    recordCallablesRunBy(Call, Callee, Runnables);
    return;
  }
  const Expr *Chooser = nullptr;
  std::vector<const Expr *> Args = explicitArguments(Call);
  for (const Expr *Arg : Args)
    if (llvm::none_of(Runnables,
                      [&](const IndirectCalls::Runnable &R) { return R.Argument == Arg; }))
      Chooser = Arg;
  // Which alternative a variant holds picks the function; what that one
  // receives is the alternative's contents, not which it is (taken as the
  // same on every rank that runs it). An element's own parts and the
  // elements of the containers inside it (`b.flat` of a bucket) are handed
  // apart, as to a function's parameter.
  RankValue Passed, Chosen, PassedElements;
  for (const Expr *Arg : Args) {
    RankValue Value, Elements;
    if (StorageKey Container; intoContainer(Arg, Container)) {
      Value = read(Container).combine(readElement(Container, nullptr, /*Nested=*/false));
      Elements = RankValue(Value).combine(readElement(Container, nullptr));
    } else {
      Value = Elements = eval(Arg);
    }
    Passed.combine(Value);
    PassedElements.combine(Elements);
    if (Arg != Chooser)
      Chosen.combine(Elements);
  }
  for (const IndirectCalls::Runnable &Runnable : Runnables) {
    const bool Choice = Runnable.Targets.size() > 1;
    if (Choice && Chooser)
      Result.Dispatches.push_back({Call, Chooser, eval(Chooser), nullptr, Runnable.Targets});
    for (const FunctionDecl *Target : Runnable.Targets) {
      CallSiteRecord Record;
      Record.Callee = Target->getCanonicalDecl();
      Record.Args.assign(Target->getNumParams(), Choice ? Chosen : Passed);
      Record.ArgElements.assign(Target->getNumParams(), Choice ? Chosen : PassedElements);
      Record.ArgFields.assign(Target->getNumParams(), std::nullopt);
      Result.Calls.push_back(std::move(Record));
    }
  }
}

// A function of the file that runs a callable parameter (`run(rank, step)`
// with `callback(v)` in its body) hands it what it hands at those calls
// (FunctionFacts::CallbackArgs), in the caller's terms. A callable it only
// keeps or passes on is run elsewhere, with what that call hands it.
void Dataflow::recordCallablesRunBy(const CallExpr *Call, const FunctionDecl *Callee,
                                    llvm::ArrayRef<IndirectCalls::Runnable> Runnables) {
  auto Facts = Env.Facts.find(Callee->getCanonicalDecl());
  std::vector<const Expr *> Args = explicitArguments(Call);
  for (const IndirectCalls::Runnable &Runnable : Runnables) {
    auto At = llvm::find(Args, Runnable.Argument);
    auto Handed = Facts->second.CallbackArgs.find(unsigned(At - Args.begin()));
    if (Handed == Facts->second.CallbackArgs.end())
      continue;
    for (const FunctionDecl *Target : Runnable.Targets) {
      CallSiteRecord Record;
      Record.Callee = Target->getCanonicalDecl();
      for (unsigned J = 0; J < Target->getNumParams(); ++J) {
        RankValue Value =
            J < Handed->second.size() ? atCall(Handed->second[J], Args, Callee) : RankValue();
        Record.Args.push_back(Value);
        Record.ArgElements.push_back(Value);
      }
      Record.ArgFields.assign(Target->getNumParams(), std::nullopt);
      Result.Calls.push_back(std::move(Record));
    }
  }
}

// A call of one of the function's own callable parameters: what it hands.
void Dataflow::recordCallbackArguments(const CallExpr *Call) {
  const bool Operator = isa<CXXOperatorCallExpr>(Call);
  const Expr *Called = Operator ? Call->getArg(0) : Call->getCallee();
  const auto *Ref = Called ? dyn_cast<DeclRefExpr>(Called->IgnoreParenImpCasts()) : nullptr;
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Recording || !Param || Param->getDeclContext() != Function.decl())
    return;
  std::vector<RankValue> &Handed = Result.Facts.CallbackArgs[Param->getFunctionScopeIndex()];
  for (unsigned J = Operator; J < Call->getNumArgs(); ++J) {
    if (Handed.size() <= J - Operator)
      Handed.emplace_back();
    Handed[J - Operator].merge(eval(Call->getArg(J)));
  }
}

// A virtual call throws on the ranks where an override that may run
// throws (`src->next_batch()` of a shard reader that throws at its end).
std::optional<std::pair<SourceLocation, RankValue>> Dataflow::thrownBy(const CallExpr *Call) const {
  std::optional<std::pair<SourceLocation, RankValue>> Thrown;
  for (const auto &[Target, Facts] : Env.throwingTargets(Call)) {
    RankValue When = atCall(Facts->ThrowsWhen, explicitArguments(Call), Target);
    When.ExactRank = When.ExactSize = false;
    if (Thrown)
      Thrown->second.combine(When);
    else
      Thrown.emplace(Facts->ThrowAt, When);
  }
  return Thrown;
}

} // namespace lockstep::analysis::dependence

namespace lockstep::analysis {

std::vector<std::pair<const clang::FunctionDecl *, const FunctionFacts *>>
DependenceEnvironment::throwingTargets(const clang::CallExpr *Call) const {
  // A method called on an object itself, not through a pointer or a
  // reference, runs its own class's override.
  const auto *Member = llvm::dyn_cast<clang::CXXMemberCallExpr>(Call);
  const clang::CXXMethodDecl *Exact =
      Member && Member->getMethodDecl()
          ? Member->getMethodDecl()->getDevirtualizedMethod(Member->getImplicitObjectArgument(),
                                                            /*IsAppleKext=*/false)
          : nullptr;
  std::vector<const clang::FunctionDecl *> Targets;
  if (Exact)
    Targets.push_back(Exact);
  else if (Indirect)
    Targets = Indirect->targets(Call);
  if (Targets.empty())
    if (const clang::FunctionDecl *Callee = resolvedCallee(Call))
      Targets.push_back(Callee);
  std::vector<std::pair<const clang::FunctionDecl *, const FunctionFacts *>> Throwing;
  for (const clang::FunctionDecl *Target : Targets)
    if (auto It = Facts.find(Target->getCanonicalDecl()); It != Facts.end() && It->second.Throws)
      Throwing.push_back({Target, &It->second});
  return Throwing;
}

} // namespace lockstep::analysis
