// What a method of this file, called on an object the function holds, reads
// of the object and leaves in it, what a library method that resets its
// object leaves there, and what constructors and destructors leave in fields
// and bound references (DependenceDataflow.h).
#include "CallClassifier.h"
#include "ConditionFormula.h"
#include "DependenceDataflow.h"
#include "IndirectCalls.h"
#include "OwnFieldWrites.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

#include <algorithm>

namespace lockstep::analysis::dependence {
using namespace clang;

// A method of this file called on an object the function holds reads the
// object's fields as every method does, by field: those per-rank here
// (assigned per rank, or left different by rank-dependent arms: `if (rank %
// 2) mon.n++;`) are per-rank there. A method that changes fields of its
// object, called on some ranks only, leaves them per-rank here, until a
// collective agrees them (`if (rank == 0) cfg.load(); MPI_Bcast(&cfg.steps,
// ...)`).
void Dataflow::followObjectFields(const CallExpr *Call, const FunctionDecl *Callee) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (!Member || !Method || !Env.OwnFields || !CurrentBlock || !Method->hasBody() ||
      Classifier.classify(Callee).SystemLibrary)
    return;
  StorageKey Object;
  if (isa<CXXThisExpr>(Member->getImplicitObjectArgument()->IgnoreParenImpCasts())) {
    Object = StorageKey{&ThisRoot}; // a helper of the class: `add(lr)`
  } else if (!keyOf(Member->getImplicitObjectArgument(), Object)) {
    // An element of a container, or a part of one (`tris[e].signed_area()`):
    // what it reads of its object is what the elements hold there.
    const Expr *Index;
    FieldPath Parts;
    if (elementKeyOf(Member->getImplicitObjectArgument(), Object, Index, Parts) &&
        Object.back() != &DerefStep) {
      publishObjectFields(Object, &Parts);
      publishElementFields(Member->getImplicitObjectArgument(), Object, Index, Parts);
    }
    return;
  }
  // What the method leaves set in its object, in this call's terms (through
  // `this` too: what a helper of the class sets, its callers set). An
  // override may run instead of a virtual method, and leave other fields.
  auto Facts = Env.Facts.find(Callee->getCanonicalDecl());
  if (!Method->isConst() && !Method->isVirtual() && Facts != Env.Facts.end()) {
    std::vector<const Expr *> Args = explicitArguments(Call);
    const FunctionDecl *Definition = Callee->getDefinition();
    for (const auto &[Field, Left] : Facts->second.OwnFieldsAtExit) {
      StorageKey Key = Object;
      Key.push_back(Field);
      RankValue Value = atCall(Left, Args, Definition);
      if (Left.Definition != &AgreedByEveryRank)
        Value.Definition = Call;
      write(Key, Value);
    }
    // A field this function knows in the object, that the method changes
    // on some paths only, may hold after the call what this call gives it
    // (`c.raise(rank)`), or what the field holds in any object (containers
    // keep their own account of size and elements).
    if (Env.OwnFields) {
      RankValue Given;
      for (const Expr *Arg : Args)
        Given.combine(eval(Arg));
      for (const OwnFieldWrite &Changed : Env.OwnFields->of(Method)) {
        StorageKey Key = Object;
        Key.push_back(Changed.Field);
        auto Known = Current.find(Key);
        if (Known != Current.end() && !Changed.ElementsOnly &&
            !isContainer(Changed.Field->getType()) &&
            !Facts->second.OwnFieldsAtExit.count(Changed.Field))
          Known->second.combine(Given).combine(fallback(Key));
      }
    }
  }
  if (Object.size() == 1 && Object.front() == &ThisRoot) {
    // A method of this object reads the fields as this one does already;
    // what it changes is defined anew, as `values_.push_back(v)` written
    // here would be: ranks that did not call it hold another state (`if
    // (rank_ == 0) add(lr);`).
    if (Env.OwnFields && !Method->isConst())
      for (const OwnFieldWrite &Changed : Env.OwnFields->of(Method)) {
        StorageKey Key{&ThisRoot, Changed.Field};
        if (Facts != Env.Facts.end() && Facts->second.OwnFieldsAtExit.count(Changed.Field))
          continue;
        RankValue State = read(Key);
        State.Definition = Call;
        Current[Key] = State;
      }
    return;
  }
  publishObjectFields(Object, /*ElementParts=*/nullptr);
  if (Method->isConst())
    return;
  RankValue Taint = reachingTaint(*CurrentBlock);
  if (!Taint.dependent())
    return;
  Taint.Definition = Call;
  for (const auto &[Field, ElementsOnly] : Env.OwnFields->of(Method)) {
    // Callables kept for later (hooks) are judged where each is stored, as
    // the collectives it hands over, not by how many the field holds.
    if (Env.Indirect && Env.Indirect->holdsCallables(Field))
      continue;
    StorageKey Key = Object;
    Key.push_back(Field);
    if (ElementsOnly && (isContainer(Field->getType()) || Field->getType()->isConstantArrayType()))
      writeElement(Key, /*Index=*/nullptr, Taint, /*Compound=*/true, Call);
    else
      Current[Key] = Taint;
  }
}

