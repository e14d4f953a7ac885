// Implicit flow in the rank-dependence data flow: conditions that differ
// between ranks, and what their arms write, merged where they meet again.
#include "CallSite.h"
#include "DependenceDataflow.h"
#include "Exceptions.h"
#include "OwnFieldWrites.h"
#include "Tautology.h"

#include <optional>

namespace lockstep::analysis::dependence {
using namespace clang;

// Storage that the incoming paths define differently (or only some of them
// define) is defined by the merge itself, as a phi would be: a later merge
// then sees the write on one arm against the phi on the other, not the same
// write twice (`n++` in a loop body against the header's `n`). Storage a
// collective agreed on one of them stays agreed (a chunked broadcast loop):
// had only some ranks taken that path, the gated merge below taints it.
//
// Storage one path wrote and the other did not holds, on the other, what it
// held on entry (`Unwritten`): a parameter's value from the callers
// (`if (warm) n = 0;`), when no shorter key of that path says otherwise.
static bool writtenWhole(const State &In, const StorageKey &Key) {
  for (size_t Length = 1; Length < Key.size(); ++Length)
    if (In.count(StorageKey(Key.begin(), Key.begin() + Length)))
      return true;
  return false;
}

static void mergeInto(State &Into, const State &From, const CFGBlock &Merge,
                      llvm::function_ref<RankValue(const StorageKey &)> Unwritten) {
  auto Redefine = [&Merge](RankValue &Value) {
    if (Value.Definition != &AgreedByEveryRank)
      Value.Definition = &Merge;
  };
  auto OnEntry = [&](RankValue &Value, const StorageKey &Key, const State &Other) {
    if (Value.Definition == &AgreedByEveryRank)
      return; // agreed on this path: kept, as above
    // A part of an element the other path did not write on its own holds
    // there what the element (or the element at any index) holds.
    if (const RankValue *Enclosing = enclosingElementPart(Other, Key))
      Value.merge(*Enclosing);
    else if (RankValue Held = Unwritten(Key); Held.dependent() && !writtenWhole(Other, Key))
      Value.merge(Held);
  };
  auto It = Into.begin();
  for (const auto &[Key, Value] : From) {
    for (; It != Into.end() && It->first < Key; ++It) {
      Redefine(It->second);
      OnEntry(It->second, It->first, From);
    }
    if (It == Into.end() || Key < It->first) {
      It = std::next(Into.emplace_hint(It, Key, Value));
      Redefine(std::prev(It)->second);
      OnEntry(std::prev(It)->second, Key, Into);
      continue;
    }
    if (Value.Definition == &AgreedByEveryRank)
      It->second.Definition = &AgreedByEveryRank;
    else if (It->second.Definition != Value.Definition)
      Redefine(It->second);
    It->second.merge(Value);
    ++It;
  }
  for (; It != Into.end(); ++It) {
    Redefine(It->second);
    OnEntry(It->second, It->first, From);
  }
}

// What a parameter's storage holds where the function has not written it:
// the callers' values (of its elements, for an element key). Only keys of
// parameters: other storage falls back to no value a merge must keep.
RankValue Dataflow::parameterOnEntry(const StorageKey &Key) const {
  const auto *Param = Key.front() == &ThisRoot
                          ? nullptr
                          : dyn_cast<ParmVarDecl>(static_cast<const Decl *>(Key.front()));
  if (!Param || !ParamIndex.count(Param))
    return {};
  if (isElementStep(Key.back()))
    return elementsFallback(StorageKey(Key.begin(), Key.end() - 1));
  if (Key.size() == 1 || (Key.size() == 2 && Key.back() == &DerefStep))
    return fallback(Key);
  // A field of what it refers or points to (`if (ok) p.status = s;`).
  const bool Reference = Param->getType()->isReferenceType();
  if (Key.size() == (Reference ? 2u : 3u) && (Reference || Key[1] == &DerefStep) &&
      Key.back() != &DerefStep)
    return fallback(Key);
  return {};
}

RankValue Dataflow::conditionValue(const CFGBlock &Block) const {
  // Whether a call throws into this function's handlers.
  if (const CallExpr *Call = exceptionalCall(Block)) {
    auto Thrown = thrownBy(Call);
    return Thrown ? Thrown->second : RankValue();
  }
  const Expr *Condition = decidingCondition(Block);
  if (!Condition)
    return {};
  // `for (double x : local)` over a C array runs as many times as the array
  // has elements, whatever they hold.
  if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Block.getTerminatorStmt());
      Range && Range->getRangeInit() &&
      isa_and_nonnull<ConstantArrayType>(
          Range->getRangeInit()->getType().getNonReferenceType()->getAsArrayTypeUnsafe()))
    return {};
  TautologyOperands Operands{[this](const Expr *E) { return eval(E); },
                             [this](const Expr *E) {
                               if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
                                 return Classifier.isWorldSizeName(Ref->getDecl()->getName());
                               if (const auto *Member = dyn_cast<MemberExpr>(E))
                                 return Classifier.isWorldSizeName(
                                     Member->getMemberDecl()->getName());
                               return false;
                             }};
  if (isRankTautology(Condition, Context, Operands))
    return {};
  RankValue Value = eval(Condition);
  Value.ExactRank = Value.ExactSize = false;
  return Value;
}

