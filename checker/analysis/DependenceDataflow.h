// The rank-dependence data flow of one function (see RankDependence.h),
// shared by the files that implement it: DependenceStorage.cpp (storage paths,
// aliases, reads and writes), DependenceCalls.cpp (what calls return and
// write), DependenceIndirectCalls.cpp (virtual calls, stored and passed
// callables), DependenceImplicitFlow.cpp (rank-dependent branches and their
// merges), ContainerStorage.cpp and ElementParts.cpp (containers, their
// elements and the elements' fields) and RankDependence.cpp (values, transfer
// and the worklist). Internal to the analysis library.
#pragma once

#include "ConfinedLocals.h"
#include "Limits.h"
#include "RankDependence.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace lockstep::analysis::dependence {

// Storage is named by a root (a variable, or `this`) and a path of fields and
// dereferences: `ctx.rank`, `*out`, `this->rank_`.
using StorageKey = llvm::SmallVector<const void *, 4>;
inline const char ThisRoot = 0;
inline const char DerefStep = 0;
// Elements of a container (an array, a class object reached through
// operator[], an iterator or a pointer): the element at a small constant
// index, and any element.
inline const char ElementAt[limits::TrackedElements] = {};
inline const char AnyElement = 0;
inline bool isElementStep(const void *Step) {
  return Step == &AnyElement ||
         (Step >= &ElementAt[0] && Step < &ElementAt[0] + limits::TrackedElements);
}
/// What implicit flow tracks a storage by: the variable, or the field of
/// `this`; an element is its container.
inline const void *storageRoot(const StorageKey &Key) {
  if (Key.front() != &ThisRoot)
    return Key.front();
  size_t Named = Key.size();
  while (Named > 1 && isElementStep(Key[Named - 1]))
    --Named;
  return Key[Named - 1];
}
/// What the arms of a branch write, by storageRoot: storage as a whole, and
/// containers whose elements only (not their size).
struct BranchWrites {
  llvm::DenseSet<const void *> Whole, Elements;
  std::vector<StorageKey> Parts; // what Whole holds, as the keys written
  bool writes(const StorageKey &Key) const {
    const void *Root = storageRoot(Key);
    return Whole.count(Root) || writesElement(Key);
  }
  /// Whether a key written holds \p Key or lies inside it; Parts sorted.
  bool writesPart(const StorageKey &Key) const {
    if (writesElement(Key))
      return true;
    for (size_t N = 1; N <= Key.size(); ++N)
      if (llvm::binary_search(Parts, StorageKey(Key.begin(), Key.begin() + N)))
        return true;
    auto Inside = llvm::lower_bound(Parts, Key);
    return Inside != Parts.end() && Inside->size() > Key.size() &&
           std::equal(Key.begin(), Key.end(), Inside->begin());
  }

private:
  bool writesElement(const StorageKey &Key) const {
    return Elements.count(storageRoot(Key)) &&
           std::any_of(Key.begin() + 1, Key.end(), isElementStep);
  }
};
// Written by a collective or a uniform source: the same on every path that
// reaches it, so merging such writes is no implicit flow.
inline const char AgreedByEveryRank = 0;
/// \p Value, written by a collective or a uniform source.
RankValue agreed(RankValue Value = RankValue());

using State = std::map<StorageKey, RankValue>;

/// The fields an access names below an element, outermost first:
/// `batch[b].label.id` names label, then id; the element itself names none.
using FieldPath = llvm::SmallVector<const void *, 2>;
/// What \p In holds for the part of an element that \p Key names (`b[0].x`:
/// the element at 0, then field x), its own entry left aside: the nearest
/// enclosing part written, at that index and, for a constant index, at any
/// index. Null for a key below no element, or nothing written there.
const RankValue *enclosingElementPart(const State &In, const StorageKey &Key);
/// The key of a field of a global struct: the global, then its fields.
StorageKey globalPartKey(const GlobalPart &Part);

/// Calls \p Visit(key, value) for what \p In holds inside \p Key (its
/// fields and elements, at any depth), in key order.
template <typename VisitFn>
void forEachInside(const State &In, const StorageKey &Key, VisitFn Visit) {
  for (auto It = In.upper_bound(Key); It != In.end(); ++It) {
    if (It->first.size() <= Key.size() || !std::equal(Key.begin(), Key.end(), It->first.begin()))
      break;
    Visit(It->first, It->second);
  }
}

