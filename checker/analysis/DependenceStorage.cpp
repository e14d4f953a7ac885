// Storage in the rank-dependence data flow: the paths that name it, the
// aliases that share it, and its reads and writes.
#include "CallSite.h"
#include "DependenceDataflow.h"

#include "clang/AST/ExprCXX.h"

#include <algorithm>

namespace lockstep::analysis::dependence {
using namespace clang;

const Expr *bufferOf(const Expr *Arg) {
  const auto *Chunk = dyn_cast<BinaryOperator>(Arg->IgnoreParenCasts());
  while (Chunk && Chunk->isAdditiveOp() && Chunk->getLHS()->getType()->isPointerType()) {
    Arg = Chunk->getLHS();
    Chunk = dyn_cast<BinaryOperator>(Arg->IgnoreParenCasts());
  }
  return Arg;
}

// In source order: `int *p = &alias;` needs `int &alias = c.who;` first. A
// pointer into what a parameter points to (`char *b = (char *)p + off;` in
// a wrapper) is an alias only when neither pointer (nor one it is made
// from) is ever assigned again.
void Dataflow::collectAliases(const Stmt *Body) {
  llvm::DenseSet<const VarDecl *> Reassigned;
  forEachStmtInOrder(Body, [&](const Stmt *S) {
    if (const VarDecl *Var = reassignedVariable(S))
      Reassigned.insert(Var);
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &Capture : Lambda->captures())
        if (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef)
          if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
            ++LambdasCapturing[Var];
  });
  auto IntoParameter = [&](const StorageKey &Key) {
    if (Key.size() != 2 || Key.back() != &DerefStep || Key.front() == &ThisRoot)
      return false;
    const auto *Param = dyn_cast<ParmVarDecl>(static_cast<const clang::Decl *>(Key.front()));
    return Param && !Reassigned.count(Param);
  };
  // A lambda's `[&r = rounds]` is `rounds` in its body.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function.decl());
      Method && Method->getParent()->isLambda())
    forEachInitCaptureReference(Method->getParent(),
                                [&](const VarDecl *Capture, const VarDecl *Referent) {
                                  References[Capture] = StorageKey{Referent};
                                });
  forEachStmtInOrder(Body, [&](const Stmt *S) {
    const auto *Decl = dyn_cast<DeclStmt>(S);
    if (!Decl)
      return;
    for (const auto *D : Decl->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      if (!Var || !Var->getInit())
        continue;
      StorageKey Key;
      if (collectContainerAlias(Var))
        continue;
      if (Var->getType()->isReferenceType() && keyOf(Var->getInit(), Key)) {
        References[Var] = Key;
        continue;
      }
      // A pointer to const reads what it points to (`const ctx_t *c = arg;`
      // of a callback's `void *arg`).
      if (!Var->getType()->isPointerType())
        continue;
      if (pointeeKeyOf(Var->getInit(), Key) && Key.back() != &DerefStep)
        PointsTo[Var] = Key;
      else if (StorageKey Into; !Reassigned.count(Var) &&
                                pointeeKeyOf(bufferOf(Var->getInit()), Into) && IntoParameter(Into))
        PointsTo[Var] = Into;
    }
  });
}

const FieldDecl *pairFieldOf(const BindingDecl *Binding, const DecompositionDecl *&Whole) {
  Whole = dyn_cast_or_null<DecompositionDecl>(Binding->getDecomposedDecl());
  const CXXRecordDecl *Pair =
      Whole ? Whole->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
  if (!isStdPair(Pair) || !Pair->hasDefinition())
    return nullptr;
  auto Index = llvm::find(Whole->bindings(), Binding) - Whole->bindings().begin();
  if (Index > 1)
    return nullptr;
  return *std::next(Pair->getDefinition()->field_begin(), Index);
}

