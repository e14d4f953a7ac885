// Calls in the rank-dependence data flow: what they return and what they write
// (rank, uniform and per-rank sources, collectives, summarized and unknown functions).
#include "DependenceDataflow.h"
#include "PerRankSources.h"
#include "SourceText.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace lockstep::analysis::dependence {
using namespace clang;

/// Whether \p Arg names one variable or field itself (`&n`, `&cfg.steps`,
/// `o.count` bound to a reference, a pointer parameter handed on: its
/// callers name theirs), not through a pointer that may point to other
/// storage on other ranks, nor an element at an index.
static bool namesStorage(const Expr *Arg) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *Name = dyn_cast<DeclRefExpr>(E); Name && isa<ParmVarDecl>(Name->getDecl()))
    return true;
  if (const auto *Address = dyn_cast<UnaryOperator>(E);
      Address && Address->getOpcode() == UO_AddrOf)
    E = Address->getSubExpr()->IgnoreParenImpCasts();
  while (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (Member->isArrow())
      return false;
    E = Member->getBase()->IgnoreParenImpCasts();
  }
  return isa<DeclRefExpr>(E) && !E->getType()->isPointerType();
}

namespace {

/// Whether a call with no summary passes its inputs on to its results: its
/// return value unless that is a status, and what it writes through its
/// arguments.
bool transfersInputs(const CalleeRole &Role, bool Returned = true) {
  return Role.SystemLibrary && !(Returned && Role.StatusSuccess);
}

} // namespace

RankValue Dataflow::evalCall(const CallExpr *Call) const {
  if (const Expr *Hinted = ignoreBranchHints(Call); Hinted != Call)
    return eval(Hinted);
  const FunctionDecl *Callee = resolvedCallee(Call);
  std::vector<const Expr *> Args = explicitArguments(Call);
  RankValue Value;
  if (!Callee) { // a call through a pointer: what the functions it may run return,
    if (std::optional<RankValue> Returned = returnedByTargets(Call, Args))
      return *Returned;
    // else its result depends on what goes in
    for (const Expr *Arg : Args)
      Value.combine(eval(Arg));
    Value.Opaque = true;
    return Value;
  }
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.RankSource && Role.RankSource->Returns)
    return RankValue::rank(
        Env.Arena.make(Provenance::Kind::SourceCall, Role.Name, Call->getBeginLoc()));
  if (Role.AnnotatedRankSource)
    return RankValue::rank(
        Env.Arena.make(Provenance::Kind::Annotated, Role.Name, Call->getBeginLoc()));
  if (Role.PerRankSource && Role.PerRankSource->Returns)
    return perRankSourceData(Call, Role, Args, Call);
  if (Role.UniformSource && Role.UniformSource->Returns)
    return Role.UniformSource->WorldSize ? RankValue::worldSize() : RankValue();
  if (Role.isKnown())
    return {}; // error codes and handles agree on every rank
  std::string Variable;
  switch (Classifier.environmentRead(Call, Variable)) {
  case EnvironmentValue::Rank:
    return RankValue::rank(
        Env.Arena.make(Provenance::Kind::Environment, Variable, Call->getBeginLoc()));
  case EnvironmentValue::WorldSize:
    return RankValue::worldSize();
  case EnvironmentValue::None:
    break;
  }
  if (asksFixedSize(Call))
    return {};
  if (Role.Converter && !Args.empty()) {
    Value = eval(Args.front());
    Value.Opaque = false;
    return Value;
  }
  if (std::optional<RankValue> Returned = returnedByTargets(Call, Args))
    return *Returned;
  if (std::optional<RankValue> Field = ownFieldReturned(Call, Callee))
    return *Field;
  if (auto It = Env.Facts.find(Callee->getCanonicalDecl()); It != Env.Facts.end())
    return chosenAtCall(It->second, atCall(It->second.ReturnValue, Args, Callee), Args, Callee);
  if (const ExternalFunction *Summary = Env.External.find(Callee);
      Summary && Summary->ReturnsRank) {
    const Provenance *Source = Env.fromSummary(*Summary, Call->getBeginLoc());
    if (!Summary->ReturnsSplit)
      return RankValue::rank(Source);
    Value.Source = Source; // a communicator handle, not a rank
    return Value;
  }
  // No summary: only a library function of the system computes its result
  // from its inputs (`std::min(rank, n)`, `fopen(path)`). A status reports
  // success or failure, and a function of another file returns what its
  // summary says (above), not whatever it is given: `CHECK(work(buf, rank))`.
  Value.Opaque = true;
  Value.Source = Env.returnedElsewhere(Call, Callee); // a rank, once its summary says so
  const bool Transfers = transfersInputs(Role);
  // A function of the user's whose body no file shows computes its result
  // from what it is given, when that is a number or an object.
  const bool Unseen = !Transfers && !Callee->hasBody() &&
                      computedUnseen(Callee->getReturnType().getNonReferenceType());
  if (!Transfers && !Unseen)
    return Value;
  // An iterator or a pointer into a container hands a library algorithm its
  // elements too (`std::min_element(losses.begin(), losses.end())`); an
  // operator on iterators (`it != end`) reads none.
  // A function of the user's reads the numbers a pointer it is handed
  // points to (`sq_norm(shard, n)` of a shard this rank reduced).
  const bool Algorithm = !isa<CXXOperatorCallExpr, CXXMemberCallExpr>(Call);
  for (const Expr *Arg : Args) {
    Value.combine(eval(Arg));
    StorageKey Into;
    if (Algorithm && intoContainer(Arg, Into))
      Value.combine(readElement(Into, nullptr));
    else if (Unseen && Arg->getType()->isPointerType() &&
             Arg->getType()->getPointeeType()->isArithmeticType() && pointeeKeyOf(Arg, Into))
      Value.combine(read(Into)).combine(readElement(Into, nullptr));
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Value.combine(objectValue(Member->getImplicitObjectArgument(), Callee));
  else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
           Operator && isa<CXXMethodDecl>(Callee) && Operator->getNumArgs() > 0)
    Value.combine(objectValue(Operator->getArg(0), Callee)); // `!in` of a stream
  Value.Opaque = true;
  if (Unseen && Value.Source && !Value.pending())
    Value.Source =
        Env.Arena.makeUnseen(Callee->getQualifiedNameAsString(), Call->getBeginLoc(), Value.Source);
  return Value;
}

