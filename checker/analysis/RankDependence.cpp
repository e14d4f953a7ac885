#include "RankDependence.h"
#include "PerRankSources.h"
#include "Tautology.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtVisitor.h"

#include <algorithm>
#include <map>

namespace lockstep::analysis {
using namespace clang;

bool FunctionFacts::sameAs(const FunctionFacts &Other) const {
  if (!returnValue.sameAs(Other.returnValue) || outParams.size() != Other.outParams.size())
    return false;
  for (size_t I = 0; I < outParams.size(); ++I)
    if (!outParams[I].sameAs(Other.outParams[I]))
      return false;
  return true;
}

const Provenance *DependenceEnvironment::rankName(const NamedDecl *D) {
  const Provenance *&Slot = NameProvenances[D];
  if (!Slot)
    Slot = arena.make(Provenance::Kind::RankName, D->getNameAsString(), D->getLocation());
  return Slot;
}

const Provenance *DependenceEnvironment::resolve(const RankValue &Value,
                                                 const FunctionDecl *Function) const {
  if (Value.source || !Value.params)
    return Value.source;
  auto It = seeds.find(Function->getCanonicalDecl());
  if (It == seeds.end())
    return nullptr;
  for (size_t I = 0; I < It->second.size() && I < 64; ++I)
    if ((Value.params >> I & 1) && It->second[I])
      return It->second[I];
  return nullptr;
}

namespace {

// Storage is named by a root (a variable, or `this`) and a path of fields and
// dereferences: `ctx.rank`, `*out`, `this->rank_`.
using StorageKey = std::vector<const void *>;
const char ThisRoot = 0;
const char DerefStep = 0;
// Written by a collective or a uniform source: the same on every path that
// reaches it, so merging such writes is no implicit flow.
const char AgreedByEveryRank = 0;

RankValue agreed(RankValue Value = RankValue()) {
  Value.definition = &AgreedByEveryRank;
  return Value;
}

using State = std::map<StorageKey, RankValue>;

bool sameState(const State &A, const State &B) {
  if (A.size() != B.size())
    return false;
  for (auto IA = A.begin(), IB = B.begin(); IA != A.end(); ++IA, ++IB)
    if (IA->first != IB->first || !IA->second.sameAs(IB->second))
      return false;
  return true;
}

void mergeInto(State &Into, const State &From) {
  for (const auto &[Key, Value] : From) {
    auto [It, Inserted] = Into.emplace(Key, Value);
    if (!Inserted)
      It->second.merge(Value);
  }
}

class Dataflow {
public:
  Dataflow(const FunctionCFG &Function, DependenceEnvironment &Env)
      : Function(Function), Env(Env), Classifier(Env.classifier),
        Context(Function.context()) {
    const FunctionDecl *FD = Function.decl();
    for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I)
      ParamIndex[FD->getParamDecl(I)] = I;
    Result.facts.outParams.resize(FD->getNumParams());
    collectAliases(FD->getBody());
  }

  FunctionDependence run();

private:
  // --- storage ---------------------------------------------------------
  bool keyOf(const Expr *E, StorageKey &Key) const;
  bool pointeeKeyOf(const Expr *E, StorageKey &Key) const;
  RankValue read(const StorageKey &Key) const;
  RankValue fallback(const StorageKey &Key) const;
  void write(const StorageKey &Key, RankValue Value);
  void collectAliases(const Stmt *S);

  // --- values ----------------------------------------------------------
  RankValue eval(const Expr *E) const; // records the value in the last pass
  RankValue evaluate(const Expr *E) const;
  RankValue evalCall(const CallExpr *Call) const;
  RankValue joinChildren(const Stmt *S) const;

  // --- transfer --------------------------------------------------------
  void transfer(const CFGElement &Element, const RankValue &ReturnTaint);
  void assign(const Expr *Target, RankValue Value, bool Compound, const Stmt *Definition);
  void declare(const VarDecl *Var);
  void applyCallEffects(const CallExpr *Call);
  void recordCall(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args);
  void recordCollective(const CallExpr *Call, const CalleeRole &Role);
  RankValue optionField(const CallExpr *Call, const rules::ArgRef &Ref,
                        const Expr *&Written) const;
  void flowThroughUnknownCall(const CallExpr *Call, const FunctionDecl *Callee);
  void writeOutArgument(const Expr *Arg, const ParmVarDecl *Param, RankValue Value);
  RankValue taintOf(const CFGBlock &Branch) const;
  RankValue returnTaint(const CFGBlock &Block) const;
  void mergePredecessors(const CFGBlock &Block, const std::vector<State> &Out,
                         const std::vector<bool> &Visited);
  void dropWritesAgreedAtExit(const State &AtExit);
  bool sameDefinition(const void *A, const void *B) const;
  const llvm::DenseSet<const void *> &writtenUnder(const CFGBlock &Branch);
  RankValue conditionValue(const CFGBlock &Block) const;