// Why values that a rank-dependent branch decides differ between ranks.
RankValue Dataflow::taintOf(const CFGBlock &Branch) const {
  auto It = Result.Conditions.find(&Branch);
  if (It == Result.Conditions.end() || !It->second.dependent())
    return {};
  RankValue Derived;
  Derived.Params = It->second.Params;
  Derived.ElementParams = It->second.ElementParams;
  if (It->second.Source) {
    const Expr *Condition = decidingCondition(Branch);
    // Members of a communicator take the same arm where the condition only
    // tests the handle, or is the same on all of them (`i < n`, `n` its size).
    const ValueDecl *Members = Condition ? nullTestedHandle(Condition, Context) : nullptr;
    Derived.Source = Env.Arena.makeImplicit(
        Condition ? Condition->getBeginLoc() : SourceLocation(), It->second.Source,
        Members ? Members : sameAmongMembersOf(It->second.Source));
  }
  return Derived;
}

// A value returned on the ranks of one arm only differs from what the other
// ranks return, even when each return is uniform.
// \p ChosenAt: the first condition on a parameter among them.
RankValue Dataflow::returnTaint(const CFGBlock &Block, SourceLocation &ChosenAt) const {
  RankValue Value;
  ChosenAt = SourceLocation();
  for (const CFGBlock *Branch : Function.controllers(&Block)) {
    RankValue Taint = taintOf(*Branch);
    if (Taint.Params && ChosenAt.isInvalid())
      if (const Expr *Condition = decidingCondition(*Branch))
        ChosenAt = Condition->getBeginLoc();
    Value.combine(Taint);
  }
  return Value;
}

bool Dataflow::sameDefinition(const void *A, const void *B) const {
  if (A == B)
    return true;
  const Expr *X = writtenExpression(A);
  const Expr *Y = writtenExpression(B);
  Expr::EvalResult VX, VY;
  return X && Y && !X->isValueDependent() && !Y->isValueDependent() &&
         X->EvaluateAsInt(VX, Context) && Y->EvaluateAsInt(VY, Context) &&
         VX.Val.getInt() == VY.Val.getInt();
}

// The expression a definition wrote; null for the markers (agreed by every
// rank, a merge block) that stand for no single expression.
const Expr *Dataflow::writtenExpression(const void *Definition) const {
  if (!Definition || Definition == &AgreedByEveryRank || Blocks.count(Definition))
    return nullptr;
  return dyn_cast<Expr>(static_cast<const Stmt *>(Definition));
}

// Whether \p Definition wrote the null handle (`MPI_COMM_NULL`).
bool Dataflow::nullHandle(const void *Definition) const {
  const Expr *Written = writtenExpression(Definition);
  return Written && spelledAsMacro(Written, "MPI_COMM_NULL", Context);
}

// Whether a communicator handle is this rank's own part of the job: a split
// made it (each part has its own), or it is written `MPI_COMM_SELF`.
// \p Definition: the expression that wrote it, when one did.
bool Dataflow::ownPart(const RankValue &Value, const void *Definition) const {
  if (fromSplit(Value.Source))
    return true;
  const Expr *Written = writtenExpression(Definition);
  return Written && spelledAsMacro(Written, "MPI_COMM_SELF", Context);
}

RankValue Dataflow::withoutParameter(RankValue Value, const void *Root,
                                     const RankValue &Held) const {
  // Looked up by address alone: a root may be a marker, not a declaration.
  auto It = ParamIndex.find(static_cast<const ParmVarDecl *>(Root));
  if (It == ParamIndex.end() || It->second >= 64)
    return Value;
  const uint64_t Bit = uint64_t(1) << It->second;
  if (!((Held.Params | Held.ElementParams) & Bit))
    return Value;
  Value.Params &= ~Bit;
  Value.ElementParams &= ~Bit;
  return Value;
}

