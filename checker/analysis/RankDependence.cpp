// The rank-dependence data flow's core: values of expressions, the transfer
// of each CFG element, and the worklist to a fixed point. The class is in
// DependenceDataflow.h.
#include "BlockWorklist.h"
#include "CallSite.h"
#include "DependenceDataflow.h"
#include "Exceptions.h"
#include "Limits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace lockstep::analysis {
using namespace clang;

const Provenance *DependenceEnvironment::rankName(const NamedDecl *D) {
  const Provenance *&Slot = NameProvenances[D];
  if (!Slot)
    Slot = Arena.make(Provenance::Kind::RankName, D->getNameAsString(), D->getLocation());
  return Slot;
}

/// Whether \p D is declared in a file under the directory \p Root.
static bool declaredUnder(const ValueDecl *D, llvm::StringRef Root) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  const OptionalFileEntryRef File =
      SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(D->getLocation())));
  if (!File)
    return false;
  // Against the unit's own directory, as the file system view sees it.
  llvm::SmallString<256> Path(File->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return llvm::StringRef(Path).starts_with(Root) &&
         (Path.size() == Root.size() || Root.ends_with("/") || Path[Root.size()] == '/');
}

const Provenance *DependenceEnvironment::writtenElsewhere(const ValueDecl *D) {
  auto [It, Inserted] = ElsewhereProvenances.try_emplace(D, nullptr);
  if (!Inserted)
    return It->second;
  if (const ExternalFunction *Summary = External.findStorage(D))
    It->second = fromSummary(*Summary, D->getLocation());
  else if (!PendingRoot.empty() && visibleElsewhere(D) && !D->getType().isConstQualified() &&
           declaredUnder(D, PendingRoot))
    It->second = Arena.makePending(D->getQualifiedNameAsString(), D->getLocation(), usrOf(D));
  return It->second;
}

const Provenance *DependenceEnvironment::returnedElsewhere(const CallExpr *Call,
                                                           const FunctionDecl *Callee) {
  if (PendingRoot.empty() || Callee->hasBody() || External.find(Callee) ||
      !Callee->getReturnType()->isIntegralOrEnumerationType())
    return nullptr; // a summary that says no rank is the answer
  auto [It, Inserted] = ReturnedProvenances.try_emplace(Call, nullptr);
  if (Inserted && declaredUnder(Callee, PendingRoot))
    It->second =
        Arena.makePending(Callee->getQualifiedNameAsString(), Call->getBeginLoc(), usrOf(Callee));
  return It->second;
}

const Provenance *DependenceEnvironment::fromSummary(const ExternalFunction &Summary,
                                                     clang::SourceLocation Loc) {
  const Provenance *Source =
      Arena.makeExternal(Summary.Name, Loc, Summary.RankSite.File, Summary.RankSite.Line,
                         Summary.RankSite.Column, Summary.RankPart);
  return Summary.ReturnsSplit ? Arena.make(Provenance::Kind::Split, Summary.Name, Loc, Source)
                              : Source;
}

const Provenance *DependenceEnvironment::resolve(const RankValue &Value,
                                                 const FunctionDecl *Function) const {
  // A source known here wins over one pending on another file.
  const Provenance *Found = Value.Source;
  const Provenance *Split = splitByParameters(Found) ? Found : nullptr;
  if (Split)
    Found = nullptr;
  if (!Value.onParameters() || (Found && !Found->Pending))
    return Found;
  auto FromSeeds = [&](const decltype(Seeds) &Map, uint64_t Bits) {
    auto It = Map.find(Function->getCanonicalDecl());
    if (It != Map.end())
      for (size_t I = 0; I < It->second.size() && I < 64; ++I)
        if ((Bits >> I & 1) && saysMore(It->second[I], Found))
          Found = It->second[I];
  };
  FromSeeds(Seeds, Value.Params);
  FromSeeds(ElementSeeds, Value.ElementParams);
  return Split && Found ? Arena.splitBy(Split, Found) : Found;
}

const Provenance *DependenceEnvironment::splitBehind(const RankValue &Handle,
                                                     const FunctionDecl *Function) const {
  const Provenance *Split = resolve(Handle, Function);
  while (Split && Split->K != Provenance::Kind::Split)
    Split = Split->Via;
  return Split;
}

