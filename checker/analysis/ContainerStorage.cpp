// Containers in the rank-dependence data flow: C arrays, std::array,
// std::vector, std::span and any class whose methods hand out references to
// its parts. A container is one storage, its elements hang below it: the
// element at a small constant index (`info[1]`) and any element. Writing an
// element at an unknown index (through `v[i]`, `*it`, a pointer from
// `v.data()`, `push_back`, `std::fill`) adds the value to every element;
// writing the whole container (`v = w`, a collective or a per-rank source
// writing through `v.data()`) replaces them. The container's own value (its
// size) stays apart from its elements' for the library's methods. Reads and
// writes of elements and of their fields: ElementParts.cpp.
#include "DependenceDataflow.h"
#include "LocalContainers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <optional>

namespace lockstep::analysis::dependence {
using namespace clang;

namespace {

/// Whether \p E names a variable of \p Aliases, and the storage it reaches.
bool aliasOf(const Expr *E, const llvm::DenseMap<const VarDecl *, StorageKey> &Aliases,
             StorageKey &Out) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  auto It = Var ? Aliases.find(Var) : Aliases.end();
  if (It == Aliases.end())
    return false;
  Out = It->second;
  return true;
}

} // namespace

const FieldDecl *referencedOwnField(const Expr *E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  // An override may return another field.
  if (!Method || Method->isVirtual() || !Method->getReturnType()->isLValueReferenceType())
    return nullptr;
  const FunctionDecl *Definition = Method->getDefinition();
  const auto *Body = Definition ? dyn_cast_or_null<CompoundStmt>(Definition->getBody()) : nullptr;
  const auto *Return =
      Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  const auto *Member = Return && Return->getRetValue()
                           ? dyn_cast<MemberExpr>(Return->getRetValue()->IgnoreParenImpCasts())
                           : nullptr;
  return Member && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts())
             ? dyn_cast<FieldDecl>(Member->getMemberDecl())
             : nullptr;
}

// A copy of an object is the object: iterators and pointers passed by value,
// and what `std::move(x)` or `std::forward<T>(x)` hands on.
const Expr *stripCopies(const Expr *E) {
  for (const Expr *Previous = nullptr; E && E != Previous;) {
    Previous = E;
    E = E->IgnoreParenCasts();
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (Callee && Call->getNumArgs() == 1 && Callee->isInStdNamespace() &&
        Callee->getIdentifier() && llvm::is_contained({"move", "forward"}, Callee->getName()))
      E = Call->getArg(0);
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1 &&
             Construct->getConstructor()->isCopyOrMoveConstructor())
      E = Construct->getArg(0);
  }
  return E;
}

bool inLibrary(const FunctionDecl *Callee) {
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  return SM.isInSystemHeader(Callee->getLocation());
}

bool isContainer(QualType Type) {
  const auto *Record = Type->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  for (const CXXMethodDecl *Method : Record->methods())
    if (Method->getOverloadedOperator() == OO_Subscript ||
        (Method->getIdentifier() && Method->getName() == "begin"))
      return true;
  return false;
}