// What a call hands \p Param: of a container, its own state (its size) and
// its elements apart; else the argument's value as both.
Dataflow::PassedValue Dataflow::passedTo(const Expr *Arg, const ParmVarDecl *Param) const {
  StorageKey Key;
  RankValue At;
  if (Param && isContainer(Param->getType().getNonReferenceType()) && containerKeyOf(Arg, Key, &At))
    return {containerState(Key).combine(At), readElement(Key, nullptr).combine(At)};
  RankValue Value = eval(Arg);
  RankValue Elements = Value;
  // An element of a container, as a struct: its own parts, and apart the
  // elements of the containers inside it (`sync(layer)` of `layers`).
  const Expr *Index;
  FieldPath Fields;
  if (Param && recordParameter(Param) && !Param->getType()->isPointerType() &&
      elementKeyOf(Arg, Key, Index, Fields)) {
    Value = readElement(Key, Index, /*Nested=*/false, Fields);
    if (RankValue At = Index ? eval(Index) : RankValue(); At.dependent())
      Value.combine(At);
    Elements.combine(readElement(Key, Index, /*Nested=*/true, Fields));
  }
  // A struct's containers: their elements, for the callee's element reads.
  else if (Param && recordParameter(Param) &&
           (Param->getType()->isPointerType() ? pointeeKeyOf(Arg, Key) : keyOf(Arg, Key)))
    Elements.combine(nestedElements(Key));
  // What a pointer to numbers points to: `local_dot(r, r, n)` reads `r[i]`.
  else if (Param && Param->getType()->isPointerType() &&
           Param->getType()->getPointeeType()->isArithmeticType() && pointeeKeyOf(Arg, Key))
    Elements.combine(readElement(Key, nullptr));
  return {Value, Elements};
}

