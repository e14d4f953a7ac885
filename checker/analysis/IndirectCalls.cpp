#include "IndirectCalls.h"
#include "CallSite.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace lockstep::analysis {
using namespace clang;

namespace {

/// \p E without the conversions that wrap a value into a std::function or a
/// smart pointer of a base class.
const Expr *unwrapped(const Expr *E) {
  for (const Expr *Previous = nullptr; E && E != Previous;) {
    Previous = E;
    E = E->IgnoreImplicit()->IgnoreParenCasts();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1)
      E = Construct->getArg(0);
    else if (const auto *Address = dyn_cast<UnaryOperator>(E);
             Address && Address->getOpcode() == UO_AddrOf)
      E = Address->getSubExpr();
  }
  return E;
}

/// The function a stored callable runs: `[&] { ... }`, `&sync`, `sync`.
const FunctionDecl *storedFunction(const Expr *E) {
  E = unwrapped(E);
  if (const auto *Lambda = dyn_cast_or_null<LambdaExpr>(E))
    return Lambda->getCallOperator();
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(Ref->getDecl());
  return nullptr;
}

/// The polymorphic class a pointer, a reference or a smart pointer of type
/// \p Type refers to; null for any other type.
const CXXRecordDecl *polymorphicPointee(QualType Type) {
  Type = Type.getNonReferenceType();
  QualType Pointee = Type->getPointeeType();
  if (const auto *Smart = Type->getAs<TemplateSpecializationType>();
      Pointee.isNull() && Smart && !Smart->template_arguments().empty() &&
      Smart->template_arguments()[0].getKind() == TemplateArgument::Type)
    Pointee = Smart->template_arguments()[0].getAsType();
  const CXXRecordDecl *Class = Pointee.isNull() ? nullptr : Pointee->getAsCXXRecordDecl();
  return Class && Class->hasDefinition() && Class->isPolymorphic() ? Class : nullptr;
}

/// The class of the object a new pointer holds: `new Global(...)`,
/// `std::make_unique<Global>(...)`, `std::make_shared<Global>(...)`.
const CXXRecordDecl *constructedClass(const Expr *E) {
  E = unwrapped(E);
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(E))
    return New->getAllocatedType()->getAsCXXRecordDecl();
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier() ||
      (Callee->getName() != "make_unique" && Callee->getName() != "make_shared"))
    return nullptr;
  return polymorphicPointee(Call->getType());
}

/// The storage whose element \p E is (`table[i]`, `hooks.at(i)`), or that
/// \p E names.
const ValueDecl *holderOf(const Expr *E) {
  const Expr *Index;
  const Expr *Base = E ? accessedBase(E->IgnoreParenImpCasts(), Index) : nullptr;
  return namedStorage(Base ? Base : E);
}

} // namespace

IndirectCalls::IndirectCalls(
    const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions)
    : Functions(Functions) {
  for (const auto &[Decl, Function] : Functions) {
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
    recordStores(Function->decl()->getBody());
  }
  copyStored();
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
// own (an explicit stack: `?:` chains run thousands of arms deep).
void IndirectCalls::store(const ValueDecl *Storage, const Expr *Value) {
  std::vector<const Expr *> Arms{Value};
  while (!Arms.empty()) {
    const Expr *Arm = Arms.back();
    Arms.pop_back();
    const Expr *Bare = unwrapped(Arm);
    if (const auto *Choice = dyn_cast_or_null<ConditionalOperator>(Bare)) {
      Arms.push_back(Choice->getFalseExpr());
      Arms.push_back(Choice->getTrueExpr());
    } else if (const auto *Table = dyn_cast_or_null<InitListExpr>(Bare)) {
      Arms.insert(Arms.end(), Table->inits().rbegin(), Table->inits().rend()); // `{sync, skip}`
    } else if (const ValueDecl *From = Bare && !isa<DeclRefExpr>(Bare) ? holderOf(Bare) : nullptr;
               From && Storage && From != Storage) {
      Copies.push_back({Storage, From}); // `actions[rank & 1]`
    } else {
      storeOne(Storage, Arm);
    }
  }
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
    if (const CXXRecordDecl *Class = constructedClass(Value))
      StoredClasses[Storage].push_back(Class);
    else if (!Null)
      UnknownClasses.insert(Storage);
  }
  const FunctionDecl *Target = storedFunction(Value);
  if (!Storage || !Target || !Functions.count(Target->getCanonicalDecl()))
    return;
  std::vector<const FunctionDecl *> &List = Stored[Storage];
  if (!llvm::is_contained(List, Target->getCanonicalDecl()))
    List.push_back(Target->getCanonicalDecl());
}

// `std::function<void()> f = [&] { ... };`, `hook_ = &sync;`,
// `on_step_ = [this] { ... };`, and the initializer of a global or a field
// the body uses (`void (*g_step)(MPI_Comm) = advance;`, `Fn fns[2] = {a, b};`).
void IndirectCalls::recordStores(const Stmt *Body) {
  llvm::DenseSet<const ValueDecl *> InitializersSeen; // once per body
  forEachStmtInOrder(Body, [&](const Stmt *S) {
    if (const auto *Member = dyn_cast<MemberExpr>(S)) {
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
      store(namedStorage(Assign->getLHS()), Assign->getRHS());
    } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
               Operator && Operator->getOperator() == OO_Equal && Operator->getNumArgs() == 2) {
      store(namedStorage(Operator->getArg(0)), Operator->getArg(1));
    } else if (const auto *Reset = dyn_cast<CXXMemberCallExpr>(S);
               Reset && Reset->getNumArgs() == 1 && Reset->getMethodDecl() &&
               Reset->getMethodDecl()->getIdentifier() &&
               Reset->getMethodDecl()->getName() == "reset") {
      store(namedStorage(Reset->getImplicitObjectArgument()), Reset->getArg(0)); // `p.reset(new T)`
    } else if (const auto *Add = dyn_cast<CXXMemberCallExpr>(S);
               Add && Add->getNumArgs() == 1 && Add->getMethodDecl() &&
               Add->getMethodDecl()->getIdentifier() &&
               llvm::is_contained({"push_back", "emplace_back", "push_front"},
                                  Add->getMethodDecl()->getName())) {
      store(namedStorage(Add->getImplicitObjectArgument()), Add->getArg(0)); // a list of hooks
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
      if (const ValueDecl *From = holderOf(Range->getRangeInit()))
        Copies.push_back({Range->getLoopVariable(), From}); // `for (auto &h : hooks) h();`
    }
  });
}

std::vector<const FunctionDecl *> IndirectCalls::targets(const Stmt *Site) const {
  const auto *Call = dyn_cast_or_null<CallExpr>(Site);
  if (!Call)
    return {};
  // A virtual call the compiler cannot bind: the method or any override.
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
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
  const Expr *Callable = Call->getCallee();
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
      Operator && Operator->getOperator() == OO_Call)
    Callable = Operator->getArg(0);
  const ValueDecl *Holder = holderOf(Callable);
  auto It = Holder ? Stored.find(Holder) : Stored.end();
  return It == Stored.end() ? std::vector<const FunctionDecl *>() : It->second;
}

} // namespace lockstep::analysis