bool Dataflow::elementKeyOf(const Expr *E, StorageKey &Container, const Expr *&Index,
                            FieldPath &Fields) const {
  Index = nullptr;
  Fields.clear();
  // A field of an element is a part of that element (`batch[b].label.id`,
  // `it->label`): the fields, innermost first as they are met.
  FieldPath Named;
  bool ThroughPointer = false;
  E = E->IgnoreParenImpCasts();
  // `for (const auto &[owner, size] : items)`: the field of the element.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Binding = dyn_cast<BindingDecl>(Ref->getDecl());
        Binding && Binding->getBinding() &&
        isa<MemberExpr>(Binding->getBinding()->IgnoreParenImpCasts()))
      E = Binding->getBinding()->IgnoreParenImpCasts();
  while (const auto *Member = dyn_cast<MemberExpr>(E)) {
    Named.push_back(Member->getMemberDecl());
    E = Member->getBase()->IgnoreParenImpCasts();
    if ((ThroughPointer = Member->isArrow()))
      break;
  }
  bool Element;
  if (ThroughPointer) {
    Element = intoContainer(E, Container);
  } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *Bound = Ref->getDecl();
    // `for (auto &[name, steps] : m)`: a part of the element the pair refers to.
    const FieldDecl *PairField = nullptr;
    if (const auto *Binding = dyn_cast<BindingDecl>(Bound)) {
      const DecompositionDecl *Whole;
      if ((PairField = pairFieldOf(Binding, Whole)))
        Bound = Whole;
    }
    auto Alias = isa<VarDecl>(Bound) ? ElementReferences.find(cast<VarDecl>(Bound))
                                     : ElementReferences.end();
    Element = Alias != ElementReferences.end();
    if (Element)
      Container = Alias->second;
    // The element it was bound to: `const auto &role = roles[rank]`.
    if (auto It = ElementReferenceIndexes.find(Bound);
        Element && It != ElementReferenceIndexes.end())
      Index = It->second;
    if (auto It = ElementReferenceFields.find(Bound); Element && It != ElementReferenceFields.end())
      Fields = It->second;
    if (Element && PairField)
      Fields.push_back(PairField);
  } else if (referencedOwnField(E)) {
    Element = false; // a field of the object (keyOf), not one of its elements
  } else if (const Expr *Base = accessedBase(E, Index)) {
    if (!Base->getType()->isPointerType()) // an iterator, a view or a container
      Element = containerKeyOf(Base, Container);
    else
      // Elements behind a pointer of unknown origin are its pointee
      // (`grad[i]`); `*p` alone is the pointee itself.
      Element = intoContainer(Base, Container) ||
                (isa<ArraySubscriptExpr>(E) && pointeeKeyOf(Base, Container));
  } else {
    Element = false;
  }
  Fields.append(Named.rbegin(), Named.rend());
  return Element;
}

bool Dataflow::containerKeyOf(const Expr *Object, StorageKey &Container,
                              RankValue *IndexValue) const {
  if (!Object)
    return false;
  Object = stripCopies(Object);
  const Expr *Index;
  FieldPath Fields;
  if (aliasOf(Object, IntoContainer, Container)) // a view or an iterator
    return true;
  if (!elementKeyOf(Object, Container, Index, Fields))
    return keyOf(Object, Container);
  // A container held in any element (`out[dest]` of a vector of vectors) or
  // a container field of one (`layer.grad` of `for (auto &layer : layers)`)
  // holds elements of its own below the element's, so that the outer
  // container's size and the element's other parts stay apart from them.
  if ((!Fields.empty() || isContainer(Object->getType())) && Container.back() != &DerefStep) {
    Container.push_back(&AnyElement);
    Container.append(Fields.begin(), Fields.end());
    if (IndexValue && Index)
      *IndexValue = eval(Index);
  }
  return true;
}

bool Dataflow::intoContainer(const Expr *E, StorageKey &Container) const {
  E = stripCopies(E);
  if (E->getType()->isArrayType()) // decays to a pointer to its first element
    return containerKeyOf(E, Container);
  if (isa<DeclRefExpr>(E))
    return aliasOf(E, IntoContainer, Container);
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf) {
    const Expr *Index;
    FieldPath Fields; // a pointer to a part of an element points into the elements
    return elementKeyOf(Unary->getSubExpr(), Container, Index, Fields);
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E); Binary && Binary->isAdditiveOp())
    return intoContainer(Binary->getLHS(), Container) || intoContainer(Binary->getRHS(), Container);
  // `data.begin() + lo` of a class iterator
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E);
      Operator && Operator->getNumArgs() == 2 &&
      (Operator->getOperator() == OO_Plus || Operator->getOperator() == OO_Minus))
    return intoContainer(Operator->getArg(0), Container) ||
           intoContainer(Operator->getArg(1), Container);
  // `v.data()`, `v.begin()`, `it->`: a method of the object that points into it.
  const auto *Call = dyn_cast<CallExpr>(E);
  // `std::next(data.begin(), lo)`, `std::prev(it)`: the same iterator, moved.
  if (const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
      (Callee->getName() == "next" || Callee->getName() == "prev") && Call->getNumArgs() > 0)
    return intoContainer(Call->getArg(0), Container);
  const CXXMethodDecl *Method = Call ? methodOf(Call) : nullptr;
  if (!Method || Method->isStatic() || !explicitArguments(Call).empty() ||
      !isIterator(Method->getReturnType()))
    return false;
  const Expr *Object = ruleArgument(Call, rules::ArgRef{rules::ArgRef::Kind::Receiver, 0, ""});
  return Object && containerKeyOf(Object, Container);
}