// An accessor whose one statement returns what it computes from fields of
// its object and constants alone (`int steps() const { return steps_; }`,
// `bool stop() const { return diverged_ != 0; }`) reads those fields of the
// object it is called on, as the caller would: what the calls on that
// object left there (`c.set(rank); c.agree();` where agree() allreduces the
// field in place). Only for a local made by a constructor (not a copy) and
// named by its members alone: through an alias (`p->set(rank)`, a copy, a
// lambda's capture, a method that hands out `*this`) the object changes
// where the caller's account of it does not.
std::optional<RankValue> Dataflow::ownFieldReturned(const CallExpr *Call,
                                                    const FunctionDecl *Callee) const {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const Expr *Returned = returnedExpression(Callee);
  StorageKey Object;
  if (!Member || !Returned || cast<MemberExpr>(Member->getCallee()->IgnoreParens())->isArrow() ||
      !keyOf(Member->getImplicitObjectArgument(), Object) || Object.front() == &ThisRoot)
    return std::nullopt;
  const auto *Local = static_cast<const VarDecl *>(Object.front());
  const auto *Made =
      Local->getInit() ? dyn_cast<CXXConstructExpr>(Local->getInit()->IgnoreImplicit()) : nullptr;
  if (!Local->hasLocalStorage() || isa<ParmVarDecl, DecompositionDecl>(Local) ||
      Local->getType()->isReferenceType() ||
      (Local->getInit() && (!Made || Made->getConstructor()->isCopyOrMoveConstructor())) ||
      aliased(Local))
    return std::nullopt;
  RankValue Value;
  std::vector<const Stmt *> Work{Returned};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (const auto *Read = dyn_cast<MemberExpr>(S)) {
      const auto *Field = dyn_cast<FieldDecl>(Read->getMemberDecl());
      // Numbers and flags held whole: an array's or a pointee's elements
      // are kept apart from their holder.
      if (!Field || !isa<CXXThisExpr>(Read->getBase()->IgnoreParenImpCasts()) ||
          !(Field->getType()->isArithmeticType() || Field->getType()->isEnumeralType()))
        return std::nullopt;
      StorageKey Key = Object;
      Key.push_back(Field);
      Value.combine(read(Key));
      continue;
    }
    if (isa<CallExpr, DeclRefExpr, CXXThisExpr, LambdaExpr, StmtExpr, AbstractConditionalOperator>(
            S))
      return std::nullopt; // what else it reads is not this caller's to know
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
  }
  return Value;
}

bool Dataflow::aliased(const VarDecl *Local) const {
  if (!AliasedLocals) {
    AliasedLocals.emplace();
    const ParentMap &Parents = Function.parents();
    forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
      const auto *Ref = dyn_cast<DeclRefExpr>(S);
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (!Var || !Var->hasLocalStorage())
        return;
      // `c.n_` and `c.set(...)` name the object itself; `&c.n_` does not.
      const auto *Member = dyn_cast_or_null<MemberExpr>(
          Parents.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(Ref)));
      const auto *Address =
          Member ? dyn_cast_or_null<UnaryOperator>(
                       Parents.getParentIgnoreParenImpCasts(const_cast<MemberExpr *>(Member)))
                 : nullptr;
      // A method that returns a pointer or a reference may hand out the
      // object (`c.self().set(rank)`) or a part of it.
      const auto *Method = Member ? dyn_cast<CXXMethodDecl>(Member->getMemberDecl()) : nullptr;
      if (!Member || Member->isArrow() || (Address && Address->getOpcode() == UO_AddrOf) ||
          (Method && (Method->getReturnType()->isPointerType() ||
                      Method->getReturnType()->isReferenceType())))
        AliasedLocals->insert(Var);
    });
  }
  return AliasedLocals->count(Local);
}