bool Dataflow::keyOf(const Expr *E, StorageKey &Key) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    // `auto [first, last] = shard_of(...)`: a field of the struct it
    // decomposes, or of the `std::pair` (`std::get<1>(e)` is `e.second`).
    // A tuple's elements are not told apart: the whole tuple would make
    // `count` of `{count, rank * count}` per-rank.
    if (const auto *Binding = dyn_cast<BindingDecl>(Ref->getDecl())) {
      const Expr *Bound = Binding->getBinding();
      if (Bound && isa<MemberExpr>(Bound->IgnoreParenImpCasts()))
        return keyOf(Bound, Key);
      const DecompositionDecl *Whole;
      const FieldDecl *Field = pairFieldOf(Binding, Whole);
      if (!Field)
        return false;
      auto Alias = References.find(Whole);
      Key = Alias != References.end() ? Alias->second : StorageKey{Whole};
      Key.push_back(Field);
      return true;
    }
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return false;
    auto Alias = References.find(Var);
    Key = Alias != References.end() ? Alias->second : StorageKey{Var};
    return true;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field)
      return false;
    const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base))
      Key = StorageKey{&ThisRoot};
    else if (!(Member->isArrow() ? pointeeKeyOf(Base, Key) : keyOf(Base, Key)))
      return false;
    Key.push_back(Field);
    return true;
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_Deref)
    return pointeeKeyOf(Unary->getSubExpr(), Key);
  if (const FieldDecl *Field = referencedOwnField(E)) {
    const Expr *Object =
        cast<CXXMemberCallExpr>(E)->getImplicitObjectArgument()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Object))
      Key = StorageKey{&ThisRoot};
    else if (!(Object->getType()->isPointerType() ? pointeeKeyOf(Object, Key) : keyOf(Object, Key)))
      return false;
    Key.push_back(Field);
    return true;
  }
  return false;
}

bool Dataflow::pointeeKeyOf(const Expr *E, StorageKey &Key) const {
  if (intoContainer(E, Key))
    return true;
  E = E->IgnoreParenCasts();
  if (E->getType()->isArrayType()) // an array decays to a pointer to itself
    return keyOf(E, Key);
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf)
    return keyOf(Unary->getSubExpr(), Key);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (auto It = PointsTo.find(Var); It != PointsTo.end()) {
        Key = It->second;
        return true;
      }
  // `c->w` of a `std::unique_ptr<Ctx> c` (or a shared pointer, an optional):
  // the object it holds, as behind a plain pointer.
  if (const Expr *Holder = E->getType()->isPointerType() ? accessedThrough(E) : nullptr;
      Holder && isOwningHolder(Holder->getType()->getAsCXXRecordDecl()))
    E = Holder; // its `->`
  if (!keyOf(E, Key))
    return false;
  Key.push_back(&DerefStep);
  return true;
}

RankValue Dataflow::read(const StorageKey &Key) const {
  // The longest recorded prefix holds the value: `s = t` covers `s.f`.
  for (size_t Length = Key.size(); Length > 0; --Length) {
    auto It = Current.find(StorageKey(Key.begin(), Key.begin() + Length));
    if (It != Current.end())
      return It->second;
  }
  return fallback(Key);
}

