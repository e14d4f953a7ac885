// Turns the conditions of one function into formulas over the rank, the size
// and uniform or per-rank symbols, using what rank dependence found about
// each operand: `rank % 2 == 0`, `rank == src && rank != dst`,
// `!(rank >= size)`, `comm != MPI_COMM_NULL`. What cannot be expressed
// becomes a symbol of the right kind (uniform or per-rank), so the answer
// stays sound: a per-rank unknown can differ between any two ranks.
#pragma once

#include "Formula.h"
#include "FunctionCFG.h"
#include "RankValue.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace lockstep::analysis {

class ReachingAssignments;

/// What the translator needs to know about the function's values.
struct ConditionFacts {
  /// The value an operand had where it was read; null if never evaluated.
  std::function<const RankValue *(const clang::Expr *)> ValueAt;
  /// The value a block's condition has (RankDependence's Conditions).
  std::function<const RankValue *(const clang::CFGBlock &)> ConditionAt;
  /// Whether a value computed in this function differs between ranks.
  std::function<bool(const RankValue &)> Differs;
  /// The formula `comm == MPI_COMM_NULL` for a communicator (Membership).
  std::function<FormulaRef(const clang::ValueDecl *Comm)> IsNull;
  /// Whether a handle is a communicator made by a rank-dependent split.
  std::function<bool(const clang::ValueDecl *Comm)> IsSplit;
  /// Told the per-rank symbol made for each value: one the same on every
  /// member of a communicator (`MPI_Comm_size(sub, &n)`) is tied there.
  std::function<void(const RankValue &, FormulaRef Symbol)> PerRankSymbol;
  /// Whether an edge is the passing arm of a status check whose failing arm
  /// is cut (ErrorPaths): its guard is `true` for every path analysed. A
  /// status is the same on every rank, so this only drops conjuncts that
  /// long functions of `NCCLCHECK`s would add to every question.
  std::function<bool(const clang::CFGBlock &Block, unsigned Index)> PassesStatusCheck;
  /// Whether a split's colour is computed from a field (`d.color` of
  /// `MPI_Comm_split(w, d.color, k, &d.group)`, fieldsBehind): its per-rank
  /// reads, in any function, are one symbol, so that tests of it line up
  /// with the split.
  std::function<bool(const clang::ValueDecl *Field)> IsColourField;
  /// The key of element \p At of an array field that holds a sub-grid's
  /// coordinates (`d->coords` of `MPI_Cart_coords(d->cart, r, 3,
  /// d->coords)` before `MPI_Cart_sub`), or null: its per-rank reads, in any
  /// function, are one symbol, so that tests of it line up with the split.
  std::function<const void *(const clang::FieldDecl *Field, uint64_t At)> CoordinateKey;
  /// The object standing for the communicator in \p Field of \p Object
  /// (WrapperObjects), or null.
  std::function<const clang::ValueDecl *(const clang::ValueDecl *Object,
                                         const clang::FieldDecl *Field)>
      ObjectCommunicator;
  /// Whether a field may hold a per-rank value: some function writes one
  /// into it, another file may, or its name says it holds a rank. An
  /// accessor's field that none does is the same on every rank.
  std::function<bool(const clang::FieldDecl *Field)> FieldDiffers;
  /// What every call passes for a parameter the function does not write,
  /// in the caller's terms (ParameterBindings); nullopt when calls differ or
  /// are not all seen.
  std::function<std::optional<FormulaRef>(const clang::ParmVarDecl *Param)> ParameterValue;
  /// The communicator a parameter stands for (Membership::passed): the rank
  /// in it is the rank in the caller's.
  std::function<const clang::ValueDecl *(const clang::ValueDecl *Comm)> CommunicatorPassed;
  /// Whether \p Call releases the handle whose address it is given
  /// (`MPI_Comm_free(&c)`): it leaves the handle null wherever it runs, so
  /// the handle's earlier reads are still what it held before.
  std::function<bool(const clang::CallExpr *Call)> ReleasesHandle;
};

/// Whether \p E is an integer (or boolean) expression, as formulas take it.
bool isInteger(const clang::Expr *E);

/// The expression a call of \p Callee stands for, when its whole body is
/// `return E;` over integers (an accessor such as `bool is_first() const
/// { return stage == 0; }`) and the call runs that body: not a virtual
/// call, not a library's; null otherwise.
const clang::Expr *returnedExpression(const clang::FunctionDecl *Callee);

/// The integer fields \p E is computed from: those it reads, also through
/// the initializers of the locals it reads and the bodies of the accessors
/// it calls (`is_leader() ? 0 : MPI_UNDEFINED` reads `node_rank`).
void fieldsBehind(const clang::Expr *E, llvm::DenseSet<const clang::ValueDecl *> &Into);

class ConditionFormula {
public:
  ConditionFormula(const FunctionCFG &Function, FormulaArena &Arena, ConditionFacts Facts);
  ~ConditionFormula();