const DependenceEnvironment::FieldSeedMap *
DependenceEnvironment::fieldSeedsOf(const FunctionDecl *Function, unsigned Index) const {
  auto It = FieldSeeds.find(Function->getCanonicalDecl());
  if (It == FieldSeeds.end() || Index >= It->second.size() || !It->second[Index])
    return nullptr;
  return &*It->second[Index];
}

namespace dependence {
namespace {

bool sameState(const State &A, const State &B) {
  if (A.size() != B.size())
    return false;
  for (auto IA = A.begin(), IB = B.begin(); IA != A.end(); ++IA, ++IB)
    if (IA->first != IB->first || !IA->second.sameAs(IB->second))
      return false;
  return true;
}

} // namespace

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
  if (auto Known = ElementValues.find(Key); Known != ElementValues.end())
    Value = Known->second;
  else
    ElementValues[Key] = Value = evaluate(E);
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
  FieldPath Fields;
  if (const Expr *Index; elementKeyOf(E, Key, Index, Fields)) {
    RankValue Value = readElement(Key, Index, /*Nested=*/true, Fields);
    if (RankValue At = eval(Index); At.dependent())
      Value.combine(At); // `ranks[rank]`
    return Value;
  }
  if (isa<DeclRefExpr, MemberExpr>(E) || referencedOwnField(E) ||
      (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    if (keyOf(E, Key))
      return withElements(Key, read(Key));
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      if (std::optional<RankValue> Field = fieldOfValue(Member))
        return *Field;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E); Ref && !isa<VarDecl>(Ref->getDecl())) {
      if (const auto *Binding = dyn_cast<BindingDecl>(Ref->getDecl()))
        return bindingValue(Binding);
      return {}; // enumerators, functions
    }
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    RankValue Value = eval(Unary->getSubExpr());
    if (Unary->getOpcode() != UO_AddrOf)
      Value.ExactRank = Value.ExactSize = false;
    else if (Value.pending())
      Value.Source = nullptr; // where the storage lies, not what another file writes into it
    return Value;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Assign || Binary->getOpcode() == BO_Comma)
      return eval(Binary->getRHS());
    if (Binary->isLogicalOp()) {
      // Only the outermost `&&`/`||` of a chain is a CFG element: the
      // nested ones (`a || (l == 0 && c)`) get no fresh value on later
      // visits, so their operands are read here, without recursion.
      RankValue Value;
      std::vector<const Expr *> Work{Binary->getRHS(), Binary->getLHS()}; // left first
      while (!Work.empty()) {
        const Expr *Operand = Work.back()->IgnoreParenCasts();
        Work.pop_back();
        if (const auto *Nested = dyn_cast<BinaryOperator>(Operand); Nested && Nested->isLogicalOp())
          Work.insert(Work.end(), {Nested->getRHS(), Nested->getLHS()});
        else
          Value.combine(eval(Operand));
      }
      return Value;
    }
    return eval(Binary->getLHS()).combine(eval(Binary->getRHS()));
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  // Like the merge after an if/else: the arms' own sources say more than the
  // condition (`rank % 2 ? odds : evens` is a split's communicator).
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E)) {
    RankValue True = eval(Choice->getTrueExpr()), False = eval(Choice->getFalseExpr());
    RankValue Arms = RankValue(True).merge(False);
    RankValue Condition = eval(Choice->getCond());
    // Chosen, as by an if/else: an object or a callable picked by the rank
    // (`rank < 2 ? make_sharded() : make_plain()`), which may run other
    // code, and a rank's own part against a communicator others share
    // (`n > 1 ? sub : world`), which the split no longer explains.
    const CXXRecordDecl *Pointee = E->getType()->getPointeeCXXRecordDecl();
    bool Object = E->getType()->isRecordType() || E->getType()->isFunctionPointerType() ||
                  (Pointee && Pointee->hasDefinition() && Pointee->isPolymorphic());
    bool MixesParts =
        ownPart(True, Choice->getTrueExpr()) != ownPart(False, Choice->getFalseExpr());
    if ((MixesParts || (Object && !Arms.Source)) && Condition.Source && !Condition.pending()) {
      Arms.Source = nullptr;
      Condition.Source =
          Env.Arena.makeImplicit(Choice->getCond()->getBeginLoc(), Condition.Source, nullptr);
    }
    Arms.combine(Condition);
    Arms.Chosen = Arms.Chosen || Condition.dependent();
    return Arms;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    RankValue Value;
    for (const Expr *Arg : Construct->arguments())
      Value.merge(eval(Arg)); // a copy keeps the value it copies
    if (Construct->getNumArgs() != 1)
      Value.ExactRank = Value.ExactSize = false;
    return Value;
  }
  return joinChildren(E);
}