RankValue Dataflow::fallback(const StorageKey &Key) const {
  if (isElementStep(Key.back())) // a container held in an element (`out[i].data()`)
    return elementsFallback(StorageKey(Key.begin(), Key.end() - 1));
  RankValue Value;
  const auto *Last = static_cast<const Decl *>(Key.back() == &DerefStep ? nullptr : Key.back());
  if (std::optional<RankValue> Part = globalPartValue(Key))
    return *Part;
  if (Key.size() > 1 && Last) {
    const auto *Field = static_cast<const FieldDecl *>(Key.back());
    const auto *Param = Key.front() == &ThisRoot
                            ? nullptr
                            : dyn_cast<ParmVarDecl>(static_cast<const Decl *>(Key.front()));
    auto It = Param ? ParamIndex.find(Param) : ParamIndex.end();
    // A field of a parameter's object that every call passes field by
    // field is what the callers pass, and nothing else: that some other
    // object of the type holds it per-rank (a local a planner filled on
    // one rank) says nothing of this one. Behind a pointer, its own fields
    // (`p->n`: the parameter, its pointee, the field) hold what the callers
    // pass and what the field holds anywhere: a pointer stored elsewhere,
    // or to an element, is written where its callers' storage is not seen.
    const bool ByPointer = It != ParamIndex.end() && Param->getType()->isPointerType();
    const size_t Top = ByPointer ? 2 : 1; // where the object's own fields begin
    const bool OwnField = ByPointer ? Key.size() == 3 && Key[1] == &DerefStep : Key.size() == 2;
    const bool Nested = (!ByPointer || Key[1] == &DerefStep) &&
                        std::none_of(Key.begin() + Top, Key.end(), [](const void *Step) {
                          return Step == &DerefStep || isElementStep(Step);
                        });
    const bool FieldByField = It != ParamIndex.end() && (OwnField || Nested);
    if (FieldByField)
      FieldSeedsRead |= uint64_t(1) << It->second;
    const DependenceEnvironment::FieldSeedMap *Seeds =
        FieldByField ? Env.fieldSeedsOf(Function.decl(), It->second) : nullptr;
    const Provenance *Passed = nullptr;
    if (Seeds && OwnField)
      if (auto Seed = Seeds->find(Field); Seed != Seeds->end())
        Passed = Seed->second;
    if (Seeds && OwnField && !ByPointer) {
      Value.Source = Passed;
      return Value;
    }
    // Behind a pointer, only a part the callers passed apart (else as below).
    if (Seeds && !OwnField && (!ByPointer || Seeds->count(static_cast<const FieldDecl *>(Last))))
      return nestedParameterField(Key, *Seeds, ByPointer);
    SharedReads.insert(Field);
    Value = sharedOrElsewhere(Field);
    if (!Value.Source)
      Value.Source = Passed;
    // Otherwise also what the caller passes for the whole object; the
    // callers' fields say more.
    if (It != ParamIndex.end() && !(Seeds && OwnField))
      Value.Params |= uint64_t(1) << It->second;
    return Value;
  }
  if (Key.front() == &ThisRoot)
    return Value;
  const auto *Var = static_cast<const VarDecl *>(Key.front());
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    if (auto It = ParamIndex.find(Param); It != ParamIndex.end()) {
      // What a pointer to numbers points to is the caller's elements there.
      if (Key.size() == 2 && Key.back() == &DerefStep && Param->getType()->isPointerType() &&
          Param->getType()->getPointeeType()->isArithmeticType()) {
        Value.ElementParams = uint64_t(1) << It->second;
        return Value;
      }
      Value.Params = uint64_t(1) << It->second;
      Value.ExactRank = Key.size() == 1 && Classifier.isRankName(Param->getName());
      // What a pointer inside its struct points to (`p->q[i]`): the
      // callers' elements there.
      const size_t Inside = Param->getType()->isPointerType() ? 2 : 1;
      if (recordParameter(Param) && Key.size() > Inside &&
          std::find(Key.begin() + Inside, Key.end(), &DerefStep) != Key.end())
        Value.ElementParams = Value.Params;
      return Value;
    }
  }
  SharedReads.insert(Var);
  return sharedOrElsewhere(Var);
}