// Gated implicit flow: where the arms of a rank-dependent branch meet again,
// storage that the incoming paths wrote differently differs between ranks,
// and where a loop that ranks leave at different iterations is left, so
// does whatever the loop writes. An assignment that only some ranks execute
// is the same value on all of them until then.
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
    mergeInto(Current, *Incoming[I], Block,
              [this](const StorageKey &Key) { return parameterOnEntry(Key); });
  auto Gated = GatedAt.find(&Block);
  if (Incoming.empty() || Gated == GatedAt.end())
    return;
  RankValue Taint;
  std::vector<const CFGBlock *> Deciding, Leaving;
  for (const CFGBlock *Branch : Gated->second) {
    RankValue BranchTaint = taintOf(*Branch);
    if (!BranchTaint.dependent())
      continue;
    Taint.combine(BranchTaint);
    (LoopLeavers.count(Branch) ? Leaving : Deciding).push_back(Branch);
  }
  if (!Taint.dependent() || (Incoming.size() < 2 && Leaving.empty()))
    return;
  // What the deciding branches write is gathered only once some storage
  // arrives differently defined: a `?:` chain thousands deep writes nothing
  // at its merges, and its nested arms would cost the square of its depth.
  // What a loop writes arrives as one definition on every way out (the
  // header's), however many iterations each rank ran: no definitions to
  // compare there, only what it wrote (`L->first` is no write of `L->comm`).
  const BranchWrites *Written = nullptr, *WrittenInLoop = nullptr;
  auto WrittenBy = [this, &Block](const BranchWrites *&Into, bool InLoop,
                                  const std::vector<const CFGBlock *> &Branches,
                                  const StorageKey &Key) {
    if (!Into)
      Into = &writtenUnder(Block, InLoop, Branches);
    return InLoop ? Into->writesPart(Key) : Into->writes(Key);
  };
  for (auto &Entry : Current) {
    const StorageKey &Key = Entry.first; // lambdas capture no structured binding in C++17
    RankValue &Value = Entry.second;
    auto ValueOn = [&Key](const State *In) -> const RankValue * {
      auto It = In->find(Key);
      return It == In->end() ? nullptr : &It->second;
    };
    auto DefinitionOn = [&ValueOn](const State *In) -> const void * {
      const RankValue *On = ValueOn(In);
      return On ? On->Definition : nullptr;
    };
    const void *First = DefinitionOn(Incoming.front());
    bool Differs = llvm::any_of(llvm::drop_begin(Incoming), [&](const State *In) {
      return !sameDefinition(DefinitionOn(In), First);
    });
    RankValue KeyTaint = Taint;
    bool Diverged = Differs && WrittenBy(Written, /*InLoop=*/false, Deciding, Key);
    if (!Diverged && !Leaving.empty() && WrittenBy(WrittenInLoop, /*InLoop=*/true, Leaving, Key)) {
      // A loop over a parameter's elements (`for (Layer &l : layers)`) that
      // writes them values from that parameter: no news to the callers,
      // who know what they pass.
      KeyTaint = withoutParameter(Taint, storageRoot(Key), Value);
      Diverged = KeyTaint.dependent();
    }
    if (Diverged && (knownHere(KeyTaint) || !knownHere(Value))) {
      // Its own part on some paths, a communicator others share on the
      // rest (`c = n > 1 ? sub : world` as an if/else): the condition
      // chose it, and the split no longer explains it.
      auto IsPart = [&](const State *In) {
        const RankValue *On = ValueOn(In);
        return On && ownPart(*On, On->Definition);
      };
      // Its part on the members, no communicator on the rest, chosen by
      // membership of that split (`if (c != MPI_COMM_NULL) sub = c;`):
      // what the split itself hands out.
      auto PartOrNone = [&](const State *In) {
        const RankValue *On = ValueOn(In);
        return IsPart(In) || !On || nullHandle(On->Definition);
      };
      const Provenance *Test = KeyTaint.Source;
      if (Deciding.size() == 1 && Leaving.empty() && Test &&
          Test->K == Provenance::Kind::Implicit && Test->MembersOf && Test->Via == Value.Source &&
          fromSplit(Value.Source) && llvm::any_of(Incoming, IsPart) &&
          llvm::all_of(Incoming, PartOrNone))
        continue;
      if (llvm::any_of(Incoming, IsPart) && !llvm::all_of(Incoming, IsPart))
        Value.Source = nullptr;
      Value.combine(KeyTaint);
      Value.Chosen = true;
      Value.Definition = &Block; // no single write: the merge itself
    }
  }
}