// An object made by a constructor of this file holds what the constructor
// leaves in its fields, in this declaration's terms: `Groups g(world,
// rank);` whose constructor splits `world` by `rank / 2` into `tp` holds
// that split in `g.tp`, not a mix of every argument. So does the object a
// pointer made with it points to (`Grid *g = new Grid(first, n, h)`):
// `g->h` is `h`, not `first`.
void Dataflow::followConstructorFields(const VarDecl *Var) {
  const Expr *Init = Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr;
  StorageKey Object{Var};
  const CXXConstructorDecl *Constructor = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  const Expr *Made = Init;
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init)) {
    Constructor = Construct->getConstructor();
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  } else if (const auto *New = dyn_cast_or_null<CXXNewExpr>(Init); New && New->getConstructExpr()) {
    Constructor = New->getConstructExpr()->getConstructor();
    Args =
        llvm::ArrayRef(New->getConstructExpr()->getArgs(), New->getConstructExpr()->getNumArgs());
    Object.push_back(&DerefStep);
  }
  if (!Constructor || Constructor->isCopyOrMoveConstructor() || !Constructor->hasBody())
    return;
  auto Facts = Env.Facts.find(Constructor->getCanonicalDecl());
  if (Facts == Env.Facts.end())
    return;
  const FunctionDecl *Definition = Constructor->getDefinition();
  for (const auto &[Field, Left] : Facts->second.OwnFieldsAtExit) {
    RankValue Value = atCall(Left, Args, Definition);
    Value.Definition = Made;
    StorageKey Key = Object;
    Key.push_back(Field);
    write(Key, Value);
  }
}

// A field is per-rank in a method when it, or a part of it (`m.in.x`), is
// per-rank here in the object \p Object, or, with \p ElementParts, in the
// elements of the container \p Object (their part \p ElementParts): for
// every object, as a field written per rank. A container's elements
// (`m.a[0]`) are its elements there, not its size.
void Dataflow::publishObjectFields(const StorageKey &Object, const FieldPath *ElementParts) {
  const size_t FieldAt = Object.size() + (ElementParts ? 1 + ElementParts->size() : 0);
  for (auto It = Current.upper_bound(Object); It != Current.end(); ++It) {
    const StorageKey &Key = It->first;
    if (Key.size() <= Object.size() || !std::equal(Object.begin(), Object.end(), Key.begin()))
      break;
    if (Key.size() <= FieldAt ||
        (ElementParts && (!isElementStep(Key[Object.size()]) ||
                          !std::equal(ElementParts->begin(), ElementParts->end(),
                                      Key.begin() + Object.size() + 1))))
      continue;
    const void *Field = Key[FieldAt];
    if (Field == &DerefStep || isElementStep(Field) || !It->second.dependent())
      continue;
    StorageKey FieldKey(Key.begin(), Key.begin() + FieldAt + 1);
    if (Key.size() > FieldKey.size() && isElementStep(Key[FieldKey.size()])) {
      if (Recording) {
        Result.SharedWrites.push_back(
            {static_cast<const FieldDecl *>(Field), It->second, /*Elements=*/true});
        SharedWriteKeys.push_back(FieldKey);
      }
    } else {
      recordSharedWrite(FieldKey, It->second);
    }
  }
}

// An element written whole with a value that differs between ranks
// (`tris.push_back({a, b, c})` from per-rank data, or the callers' elements
// of a container parameter) is per-rank in its methods: in the elements of
// its container fields when it has some (as a caller's struct of containers
// is, see readElement), else in every field. Fields are one fact for every
// object of the class, so its own counts and sizes stay apart.
void Dataflow::publishElementFields(const Expr *Element, const StorageKey &Container,
                                    const Expr *Index, const FieldPath &Parts) {
  const RecordDecl *Record = Element->getType()->getAsRecordDecl();
  RankValue Value = elementAsWritten(Container, Index, Parts);
  if (!Recording || !Record || !Record->getDefinition() || !Value.dependent())
    return;
  StorageKey FieldKey = Container;
  FieldKey.push_back(&AnyElement);
  FieldKey.append(Parts.begin(), Parts.end());
  auto Fields = Record->getDefinition()->fields();
  const bool HoldsContainers =
      llvm::any_of(Fields, [](const FieldDecl *Field) { return isContainer(Field->getType()); });
  for (const FieldDecl *Field : Fields) {
    if (HoldsContainers && !isContainer(Field->getType()))
      continue;
    FieldKey.push_back(Field);
    Result.SharedWrites.push_back({Field, Value, /*Elements=*/isContainer(Field->getType())});
    SharedWriteKeys.push_back(FieldKey);
    FieldKey.pop_back();
  }
}