// Pointers, iterators and views into a container, references to an element.
bool Dataflow::collectContainerAlias(const VarDecl *Var) {
  const Expr *Init = Var->getInit();
  QualType Type = Var->getType();
  StorageKey Key;
  if (Type->isReferenceType()) {
    const Expr *Index;
    FieldPath Fields;
    // `auto &&__range = layer.grad` of a range-for over the container field
    // of an element: that inner container, below the element.
    if (isContainer(Init->getType()) && isa<MemberExpr>(Init->IgnoreParenImpCasts()) &&
        containerKeyOf(Init, Key)) {
      IntoContainer[Var] = Key;
      return true;
    }
    if (elementKeyOf(Init, Key, Index, Fields)) {
      ElementReferences[Var] = Key;
      if (Index)
        ElementReferenceIndexes[Var] = Index;
      if (!Fields.empty())
        ElementReferenceFields[Var] = std::move(Fields);
      return true;
    }
    if (!aliasOf(Init->IgnoreParenImpCasts(), IntoContainer, Key))
      return false;
    IntoContainer[Var] = Key; // `auto &&__range = view` of a range-for
    return true;
  }
  if (intoContainer(Init, Key) && isIterator(Type)) {
    IntoContainer[Var] = Key;
    return true;
  }
  // A view (`std::span<int> s(v)`): an object that owns nothing (trivially
  // destroyed) constructed from a container or a pointer into one.
  const auto *Record = Type->getAsCXXRecordDecl();
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init->IgnoreParenImpCasts());
  if (!Record || !Record->hasDefinition() || !Record->hasTrivialDestructor() || !Construct ||
      Construct->getNumArgs() == 0 || Construct->getConstructor()->isCopyOrMoveConstructor())
    return false;
  const Expr *From = Construct->getArg(0);
  bool Viewed =
      From->getType()->isRecordType() ? containerKeyOf(From, Key) : intoContainer(From, Key);
  if (Viewed)
    IntoContainer[Var] = Key;
  return Viewed;
}

// The container parameters whose elements \p Value, read from \p Key,
// still holds: those of a container the function has not replaced.
uint64_t Dataflow::callersElements(const StorageKey &Key, const RankValue &Value) const {
  if (!(ContainerParams & Value.Params)) // every whole read passes here
    return 0;
  const auto *Param =
      Key.size() == 1 ? dyn_cast<ParmVarDecl>(static_cast<const Decl *>(Key[0])) : nullptr;
  auto It = Param ? ParamIndex.find(Param) : ParamIndex.end();
  if (It == ParamIndex.end())
    return 0;
  uint64_t Bit = uint64_t(1) << It->second;
  return ContainerParams & Value.Params & Bit;
}

// Elements no write of this function reached: a container parameter's are
// the caller's elements, not its size.
RankValue Dataflow::elementsFallback(const StorageKey &Container) const {
  RankValue Value = read(Container);
  uint64_t Elements = callersElements(Container, Value);
  Value.Params &= ~Elements;
  Value.ElementParams |= Elements;
  // A container inside a struct parameter (`m.cells`, `m->cells`), or
  // inside an element of a container parameter (`tris[e].a` of `const
  // std::vector<Tri> &tris`): the elements the caller's object holds there.
  const auto *Param = Container.size() > 1 && Container.front() != &ThisRoot
                          ? dyn_cast<ParmVarDecl>(static_cast<const Decl *>(Container.front()))
                          : nullptr;
  auto It = Param ? ParamIndex.find(Param) : ParamIndex.end();
  if (It != ParamIndex.end() &&
      (recordParameter(Param) || (Container.size() > 2 && isElementStep(Container[1]) &&
                                  (ContainerParams >> It->second & 1))))
    Value.ElementParams |= uint64_t(1) << It->second;
  // A member or global container another function filled per rank, or a
  // local one of the function around this lambda.
  const ValueDecl *Holder = sharedHolder(Container);
  if (const VarDecl *Local = Holder ? nullptr : localContainer(Container, nullptr);
      Local && Local->getDeclContext() != Function.decl())
    Holder = Local;
  if (Holder) {
    SharedReads.insert(Holder);
    if (auto Elements = Env.SharedElements.find(Holder); Elements != Env.SharedElements.end())
      Value.combine(Elements->second);
  }
  return Value;
}

// Whether \p Param is, refers or points to a struct that is no container.
bool Dataflow::recordParameter(const ParmVarDecl *Param) {
  QualType Type = Param->getType().getNonReferenceType();
  if (Type->isPointerType())
    Type = Type->getPointeeType();
  return Type->isRecordType() && !isContainer(Type);
}