// `s.grid.comm` of a struct parameter every call passes field by field: a
// field of a struct inside it. Calls that name their storage pass such a
// field apart too (addNestedFields), and it holds what they pass (behind a
// pointer, also what the field holds anywhere). Otherwise the callers' seeds
// say whether `s.grid` as a whole differs between ranks; which of its fields
// do is what this file writes into them (`g.rank` from MPI_Comm_rank, not
// `g.comm`). Where no field of the inner struct is written per-rank here,
// the whole inner struct's seed stands.
RankValue Dataflow::nestedParameterField(const StorageKey &Key,
                                         const DependenceEnvironment::FieldSeedMap &Seeds,
                                         bool ByPointer) const {
  const auto *Leaf = static_cast<const FieldDecl *>(Key.back());
  if (auto Own = Seeds.find(Leaf); Own != Seeds.end()) {
    RankValue Value;
    if (ByPointer) {
      SharedReads.insert(Leaf);
      Value = sharedOrElsewhere(Leaf);
    }
    if (!Value.Source)
      Value.Source = Own->second;
    return Value;
  }
  RankValue Value;
  auto Seed = Seeds.find(static_cast<const FieldDecl *>(Key[ByPointer ? 2 : 1]));
  if (Seed == Seeds.end() || !Seed->second)
    return Value;
  SharedReads.insert(Leaf);
  Value = sharedOrElsewhere(Leaf);
  bool Explained = false;
  for (const FieldDecl *Sibling : Leaf->getParent()->fields()) {
    SharedReads.insert(Sibling); // read again when what the file writes there changes
    auto Written = Env.Shared.find(Sibling);
    Explained = Explained || (Written != Env.Shared.end() && Written->second.dependent());
  }
  if (!Value.dependent() && !Explained)
    Value.Source = Seed->second;
  return Value;
}

// What this file's functions write into a field or global, else what
// storedElsewhere says; a value pending on another file gives way to a
// source known here (a rank by its name, a summary).
RankValue Dataflow::sharedOrElsewhere(const ValueDecl *D) const {
  auto It = Env.Shared.find(D);
  if (It == Env.Shared.end())
    return storedElsewhere(D);
  if (!It->second.pending())
    return It->second;
  RankValue Known = storedElsewhere(D);
  return Known.dependent() && !Known.pending() ? Known : It->second;
}

// A field or global this function has no value for: what another file
// writes into it, a rank by its name, or pending on another file's summary.
RankValue Dataflow::storedElsewhere(const ValueDecl *D) const {
  const auto *Var = dyn_cast<VarDecl>(D);
  const Provenance *Elsewhere = !Var || Var->hasGlobalStorage() ? Env.writtenElsewhere(D) : nullptr;
  if ((!Elsewhere || Elsewhere->Pending) && Classifier.isRankName(D->getName()))
    return RankValue::rank(Env.rankName(D));
  if (Elsewhere && Elsewhere->Pending && Classifier.isWorldSizeName(D->getName()))
    return {}; // the world size by its name: a tautology's bound stays one
  RankValue Value;
  Value.Source = Elsewhere;
  return Value;
}

void Dataflow::replace(const StorageKey &Key, const RankValue &Value) {
  for (auto It = Current.lower_bound(Key); It != Current.end();) {
    if (It->first.size() < Key.size() || !std::equal(Key.begin(), Key.end(), It->first.begin()))
      break;
    It = Current.erase(It);
  }
  Current[Key] = Value;
}

void Dataflow::write(const StorageKey &Key, RankValue Value, bool Elements) {
  replace(Key, Value);
  if (Elements)
    recordParamWrite(Key, Value, /*Element=*/true);
  else
    recordWrite(Key, Value);
}

// A pointer \p Key is set to \p Source points where it points: to elements
// that differ between ranks (`*out = tracks;` after `tracks[i].px = rank`)
// when those differ. Only their dependence is copied: what the pointer
// itself holds (tested against null) stays the same on every rank.
void Dataflow::copyPointee(const StorageKey &Key, const Expr *Source) {
  StorageKey From;
  if (!Source->getType()->isPointerType() || !pointeeKeyOf(Source, From))
    return;
  RankValue Pointee = read(From);
  if (!Pointee.dependent())
    return;
  StorageKey Into = Key;
  Into.push_back(&DerefStep);
  Pointee.Definition = Source;
  write(Into, Pointee);
}