  const FunctionCFG &Function;
  DependenceEnvironment &Env;
  const CallClassifier &Classifier;
  ASTContext &Context;
  llvm::DenseMap<const ParmVarDecl *, unsigned> ParamIndex;
  llvm::DenseMap<const VarDecl *, StorageKey> References; // int &r = x;
  llvm::DenseMap<const VarDecl *, StorageKey> PointsTo;   // int *p = &x;
  // Rank-dependent branches by the block where their arms meet again, and
  // loop headers by themselves: where implicit flow happens.
  llvm::DenseMap<const CFGBlock *, std::vector<const CFGBlock *>> GatedAt;
  llvm::DenseSet<const void *> Blocks; // merges, as definitions
  llvm::DenseMap<const CFGBlock *, llvm::DenseSet<const void *>> WrittenUnder;
  std::vector<StorageKey> SharedWriteKeys; // the storage of each of Result.sharedWrites
  State Current;
  bool Recording = false; // only the final pass records calls and writes
  bool ReturnSeen = false;
  mutable llvm::DenseSet<const ValueDecl *> SharedReads;
  mutable llvm::DenseMap<const Expr *, RankValue> Values;
  // The values of the current block's expressions, each computed at its own
  // CFG element (operands come first): evaluating an operator reads its
  // operands here instead of recursing, so 50,000-term expressions cost no
  // stack. Cleared per block: the state changes between visits.
  mutable llvm::DenseMap<const Expr *, RankValue> BlockValues;
  FunctionDependence Result;
};

void Dataflow::collectAliases(const Stmt *Body) {
  std::vector<const Stmt *> Work{Body}; // explicit: expressions nest 50,000 deep
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *Decl = dyn_cast<DeclStmt>(S))
      for (const auto *D : Decl->decls()) {
        const auto *Var = dyn_cast<VarDecl>(D);
        if (!Var || !Var->getInit())
          continue;
        StorageKey Key;
        if (Var->getType()->isReferenceType() && keyOf(Var->getInit(), Key))
          References[Var] = Key;
        else if (Var->getType()->isPointerType() &&
                 !Var->getType()->getPointeeType().isConstQualified() &&
                 pointeeKeyOf(Var->getInit(), Key) && Key.back() != &DerefStep)
          PointsTo[Var] = Key;
      }
    // In source order: `int *p = &alias;` needs `int &alias = c.who;` first.
    size_t End = Work.size();
    Work.insert(Work.end(), S->child_begin(), S->child_end());
    std::reverse(Work.begin() + End, Work.end());
  }
}

bool Dataflow::keyOf(const Expr *E, StorageKey &Key) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
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
  return false;
}

bool Dataflow::pointeeKeyOf(const Expr *E, StorageKey &Key) const {
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
  RankValue Value;
  const auto *Last = static_cast<const Decl *>(Key.back() == &DerefStep ? nullptr : Key.back());
  if (Key.size() > 1 && Last) {
    const auto *Field = static_cast<const FieldDecl *>(Key.back());
    SharedReads.insert(Field);
    if (auto It = Env.shared.find(Field); It != Env.shared.end())
      return It->second;
    if (Classifier.isRankName(Field->getName()))
      return RankValue::rank(Env.rankName(Field));
    return Value;
  }
  if (Key.front() == &ThisRoot)
    return Value;
  const auto *Var = static_cast<const VarDecl *>(Key.front());
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    if (auto It = ParamIndex.find(Param); It != ParamIndex.end()) {
      Value.params = uint64_t(1) << It->second;
      Value.exactRank = Key.size() == 1 && Classifier.isRankName(Param->getName());
      return Value;
    }
  }
  SharedReads.insert(Var);
  if (auto It = Env.shared.find(Var); It != Env.shared.end())
    return It->second;
  if (Classifier.isRankName(Var->getName()))
    return RankValue::rank(Env.rankName(Var));
  return Value;
}