// What the elements of any container inside the storage \p Key hold, at
// any depth (`m.cells[0]`, `m.grid.rows[1]`), and what its pointers point
// to (`p.q[i]` of `double *q`).
RankValue Dataflow::nestedElements(const StorageKey &Key) const {
  RankValue Value;
  // Inside a struct parameter, the containers this function has not
  // written hold what the callers' structs hold there.
  const auto *Param = Key.front() == &ThisRoot
                          ? nullptr
                          : dyn_cast<ParmVarDecl>(static_cast<const Decl *>(Key.front()));
  if (auto It = Param && recordParameter(Param) ? ParamIndex.find(Param) : ParamIndex.end();
      It != ParamIndex.end())
    Value.ElementParams |= uint64_t(1) << It->second;
  auto Behind = [](const void *Step) { return isElementStep(Step) || Step == &DerefStep; };
  forEachInside(Current, Key, [&](const StorageKey &Inside, const RankValue &Held) {
    if (Held.dependent() && std::any_of(Inside.begin() + Key.size(), Inside.end(), Behind))
      Value.combine(Held);
  });
  return Value;
}

// What a library method reads of its object: its own state, not its
// elements (`v.size()`, `v.begin()`); their values come out only through the
// element accesses.
RankValue Dataflow::objectValue(const Expr *Object, const FunctionDecl *Callee) const {
  StorageKey Key;
  RankValue At;
  if (inLibrary(Callee) && containerKeyOf(Object, Key, &At))
    return containerState(Key).combine(At); // `out[rank].size()`
  return eval(Object);
}

// A container's own state (its size); of one held in any element of another
// (`out[dest]`), what that element holds.
RankValue Dataflow::containerState(const StorageKey &Container) const {
  if (Container.back() != &AnyElement)
    return read(Container);
  return elementAsWritten(StorageKey(Container.begin(), Container.end() - 1), /*Index=*/nullptr,
                          /*Fields=*/{});
}

// The member or global whose container \p Container is, if any. A field of
// a local or a parameter's object is not one: its elements reach callees and
// callers as arguments.
const ValueDecl *Dataflow::sharedHolder(const StorageKey &Container) {
  const void *Last = Container.back();
  if (Container.size() > 1 && Last != &DerefStep && !isElementStep(Last)) {
    const auto *Root =
        Container.front() == &ThisRoot ? nullptr : static_cast<const VarDecl *>(Container.front());
    return !Root || Root->hasGlobalStorage() ? static_cast<const FieldDecl *>(Last) : nullptr;
  }
  const auto *Var = Container.size() == 1 && Last != &ThisRoot
                        ? dyn_cast<VarDecl>(static_cast<const Decl *>(Last))
                        : nullptr;
  return Var && Var->hasGlobalStorage() ? Var : nullptr;
}

// What a library call reads of an argument: the elements it points into
// (setting \p Into to their container), else its value. \p Position: what
// it says of how many elements there are, an iterator's own value (`first,
// last` span as many as their positions say, whatever they point at).
RankValue Dataflow::libraryArgument(const Expr *Arg, StorageKey &Into, RankValue *Position) const {
  if (!intoContainer(Arg, Into))
    return Position ? *Position = eval(Arg) : eval(Arg);
  if (Position)
    *Position = eval(Arg);
  return readElement(Into, nullptr);
}

/// Whether \p Callee, a method of a container, sets its size from its
/// arguments alone rather than growing it.
static bool setsSize(const FunctionDecl *Callee) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (!Method || !Method->getIdentifier())
    return false;
  llvm::StringRef Name = Method->getName();
  return Name == "resize" || Name == "assign" || Name == "clear";
}