/// Whether \p Value differs between ranks for a reason known in this file
/// (a source, or a parameter), not only pending on another file's summary:
/// a taint pending on another file must leave such a value as it is.
inline bool knownHere(const RankValue &Value) {
  return Value.onParameters() || (Value.Source && !Value.Source->Pending);
}

/// The buffer a pointer expression points into: a chunk at `(char *)p + off`
/// is part of what `p` points to.
const clang::Expr *bufferOf(const clang::Expr *Arg);

/// Whether \p Type is a class of elements: one with `operator[]` or `begin`.
bool isContainer(clang::QualType Type);
/// Whether \p Call asks a `std::array` its size (`size()`, `max_size()`,
/// `empty()`): its type's constant, whatever it holds.
bool asksFixedSize(const clang::CallExpr *Call);
/// A copy of an object is the object: iterators and pointers passed by value.
const clang::Expr *stripCopies(const clang::Expr *E);
/// Whether \p Callee is the system's (a standard library function).
bool inLibrary(const clang::FunctionDecl *Callee);
/// The field of its own object that the method call \p E returns a
/// reference to, when that is all the method does (`const std::vector<float>
/// &grads() const { return grads_; }`): `t.grads()` is `t.grads_`.
const clang::FieldDecl *referencedOwnField(const clang::Expr *E);
/// The field of the `std::pair` that \p Binding names (`auto &[name, steps]`
/// of a pair: `first`, `second`), setting \p Whole to the pair; else null.
const clang::FieldDecl *pairFieldOf(const clang::BindingDecl *Binding,
                                    const clang::DecompositionDecl *&Whole);

/// The forward data flow of one function: construct, then run() once.
class Dataflow {
public:
  Dataflow(const FunctionCFG &Function, DependenceEnvironment &Env)
      : Function(Function), Env(Env), Classifier(Env.Classifier), Context(Function.context()) {
    const clang::FunctionDecl *FD = Function.decl();
    for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I) {
      ParamIndex[FD->getParamDecl(I)] = I;
      if (isContainer(FD->getParamDecl(I)->getType().getNonReferenceType()))
        ContainerParams |= uint64_t(1) << I;
    }
    Result.Facts = FunctionFacts(FD->getNumParams());
    collectAliases(FD->getBody());
  }

  FunctionDependence run();