void Dataflow::assign(const Expr *Target, RankValue Value, bool Compound, const Stmt *Definition) {
  StorageKey Key;
  FieldPath Fields;
  if (const Expr *Index; elementKeyOf(Target, Key, Index, Fields)) {
    if (Compound || !writeElementFields(Key, Index, Fields, Definition))
      writeElement(Key, Index, Value, Compound, Definition, Fields);
    return;
  }
  if (!keyOf(Target, Key))
    return;
  const auto *Source = dyn_cast<Expr>(Definition);
  if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(Source);
      Operator && Operator->isAssignmentOp() && Operator->getNumArgs() == 2)
    Source = Operator->getArg(1); // `s = partition(rank)` on a class: operator=
  if (!Compound && (takeReturnedContainer(Key, Source) || copyContainer(Key, Source, Definition) ||
                    constructContainer(Key, Source)))
    return;
  if (Compound)
    Value.combine(read(Key));
  Value.Definition = Definition;
  write(Key, Value);
  if (Compound)
    return;
  if (Source) {
    copyPointee(Key, Source);
    assignFields(Key, Source);
  }
}

void Dataflow::declare(const VarDecl *Var) {
  if (References.count(Var))
    return; // an alias: reads and writes go to the referenced storage
  if (constructContainer(StorageKey{Var}, Var->getInit()) ||
      takeReturnedContainer(StorageKey{Var}, Var->getInit()) ||
      copyContainer(StorageKey{Var}, Var->getInit(), Var->getInit()))
    return;
  RankValue Value = Var->getInit() ? eval(Var->getInit()) : RankValue();
  if ((!Value.dependent() || Value.pending()) && Value.Opaque &&
      Classifier.isRankName(Var->getName()))
    Value = RankValue::rank(Env.rankName(Var));
  Value.Definition = Var->getInit();
  if (Var->getInit()) {
    write(StorageKey{Var}, Value);
    copyPointee(StorageKey{Var}, Var->getInit());
    assignFields(StorageKey{Var}, Var->getInit());
    followConstructorFields(Var);
  }
}