// A library function's arguments \p Values given to the container \p Object:
// the counts and the iterators' \p Positions go into its own state (its
// size), the rest into its elements.
// A container \p Constructed from them has no other state or elements.
void Dataflow::fillContainer(const StorageKey &Object, const FunctionDecl *Callee,
                             llvm::ArrayRef<RankValue> Values, llvm::ArrayRef<RankValue> Positions,
                             const Stmt *Definition, bool Constructed, const RankValue &IndexValue,
                             const RankValue &Keys) {
  RankValue Elements, Size = Keys;
  const bool Sets = !Constructed && setsSize(Callee);
  auto ByIterator = [](const ParmVarDecl *Param) {
    return !Param->getType()->isReferenceType() && isIterator(Param->getType());
  };
  const auto IteratorParams = llvm::count_if(Callee->parameters(), ByIterator);
  // `insert(pos, first, last)`: the first is where, not how many.
  const ParmVarDecl *Position =
      IteratorParams > 2 ? *llvm::find_if(Callee->parameters(), ByIterator) : nullptr;
  for (size_t I = 0; I < Values.size(); ++I) {
    const ParmVarDecl *Param = I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
    QualType Type = Param ? Param->getType() : QualType();
    bool Count = Param && Type->isIntegralOrEnumerationType();
    // A value to copy (`const T &`) or an initializer list fills a new
    // container; anything else it is built from (a C string, a pair of
    // iterators) also decides how many elements it gets.
    const CXXRecordDecl *Record = Param ? Type->getAsCXXRecordDecl() : nullptr;
    bool Fill = Param && (Type->isReferenceType() || (Record && Record->isInStdNamespace() &&
                                                      Record->getName() == "initializer_list"));
    // A range inserted or erased (`v.insert(v.end(), first, last)`) changes
    // the size by its length; one element (`v.erase(it)`) by one.
    bool Range = Param && !Fill && isIterator(Type) && IteratorParams > 1 && Param != Position;
    if (Count || Range || ((Constructed || Sets) && !Fill))
      Size.combine(Positions[I]);
    if (!Count)
      Elements.combine(Values[I]);
  }
  if (Constructed) {
    Size.Definition = Definition;
    write(Object, Size);
  } else if (isElementStep(Object.back())) {
    // A container held in an element (`out[dest].push_back(p)`, `o.clear()`
    // of `for (auto &o : out)`): its state is that element's value, and any
    // element may be the one changed (`dest` may differ between ranks).
    Size.combine(IndexValue);
    writeElement(StorageKey(Object.begin(), Object.end() - 1), /*Index=*/nullptr, Size,
                 /*Compound=*/false, Definition);
  } else if (keepsOwnSize(Definition, Object)) {
    // The same state as before, on every rank.
  } else if (Sets) {
    // `v.resize(len)`, `v.assign(n, x)`, `v.assign(first, last)`,
    // `v.clear()`: the size is the arguments' alone, whatever it was.
    Size.Definition = Definition;
    Current[Object] = Size;
    recordWrite(Object, Size);
  } else if (Size.dependent()) { // the container's own state, its elements kept
    RankValue State = read(Object);
    State.combine(Size);
    State.Definition = Definition;
    Current[Object] = State;
    recordWrite(Object, State);
  } else {
    // Ranks that did not call it hold another state (`if (rank == 0)
    // todo.push_back(x);`, `if (rank == 0) hooks_.push_back(f);`): the
    // state it had, defined anew.
    RankValue State = read(Object);
    State.Definition = Definition;
    Current[Object] = State;
  }
  if (Elements.dependent())
    writeElement(Object, nullptr, Elements, /*Compound=*/false, Definition);
}

// A callable a library call runs hands it what it returns
// (`std::generate(g.begin(), g.end(), [&v] { return v *= 1.001f; })`):
// what differs between ranks there, apart from what the call passes it,
// which the other arguments already hold.
void Dataflow::addCallableResults(const CallExpr *Call, llvm::ArrayRef<const Expr *> Args,
                                  std::vector<RankValue> &Values) const {
  if (!Env.Indirect)
    return;
  for (const IndirectCalls::Runnable &Runnable : Env.Indirect->passedCallables(Call)) {
    const auto *Arg = llvm::find(Args, Runnable.Argument);
    if (Arg == Args.end())
      continue;
    for (const FunctionDecl *Target : Runnable.Targets)
      if (auto Facts = Env.Facts.find(Target->getCanonicalDecl()); Facts != Env.Facts.end()) {
        RankValue Returned;
        Returned.Source = Facts->second.ReturnValue.Source;
        Returned.Opaque = Facts->second.ReturnValue.Opaque;
        Values[Arg - Args.begin()].combine(Returned);
      }
  }
}