// What a call returns, \p Value, picked by a branch of the callee on a
// per-rank argument: chosen under a rank-dependent condition, as if the
// branch were the caller's (an object of another type, running other
// overrides, on some ranks).
RankValue Dataflow::chosenAtCall(const FunctionFacts &Callee, RankValue Value,
                                 llvm::ArrayRef<const Expr *> Args,
                                 const FunctionDecl *Target) const {
  for (size_t I = 0; I < Args.size() && I < 64; ++I) {
    if (!(Callee.ReturnChosenBy >> I & 1))
      continue;
    RankValue Passed =
        passedTo(Args[I], I < Target->getNumParams() ? Target->getParamDecl(I) : nullptr).Own;
    if (Passed.Source && !Passed.pending()) {
      Value.Source = Env.Arena.makeImplicit(Callee.ReturnChosenAt, Passed.Source, nullptr);
      Value.Chosen = true;
      break;
    }
  }
  return Value;
}

// Whether \p Arg reaches the callee by reference (the storage it names), not
// as a pointer to it; without the parameter (a variadic call), by its type.
static bool bindsReference(const Expr *Arg, const ParmVarDecl *Param) {
  return Param ? Param->getType()->isReferenceType() : !Arg->getType()->isPointerType();
}

// Writes \p Value to what \p Arg refers or points to (or to its \p Field).
void Dataflow::writeOutArgument(const Expr *Arg, const ParmVarDecl *Param, RankValue Value,
                                const FieldDecl *Field) {
  StorageKey Key;
  bool ByReference = bindsReference(Arg, Param);
  if (!Value.Definition)
    Value.Definition = Arg;
  // A field of an element (`init(&items[1])` writing `count`) is a part of
  // that element, never a field written anywhere.
  const auto *Address = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
  const Expr *Pointee =
      Address && Address->getOpcode() == UO_AddrOf ? Address->getSubExpr() : nullptr;
  StorageKey Container;
  const bool IntoContainer = !ByReference && intoContainer(Arg, Container);
  const Expr *Index;
  FieldPath Fields;
  if ((ByReference && elementKeyOf(Arg, Key, Index, Fields)) ||
      (Field && Pointee && elementKeyOf(Pointee, Key, Index, Fields))) {
    if (Field)
      Fields.push_back(Field);
    writeElement(Key, Index, Value, /*Compound=*/false, Value.Definition, Fields);
  } else if (IntoContainer && (Field || Value.Definition != &AgreedByEveryRank)) {
    // Through a pointer into a container its elements, not its size; what
    // a collective agrees on replaces them all (below).
    writeElement(Container, /*Index=*/nullptr, Value, /*Compound=*/false, Value.Definition);
  } else if (referredStorage(Arg, Param, Key)) {
    if (Field)
      Key.push_back(Field);
    // For the callers that replacement writes the elements; the size stays.
    write(Key, Value, /*Elements=*/IntoContainer && !Field);
    // Here too: what other functions left in a member's elements is gone.
    if (IntoContainer && !Field && Key == Container) {
      Key.push_back(&AnyElement);
      Current[Key] = Value;
    }
  }
}

// The storage a call lets its callee write through \p Arg: what a reference
// names, what a pointer points to.
bool Dataflow::referredStorage(const Expr *Arg, const ParmVarDecl *Param, StorageKey &Key) const {
  return bindsReference(Arg, Param) ? keyOf(Arg, Key) : pointeeKeyOf(Arg, Key);
}

// A call that may write what \p Arg points or refers to with a value the
// same on every rank, or leave it (`if (b) x = 5;` in the callee): it holds
// what it held, or that value, defined anew (ranks that skip the call hold
// another value).
void Dataflow::redefine(const Expr *Arg, const ParmVarDecl *Param, const FieldDecl *Field) {
  StorageKey Key;
  if (!referredStorage(Arg, Param, Key))
    return;
  if (Field)
    Key.push_back(Field);
  RankValue Held = read(Key);
  Held.Definition = Arg;
  Current[Key] = Held;
}