void Dataflow::write(const StorageKey &Key, RankValue Value) {
  for (auto It = Current.lower_bound(Key); It != Current.end();) {
    if (It->first.size() < Key.size() || !std::equal(Key.begin(), Key.end(), It->first.begin()))
      break;
    It = Current.erase(It);
  }
  Current[Key] = Value;
  if (!Recording || !Value.dependent())
    return;
  const void *Last = Key.back();
  const ValueDecl *Shared = nullptr;
  if (Key.size() > 1 && Last != &DerefStep)
    Shared = static_cast<const FieldDecl *>(Last);
  else if (Key.size() == 1 && Key.front() != &ThisRoot)
    Shared = static_cast<const VarDecl *>(Key.front());
  if (Shared) {
    Result.sharedWrites.push_back({Shared, Value});
    SharedWriteKeys.push_back(Key);
  }
  // Writes through pointer or reference parameters reach the caller.
  if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(
          Key.front() == &ThisRoot ? nullptr : static_cast<const Decl *>(Key.front()))) {
    auto It = ParamIndex.find(Param);
    bool Through = (Key.size() == 2 && Key.back() == &DerefStep) ||
                   (Key.size() == 1 && Param->getType()->isReferenceType());
    if (It != ParamIndex.end() && Through)
      Result.facts.outParams[It->second].combine(Value);
  }
}

RankValue Dataflow::joinChildren(const Stmt *S) const {
  RankValue Value;
  for (const Stmt *Child : S->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child))
      Value.combine(eval(E));
  return Value;
}

RankValue Dataflow::eval(const Expr *E) const {
  if (!E)
    return {};
  const Expr *Key = E->IgnoreParenCasts();
  RankValue Value;
  if (auto Known = BlockValues.find(Key); Known != BlockValues.end())
    Value = Known->second;
  else
    BlockValues[Key] = Value = evaluate(E);
  if (Recording)
    Values[Key] = Value;
  return Value;
}

RankValue Dataflow::evaluate(const Expr *E) const {
  if (!E)
    return {};
  E = E->IgnoreParenCasts();
  if (isa<IntegerLiteral, FloatingLiteral, StringLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr, LambdaExpr, GNUNullExpr>(E))
    return {};
  StorageKey Key;
  if (isa<DeclRefExpr, MemberExpr>(E) ||
      (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    if (keyOf(E, Key))
      return read(Key);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E); Ref && !isa<VarDecl>(Ref->getDecl()))
      return {}; // enumerators, functions
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    RankValue Value = eval(Unary->getSubExpr());
    if (Unary->getOpcode() != UO_AddrOf)
      Value.exactRank = Value.exactSize = false;
    return Value;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->isAssignmentOp() || Binary->getOpcode() == BO_Comma)
      return eval(Binary->getRHS());
    return eval(Binary->getLHS()).combine(eval(Binary->getRHS()));
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    RankValue Value;
    for (const Expr *Arg : Construct->arguments())
      Value.merge(eval(Arg)); // a copy keeps the value it copies
    if (Construct->getNumArgs() != 1)
      Value.exactRank = Value.exactSize = false;
    return Value;
  }
  return joinChildren(E);
}

RankValue Dataflow::evalCall(const CallExpr *Call) const {
  const FunctionDecl *Callee = resolvedCallee(Call);
  std::vector<const Expr *> Args = explicitArguments(Call);
  RankValue Value;
  if (!Callee) { // a call through a pointer: its result depends on what goes in
    for (const Expr *Arg : Args)
      Value.combine(eval(Arg));
    Value.opaque = true;
    return Value;
  }
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.rankSource && Role.rankSource->returns)
    return RankValue::rank(Env.arena.make(Provenance::Kind::SourceCall, Role.name,
                                          Call->getBeginLoc()));
  if (Role.annotatedRankSource)
    return RankValue::rank(Env.arena.make(Provenance::Kind::Annotated, Role.name,
                                          Call->getBeginLoc()));
  if (Role.perRankSource && Role.perRankSource->returns) {
    Value.source = perRankData(Call, Call, *Role.perRankSource, Env.arena, Function);
    return Value;
  }
  if (Role.uniformSource && Role.uniformSource->returns)
    return Role.uniformSource->worldSize ? RankValue::worldSize() : RankValue();
  if (Role.isKnown())
    return {}; // error codes and handles agree on every rank
  std::string Variable;
  switch (Classifier.environmentRead(Call, Variable)) {
  case EnvironmentValue::Rank:
    return RankValue::rank(Env.arena.make(Provenance::Kind::Environment, Variable,
                                          Call->getBeginLoc()));
  case EnvironmentValue::WorldSize:
    return RankValue::worldSize();
  case EnvironmentValue::None:
    break;
  }
  if (Role.converter && !Args.empty()) {
    Value = eval(Args.front());
    Value.opaque = false;
    return Value;
  }
  if (auto It = Env.facts.find(Callee->getCanonicalDecl()); It != Env.facts.end()) {
    const RankValue &Returned = It->second.returnValue;
    Value.source = Returned.source;
    Value.exactRank = Returned.exactRank && Returned.source;
    for (size_t I = 0; I < Args.size() && I < 64; ++I)
      if (Returned.params >> I & 1)
        Value.merge(eval(Args[I]));
    return Value;
  }
  if (const ExternalFunction *Summary = Env.external.find(Callee); Summary && Summary->returnsRank)
    return RankValue::rank(Env.arena.makeExternal(Summary->name, Call->getBeginLoc(),
                                                  Summary->rankSite.file,
                                                  Summary->rankSite.line,
                                                  Summary->rankSite.column));
  // Unknown function: its result may depend on anything it is given.
  for (const Expr *Arg : Args)
    Value.combine(eval(Arg));
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Value.combine(eval(Member->getImplicitObjectArgument()));
  Value.opaque = true;
  return Value;
}