// Writes that outlive the function: per-rank ones to a field, a global, or
// through a pointer or reference parameter. \p Key names no element.
void Dataflow::recordWrite(const StorageKey &Key, const RankValue &Value) {
  if (!Recording)
    return;
  recordParamWrite(Key, Value, /*Element=*/false); // uniform ones too (WrittenParams)
  recordGlobalAssignment(Key);
  recordSharedWrite(Key, Value);
}

// A per-rank value stored in a field (of any object) or a global: functions
// that read it elsewhere see it per-rank.
void Dataflow::recordSharedWrite(const StorageKey &Key, const RankValue &Value) {
  if (!Recording || !Value.dependent())
    return;
  const void *Last = Key.back();
  const ValueDecl *Shared = nullptr;
  if (recordGlobalPartWrite(Key, Value))
    return;
  if (Key.size() > 1 && Last != &DerefStep && !inConfinedLocal(Key))
    Shared = static_cast<const FieldDecl *>(Last);
  else if (Key.size() == 1 && Key.front() != &ThisRoot)
    Shared = static_cast<const VarDecl *>(Key.front());
  if (Shared) {
    Result.SharedWrites.push_back({Shared, Value});
    SharedWriteKeys.push_back(Key);
  }
}

// A field of a struct local that no other code reaches (`c.n = rank;` in
// one function, `run(&c)` after an allreduce made it agree): no pointer
// elsewhere reads what it holds.
bool Dataflow::inConfinedLocal(const StorageKey &Key) const {
  const auto *Local = Key.front() == &ThisRoot
                          ? nullptr
                          : dyn_cast<VarDecl>(static_cast<const Decl *>(Key.front()));
  return Local && !References.count(Local) &&
         std::none_of(Key.begin() + 1, Key.end(),
                      [](const void *Step) { return Step == &DerefStep || isElementStep(Step); }) &&
         Confined.confined(Local);
}

// A per-rank write through a pointer or reference parameter reaches the
// caller: to the whole pointee (`*out = v`, `r = v`), to one of its fields
// (`s->n = v`, `s->in.x = v` writes `n` and `in`), or, with \p Element, to
// elements of the container a reference names.
void Dataflow::recordParamWrite(const StorageKey &Key, const RankValue &Value, bool Element,
                                const FieldDecl *ElementField) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(
      Key.front() == &ThisRoot ? nullptr : static_cast<const Decl *>(Key.front()));
  auto It = Param ? ParamIndex.find(Param) : ParamIndex.end();
  if (!Recording || It == ParamIndex.end())
    return;
  FunctionFacts &Facts = Result.Facts;
  const size_t Pointee = Param->getType()->isReferenceType()       ? 1
                         : Key.size() >= 2 && Key[1] == &DerefStep ? 2
                                                                   : 0;
  if (!Pointee)
    return; // the parameter's own copy
  if (!Element && Key.size() == Pointee && It->second < 64)
    Facts.WrittenParams |= uint64_t(1) << It->second;
  const void *Step = Key.size() > Pointee ? Key[Pointee] : nullptr;
  // What a pointer field points to (`d->f[i] = rank * i` in `setup(sub_t
  // *d, int rank)`): the numbers the caller's `d.f` points to, not `d.f`.
  if (!Element && Key.size() == Pointee + 2 && Key.back() == &DerefStep && Step != &DerefStep &&
      !isElementStep(Step) && static_cast<const FieldDecl *>(Step)->getType()->isPointerType()) {
    if (Value.dependent())
      Facts.OutFieldElements[It->second][static_cast<const FieldDecl *>(Step)].combine(Value);
    return;
  }
  if (!Element && Step && Step != &DerefStep && !isElementStep(Step)) {
    const auto *Field = static_cast<const FieldDecl *>(Step);
    // A field written whole, even with a uniform value, is recorded too: a
    // caller that calls on some ranks only holds different values after it
    // (unless a collective wrote it: every rank then holds the same). Not a
    // container: writes through `v.data()` reach its elements, not its size.
    bool Redefined = Key.size() == Pointee + 1 && Value.Definition != &AgreedByEveryRank &&
                     !isContainer(Field->getType());
    if (Value.dependent() || Redefined)
      Facts.OutFields[It->second][Field].combine(Value);
    return;
  }
  if (!Value.dependent())
    return;
  // What a pointer the caller passes by address or reference points to
  // (`*out = t`, `Track **out`): the elements the caller's pointer reaches.
  if (!Element && Key.size() == Pointee + 1 && Step == &DerefStep) {
    Facts.OutElements[It->second].combine(Value);
    return;
  }
  if (Element) {
    if (Key.size() == Pointee && ElementField)
      Facts.OutElementFields[It->second][ElementField].combine(Value);
    else if (Key.size() == Pointee)
      Facts.OutElements[It->second].combine(Value);
    else if (Key.size() == Pointee + 1 && Step != &DerefStep && !isElementStep(Step))
      Facts.OutFieldElements[It->second][static_cast<const FieldDecl *>(Step)].combine(Value);
    else if (Key.size() == Pointee + 2 && isElementStep(Step) && Key.back() != &DerefStep &&
             !isElementStep(Key.back()))
      Facts.OutNestedElements[It->second][static_cast<const FieldDecl *>(Key.back())].combine(
          Value);
    return;
  }
  Facts.OutParams[It->second].combine(Value);
}