void Dataflow::transfer(const CFGElement &Element, const RankValue &ReturnTaint) {
  if (auto Init = Element.getAs<CFGInitializer>()) {
    initializeField(*Init->getInitializer());
    return;
  }
  if (auto Dtor = Element.getAs<CFGAutomaticObjDtor>()) {
    destroyLocal(Dtor->getVarDecl());
    return;
  }
  if (auto End = Element.getAs<CFGLifetimeEnds>()) {
    // A local out of scope holds nothing anyone reads again: every state
    // after it would carry it (a `ncclResult_t r_` per checked call).
    // (A reference names its target's storage and has no keys of its own.)
    // A parameter's keys are what the function hands back through it
    // (`t->hits++; return;`): the exit publishes them.
    if (isa<ParmVarDecl>(End->getVarDecl()))
      return;
    const void *Var = End->getVarDecl();
    Current.erase(Current.lower_bound(StorageKey{Var}),
                  Current.lower_bound(StorageKey{static_cast<const char *>(Var) + 1}));
    return;
  }
  auto StmtElement = Element.getAs<CFGStmt>();
  if (!StmtElement)
    return;
  const Stmt *S = StmtElement->getStmt();
  if (const auto *Value = dyn_cast<Expr>(S)) // for the operators it feeds
    ElementValues[Value->IgnoreParenCasts()] = evaluate(Value);
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const auto *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        declare(Var);
  } else if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp()) {
    assign(Binary->getLHS(), eval(Binary->getRHS()), Binary->isCompoundAssignmentOp(),
           Binary->isCompoundAssignmentOp() ? static_cast<const Stmt *>(Binary) : Binary->getRHS());
  } else if (const auto *Unary = dyn_cast<UnaryOperator>(S);
             Unary && Unary->isIncrementDecrementOp()) {
    assign(Unary->getSubExpr(), RankValue(), /*Compound=*/true, Unary);
  } else if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (Return->getRetValue()) {
      RankValue Returned = eval(Return->getRetValue());
      RankValue Own = returnedOwnState(Return->getRetValue(), Returned);
      FieldValues Fields;
      bool Record = fieldsOf(Return->getRetValue(), Fields);
      // A taint pending on another file leaves what is known here as it is.
      auto Taint = [&](RankValue &Value) {
        if (knownHere(ReturnTaint) || !ReturnTaint.pending() || !knownHere(Value))
          Value.combine(ReturnTaint);
      };
      for (auto &[Field, Value] : Fields) {
        Taint(Value);
        Returned.combine(Value);
      }
      if (ReturnTaint.dependent()) {
        Taint(Returned);
        Taint(Own);
      }
      if (ReturnTaint.Params && ReturnChosenAt.isValid() &&
          !(Result.Facts.ReturnChosenBy & ReturnTaint.Params)) {
        if (!Result.Facts.ReturnChosenBy)
          Result.Facts.ReturnChosenAt = ReturnChosenAt;
        Result.Facts.ReturnChosenBy |= ReturnTaint.Params;
      }
      mergeReturnedFields(Record ? &Fields : nullptr, Return->getRetValue(), ReturnTaint);
      mergeReturnedTuple(Return->getRetValue(), ReturnTaint);
      const bool Agreed = !ReturnTaint.dependent() && computedFromAgreed(Return->getRetValue());
      if (ReturnSeen) {
        Result.Facts.ReturnValue.merge(Returned);
        Result.Facts.ReturnedOwn.merge(Own);
        Result.Facts.ReturnsAgreed = Result.Facts.ReturnsAgreed && Agreed;
      } else { // the first return: nothing to merge with
        Result.Facts.ReturnValue = Returned;
        Result.Facts.ReturnedOwn = Own;
        Result.Facts.ReturnsAgreed = Agreed;
      }
      ReturnSeen = true;
    }
  } else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
             Operator && Operator->isAssignmentOp() && Operator->getNumArgs() == 2) {
    assign(Operator->getArg(0), eval(Operator->getArg(1)), Operator->getOperator() != OO_Equal,
           Operator);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    applyCallEffects(Call);
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    recordCall(Construct->getConstructor(),
               llvm::ArrayRef<const Expr *>(Construct->getArgs(), Construct->getNumArgs()));
  }
}