/// The key a mutator of a keyed container inserts or erases, which decides
/// whether its size changes (`m[k]`, `s.insert(k)`, `m.insert({k, v})`,
/// `m.emplace(k, v)`, `m.erase(k)`); null for other containers.
static const Expr *changedKey(const CXXMethodDecl *Method, llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty() ||
      Method->getParent()->lookup(&Method->getASTContext().Idents.get("key_type")).empty())
    return nullptr;
  // Only the methods that insert or erase: not a lookup (`find`, `at`,
  // `lower_bound`), whose non-const form is no mutator either.
  const IdentifierInfo *Name = Method->getIdentifier();
  bool Changes = Method->getOverloadedOperator() == OO_Subscript ||
                 (Name && llvm::is_contained({"insert", "emplace", "emplace_hint", "try_emplace",
                                              "insert_or_assign", "erase", "extract"},
                                             Name->getName()));
  if (!Changes)
    return nullptr;
  // Past a position hint (`m.emplace_hint(it, k, v)`, `m.insert(it, {k, v})`).
  if (Args.size() > 1 && isIterator(Args.front()->getType()))
    Args = Args.drop_front();
  const Expr *Key = Args.front()->IgnoreImplicit();
  if (const auto *Pair = dyn_cast<InitListExpr>(Key); Pair && Pair->getNumInits())
    return Pair->getInit(0);
  if (const auto *Pair = dyn_cast<CXXConstructExpr>(Key);
      Pair && Pair->getNumArgs() == 2 && isStdPair(Pair->getType()->getAsCXXRecordDecl()))
    return Pair->getArg(0); // `{k, v}` of a pair
  const auto *Made = dyn_cast<CallExpr>(Key);
  const FunctionDecl *Maker = Made ? Made->getDirectCallee() : nullptr;
  if (Maker && Maker->isInStdNamespace() && Maker->getIdentifier() &&
      Maker->getIdentifier()->isStr("make_pair") && Made->getNumArgs() == 2)
    return Made->getArg(0);
  return Args.front();
}

// A library call that fills a container: a method of the container (its
// element arguments go into the elements, its counts into the container:
// `v.push_back(x)`, `v.resize(n)`), or an algorithm handed a mutable pointer
// or iterator into one (`std::fill(v.begin(), v.end(), x)`, `std::copy`),
// which receives the other arguments and the elements they point into.
void Dataflow::fillThroughLibraryCall(const CallExpr *Call, const FunctionDecl *Callee) {
  const Expr *Index;
  if (!inLibrary(Callee) || (accessedBase(Call, Index) && !insertsElement(methodOf(Call))))
    return;
  std::vector<const Expr *> Args = explicitArguments(Call);
  std::vector<StorageKey> Into(Args.size());
  std::vector<RankValue> Values, Positions(Args.size());
  for (size_t I = 0; I < Args.size(); ++I)
    Values.push_back(libraryArgument(Args[I], Into[I], &Positions[I]));
  addCallableResults(Call, Args, Values);
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  StorageKey Object;
  RankValue At;
  const Expr *Receiver = ruleArgument(Call, {rules::ArgRef::Kind::Receiver, 0, ""});
  // A mutator of the container, not an accessor (`v.data()`, `v.begin()`),
  // nor a method of an iterator or a view into it (`++it`).
  if (Method && !Method->isStatic() && !Method->isConst() && !handsOutAccess(Method) &&
      !(Receiver && aliasOf(Receiver->IgnoreParenImpCasts(), IntoContainer, Object)) &&
      containerKeyOf(Receiver, Object, &At)) {
    // A record appended or inserted (`push_back({rank, 4})`) goes into the
    // elements field by field.
    for (size_t I = 0; I < Args.size(); ++I)
      if (Into[I].empty() && I < Callee->getNumParams() &&
          Callee->getParamDecl(I)->getType()->isReferenceType() && !At.dependent() &&
          writeElementFields(Object, /*Index=*/nullptr, {}, Args[I]))
        Values[I] = RankValue();
    const Expr *Key = changedKey(Method, Args);
    fillContainer(Object, Callee, Values, Positions, Call, /*Constructed=*/false, At,
                  Key ? eval(Key) : RankValue());
    return;
  }
  for (size_t I = 0; I < Args.size(); ++I) {
    QualType Pointee = Args[I]->getType()->getPointeeType();
    if (Into[I].empty() || (!Pointee.isNull() && Pointee.isConstQualified()))
      continue;
    RankValue In;
    for (size_t J = 0; J < Args.size(); ++J)
      if (Into[J] != Into[I])
        In.combine(Values[J]);
    // Written anew even with uniform data: ranks that skip the call hold
    // other elements (`if (rank == 0) snprintf(msg, ...)`).
    writeElement(Into[I], nullptr, In, /*Compound=*/false, Call);
  }
}

} // namespace lockstep::analysis::dependence