private:
  // --- storage ---------------------------------------------------------
  bool keyOf(const clang::Expr *E, StorageKey &Key) const;
  bool pointeeKeyOf(const clang::Expr *E, StorageKey &Key) const;
  RankValue read(const StorageKey &Key) const;
  RankValue fallback(const StorageKey &Key) const;
  RankValue nestedParameterField(const StorageKey &Key,
                                 const DependenceEnvironment::FieldSeedMap &Seeds,
                                 bool ByPointer) const;
  RankValue parameterOnEntry(const StorageKey &Key) const;
  bool keepsOwnSize(const clang::Stmt *Call, const StorageKey &Object) const;
  bool sizeQueried(const clang::Expr *Count, StorageKey &Counted) const;
  bool sameSize(const StorageKey &A, const StorageKey &B) const;
  bool sizeSeen(const StorageKey &Container) const;
  const llvm::DenseSet<const clang::VarDecl *> &escapedContainers() const;
  RankValue storedElsewhere(const clang::ValueDecl *D) const;
  RankValue sharedOrElsewhere(const clang::ValueDecl *D) const;
  /// \p Elements: the write replaces the elements of the container \p Key
  /// names (a collective's buffer), which callers see as no write of its size.
  void write(const StorageKey &Key, RankValue Value, bool Elements = false);
  /// Sets \p Key to \p Value, and drops what was held inside it.
  void replace(const StorageKey &Key, const RankValue &Value);
  void copyPointee(const StorageKey &Key, const clang::Expr *Source);
  void recordWrite(const StorageKey &Key, const RankValue &Value);
  void recordSharedWrite(const StorageKey &Key, const RankValue &Value);
  bool inConfinedLocal(const StorageKey &Key) const;
  // --- globals (DependenceGlobals.cpp) ----------------------------------
  /// Records that this function writes the global (or field of a global
  /// struct) \p Key names, with whatever value.
  void recordGlobalAssignment(const StorageKey &Key);
  void recordAssignedConstants(const State *AtExit);
  /// Records a per-rank write to a field of a global struct; false when
  /// \p Key names none.
  bool recordGlobalPartWrite(const StorageKey &Key, const RankValue &Value);
  /// What the file writes into the field of a global struct \p Key names;
  /// nullopt when \p Key names none, or nothing here writes it.
  std::optional<RankValue> globalPartValue(const StorageKey &Key) const;
  std::optional<RankValue> ownFieldReturned(const clang::CallExpr *Call,
                                            const clang::FunctionDecl *Callee) const;
  void followObjectFields(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);
  void followConstructorFields(const clang::VarDecl *Var);
  void publishObjectFields(const StorageKey &Object, const FieldPath *ElementParts);
  void publishElementFields(const clang::Expr *Element, const StorageKey &Container,
                            const clang::Expr *Index, const FieldPath &Parts);
  /// \p ElementField: the field of the elements written, when only one is.
  void recordParamWrite(const StorageKey &Key, const RankValue &Value, bool Element,
                        const clang::FieldDecl *ElementField = nullptr);
  void collectAliases(const clang::Stmt *S);

  // --- containers (ContainerStorage.cpp) --------------------------------
  bool elementKeyOf(const clang::Expr *E, StorageKey &Container, const clang::Expr *&Index,
                    FieldPath &Fields) const;
  /// \p IndexValue: for a container held in an element (`out[dest]`), what
  /// tells apart which element the ranks reach.
  bool containerKeyOf(const clang::Expr *Object, StorageKey &Container,
                      RankValue *IndexValue = nullptr) const;
  bool intoContainer(const clang::Expr *E, StorageKey &Container) const;
  /// \p Fields: the part of the element read (see FieldPath).
  RankValue readElement(const StorageKey &Container, const clang::Expr *Index, bool Nested = true,
                        llvm::ArrayRef<const void *> Fields = {}) const;
  RankValue withElements(const StorageKey &Key, RankValue Value, bool Nested = true,
                         llvm::ArrayRef<const void *> Fields = {}) const;
  RankValue partsBelow(const StorageKey &Part) const;
  const RankValue *writtenPart(const StorageKey &Container, const clang::Expr *Index,
                               llvm::ArrayRef<const void *> Fields, StorageKey &Part) const;
  RankValue elementAsWritten(const StorageKey &Container, const clang::Expr *Index,
                             llvm::ArrayRef<const void *> Fields) const;
  RankValue elementsFallback(const StorageKey &Container) const;
  uint64_t callersElements(const StorageKey &Key, const RankValue &Value) const;
  static bool recordParameter(const clang::ParmVarDecl *Param);
  static const clang::ValueDecl *sharedHolder(const StorageKey &Container);
  RankValue nestedElements(const StorageKey &Key) const;
  struct PassedValue {
    RankValue Own, Elements; // a container's size and its elements
  };
  PassedValue passedTo(const clang::Expr *Arg, const clang::ParmVarDecl *Param) const;
  bool referredStorage(const clang::Expr *Arg, const clang::ParmVarDecl *Param,
                       StorageKey &Key) const;
  RankValue chosenAtCall(const FunctionFacts &Callee, RankValue Value,
                         llvm::ArrayRef<const clang::Expr *> Args,
                         const clang::FunctionDecl *Target) const;
  RankValue objectValue(const clang::Expr *Object, const clang::FunctionDecl *Callee) const;
  RankValue containerState(const StorageKey &Container) const;
  void writeElement(const StorageKey &Container, const clang::Expr *Index, RankValue Value,
                    bool Compound, const void *Definition,
                    llvm::ArrayRef<const void *> Fields = {});
  void fillThroughLibraryCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);
  bool resetThroughLibraryCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);
  // --- memory copies (MemoryCopies.cpp) ----------------------------------
  bool copyThroughPointers(const clang::CallExpr *Call, const rules::CopyRule &Copy);
  RankValue libraryArgument(const clang::Expr *Arg, StorageKey &Into,
                            RankValue *Position = nullptr) const;
  void addCallableResults(const clang::CallExpr *Call, llvm::ArrayRef<const clang::Expr *> Args,
                          std::vector<RankValue> &Values) const;
  void fillContainer(const StorageKey &Object, const clang::FunctionDecl *Callee,
                     llvm::ArrayRef<RankValue> Values, llvm::ArrayRef<RankValue> Positions,
                     const clang::Stmt *Definition, bool Constructed,
                     const RankValue &IndexValue = RankValue(),
                     const RankValue &Keys = RankValue());
  bool constructContainer(const StorageKey &Key, const clang::Expr *Init);
  RankValue returnedOwnState(const clang::Expr *Returned, const RankValue &Whole) const;
  bool takeReturnedContainer(const StorageKey &Key, const clang::Expr *Init);
  bool copyContainer(const StorageKey &Into, const clang::Expr *From,
                     const clang::Stmt *Definition);
  bool swapContainers(const clang::CallExpr *Call);
  std::pair<RankValue, RankValue> contentsOf(const StorageKey &Container) const;
  void setContents(const StorageKey &Container, std::pair<RankValue, RankValue> Contents,
                   const clang::Stmt *Definition, bool KeepSize);
  std::optional<RankValue> ownStateReturnedBy(const clang::Expr *E) const;
  bool collectContainerAlias(const clang::VarDecl *Var);

  // --- values ----------------------------------------------------------
  RankValue eval(const clang::Expr *E) const; // records the value in the last pass
  RankValue evaluate(const clang::Expr *E) const;
  RankValue evalCall(const clang::CallExpr *Call) const;
  RankValue perRankSourceData(const clang::CallExpr *Call, const CalleeRole &Role,
                              llvm::ArrayRef<const clang::Expr *> Args,
                              const clang::Expr *Received) const;
  RankValue joinChildren(const clang::Stmt *S) const;

  // --- transfer --------------------------------------------------------
  void transfer(const clang::CFGElement &Element, const RankValue &ReturnTaint);
  void assign(const clang::Expr *Target, RankValue Value, bool Compound,
              const clang::Stmt *Definition);
  void declare(const clang::VarDecl *Var);
  void initializeField(const clang::CXXCtorInitializer &Initializer);
  void destroyLocal(const clang::VarDecl *Var);
  void applyCallEffects(const clang::CallExpr *Call);
  void applyIndirectCallEffects(const clang::CallExpr *Call);
  std::optional<RankValue> returnedByTargets(const clang::CallExpr *Call,
                                             llvm::ArrayRef<const clang::Expr *> Args,
                                             bool Own = false) const;
  void recordDispatchesOnThis(const clang::CallExpr *Call);
  RankValue uniformOutput(const clang::CallExpr *Call, const CalleeRole &Role,
                          const std::vector<const clang::Expr *> &Args, unsigned Out) const;
  RankValue agreedOutput(const clang::CallExpr *Call, const CalleeRole &Role,
                         const clang::Expr *Buffer) const;
  const Provenance *splitOf(const RankValue &Handle) const;
  void recordCall(const clang::FunctionDecl *Callee, llvm::ArrayRef<const clang::Expr *> Args);
  void publishCaptures(const clang::FunctionDecl *Callee);
  void recordPassedCallables(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);
  void recordCallablesRunBy(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                            llvm::ArrayRef<IndirectCalls::Runnable> Runnables);
  void recordCallbackArguments(const clang::CallExpr *Call);
  void recordCollective(const clang::CallExpr *Call, const CalleeRole &Role);
  void recordSubGrid(const clang::CallExpr *Call, const CalleeRole &Role,
                     const clang::Expr *NewCommArg);
  RankValue optionField(const clang::CallExpr *Call, const rules::ArgRef &Ref,
                        const clang::Expr *&Written) const;
  /// What a call lockstep cannot see into reads flows into its writable
  /// arguments and, \p ObjectToo, into the object a mutator changes; of a
  /// user's function (\p Unseen), into the floating-point ones.
  void flowThroughUnknownCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee,
                              bool ObjectToo, bool Unseen = false);
  /// Whether a function whose body no file shows computes a value of \p
  /// Type from its inputs.
  bool computedUnseen(clang::QualType Type) const;
  static const clang::Expr *chainedObject(const clang::Expr *E);
  void writeOutArgument(const clang::Expr *Arg, const clang::ParmVarDecl *Param, RankValue Value,
                        const clang::FieldDecl *Field = nullptr);
  void redefine(const clang::Expr *Arg, const clang::ParmVarDecl *Param,
                const clang::FieldDecl *Field = nullptr);
  void writeOutParamsOfCall(const FunctionFacts &Callee, const clang::FunctionDecl *Target,
                            llvm::ArrayRef<const clang::Expr *> Args);
  RankValue taintOf(const clang::CFGBlock &Branch) const;
  /// \p Value without its dependence on the parameter \p Root, if it is one
  /// and \p Held, the storage's value, depends on it already.
  RankValue withoutParameter(RankValue Value, const void *Root, const RankValue &Held) const;
  RankValue returnTaint(const clang::CFGBlock &Block, clang::SourceLocation &ChosenAt) const;
  void mergePredecessors(const clang::CFGBlock &Block, const std::vector<State> &Out,
                         const std::vector<bool> &Visited);
  bool solve(std::vector<State> &Out, std::vector<bool> &Visited);
  std::pair<bool, bool> processBlock(const clang::CFGBlock &Block, std::vector<State> &Out,
                                     std::vector<bool> &Visited);
  static bool copiesAnObject(const clang::FunctionDecl *F);
  void dropFieldWrites();
  void recordThrows(const clang::CFGBlock &Block);
  RankValue reachingTaint(const clang::CFGBlock &Block) const;
  /// On which ranks \p Call lets an exception out, in this function's
  /// terms, and where (none: it does not throw).
  std::optional<std::pair<clang::SourceLocation, RankValue>>
  thrownBy(const clang::CallExpr *Call) const;
  void clearRecords();
  void dropWritesAgreedAtExit(const State &AtExit);
  uint64_t agreedParameters(const State &AtExit) const;
  uint64_t assignedParameters(const State &AtExit) const;
  std::vector<std::vector<const clang::FieldDecl *>> assignedFields(const State &AtExit) const;
  FieldValues ownFieldsAtExit(const State &AtExit) const;
  void startProgram();
  // --- records, field by field (DependenceRecords.cpp) ------------------
  bool fieldsOf(const clang::Expr *E, FieldValues &Fields) const;
  bool pointeeFieldsOf(const clang::Expr *Arg, FieldValues &Fields) const;
  void addNestedFields(const clang::Expr *Arg, bool ThroughPointer, FieldValues &Fields) const;
  std::optional<RankValue> fieldOfValue(const clang::MemberExpr *Member) const;
  void assignFields(const StorageKey &Key, const clang::Expr *Source);
  bool writeElementFields(const StorageKey &Container, const clang::Expr *Index,
                          llvm::ArrayRef<const void *> Fields, const clang::Stmt *Source);
  void mergeReturnedFields(const FieldValues *Fields, const clang::Expr *Returned,
                           const RankValue &ReturnTaint);
  void returnFieldElements(const clang::Expr *Returned, const RankValue &ReturnTaint);
  void mergeReturnedTuple(const clang::Expr *Returned, const RankValue &ReturnTaint);
  bool computedFromAgreed(const clang::Expr *E) const;
  RankValue bindingValue(const clang::BindingDecl *Binding) const;
  RankValue atCall(const RankValue &Summary, llvm::ArrayRef<const clang::Expr *> Args,
                   const clang::FunctionDecl *Callee) const;
  void publishWritesAtExit(const State &AtExit);
  void writeGlobalsOfCall(const FunctionFacts &Callee, const clang::CallExpr *Call);
  bool sameDefinition(const void *A, const void *B) const;
  const clang::Expr *writtenExpression(const void *Definition) const;
  bool ownPart(const RankValue &Value, const void *Definition) const;
  bool nullHandle(const void *Definition) const;
  const BranchWrites &writtenUnder(const clang::CFGBlock &Merge, bool Leaving,
                                   const std::vector<const clang::CFGBlock *> &Branches);
  bool passedToKnownCallee(const clang::UnaryOperator *AddressOf) const;
  bool isSubscriptOrElementReference(const clang::Expr *E) const;
  void markCallWrites(const clang::CallExpr *Call,
                      llvm::function_ref<void(const clang::Expr *)> Mark,
                      llvm::function_ref<void(const StorageKey &)> MarkPart) const;
  RankValue conditionValue(const clang::CFGBlock &Block) const;

  const FunctionCFG &Function;
  DependenceEnvironment &Env;
  const CallClassifier &Classifier;
  clang::ASTContext &Context;
  llvm::DenseMap<const clang::ParmVarDecl *, unsigned> ParamIndex;
  uint64_t ContainerParams = 0; // bit i: parameter i is a container (or refers to one)
  llvm::DenseMap<const clang::VarDecl *, StorageKey> References; // int &r = x;
  // Locals that lambdas here capture by reference (their storage too), with
  // how many lambdas do.
  llvm::DenseMap<const clang::VarDecl *, unsigned> LambdasCapturing;
  llvm::DenseMap<const clang::VarDecl *, StorageKey> PointsTo; // int *p = &x;
  // A library function known to fill in or read a buffer during the call:
  // one the rules name, or a builtin (`memset`, `memcpy`).
  ConfinedLocals Confined{Function, [this](const clang::FunctionDecl *Callee) {
                            const CalleeRole &Role = Classifier.classify(Callee);
                            return Role.isKnown() || Role.Copy || Callee->getBuiltinID() != 0;
                          }};
  // Pointers, iterators and views into a container (`int *p = v.data()`,
  // `auto it = v.begin()`, `std::span<int> s(v)`), and references to one of
  // its elements (`float &x = v[i]`): by the container they reach.
  llvm::DenseMap<const clang::VarDecl *, StorageKey> IntoContainer;
  llvm::DenseMap<const clang::VarDecl *, StorageKey> ElementReferences;
  // A container made with another's size (`std::vector<double>
  // tmp(buf.size())`), by the definition of its size: that other container
  // and the definition of its size then (sameSize).
  llvm::DenseMap<const void *, std::pair<StorageKey, const void *>> SizedLike;
  // Containers this function may resize where the data flow does not see
  // it: their address taken, bound to a reference, captured by a lambda,
  // handed to a function it knows no facts of (escapedContainers, found
  // when first asked).
  mutable std::optional<llvm::DenseSet<const clang::VarDecl *>> EscapedContainers;
  llvm::DenseMap<const clang::ValueDecl *, const clang::Expr *> ElementReferenceIndexes;
  llvm::DenseMap<const clang::ValueDecl *, FieldPath> ElementReferenceFields; // `&l = b[i].label`
  bool HasElementKeys = false; // some element was written: whole reads look at elements
  // Rank-dependent branches by the block where their arms meet again: where
  // implicit flow happens. LoopLeavers: those that decide whether a loop goes on.
  llvm::DenseMap<const clang::CFGBlock *, std::vector<const clang::CFGBlock *>> GatedAt;
  llvm::DenseSet<const clang::CFGBlock *> LoopLeavers;
  llvm::DenseSet<const void *> Blocks; // merges, as definitions
  // What the branches gated at a merge write, by the merge and whether they
  // leave a loop; kept while the same branches are gated there.
  std::map<std::pair<const clang::CFGBlock *, bool>,
           std::pair<std::vector<const clang::CFGBlock *>, BranchWrites>>
      WrittenUnder;
  const clang::CFGBlock *CurrentBlock = nullptr; // the block being transferred
  clang::SourceLocation ReturnChosenAt;          // of the block being run (returnTaint)
  std::vector<StorageKey> SharedWriteKeys;       // the storage of each of Result.sharedWrites
  State Current;
  bool Recording = false; // the pass over the stable states records calls and writes
  bool ReturnSeen = false;
  bool RecordReturned = true; // every return so far returned a record field by field
  bool TupleReturned = true;  // every return so far built a tuple (ReturnedTuple)
  mutable llvm::DenseSet<const clang::ValueDecl *> SharedReads;
  // What the flow read of the seeds (see FunctionDependence).
  mutable uint64_t FieldSeedsRead = 0;
  mutable std::vector<std::pair<RankValue, const Provenance *>> SplitLookups;
  mutable llvm::DenseMap<const clang::Expr *, RankValue> Values;
  // The value of each expression as of its own CFG element (operands come
  // first): an operator reads its operands here instead of recursing, so
  // 50,000-term expressions cost no stack and a `?:` chain is not walked
  // again at every level. Refreshed at the element on every visit; an
  // expression that is no element of its own keeps its first value (rare:
  // operands inside elements are elements too).
  mutable llvm::DenseMap<const clang::Expr *, RankValue> ElementValues;
  // The locals the function names other than by their members (`&c`, a
  // copy, a reference or a lambda capture): computed on first use.
  mutable std::optional<llvm::DenseSet<const clang::VarDecl *>> AliasedLocals;
  bool aliased(const clang::VarDecl *Local) const;
  FunctionDependence Result;
};

} // namespace lockstep::analysis::dependence