// A method of a standard library class that sets its object's whole state
// from its arguments alone (`gen.seed(42)`, `best.reset()`,
// `pending.store(0)`), or empties a container (`mask.reset()`,
// `todo.clear()`): what the object held before, per rank or not, is gone,
// so it holds what the arguments hold, on every rank that called it. A
// container's other methods size it apart (fillContainer), and a stream's
// `clear()` resets its flags only.
bool Dataflow::resetThroughLibraryCall(const CallExpr *Call, const FunctionDecl *Callee) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (!Member || !Method || Method->isConst() || !Method->getIdentifier() ||
      !Method->getParent()->isInStdNamespace())
    return false;
  const Expr *Receiver = Member->getImplicitObjectArgument();
  llvm::StringRef Name = Method->getName();
  // A distribution's `reset()` forgets only what it cached: its parameters
  // stay. The holders' reset empties them (or holds the argument).
  const bool Holder = Method->getParent()->getIdentifier() &&
                      llvm::is_contained({"optional", "any", "unique_ptr", "shared_ptr",
                                          "__shared_ptr", "weak_ptr", "__weak_ptr"},
                                         Method->getParent()->getName());
  const bool Resets = isContainer(Receiver->getType())
                          ? Call->getNumArgs() == 0 && (Name == "clear" || Name == "reset")
                          : Name == "seed" || Name == "store" || (Name == "reset" && Holder);
  StorageKey Object;
  if (!Resets || !keyOf(Receiver, Object))
    return false;
  RankValue Value;
  for (const Expr *Arg : explicitArguments(Call))
    Value.combine(eval(Arg));
  Value.Definition = Call;
  write(Object, Value);
  return true;
}

// A field set in the initializer list holds, part by part, what its
// initializer holds (`L_(L)`: `L_.world_rank` is the caller's); a container
// field is built as a local is (`table_(dim, x)`: its size is `dim`).
void Dataflow::initializeField(const CXXCtorInitializer &Initializer) {
  const FieldDecl *Field = Initializer.getMember();
  if (!Field)
    return;
  StorageKey Key{&ThisRoot, Field};
  const Expr *Init = Initializer.getInit();
  if (constructContainer(Key, Init) || takeReturnedContainer(Key, Init) ||
      copyContainer(Key, Init, Init))
    return;
  RankValue Value = eval(Init);
  Value.Definition = Init;
  write(Key, Value);
  copyPointee(Key, Init);
  assignFields(Key, Init);
}

// A local object whose constructor binds a reference field to an argument
// (`ScopedTimer t(elapsed)` with `out_(out)`): what the class writes into
// that field, its destructor here included, lands in the argument (a clock
// reading in `elapsed` at the end of the scope).
void Dataflow::destroyLocal(const VarDecl *Var) {
  const auto *Construct =
      Var->getInit() ? dyn_cast<CXXConstructExpr>(Var->getInit()->IgnoreImplicit()) : nullptr;
  const auto *Constructor = dyn_cast_or_null<CXXConstructorDecl>(
      Construct ? Construct->getConstructor()->getDefinition() : nullptr);
  if (!Constructor)
    return;
  for (const CXXCtorInitializer *Init : Constructor->inits()) {
    const FieldDecl *Field = Init->getMember();
    const auto *Bound = Field && Field->getType()->isReferenceType()
                            ? dyn_cast<DeclRefExpr>(Init->getInit()->IgnoreParenImpCasts())
                            : nullptr;
    const auto *Param = Bound ? dyn_cast<ParmVarDecl>(Bound->getDecl()) : nullptr;
    StorageKey Key;
    if (!Param || Param->getFunctionScopeIndex() >= Construct->getNumArgs() ||
        !keyOf(Construct->getArg(Param->getFunctionScopeIndex()), Key))
      continue;
    SharedReads.insert(Field);
    if (RankValue Written = sharedOrElsewhere(Field); Written.dependent())
      write(Key, Written.combine(read(Key)));
  }
}

} // namespace lockstep::analysis::dependence