// What a call to \p Target writes through its pointer and reference
// parameters (\p Callee, its facts), in the caller's terms.
void Dataflow::writeOutParamsOfCall(const FunctionFacts &Callee, const FunctionDecl *Target,
                                    llvm::ArrayRef<const Expr *> Args) {
  auto InCaller = [&](const RankValue &Out) { return atCall(Out, Args, Target); };
  for (size_t I = 0; I < Args.size() && I < Callee.OutParams.size(); ++I) {
    const ParmVarDecl *Param = I < Target->getNumParams() ? Target->getParamDecl(I) : nullptr;
    if (Callee.OutParams[I].dependent())
      writeOutArgument(Args[I], Param, InCaller(Callee.OutParams[I]));
    else if (I < 64 && (Callee.AssignedParams >> I & 1) && namesStorage(Args[I]))
      writeOutArgument(Args[I], Param, RankValue());
    else if (I < 64 && (Callee.WrittenParams >> I & 1))
      redefine(Args[I], Param);
    for (const auto &[Field, Out] : Callee.OutFields[I])
      if (Out.dependent())
        writeOutArgument(Args[I], Param, InCaller(Out), Field);
      else if (I < Callee.AssignedFields.size() &&
               llvm::is_contained(Callee.AssignedFields[I], Field))
        writeOutArgument(Args[I], Param, RankValue(), Field);
      else
        redefine(Args[I], Param, Field);
    // A field a collective agreed on every path (`MPI_Bcast(&cfg.steps, ...)`
    // in a helper given `cfg`) holds the same value on every rank.
    if (I < Callee.AssignedFields.size())
      for (const FieldDecl *Field : Callee.AssignedFields[I])
        if (!Callee.OutFields[I].count(Field))
          writeOutArgument(Args[I], Param, agreed(), Field);
    // The elements of the container a reference names, or what the pointer
    // it points or refers to points to (`Track **out`, `Track *&out`).
    StorageKey Container;
    if (Callee.OutElements[I].dependent() && Param && referredStorage(Args[I], Param, Container) &&
        (Param->getType()->getPointeeType()->isPointerType() ||
         Param->getType()->isReferenceType())) {
      if (Param->getType()->getPointeeType()->isPointerType())
        Container.push_back(&DerefStep);
      writeElement(Container, /*Index=*/nullptr, InCaller(Callee.OutElements[I]),
                   /*Compound=*/false, Args[I]);
    }
    for (const auto &[Field, Out] : Callee.OutElementFields[I]) {
      StorageKey Elements;
      if (Out.dependent() && Param && Param->getType()->isReferenceType() &&
          referredStorage(Args[I], Param, Elements))
        writeElement(Elements, /*Index=*/nullptr, InCaller(Out), /*Compound=*/false, Args[I],
                     {Field});
    }
    for (const auto &[Field, Out] : Callee.OutNestedElements[I]) {
      StorageKey Outer;
      if (Out.dependent() && referredStorage(Args[I], Param, Outer)) {
        Outer.push_back(&AnyElement);
        Outer.push_back(Field);
        writeElement(Outer, /*Index=*/nullptr, InCaller(Out), /*Compound=*/false, Args[I]);
      }
    }
    for (const auto &[Field, Out] : Callee.OutFieldElements[I]) {
      StorageKey Holder;
      if (Out.dependent() && referredStorage(Args[I], Param, Holder)) {
        Holder.push_back(Field);
        if (Field->getType()->isPointerType()) { // what `d.f` points to
          Holder.push_back(&DerefStep);
          RankValue Pointee = InCaller(Out);
          Pointee.combine(read(Holder));
          Pointee.Definition = Args[I];
          write(Holder, Pointee);
        } else {
          writeElement(Holder, /*Index=*/nullptr, InCaller(Out), /*Compound=*/false, Args[I]);
        }
      }
    }
  }
  for (size_t I = 0; I < Args.size() && I < 64; ++I)
    if (Callee.AgreedParams >> I & 1)
      writeOutArgument(Args[I], I < Target->getNumParams() ? Target->getParamDecl(I) : nullptr,
                       agreed());
}