void Dataflow::assign(const Expr *Target, RankValue Value, bool Compound,
                      const Stmt *Definition) {
  StorageKey Key;
  if (!keyOf(Target, Key))
    return;
  if (Compound)
    Value.combine(read(Key));
  Value.definition = Definition;
  write(Key, Value);
}

void Dataflow::declare(const VarDecl *Var) {
  if (References.count(Var))
    return; // an alias: reads and writes go to the referenced storage
  RankValue Value = Var->getInit() ? eval(Var->getInit()) : RankValue();
  if (!Value.dependent() && Value.opaque && Classifier.isRankName(Var->getName()))
    Value = RankValue::rank(Env.rankName(Var));
  Value.definition = Var->getInit();
  if (Var->getInit())
    write(StorageKey{Var}, Value);
}

void Dataflow::writeOutArgument(const Expr *Arg, const ParmVarDecl *Param, RankValue Value) {
  StorageKey Key;
  bool ByReference = Param ? Param->getType()->isReferenceType()
                           : !Arg->getType()->isPointerType();
  if (!Value.definition)
    Value.definition = Arg;
  if (ByReference ? keyOf(Arg, Key) : pointeeKeyOf(Arg, Key))
    write(Key, Value);
}

void Dataflow::recordCall(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
  if (!Recording || !Callee || !Callee->hasBody())
    return;
  CallSiteRecord Record;
  Record.callee = Callee->getCanonicalDecl();
  for (const Expr *Arg : Args)
    Record.args.push_back(eval(Arg));
  Result.calls.push_back(std::move(Record));
}

void Dataflow::recordCollective(const CallExpr *Call, const CalleeRole &Role) {
  if (!Role.collective)
    return;
  const rules::CollectiveRule &Rule = *Role.collective;
  // A split by a rank-dependent colour hands each part its own communicator
  // (or none): the handle differs between ranks, and only the members of a
  // part use it, so it is not an argument that must agree.
  const Expr *Color = ruleArgument(Call, Rule.color);
  const Expr *NewCommArg = ruleArgument(Call, Rule.newComm);
  const ValueDecl *NewComm = namedStorage(NewCommArg);
  if (Color && NewComm)
    if (RankValue Value = eval(Color); Value.dependent()) {
      if (Recording)
        Result.splits.push_back({NewComm, Color, Value});
      RankValue Handle;
      Handle.source = Value.source ? Env.arena.make(Provenance::Kind::Split, Role.name,
                                                    Call->getBeginLoc(), Value.source)
                                   : nullptr;
      Handle.params = Value.params;
      writeOutArgument(NewCommArg, nullptr, Handle);
    }
  if (!Recording)
    return;
  for (const auto &[RoleName, Ref] : agreedArguments(Rule, Call, Context)) {
    const Expr *Arg = ruleArgument(Call, *Ref);
    RankValue Value = Arg ? eval(Arg) : optionField(Call, *Ref, Arg);
    if (!Arg || (Ref == &Rule.comm && fromSplit(Value.source)))
      continue;
    if (Value.dependent())
      Result.agreedArguments.push_back({Call, Role.name, RoleName, Arg, Value});
  }
}