// What a call writes, as far as it is known: a library function its
// writable reference arguments and, a mutator, its object (`in >> n`,
// `todo.push_back(x)`); a function of this file the parameters its facts say
// it writes whole (`fill(n)`) or, by \p MarkPart, field by field (`parse(path, s)`).
// Another file's function writes what its summary says, wherever it is called.
void Dataflow::markCallWrites(const CallExpr *Call, llvm::function_ref<void(const Expr *)> Mark,
                              llvm::function_ref<void(const StorageKey &)> MarkPart) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  if (Classifier.classify(Callee).SystemLibrary) {
    // An object of the user's class: the fields its methods write.
    forEachWrittenOperand(Call, [&](const Expr *Operand) {
      std::vector<const FieldDecl *> Fields;
      StorageKey Key;
      if (!Env.OwnFields || !keyOf(Operand, Key) ||
          !Env.OwnFields->libraryMayWrite(Operand->getType()->getAsCXXRecordDecl(), Call, Fields))
        return Mark(Operand);
      for (const FieldDecl *Field : Fields) {
        StorageKey Part = Key;
        Part.push_back(Field);
        MarkPart(Part);
      }
    });
    // A mutable pointer into a container: the library writes its elements
    // (`snprintf(msg, ...)`, `memset(buf, ...)`).
    for (const Expr *Arg : explicitArguments(Call)) {
      StorageKey Container;
      QualType Pointee = Arg->getType()->getPointeeType();
      if (!Pointee.isNull() && !Pointee.isConstQualified() && intoContainer(Arg, Container))
        Mark(Arg);
    }
    return;
  }
  auto Facts = Env.Facts.find(Callee->getCanonicalDecl());
  if (Facts == Env.Facts.end())
    return;
  // A method that changes fields of its object (`add(lr)` appending to
  // `values_`): those fields, not the elements alone.
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (Member && Method && !Method->isConst() && Env.OwnFields) {
    const Expr *Object = Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
    StorageKey Key;
    if (isa<CXXThisExpr>(Object))
      Key = StorageKey{&ThisRoot};
    else if (!(Object->getType()->isPointerType() ? pointeeKeyOf(Object, Key) : keyOf(Object, Key)))
      Key.clear();
    if (!Key.empty())
      for (const OwnFieldWrite &Changed : Env.OwnFields->of(Method))
        if (!Changed.ElementsOnly) {
          StorageKey Part = Key;
          Part.push_back(Changed.Field);
          MarkPart(Part);
        }
  }
  std::vector<const Expr *> Args = explicitArguments(Call);
  // Whole or field by field (a container field's elements are no write of
  // its size): only the storage whose definition changes differs after the
  // merge.
  auto WritesFields = [&](size_t I) {
    return I < Facts->second.OutFields.size() &&
           llvm::any_of(
               Facts->second.OutFields[I],
               [](const auto &Out) { return !isContainer(Out.first->getType()); });
  };
  for (const auto &Assigned : Facts->second.AssignedGlobals) // `inc(i)` writes `g`
    MarkPart(StorageKey{Assigned.first});
  for (const auto &Assigned : Facts->second.AssignedGlobalParts) // `tick()`: `g_stats.steps`
    MarkPart(globalPartKey(Assigned.first));
  for (size_t I = 0; I < Args.size() && I < 64; ++I) {
    const ParmVarDecl *Param = I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
    const bool Whole = Facts->second.WrittenParams >> I & 1, Fields = WritesFields(I);
    StorageKey Key;
    if (Whole || (Fields && !referredStorage(Args[I], Param, Key))) {
      Mark(Args[I]);
    } else if (Fields) { // `bfs_level(&c)` writes `c.sc`, not `c.comm`
      for (const auto &Out : Facts->second.OutFields[I]) {
        StorageKey Part = Key;
        Part.push_back(Out.first);
        MarkPart(Part);
      }
    }
  }
}

bool Dataflow::isSubscriptOrElementReference(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E))
    return Operator->getOperator() == OO_Subscript;
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && ElementReferences.count(Var);
}

// An address handed straight to a function of this file (`step(&S)`):
// markCallWrites says what it writes through it. A library function's
// writes through a pointer (`memcpy(&y, ...)`) are not all known.
bool Dataflow::passedToKnownCallee(const UnaryOperator *AddressOf) const {
  const auto *Call = dyn_cast_or_null<CallExpr>(
      Function.parents().getParentIgnoreParenImpCasts(const_cast<UnaryOperator *>(AddressOf)));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Env.Facts.count(Callee->getCanonicalDecl());
}