// A member or global that a collective agrees on before every return holds
// the agreed value for everyone after the call (`MPI_Allreduce(MPI_IN_PLACE,
// &steps_, ...)` in a method): the per-rank writes before it stay inside.
void Dataflow::dropWritesAgreedAtExit(const State &AtExit) {
  auto Outlives = [](const StorageKey &Key) {
    if (Key.front() == &ThisRoot)
      return true;
    const auto *Var = static_cast<const VarDecl *>(Key.front());
    return Key.back() != &DerefStep && Var->hasGlobalStorage();
  };
  // A container's elements: agreed whole, and none written per rank since.
  auto ElementsAgreed = [&AtExit](const StorageKey &Key) {
    bool Agreed = true;
    forEachInside(AtExit, Key, [&](const StorageKey &, const RankValue &Held) {
      Agreed = Agreed && !Held.dependent();
    });
    return Agreed;
  };
  std::vector<SharedWrite> Kept;
  for (size_t I = 0; I < Result.SharedWrites.size(); ++I) {
    const StorageKey &Key = SharedWriteKeys[I];
    // The longest recorded prefix holds it: `MPI_Bcast(&cfg, ...)` agrees `cfg.steps`.
    auto It = AtExit.end();
    for (size_t Length = Key.size(); Length > 0 && It == AtExit.end(); --Length)
      It = AtExit.find(StorageKey(Key.begin(), Key.begin() + Length));
    bool Agreed = It != AtExit.end() && It->second.Definition == &AgreedByEveryRank &&
                  !It->second.dependent() &&
                  (!Result.SharedWrites[I].Elements || ElementsAgreed(Key));
    if (!Agreed || !Outlives(Key))
      Kept.push_back(Result.SharedWrites[I]);
  }
  Result.SharedWrites = std::move(Kept);
}

// The fields of `*this` the function leaves set at its exit by one write
// that reaches the exit on every path. A field set on some paths only keeps
// the caller's value on the others, which this function does not know.
// Containers keep their own account of their elements (SharedElements).
FieldValues Dataflow::ownFieldsAtExit(const State &AtExit) const {
  FieldValues Set;
  for (auto It = AtExit.lower_bound(StorageKey{&ThisRoot}); It != AtExit.end(); ++It) {
    const StorageKey &Key = It->first;
    if (Key.front() != &ThisRoot)
      break;
    if (Key.size() != 2 || Key.back() == &DerefStep || isElementStep(Key.back()))
      continue;
    const auto *Field = dyn_cast<FieldDecl>(static_cast<const Decl *>(Key.back()));
    const RankValue &Value = It->second;
    // A field a collective agreed on every path counts as set, to that value.
    const bool Agreed = Value.Definition == &AgreedByEveryRank && !Value.dependent();
    if (Field && !isContainer(Field->getType()) && Value.Definition &&
        (Agreed || (Value.Definition != &AgreedByEveryRank && !Blocks.count(Value.Definition))))
      Set[Field] = Value;
  }
  return Set;
}