// An options object filled before the call (`opts.rootRank = r;
// pg->broadcast(t, opts)`): the field's value here, and in \p Written the
// expression that wrote it (the object when no single one did).
RankValue Dataflow::optionField(const CallExpr *Call, const rules::ArgRef &Ref,
                                const Expr *&Written) const {
  Written = nullptr;
  const Expr *Object =
      Ref.field.empty() ? nullptr : ruleArgument(Call, {Ref.kind, Ref.index, ""});
  const RecordDecl *Record = Object ? Object->getType()->getAsRecordDecl() : nullptr;
  StorageKey Key;
  if (!Record || !keyOf(Object, Key))
    return {};
  for (const FieldDecl *Field : Record->fields())
    if (Field->getName() == Ref.field) {
      Key.push_back(Field);
      RankValue Value = read(Key);
      const void *Definition = Value.definition;
      bool Single = Definition && Definition != &AgreedByEveryRank && !Blocks.count(Definition);
      Written = Single ? cast<Expr>(static_cast<const Stmt *>(Definition)) : Object;
      return Value;
    }
  return {};
}

// A function lockstep knows nothing about passes what it is given on to what
// it writes: `in >> n`, `std::getline(in, line)`, `fscanf(f, "%d", &n)` and
// `snprintf(path, sizeof path, "shard%d", rank)` make per-rank input. Only a
// rank that is known here flows (not a parameter's "maybe"), and each output
// takes the other inputs: a hook that is handed a state object under a rank
// test is not assumed to change it.
void Dataflow::flowThroughUnknownCall(const CallExpr *Call, const FunctionDecl *Callee) {
  std::vector<const Expr *> Args = explicitArguments(Call);
  const Expr *Object = ruleArgument(Call, rules::ArgRef{rules::ArgRef::Kind::Receiver, 0, ""});
  std::vector<RankValue> Values;
  for (const Expr *Arg : Args)
    Values.push_back(eval(Arg));
  const RankValue ObjectValue = Object ? eval(Object) : RankValue();
  auto InputsBut = [&](size_t Skip) {
    RankValue In = Skip == Args.size() ? RankValue() : ObjectValue;
    for (size_t I = 0; I < Values.size(); ++I)
      if (I != Skip)
        In.combine(Values[I]);
    return In;
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *Param = I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
    QualType Type = Param ? Param->getType() : Args[I]->getType();
    // Handles (MPI_Datatype, ncclComm_t, FILE *, and Open MPI's predefined
    // handles, pointers to opaque globals) are not data: only values read
    // into plain storage are per-rank input.
    QualType Pointee = Type->getPointeeType();
    bool Writable = (Type->isReferenceType() || Type->isPointerType()) &&
                    !Pointee.isConstQualified() && !Pointee->isPointerType() &&
                    !(Pointee->isRecordType() && Pointee->isIncompleteType()); // MPI_Comm
    RankValue In = InputsBut(I);
    if (Writable && In.source && (Param || isa<UnaryOperator>(Args[I]->IgnoreParenImpCasts())))
      writeOutArgument(Args[I], Param, In);
  }
  // Only mutators (void, or returning the object itself as streams do) write
  // the object; accessors such as operator[] or data() do not.
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  StorageKey Key;
  RankValue In = InputsBut(Args.size());
  if (In.source && Object && Method && !Method->isConst() && keyOf(Object, Key)) {
    QualType Returned = Method->getReturnType();
    const CXXRecordDecl *ReturnedRecord = Returned->getPointeeCXXRecordDecl();
    if (Returned->isVoidType() ||
        (Returned->isReferenceType() && ReturnedRecord &&
         ReturnedRecord->getCanonicalDecl() == Method->getParent()->getCanonicalDecl()))
      write(Key, In);
  }
}