// The variables and fields written in the blocks that \p Branches, gated at
// \p Merge, decide, directly or through the branches those decide (`if (rank
// == 1 && verbosity < 2) verbosity = 2;` writes under both). The ways out of
// a loop share one walk over its body, however many `break`s lead out.
const BranchWrites &Dataflow::writtenUnder(const CFGBlock &Merge, bool Leaving,
                                           const std::vector<const CFGBlock *> &Branches) {
  auto &Entry = WrittenUnder[{&Merge, Leaving}];
  std::vector<const CFGBlock *> &Known = Entry.first;
  BranchWrites &Written = Entry.second;
  if (!Known.empty() && Known == Branches)
    return Written;
  Known = Branches;
  Written = BranchWrites();
  auto WriteWhole = [&Written](const StorageKey &Key) {
    Written.Whole.insert(storageRoot(Key));
    Written.Parts.push_back(Key);
  };
  auto Mark = [&](const Expr *E) {
    StorageKey Container;
    const Expr *Index;
    FieldPath Fields;
    // A subscript (`g[0] = x`) or an element reference (`for (float &x :
    // g) x = 0`), or a field of one (`l.norm = x`), writes the container's
    // elements, not its size. Other ways in (a smart pointer's
    // `p->w.resize(n)`, through a raw pointer: one storage) write it whole.
    const Expr *Element = E->IgnoreParenImpCasts();
    for (const auto *Member = dyn_cast<MemberExpr>(Element); Member && !Member->isArrow();
         Member = dyn_cast<MemberExpr>(Element))
      Element = Member->getBase()->IgnoreParenImpCasts();
    if (elementKeyOf(E, Container, Index, Fields)) {
      if (isSubscriptOrElementReference(Element) && Container.back() != &DerefStep)
        Written.Elements.insert(storageRoot(Container));
      else
        WriteWhole(Container);
    } else if (StorageKey Key; keyOf(E, Key)) { // `o.chief` is a write of `o`'s
      WriteWhole(Key);
    } else if (const ValueDecl *D = namedStorage(E)) {
      WriteWhole(StorageKey{D});
    }
  };
  // Each block decided with a branch it was reached from: a branch's own
  // block runs before it decides (a loop's `x = f(); if (x > rank) break;`
  // comes back round to itself), so only another branch's decisions write
  // it. Two origins per block say whether any other branch reaches it.
  std::vector<std::pair<const CFGBlock *, const CFGBlock *>> Decided;
  llvm::DenseMap<const CFGBlock *, std::pair<const CFGBlock *, const CFGBlock *>> Origins;
  auto Reach = [&](const CFGBlock *Inner, const CFGBlock *Origin) {
    auto [It, Inserted] = Origins.try_emplace(Inner, Origin, nullptr);
    if (Inserted || (!It->second.second && It->second.first != Origin)) {
      if (!Inserted)
        It->second.second = Origin;
      Decided.push_back({Inner, Origin});
    }
  };
  for (const CFGBlock *Branch : Branches)
    for (const CFGBlock *Inner : Function.controlled(Branch))
      Reach(Inner, Branch);
  for (size_t I = 0; I < Decided.size(); ++I) {
    const CFGBlock *Origin = Decided[I].second;
    for (const CFGBlock *Inner : Function.controlled(Decided[I].first))
      if (Inner != Origin)
        Reach(Inner, Origin);
  }
  for (const auto &Entry : Origins)
    for (const CFGElement &Element : *Entry.first) {
      auto S = Element.getAs<CFGStmt>();
      if (!S)
        continue;
      if (const auto *Decl = dyn_cast<DeclStmt>(S->getStmt())) {
        for (const auto *D : Decl->decls()) {
          Written.Whole.insert(D);
          Written.Parts.push_back(StorageKey{D});
        }
      } else if (const auto *Binary = dyn_cast<BinaryOperator>(S->getStmt())) {
        if (Binary->isAssignmentOp())
          Mark(Binary->getLHS());
      } else if (const auto *Unary = dyn_cast<UnaryOperator>(S->getStmt())) {
        if (Unary->isIncrementDecrementOp() ||
            (Unary->getOpcode() == UO_AddrOf && !passedToKnownCallee(Unary)))
          Mark(Unary->getSubExpr());
      } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S->getStmt());
                 Operator && Operator->isAssignmentOp()) {
        Mark(Operator->getArg(0));
      } else if (const auto *Call = dyn_cast<CallExpr>(S->getStmt())) {
        markCallWrites(Call, Mark, WriteWhole);
      }
    }
  llvm::sort(Written.Parts);
  Written.Parts.erase(llvm::unique(Written.Parts), Written.Parts.end());
  return Written;
}

} // namespace lockstep::analysis::dependence