// A lambda of this function called here reads the locals it captures by
// reference as they are now (`if (rank % 3 == 0) dirty += n;` before
// `flush()` reads `dirty`): per-rank ones are its per-rank input. Only a
// local no other lambda captures: what one reads is published for the
// variable, not for the lambda.
void Dataflow::publishCaptures(const FunctionDecl *Callee) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (!Recording || !Method || !Method->getParent()->isLambda())
    return;
  for (const LambdaCapture &Capture : Method->getParent()->captures()) {
    const auto *Var = Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByRef
                          ? dyn_cast<VarDecl>(Capture.getCapturedVar())
                          : nullptr;
    if (!Var || LambdasCapturing.lookup(Var) != 1)
      continue;
    StorageKey Key{Var};
    if (RankValue Value = read(Key); Value.dependent()) {
      Result.SharedWrites.push_back({Var, Value});
      SharedWriteKeys.push_back(Key);
    }
  }
}

void Dataflow::recordCall(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
  if (const auto *Made = dyn_cast_or_null<CXXConstructorDecl>(Callee);
      Made && Made->isInheritingConstructor()) // `using Base::Base;` runs Base's constructor
    Callee = Made->getInheritedConstructor().getConstructor();
  if (!Recording || !Callee || !Callee->hasBody())
    return;
  CallSiteRecord Record;
  Record.Callee = Callee->getCanonicalDecl();
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Args[I];
    const ParmVarDecl *Param = I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
    PassedValue Passed = passedTo(Arg, Param);
    Record.Args.push_back(Passed.Own);
    Record.ArgElements.push_back(Passed.Elements);
    FieldValues Fields;
    const bool ByValue = fieldsOf(Arg, Fields);
    const bool ByField =
        ByValue || (Param && Param->getType()->isPointerType() && pointeeFieldsOf(Arg, Fields));
    if (ByField)
      addNestedFields(Arg, /*ThroughPointer=*/!ByValue, Fields);
    Record.ArgFields.push_back(ByField ? std::optional(std::move(Fields)) : std::nullopt);
  }
  Result.Calls.push_back(std::move(Record));
}

void Dataflow::recordCollective(const CallExpr *Call, const CalleeRole &Role) {
  if (!Role.Collective)
    return;
  const rules::CollectiveRule &Rule = *Role.Collective;
  // A split by a rank-dependent colour hands each part its own communicator
  // (or none): the handle differs between ranks, and only the members of a
  // part use it, so it is not an argument that must agree.
  // A group the function builds in a local: one whose members GroupMembers
  // may read. A group handed in or kept in a field (a library's wrapper of
  // MPI_Comm_create) is the callers' to decide, and no split here.
  const Expr *MemberGroup = ruleArgument(Call, Rule.MemberGroup);
  if (const auto *Group = dyn_cast_or_null<VarDecl>(namedStorage(MemberGroup));
      !Group || !Group->hasLocalStorage() || isa<ParmVarDecl>(Group))
    MemberGroup = nullptr;
  const Expr *Color = MemberGroup ? MemberGroup : ruleArgument(Call, Rule.Color);
  const Expr *NewCommArg = ruleArgument(Call, Rule.NewComm);
  const ValueDecl *NewComm = namedStorage(NewCommArg);
  if (Color && NewComm) {
    RankValue Value = MemberGroup ? RankValue() : eval(Color);
    // `MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, ...)`: one part per
    // node, whatever the ranks pass; `MPI_Comm_create(world, group, &sub)`:
    // a communicator for the group's members, a null handle elsewhere.
    const bool ByPlacement = Rule.PartsByPlacement && !Value.dependent();
    if (ByPlacement || MemberGroup)
      Value.Source = perRankData(Call, NewCommArg, Role.Name,
                                 MemberGroup ? "the communicator of the members of the group"
                                             : "the communicator of the ranks placed with this one",
                                 Env.Arena, Function);
    // A colour pending on another file is no split here: the findings
    // known here must not depend on it (a parameter's seed decides later).
    if (Value.dependent() && (!Value.pending() || Value.onParameters())) {
      if (Recording) {
        Result.Splits.push_back(
            {NewComm, Color, Value, namedStorage(ruleArgument(Call, Rule.Comm))});
        Result.Splits.back().Call = Call;
        Result.Splits.back().ByPlacement = ByPlacement;
        Result.Splits.back().ByGroup = MemberGroup != nullptr;
      }
      // A colour only parameters make per-rank (`split(rank / 2)`) leaves
      // a split without a source of its own: each caller resolves it.
      RankValue Handle;
      Handle.Source = Env.Arena.makeSplit(Role.Name, Call->getBeginLoc(), Value.Source, Color);
      Handle.Params = Value.Params;
      Handle.ElementParams = Value.ElementParams;
      writeOutArgument(NewCommArg, nullptr, Handle);
    }
  }
  recordSubGrid(Call, Role, NewCommArg);
  if (!Recording || !Rule.Synchronizes) // no rank waits in `MPI_Comm_free(&c)`
    return;
  for (const auto &[RoleName, Ref] : agreedArguments(Rule, Call, Context)) {
    const Expr *Arg = ruleArgument(Call, *Ref);
    RankValue Value = Arg ? eval(Arg) : optionField(Call, *Ref, Arg);
    // A split's handle too: membership decides whether it is a fault
    // (findRankArguments).
    if (Arg && Value.dependent())
      Result.AgreedArguments.push_back({Call, Role.Name, RoleName, Arg, Value});
  }
}