  /// The condition \p Block's terminator tests, as a boolean formula.
  FormulaRef condition(const clang::CFGBlock &Block);
  /// The formula of an arbitrary expression of the function (boolean or
  /// integer, as its type says).
  FormulaRef expression(const clang::Expr *E);
  /// \p E, an expression of the function \p Call (a call of this function)
  /// runs, with that function's parameters the call's arguments; nullopt
  /// when \p E reads anything else of that function's.
  std::optional<FormulaRef> atCall(const clang::CallExpr *Call, const clang::Expr *E);
  /// The value of `Array[At]` of a local array read where \p Write left it
  /// (`coords[1]` after `MPI_Cart_coords(grid, rank, 2, coords)`).
  FormulaRef writtenElement(const clang::VarDecl *Array, const void *Write, unsigned At);
  /// The same, where \p Stable are variables whose reads in \p Scope (a loop
  /// that does not write them) all see one value: one symbol per variable
  /// there, though the function writes them elsewhere.
  FormulaRef expression(const clang::Expr *E, const clang::Stmt *Scope,
                        const llvm::DenseSet<const clang::VarDecl *> &Stable);
  /// The guard of the edge from \p Block to its \p Index'th successor.
  FormulaRef edge(const clang::CFGBlock &Block, unsigned Index);
  /// Whether some expression was too large to follow (limits::MaxExpressionNodes).
  bool truncated() const { return Truncated; }
  /// Whether some read met more merges of differently assigned paths than
  /// limits::MaxReachingBranches lets it follow.
  bool reachingLimited() const { return ReachingLimited; }

private:
  FormulaRef translateEdge(const clang::CFGBlock &Block, unsigned Index);
  FormulaRef translate(const clang::Expr *E, bool WantBoolean);
  FormulaRef translateBinary(const clang::BinaryOperator *Binary, bool WantBoolean);
  FormulaRef leaf(const clang::Expr *E, bool WantBoolean);
  std::optional<FormulaRef> inlinedCall(const clang::CallExpr *Call, bool WantBoolean);
  std::optional<FormulaRef> constructedSize(const clang::Expr *E);
  bool keepsSize(const clang::VarDecl *Container);
  std::optional<const void *> objectKey(const clang::Expr *Object) const;
  bool writtenFieldWise(const clang::Expr *Object) const;
  FormulaRef inlinedLeaf(const clang::Expr *E, bool WantBoolean);
  FormulaRef notInlined(bool WantBoolean);
  std::optional<FormulaRef> reachingValue(const clang::Expr *E, bool WantBoolean);
  const void *fieldKey(const void *Owner, const void *Part);
  const void *writtenValueKey(const clang::Expr *E, const void *Write);
  const void *coordinateKey(const clang::Expr *E) const;
  const void *elementKey(const clang::VarDecl *Array, const void *Write, uint64_t At);
  FormulaRef symbolFor(const clang::Expr *E, const clang::ValueDecl *Named, bool PerRank,
                       bool Boolean);
  std::optional<FormulaRef> communicatorTest(const clang::BinaryOperator *Compare);
  void collectWrites(const clang::Stmt *Body);
  struct FieldWrites {
    bool ByMethods = false;           // a method other than a constructor
    bool ByConstructorBodies = false; // a constructor, past its initializers
  };
  FieldWrites writesOf(const clang::FieldDecl *Field);
  bool readOnlyArgument(const clang::Expr *AddressOf) const;

  const FunctionCFG &Function;
  FormulaArena &Arena;
  ConditionFacts Facts;
  llvm::DenseSet<const clang::VarDecl *> Written; // assigned after initialization
  llvm::DenseSet<const clang::VarDecl *> Mutated; // objects of non-const method calls
  llvm::DenseMap<const clang::FieldDecl *, FieldWrites> FieldWriters;
  llvm::DenseSet<const clang::ValueDecl *> WrittenFields;
  // One key per (object, field) read: `cfg.n` twice is one symbol.
  llvm::DenseMap<std::pair<const void *, const void *>, const void *> FieldKeys;
  std::deque<char> KeyStorage;
  llvm::DenseMap<const clang::CFGBlock *, FormulaRef> Conditions;
  // edge() per (block, successor): a switch's default edge negates every case.
  llvm::DenseMap<std::pair<const clang::CFGBlock *, unsigned>, FormulaRef> Edges;
  llvm::DenseSet<const clang::VarDecl *> Expanding;      // initializers being substituted
  llvm::DenseMap<const clang::VarDecl *, bool> SizeKept; // keepsSize's answers
  // Calls of one-expression accessors being translated in place
  // (`t.is_first()` is `t.stage == 0`), innermost last.
  struct InlinedCall {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Callee;
    const void *Owner; // what `this` is there: a variable, or null for the function's own
    // An object without a stable identity (one the function writes): only
    // the fields a split's colour is computed from, one symbol for every
    // object, can be read there.
    bool Anonymous = false;
    // An anonymous object held in a field of the function's own object
    // (`leaders_->member()`): that field, which names its communicator.
    const clang::FieldDecl *HeldIn = nullptr;
    // A local the function writes field by field only (`r.pp = 2;`),
    // declared with values every rank agrees on: a field nothing writes a
    // per-rank value into is the same on every rank there.
    bool FieldWise = false;
    bool Failed = false;
  };
  std::vector<InlinedCall> Inlined;
  /// \p E translated inside \p Frame; nullopt where it reads what the
  /// frame cannot give.
  std::optional<FormulaRef> translateIn(InlinedCall Frame, const clang::Expr *E, bool WantBoolean);
  const clang::Stmt *StableScope = nullptr; // while expression(E, Scope, Stable) runs
  const llvm::DenseSet<const clang::VarDecl *> *StableVars = nullptr;
  unsigned Budget = 0;
  bool Truncated = false;
  // Which assignment a read of a local assigned more than once sees (built
  // on the first such read); reads being translated, against cycles.
  std::unique_ptr<ReachingAssignments> Reaching;
  llvm::DenseSet<const clang::DeclRefExpr *> ExpandingReads;
  // Each read's choice, once made: a chain of updates (`n += 1` under each
  // of several branches) would translate the earlier ones again per read.
  llvm::DenseMap<std::pair<const clang::DeclRefExpr *, unsigned>, std::optional<FormulaRef>>
      ReachingValues;
  unsigned Nested = 0; // > 0 while a read's branches are translated
  bool ReachingLimited = false;
};

} // namespace lockstep::analysis