// Records are made on the first pass. A block visited again (a loop, a
// condition found rank-dependent late) saw a state that was not final yet:
// then the records are dropped and one more pass over the stable states
// makes them.
FunctionDependence Dataflow::run() {
  const CFG &Graph = Function.cfg();
  std::vector<State> Out(Graph.getNumBlockIDs());
  std::vector<bool> Visited(Graph.getNumBlockIDs(), false);
  for (const CFGBlock *Block : Graph)
    Blocks.insert(Block);
  // A branch that decides whether a loop goes on (its test, a `break` or a
  // `return` in it) taints nothing inside the loop: the n-th iteration
  // computes the same on every rank that runs it. Where the loop is left,
  // what it writes holds the last iteration's value, and ranks stop at
  // different ones.
  for (const CFGBlock *Branch : Graph)
    if (Branch->succ_size() >= 2) {
      GatedAt[Function.immediatePostDominator(Branch)].push_back(Branch);
      if (Function.decidesLoop(*Branch))
        LoopLeavers.insert(Branch);
    }

  Recording = true;
  if (!solve(Out, Visited)) {
    clearRecords();
    for (const CFGBlock *Block : Function.reversePostOrder())
      processBlock(*Block, Out, Visited);
  }
  if (Visited[Graph.getExit().getBlockID()]) {
    publishWritesAtExit(Out[Graph.getExit().getBlockID()]);
    dropWritesAgreedAtExit(Out[Graph.getExit().getBlockID()]);
    Result.Facts.AgreedParams = agreedParameters(Out[Graph.getExit().getBlockID()]);
    Result.Facts.AssignedParams = assignedParameters(Out[Graph.getExit().getBlockID()]);
    Result.Facts.AssignedFields = assignedFields(Out[Graph.getExit().getBlockID()]);
    Result.Facts.OwnFieldsAtExit = ownFieldsAtExit(Out[Graph.getExit().getBlockID()]);
  }
  if (copiesAnObject(Function.decl()))
    dropFieldWrites();
  for (const SharedWrite &Write : Result.SharedWrites)
    if (Write.Part.Global)
      Result.Facts.WrittenGlobalParts.insert(Write.Part);
    else if (const auto *Var = dyn_cast<VarDecl>(Write.Decl);
             Var && (Var->isFileVarDecl() || capturedByReference(Var, Function.decl())))
      Result.Facts.WrittenGlobals.insert(Var);
  // A callee's write to a local it captured reaches that local through
  // this function, unless this is a lambda that holds a copy of it.
  for (const CallSiteRecord &Call : Result.Calls)
    if (auto It = Env.Facts.find(Call.Callee); It != Env.Facts.end())
      for (const ValueDecl *Written : It->second.WrittenGlobals)
        if (const auto *Var = dyn_cast<VarDecl>(Written);
            Var && captureOf(Var, Function.decl()).value_or(LCK_ByRef) == LCK_ByRef)
          Result.Facts.WrittenGlobals.insert(Var);
  recordAssignedConstants(Visited[Graph.getExit().getBlockID()] ? &Out[Graph.getExit().getBlockID()]
                                                                : nullptr);
  Result.SharedReads = std::move(SharedReads);
  Result.FieldSeedsRead = FieldSeedsRead;
  Result.SplitLookups = std::move(SplitLookups);
  Result.Values = std::move(Values);
  return std::move(Result);
}

// The worklist, in reverse post-order; returns whether every block ran once.
bool Dataflow::solve(std::vector<State> &Out, std::vector<bool> &Visited) {
  BlockWorklist Worklist(Function);
  Worklist.push(&Function.cfg().getEntry());
  unsigned Budget = limits::DependenceVisitsPerBlock * (Function.cfg().getNumBlockIDs() + 1);
  bool Once = true;
  while (!Worklist.empty()) {
    if (Budget-- == 0) {
      Result.Settled = false;
      return false;
    }
    const CFGBlock *Block = Worklist.pop();
    Once = Once && !Visited[Block->getBlockID()];
    auto [Changed, ConditionChanged] = processBlock(*Block, Out, Visited);
    // Not into the failing arm of a status check or an assertion: what it
    // writes never reaches the code that goes on (ErrorPaths.h).
    for (unsigned Index = 0; Changed && Index < Block->succ_size(); ++Index)
      if (!Env.Paths || Env.Paths->follows(Function, *Block, Index))
        Worklist.push(std::next(Block->succ_begin(), Index)->getReachableBlock());
    if (ConditionChanged) {
      for (const CFGBlock *Dependent : Function.controlled(Block))
        Worklist.push(Dependent);
      Worklist.push(Function.immediatePostDominator(Block)); // a loop header controls itself
    }
  }
  return Once;
}

// Runs \p Block on its predecessors' states; returns whether its own state
// and whether its condition's value changed.
std::pair<bool, bool> Dataflow::processBlock(const CFGBlock &Block, std::vector<State> &Out,
                                             std::vector<bool> &Visited) {
  mergePredecessors(Block, Out, Visited);
  CurrentBlock = &Block;
  if (&Block == &Function.cfg().getEntry())
    startProgram();
  RankValue ReturnTaint = returnTaint(Block, ReturnChosenAt);
  for (const CFGElement &Element : Block)
    transfer(Element, ReturnTaint);
  recordThrows(Block);
  RankValue &Recorded = Result.Conditions[&Block];
  RankValue Merged = Recorded;
  Merged.merge(conditionValue(Block));
  bool ConditionChanged = !Merged.sameAs(Recorded);
  Recorded = Merged;
  bool Changed = !Visited[Block.getBlockID()] || !sameState(Current, Out[Block.getBlockID()]);
  Visited[Block.getBlockID()] = true;
  Out[Block.getBlockID()] = std::move(Current); // the next block starts afresh
  return {Changed, ConditionChanged};
}