// An options object filled before the call (`opts.rootRank = r;
// pg->broadcast(t, opts)`): the field's value here, and in \p Written the
// expression that wrote it (the object when no single one did).
RankValue Dataflow::optionField(const CallExpr *Call, const rules::ArgRef &Ref,
                                const Expr *&Written) const {
  Written = nullptr;
  const Expr *Object = Ref.Field.empty() ? nullptr : ruleArgument(Call, {Ref.K, Ref.Index, ""});
  const RecordDecl *Record = Object ? Object->getType()->getAsRecordDecl() : nullptr;
  StorageKey Key;
  if (!Record)
    return {};
  if (!keyOf(Object, Key)) {
    // Made by a call and passed as it is (`pg.broadcast(t, options_from(rank))`).
    FieldValues Fields;
    if (!fieldsOf(Object, Fields))
      return {};
    for (const auto &[Field, Value] : Fields)
      if (Field->getName() == Ref.Field) {
        Written = Object;
        return Value;
      }
    return {};
  }
  for (const FieldDecl *Field : Record->fields())
    if (Field->getName() == Ref.Field) {
      Key.push_back(Field);
      RankValue Value = read(Key);
      const void *Definition = Value.Definition;
      bool Single = Definition && Definition != &AgreedByEveryRank && !Blocks.count(Definition);
      Written = Single ? cast<Expr>(static_cast<const Stmt *>(Definition)) : Object;
      return Value;
    }
  return {};
}

// The object a chain of calls returning their own object writes to: `name`
// in `name << "r" << rank` (each `<<` returns the stream it was given).
const Expr *Dataflow::chainedObject(const Expr *E) {
  while (E) {
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getReturnType()->isLValueReferenceType())
      return E;
    const Expr *Object = ruleArgument(Call, rules::ArgRef{rules::ArgRef::Kind::Receiver, 0, ""});
    std::vector<const Expr *> Args = explicitArguments(Call);
    if (!Object && !Args.empty() && Callee->getNumParams() > 0 &&
        Callee->getParamDecl(0)->getType()->isLValueReferenceType())
      Object = Args.front();
    const CXXRecordDecl *Returned = Callee->getReturnType()->getPointeeCXXRecordDecl();
    const CXXRecordDecl *Class = Object ? Object->getType()->getAsCXXRecordDecl() : nullptr;
    if (!Returned || !Class || Returned->getCanonicalDecl() != Class->getCanonicalDecl())
      return E;
    E = Object;
  }
  return E;
}