void Dataflow::applyCallEffects(const CallExpr *Call) {
  const FunctionDecl *Callee = resolvedCallee(Call);
  if (!Callee)
    return;
  std::vector<const Expr *> Args = explicitArguments(Call);
  auto ParamFor = [&](size_t I) {
    return I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
  };
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.rankSource && Role.rankSource->outArg && *Role.rankSource->outArg < Args.size()) {
    unsigned I = *Role.rankSource->outArg;
    // `MPI_Comm_rank(comm, &rank)`: the rank is one in the communicator before it.
    const Expr *Communicator =
        I > 0 && !Args.front()->getType()->isIntegerType() ? Args.front() : nullptr;
    const Provenance *Source = Env.arena.make(Provenance::Kind::SourceCall, Role.name,
                                              Call->getBeginLoc(), nullptr, Communicator);
    writeOutArgument(Args[I], ParamFor(I), RankValue::rank(Source));
  }
  if (Role.uniformSource && Role.uniformSource->outArg &&
      *Role.uniformSource->outArg < Args.size()) {
    unsigned I = *Role.uniformSource->outArg;
    writeOutArgument(Args[I], ParamFor(I),
                     agreed(Role.uniformSource->worldSize ? RankValue::worldSize() : RankValue()));
  }
  if (Role.perRankSource && Role.perRankSource->outArg &&
      *Role.perRankSource->outArg < Args.size()) {
    unsigned I = *Role.perRankSource->outArg;
    RankValue Data;
    Data.source = perRankData(Call, Args[I], *Role.perRankSource, Env.arena, Function);
    writeOutArgument(Args[I], ParamFor(I), Data);
  }
  if (Role.collective)
    for (unsigned I : Role.collective->uniformOutputs)
      if (I < Args.size())
        writeOutArgument(Args[I], ParamFor(I), agreed());
  recordCollective(Call, Role);
  auto Facts = Env.facts.find(Callee->getCanonicalDecl());
  std::string Variable;
  if (Facts == Env.facts.end() && !Callee->hasBody() && !Role.isKnown() && !Role.converter &&
      Classifier.environmentRead(Call, Variable) == EnvironmentValue::None)
    flowThroughUnknownCall(Call, Callee);
  if (auto It = Facts; It != Env.facts.end()) {
    const std::vector<RankValue> &Out = It->second.outParams;
    for (size_t I = 0; I < Out.size() && I < Args.size(); ++I) {
      if (!Out[I].dependent())
        continue;
      RankValue Value;
      Value.source = Out[I].source;
      for (size_t J = 0; J < Args.size() && J < 64; ++J)
        if (Out[I].params >> J & 1)
          Value.combine(eval(Args[J]));
      writeOutArgument(Args[I], ParamFor(I), Value);
    }
  }
  recordCall(Callee->getDefinition() ? Callee->getDefinition() : Callee, Args);
}

void Dataflow::transfer(const CFGElement &Element, const RankValue &ReturnTaint) {
  if (auto Init = Element.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *Initializer = Init->getInitializer();
    if (const FieldDecl *Field = Initializer->getMember()) {
      RankValue Value = eval(Initializer->getInit());
      Value.definition = Initializer->getInit();
      write(StorageKey{&ThisRoot, Field}, Value);
    }
    return;
  }
  auto StmtElement = Element.getAs<CFGStmt>();
  if (!StmtElement)
    return;
  const Stmt *S = StmtElement->getStmt();
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const auto *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        declare(Var);
  } else if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp()) {
    assign(Binary->getLHS(), eval(Binary->getRHS()), Binary->isCompoundAssignmentOp(),
           Binary->isCompoundAssignmentOp() ? static_cast<const Stmt *>(Binary)
                                            : Binary->getRHS());
  } else if (const auto *Unary = dyn_cast<UnaryOperator>(S);
             Unary && Unary->isIncrementDecrementOp()) {
    assign(Unary->getSubExpr(), RankValue(), /*Compound=*/true, Unary);
  } else if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (Return->getRetValue()) {
      RankValue Returned = eval(Return->getRetValue());
      if (ReturnTaint.dependent())
        Returned.combine(ReturnTaint);
      if (ReturnSeen)
        Result.facts.returnValue.merge(Returned);
      else
        Result.facts.returnValue = Returned; // the first return: nothing to merge with
      ReturnSeen = true;
    }
  } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
             Operator && Operator->isAssignmentOp() && Operator->getNumArgs() == 2) {
    assign(Operator->getArg(0), eval(Operator->getArg(1)),
           Operator->getOperator() != OO_Equal, Operator);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    applyCallEffects(Call);
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    recordCall(Construct->getConstructor(),
               llvm::ArrayRef<const Expr *>(Construct->getArgs(), Construct->getNumArgs()));
  } else if (const auto *Operand = dyn_cast<Expr>(S); Operand && Operand->isPRValue()) {
    eval(Operand); // for the operators it feeds (see BlockValues)
  }
}

RankValue Dataflow::conditionValue(const CFGBlock &Block) const {
  const Expr *Condition = decidingCondition(Block);
  if (!Condition)
    return {};
  TautologyOperands Operands{
      [this](const Expr *E) { return eval(E); },
      [this](const Expr *E) {
        if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
          return Classifier.isWorldSizeName(Ref->getDecl()->getName());
        if (const auto *Member = dyn_cast<MemberExpr>(E))
          return Classifier.isWorldSizeName(Member->getMemberDecl()->getName());
        return false;
      }};
  if (isRankTautology(Condition, Context, Operands))
    return {};
  RankValue Value = eval(Condition);
  Value.exactRank = Value.exactSize = false;
  return Value;
}