// A copy or a move carries another object's state: what it writes into the
// fields is that object's (the caller sees the copy hold the value of what it
// copied), not something every object of the class holds from then on. A
// smart pointer copied from a rank-chosen group is no reason to take every
// group it points to as per-rank.
bool Dataflow::copiesAnObject(const FunctionDecl *F) {
  if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(F))
    return Constructor->isCopyOrMoveConstructor();
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  return Method && (Method->isCopyAssignmentOperator() || Method->isMoveAssignmentOperator());
}

void Dataflow::dropFieldWrites() {
  size_t Kept = 0;
  for (size_t I = 0; I < Result.SharedWrites.size(); ++I)
    if (!isa<FieldDecl>(Result.SharedWrites[I].Decl)) {
      Result.SharedWrites[Kept] = Result.SharedWrites[I];
      SharedWriteKeys[Kept++] = SharedWriteKeys[I];
    }
  Result.SharedWrites.resize(Kept);
  SharedWriteKeys.resize(Kept);
}

// Exceptions that leave the function: a `throw` no handler here takes, and
// a call outside any `try` to a function that may throw. They leave on the
// ranks that reach the block (every condition on the way, not only the
// nearest: `if (shard == 2 && i == 1) throw`) and, for a call, those the
// callee's own conditions pick.
void Dataflow::recordThrows(const CFGBlock &Block) {
  if (!Recording || exceptionalCall(Block))
    return; // a call that may throw into this function's handlers is caught
  auto Leaves = [&](SourceLocation At, const RankValue &When) {
    if (Env.Paths && Env.Paths->onErrorPath(Function, Block))
      return; // `if (rc != MPI_SUCCESS) throw ...;`: reports a failure, as a return would
    Result.Facts.ThrowsWhen.combine(reachingTaint(Block));
    Result.Facts.ThrowsWhen.combine(When);
    if (!Result.Facts.Throws)
      Result.Facts.ThrowAt = At;
    Result.Facts.Throws = true;
  };
  const CFGBlock &Exit = Function.cfg().getExit();
  for (const CFGElement &Element : Block) {
    auto S = Element.getAs<CFGStmt>();
    if (!S)
      continue;
    if (const auto *Throw = dyn_cast<CXXThrowExpr>(S->getStmt())) {
      if (llvm::any_of(Block.succs(), [&](const CFGBlock::AdjacentBlock &Succ) {
            return Succ.getReachableBlock() == &Exit;
          }))
        Leaves(Throw->getThrowLoc(), RankValue());
    } else if (const auto *Call = dyn_cast<CallExpr>(S->getStmt())) {
      if (auto Thrown = thrownBy(Call))
        Leaves(Thrown->first, Thrown->second);
    }
  }
}

RankValue Dataflow::reachingTaint(const CFGBlock &Block) const {
  RankValue Taint;
  llvm::DenseSet<const CFGBlock *> Seen;
  std::vector<const CFGBlock *> Worklist{&Block};
  while (!Worklist.empty()) {
    const CFGBlock *Next = Worklist.back();
    Worklist.pop_back();
    for (const CFGBlock *Branch : Function.controllers(Next))
      if (Seen.insert(Branch).second) {
        Taint.combine(taintOf(*Branch));
        Worklist.push_back(Branch);
      }
  }
  return Taint;
}

void Dataflow::clearRecords() {
  ReturnSeen = false;
  RecordReturned = TupleReturned = true;
  Result.Facts = FunctionFacts(Function.decl()->getNumParams());
  Result.Calls.clear();
  Result.SharedWrites.clear();
  SharedWriteKeys.clear();
  Result.AgreedArguments.clear();
  Result.Splits.clear();
  Values.clear();
}

} // namespace dependence

FunctionDependence analyzeDependence(const FunctionCFG &Function, DependenceEnvironment &Env) {
  return dependence::Dataflow(Function, Env).run();
}

} // namespace lockstep::analysis