// A global, member or parameter's pointee that differs between ranks when
// the function returns, although no single write made it so (`if (rank ==
// 0) g_mode = 1;`: the arms meet at the exit), is a per-rank write for the
// code that runs after the call.
void Dataflow::publishWritesAtExit(const State &AtExit) {
  for (const auto &[Key, Value] : AtExit) {
    if (!Value.dependent())
      continue;
    const auto *Root =
        static_cast<const Decl *>(Key.front() == &ThisRoot ? Key.back() : Key.front());
    // A lambda's by-reference capture is its caller's storage too.
    bool Global = Key.size() == 1 && Key.front() != &ThisRoot && isa<VarDecl>(Root) &&
                  (cast<VarDecl>(Root)->isFileVarDecl() ||
                   capturedByReference(cast<VarDecl>(Root), Function.decl()));
    // A field of a global struct (`if (rank == 0) apply(file, g_cfg);`).
    if (Blocks.count(Value.Definition))
      recordGlobalPartWrite(Key, Value);
    // A member made per-rank where rank-dependent arms met (`if (rank == 0)
    // hooks_.push_back(h);`): no single write recorded it.
    bool Member = Key.size() == 2 && Key.front() == &ThisRoot && Key.back() != &DerefStep &&
                  !isElementStep(Key.back()) && isa<FieldDecl>(Root) &&
                  Blocks.count(Value.Definition);
    if (Global || Member) {
      Result.SharedWrites.push_back({cast<ValueDecl>(Root), Value});
      SharedWriteKeys.push_back(Key);
    }
    // Its elements likewise (`if (rank == 0) f_[0] = 1.0;` in a constructor).
    if (Key.size() > 2 && Key.front() == &ThisRoot && !isElementStep(Key[1]) &&
        Key[1] != &DerefStep && isElementStep(Key[2]) && Blocks.count(Value.Definition)) {
      Result.SharedWrites.push_back(
          {static_cast<const FieldDecl *>(Key[1]), Value, /*Elements=*/true});
      SharedWriteKeys.push_back(StorageKey(Key.begin(), Key.begin() + 2));
    }
    // So is what a parameter refers to (`if (rank == 0) o.chief = 1;` in
    // `parse(Options &o)`): the caller's storage. A whole pointee that only
    // the caller's arguments decide may keep the caller's own value.
    // Elements stay inside: a caller knows a field's container only whole.
    // Decided by the caller's arguments alone (`*nloc = 4; if (rank == last)
    // *nloc = 0;`), it is per-rank where they are, and otherwise the
    // caller's own value on the paths that leave it alone.
    const bool Field = Key.size() > 1 && Key.back() != &DerefStep;
    if (!Blocks.count(Value.Definition) || Key.front() == &ThisRoot || !isa<ParmVarDecl>(Root) ||
        isElementStep(Key.back()))
      continue;
    if (Field || Value.Source) {
      recordParamWrite(Key, Value, /*Element=*/false);
    } else if (auto It = ParamIndex.find(cast<ParmVarDecl>(Root));
               Value.Params && It != ParamIndex.end() && It->second < 64) {
      RankValue Kept = Value;
      Kept.Params |= uint64_t(1) << It->second;
      recordParamWrite(Key, Kept, /*Element=*/false);
    }
  }
}

} // namespace lockstep::analysis::dependence