// Why values that a rank-dependent branch decides differ between ranks.
RankValue Dataflow::taintOf(const CFGBlock &Branch) const {
  auto It = Result.conditions.find(&Branch);
  if (It == Result.conditions.end() || !It->second.dependent())
    return {};
  RankValue Derived;
  Derived.params = It->second.params;
  if (It->second.source) {
    const Expr *Condition = decidingCondition(Branch);
    Derived.source = Env.arena.make(Provenance::Kind::Implicit, "",
                                    Condition ? Condition->getBeginLoc() : SourceLocation(),
                                    It->second.source);
  }
  return Derived;
}

// A value returned on the ranks of one arm only differs from what the other
// ranks return, even when each return is uniform.
RankValue Dataflow::returnTaint(const CFGBlock &Block) const {
  RankValue Value;
  for (const CFGBlock *Branch : Function.controllers(&Block))
    Value.combine(taintOf(*Branch));
  return Value;
}

bool Dataflow::sameDefinition(const void *A, const void *B) const {
  if (A == B)
    return true;
  if (A == &AgreedByEveryRank || B == &AgreedByEveryRank || Blocks.count(A) || Blocks.count(B))
    return false;
  // Otherwise both are the expressions that were written.
  const auto *X = dyn_cast_or_null<Expr>(static_cast<const Stmt *>(A));
  const auto *Y = dyn_cast_or_null<Expr>(static_cast<const Stmt *>(B));
  Expr::EvalResult VX, VY;
  return X && Y && !X->isValueDependent() && !Y->isValueDependent() &&
         X->EvaluateAsInt(VX, Context) && Y->EvaluateAsInt(VY, Context) &&
         VX.Val.getInt() == VY.Val.getInt();
}

// Gated implicit flow: where the arms of a rank-dependent branch meet again
// (and at a loop header whose exit depends on the rank), storage that the
// incoming paths wrote differently differs between ranks. An assignment that
// only some ranks execute is the same value on all of them until then.
void Dataflow::mergePredecessors(const CFGBlock &Block, const std::vector<State> &Out,
                                 const std::vector<bool> &Visited) {
  Current.clear();
  std::vector<const State *> Incoming;
  for (const CFGBlock::AdjacentBlock &Pred : Block.preds())
    if (const CFGBlock *P = Pred.getReachableBlock(); P && Visited[P->getBlockID()])
      Incoming.push_back(&Out[P->getBlockID()]);
  // The first state is copied whole (no key comparisons): most blocks have
  // one predecessor.
  if (!Incoming.empty())
    Current = *Incoming.front();
  for (size_t I = 1; I < Incoming.size(); ++I)
    mergeInto(Current, *Incoming[I]);
  auto Gated = GatedAt.find(&Block);
  if (Incoming.size() < 2 || Gated == GatedAt.end())
    return;
  RankValue Taint;
  llvm::DenseSet<const void *> Written;
  for (const CFGBlock *Branch : Gated->second) {
    RankValue BranchTaint = taintOf(*Branch);
    if (!BranchTaint.dependent())
      continue;
    Taint.combine(BranchTaint);
    const llvm::DenseSet<const void *> &ByBranch = writtenUnder(*Branch);
    Written.insert(ByBranch.begin(), ByBranch.end());
  }
  if (!Taint.dependent())
    return;
  for (auto &[Key, Value] : Current) {
    const void *Root = Key.front() == &ThisRoot ? Key.back() : Key.front();
    if (!Written.count(Root))
      continue;
    bool Differs = false;
    for (const State *In : Incoming) {
      auto It = In->find(Key);
      const void *Definition = It == In->end() ? nullptr : It->second.definition;
      Differs |= !sameDefinition(Definition, Value.definition);
    }
    if (Differs) {
      Value.combine(Taint);
      Value.definition = &Block; // no single write: the merge itself
    }
  }
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
  std::vector<SharedWrite> Kept;
  for (size_t I = 0; I < Result.sharedWrites.size(); ++I) {
    auto It = AtExit.find(SharedWriteKeys[I]);
    bool Agreed = It != AtExit.end() && It->second.definition == &AgreedByEveryRank &&
                  !It->second.dependent();
    if (!Agreed || !Outlives(SharedWriteKeys[I]))
      Kept.push_back(Result.sharedWrites[I]);
  }
  Result.sharedWrites = std::move(Kept);
}