void Dataflow::applyCallEffects(const CallExpr *Call) {
  applyIndirectCallEffects(Call);
  const FunctionDecl *Callee = resolvedCallee(Call);
  if (!Callee)
    return;
  std::vector<const Expr *> Args = explicitArguments(Call);
  auto ParamFor = [&](size_t I) {
    return I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
  };
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.RankSource && Role.RankSource->OutArg && *Role.RankSource->OutArg < Args.size()) {
    unsigned I = *Role.RankSource->OutArg;
    // `MPI_Comm_rank(comm, &rank)`: the rank is one in the communicator before it.
    const Expr *Communicator =
        I > 0 && !Args.front()->getType()->isIntegerType() ? Args.front() : nullptr;
    const Provenance *Source = Env.Arena.make(Provenance::Kind::SourceCall, Role.Name,
                                              Call->getBeginLoc(), nullptr, Communicator);
    writeOutArgument(Args[I], ParamFor(I), RankValue::rank(Source));
  }
  if (Role.UniformSource && Role.UniformSource->OutArg &&
      *Role.UniformSource->OutArg < Args.size()) {
    unsigned I = *Role.UniformSource->OutArg;
    writeOutArgument(Args[I], ParamFor(I), uniformOutput(Call, Role, Args, I));
  }
  for (unsigned I : Role.PerRankSource ? Role.PerRankSource->OutArgs : std::vector<unsigned>()) {
    if (I >= Args.size())
      continue;
    writeOutArgument(Args[I], ParamFor(I), perRankSourceData(Call, Role, Args, Args[I]));
  }
  if (Role.Collective) {
    for (unsigned I : Role.Collective->UniformOutputs)
      if (I < Args.size())
        writeOutArgument(bufferOf(Args[I]), ParamFor(I),
                         agreedOutput(Call, Role, bufferOf(Args[I])));
    // A receive buffer the rules do not call uniform gets what this rank
    // receives: the root's result (a reduce, a gather), its own part (a
    // scatter, an all-to-all), its prefix (a scan).
    const rules::ArgRef &Recv = Role.Collective->Recv;
    if (Recv.K == rules::ArgRef::Kind::Argument && Recv.Index < Args.size() &&
        !llvm::is_contained(Role.Collective->UniformOutputs, Recv.Index)) {
      const Expr *Buffer = bufferOf(Args[Recv.Index]);
      RankValue Received;
      Received.Source =
          perRankData(Call, Buffer, Role.Name, "what this rank receives", Env.Arena, Function);
      writeOutArgument(Buffer, ParamFor(Recv.Index), Received);
    }
  }
  recordCollective(Call, Role);
  followObjectFields(Call, Callee);
  publishCaptures(Callee);
  // What the callee receives: the arguments before it writes through them.
  recordCall(Callee->getDefinition() ? Callee->getDefinition() : Callee, Args);
  if (const CXXConstructorDecl *Made = madeUniqueBy(Call)) // its arguments reach `T(args...)`
    recordCall(Made, Args);
  auto Facts = Env.Facts.find(Callee->getCanonicalDecl());
  std::string Variable;
  if (Facts == Env.Facts.end() && !Role.isKnown() && !Role.Converter &&
      Classifier.environmentRead(Call, Variable) == EnvironmentValue::None) {
    if ((Role.Copy && copyThroughPointers(Call, *Role.Copy)) ||
        resetThroughLibraryCall(Call, Callee) ||
        swapContainers(Call)) { // holds what the arguments say
    } else if (!Callee->hasBody()) {
      if (transfersInputs(Role, /*Returned=*/false))
        flowThroughUnknownCall(Call, Callee, /*ObjectToo=*/true);
      else
        flowThroughUnknownCall(Call, Callee, /*ObjectToo=*/false, /*Unseen=*/true);
    } else if (Role.SystemLibrary) {
      // What a library function reads lands in its writable reference
      // arguments (`in >> n`, `std::getline(in, line)`); a container it
      // fills keeps its size apart from its elements.
      flowThroughUnknownCall(Call, Callee, /*ObjectToo=*/false);
      fillThroughLibraryCall(Call, Callee);
    } else {
      fillThroughLibraryCall(Call, Callee);
    }
  }
  if (auto It = Facts; It != Env.Facts.end()) {
    writeOutParamsOfCall(It->second, Callee, Args);
    writeGlobalsOfCall(It->second, Call);
  }
  recordPassedCallables(Call, Callee);
}

} // namespace lockstep::analysis::dependence