// The variables and fields a branch's arms (a loop's body) write.
const llvm::DenseSet<const void *> &Dataflow::writtenUnder(const CFGBlock &Branch) {
  auto [It, Inserted] = WrittenUnder.try_emplace(&Branch);
  if (!Inserted)
    return It->second;
  llvm::DenseSet<const void *> Written;
  auto Mark = [&](const Expr *E) {
    if (const ValueDecl *D = namedStorage(E))
      Written.insert(D);
  };
  for (const CFGBlock *Block : Function.controlled(&Branch))
    for (const CFGElement &Element : *Block) {
      auto S = Element.getAs<CFGStmt>();
      if (!S)
        continue;
      if (const auto *Decl = dyn_cast<DeclStmt>(S->getStmt())) {
        for (const auto *D : Decl->decls())
          Written.insert(D);
      } else if (const auto *Binary = dyn_cast<BinaryOperator>(S->getStmt())) {
        if (Binary->isAssignmentOp())
          Mark(Binary->getLHS());
      } else if (const auto *Unary = dyn_cast<UnaryOperator>(S->getStmt())) {
        if (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf)
          Mark(Unary->getSubExpr());
      } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S->getStmt())) {
        if (Operator->isAssignmentOp())
          Mark(Operator->getArg(0));
      }
    }
  return WrittenUnder[&Branch] = std::move(Written);
}

FunctionDependence Dataflow::run() {
  const CFG &Graph = Function.cfg();
  std::vector<State> Out(Graph.getNumBlockIDs());
  std::vector<bool> Visited(Graph.getNumBlockIDs(), false);
  std::vector<const CFGBlock *> Worklist{&Graph.getEntry()};
  std::vector<bool> Queued(Graph.getNumBlockIDs(), false);
  Queued[Graph.getEntry().getBlockID()] = true;
  unsigned Budget = 64 * Graph.getNumBlockIDs() + 64;

  for (const CFGBlock *Block : Graph)
    Blocks.insert(Block);
  for (const CFGBlock *Branch : Graph)
    if (Branch->succ_size() >= 2) {
      GatedAt[Function.immediatePostDominator(Branch)].push_back(Branch);
      if (isLoopBranch(*Branch))
        GatedAt[Branch].push_back(Branch);
    }

  auto ProcessBlock = [&](const CFGBlock &Block) {
    BlockValues.clear();
    mergePredecessors(Block, Out, Visited);
    RankValue ReturnTaint = returnTaint(Block);
    for (const CFGElement &Element : Block)
      transfer(Element, ReturnTaint);
    RankValue Condition = conditionValue(Block);
    RankValue &Recorded = Result.conditions[&Block];
    RankValue Merged = Recorded;
    Merged.merge(Condition);
    bool ConditionChanged = !Merged.sameAs(Recorded);
    Recorded = Merged;
    return ConditionChanged;
  };

  while (!Worklist.empty() && Budget-- > 0) {
    const CFGBlock *Block = Worklist.back();
    Worklist.pop_back();
    Queued[Block->getBlockID()] = false;
    bool ConditionChanged = ProcessBlock(*Block);
    bool Changed = !Visited[Block->getBlockID()] || !sameState(Current, Out[Block->getBlockID()]);
    Visited[Block->getBlockID()] = true;
    Out[Block->getBlockID()] = std::move(Current); // the next block starts afresh
    auto Enqueue = [&](const CFGBlock *Next) {
      if (Next && !Queued[Next->getBlockID()]) {
        Queued[Next->getBlockID()] = true;
        Worklist.push_back(Next);
      }
    };
    if (Changed)
      for (const CFGBlock::AdjacentBlock &Succ : Block->succs())
        Enqueue(Succ.getReachableBlock());
    if (ConditionChanged) {
      for (const CFGBlock *Dependent : Function.controlled(Block))
        Enqueue(Dependent);
      Enqueue(Function.immediatePostDominator(Block));
      Enqueue(Block);
    }
  }

  // A last pass over the stable states records calls, shared writes and the
  // return value.
  Recording = true;
  ReturnSeen = false;
  Result.facts = FunctionFacts();
  Result.facts.outParams.resize(Function.decl()->getNumParams());
  for (const CFGBlock *Block : Graph)
    if (Visited[Block->getBlockID()])
      ProcessBlock(*Block);
  if (Visited[Graph.getExit().getBlockID()])
    dropWritesAgreedAtExit(Out[Graph.getExit().getBlockID()]);
  Result.sharedReads = std::move(SharedReads);
  Result.values = std::move(Values);
  return std::move(Result);
}

} // namespace

FunctionDependence analyzeDependence(const FunctionCFG &Function, DependenceEnvironment &Env) {
  return Dataflow(Function, Env).run();
}

} // namespace lockstep::analysis
