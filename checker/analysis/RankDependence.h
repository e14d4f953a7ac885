// Rank dependence of one function: a forward data flow over its CFG from the
// rank sources of the rules through assignments, arithmetic, fields,
// references, pointers to locals, calls and implicit flow (assignments made
// under a rank-dependent condition). Parameters stay symbolic (a bit per
// parameter) so that one run per function serves every call site.
#pragma once

#include "CallClassifier.h"
#include "CallSite.h"
#include "ErrorPaths.h"
#include "ExternalIndex.h"
#include "FunctionCFG.h"
#include "IndirectCalls.h"
#include "RankValue.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace lockstep::analysis {

class OwnFieldWrites;

/// The fields of a record value, each with its own dependence.
using FieldValues = std::map<const clang::FieldDecl *, RankValue>;

/// A field inside a global struct, by its path (`g_cfg.substeps`,
/// `g_run.io.stride`): each global keeps its own, unlike a field written in
/// any object.
struct GlobalPart {
  const clang::VarDecl *Global = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;

  bool operator<(const GlobalPart &Other) const {
    return std::tie(Global, Fields) < std::tie(Other.Global, Other.Fields);
  }
  bool operator==(const GlobalPart &Other) const {
    return Global == Other.Global && Fields == Other.Fields;
  }
};

/// What callers need to know about a function.
struct FunctionFacts {
  RankValue ReturnValue; // params bits refer to the callee's parameters
  // A returned container's own state (its size), without its elements,
  // which ReturnValue holds as well; else ReturnValue.
  RankValue ReturnedOwn;
  FieldValues ReturnedFields; // a returned record, field by field
  // The elements of a returned record's container fields (`b.x` that
  // make_shard(rank) filled per rank), apart from their sizes.
  FieldValues ReturnedFieldElements;
  // A returned tuple, element by element, while every return builds one
  // of as many elements (`return std::make_tuple(r, n, r == 0);`).
  std::vector<RankValue> ReturnedTuple;
  // Every return gives a value computed from what a collective agreed
  // (`return go != 0;` after broadcasting `go`): the same on every rank
  // whichever override of a virtual call runs, as long as their
  // collectives match (which the dispatch check compares).
  bool ReturnsAgreed = false;
  // Written through pointer or reference parameters, by parameter: the whole
  // pointee (`*out = v`), one of its fields (`s->n = v`), or elements of the
  // container a reference reaches (`v[i] = rank`: the caller's container
  // keeps its size, only its elements differ), or elements of a container
  // field of the pointee (`s.v.assign(n, rank)`: the field keeps its size).
  std::vector<RankValue> OutParams;
  std::vector<FieldValues> OutFields;
  std::vector<RankValue> OutElements;
  // One field of those elements, written apart from the rest (`l.norm = s`
  // for each `l` of `model`): the elements' other fields keep their values.
  std::vector<FieldValues> OutElementFields;
  std::vector<FieldValues> OutFieldElements;
  // Elements of a container field of the elements of the container a
  // reference reaches (`for (auto &b : buckets) std::fill(b.flat...)`).
  std::vector<FieldValues> OutNestedElements;
  // The fields of what parameter i points or refers to that every path to
  // the exit assigns with a value the same on every rank (`p.n = ints[0];`
  // after broadcasting `ints`), in declaration order.
  std::vector<std::vector<const clang::FieldDecl *>> AssignedFields;
  // The fields of its own object (`this`) a method leaves set at its exit,
  // with what they hold there (`dp_rank = world_rank / tp;` in
  // `grid.build(2)`), by one write on every path: the caller's object holds
  // that after the call.
  FieldValues OwnFieldsAtExit;
  uint64_t AgreedParams = 0; // bit i: a collective agrees what parameter i points or refers to
  // Bit i: every path to the exit sets the number parameter i points or
  // refers to, to a value the same on every rank (`*ok = tmp;` after
  // broadcasting `tmp`, `*n = 0;`): what the caller held there is gone.
  uint64_t AssignedParams = 0;
  // Bit i: a branch on parameter i picks what it returns (a factory:
  // `if (rank < k) return std::make_unique<Sharded>(); return ...;`), at the
  // first such return.
  uint64_t ReturnChosenBy = 0;
  clang::SourceLocation ReturnChosenAt;
  // Bit i: it writes the whole of what parameter i points or refers to, with
  // any value (`void fill(int &x) { x = 5; }`): callers that call it on some
  // ranks only hold different values after it.
  uint64_t WrittenParams = 0;
  // Globals (and, for a lambda, variables it captures by reference) it, or a
  // function it calls, writes with a value that may differ between ranks:
  // they hold that value after a call, not before it.
  llvm::DenseSet<const clang::ValueDecl *> WrittenGlobals;
  // Likewise for fields of globals (`if (rank == 0) apply(file, g_cfg);`).
  std::set<GlobalPart> WrittenGlobalParts;
  // Those it writes with any value: a call of it defines them, so a call on
  // some ranks only leaves them differing (`if (wet) physics();` advancing
  // `steps`). With each, the constant every path leaves there (`ready =
  // true`), which defines it alike wherever a call writes it; else null.
  llvm::DenseMap<const clang::ValueDecl *, const clang::Expr *> AssignedGlobals;
  std::map<GlobalPart, const clang::Expr *> AssignedGlobalParts;
  // An exception may leave it (a `throw` or a throwing call outside any
  // `try`), on the ranks ThrowsWhen picks; ThrowAt: the first such throw.
  bool Throws = false;
  RankValue ThrowsWhen;
  clang::SourceLocation ThrowAt;
  // What it hands each callable parameter it calls (`callback(value)`), by
  // parameter index, argument by argument over all such calls: a caller's
  // callable receives these, in the caller's terms.
  std::map<unsigned, std::vector<RankValue>> CallbackArgs;

  /// Empty facts for a function of \p Params parameters.
  explicit FunctionFacts(unsigned Params = 0)
      : OutParams(Params), OutFields(Params), OutElements(Params), OutElementFields(Params),
        OutFieldElements(Params), OutNestedElements(Params), AssignedFields(Params) {}

  bool sameAs(const FunctionFacts &Other) const;
};

struct CallSiteRecord {
  const clang::FunctionDecl *Callee = nullptr; // canonical declaration
  std::vector<RankValue> Args;                 // in the caller's terms
  // What each argument's elements hold when the parameter is a container
  // (its entry in Args is then the container's own state); else as Args.
  std::vector<RankValue> ArgElements;
  // Each argument that is a plain struct, field by field (none otherwise).
  std::vector<std::optional<FieldValues>> ArgFields;
};

/// A write to storage that outlives the function: a field or a global.
struct SharedWrite {
  const clang::ValueDecl *Decl = nullptr;
  RankValue Value;
  bool Elements = false; // written: the elements of the container \p Decl holds
  GlobalPart Part;       // a field of a global: its path (\p Decl is the field)
};

/// The interprocedural facts one function's analysis reads.
class DependenceEnvironment {
public:
  DependenceEnvironment(const CallClassifier &Classifier, ProvenanceArena &Arena,
                        const ExternalIndex &External)
      : Classifier(Classifier), Arena(Arena), External(External) {}

  const CallClassifier &Classifier;
  ProvenanceArena &Arena;
  const ExternalIndex &External; // functions defined in other files
  // What calls through pointers and virtual calls may run (null: nothing known).
  const IndirectCalls *Indirect = nullptr;
  // The failing arms of status checks, cut from the walks (null: none cut).
  ErrorPaths *Paths = nullptr;
  // The fields of its object each method changes (null: none followed).
  OwnFieldWrites *OwnFields = nullptr;
  llvm::DenseMap<const clang::FunctionDecl *, FunctionFacts> Facts; // by canonical decl
  llvm::DenseMap<const clang::ValueDecl *, RankValue> Shared;       // fields, globals, captures
  std::map<GlobalPart, RankValue> SharedParts;                      // fields of globals
  // The elements of the containers such storage holds, where they differ
  // between ranks and its size need not (`diag_[i] = 1.0 / (1 + rank)`).
  llvm::DenseMap<const clang::ValueDecl *, RankValue> SharedElements;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const Provenance *>> Seeds;
  // Why the elements of each container parameter differ (null: they do not).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const Provenance *>> ElementSeeds;
  /// Struct parameters (by value or reference) that every call of the file
  /// passes field by field: why each field differs between ranks (null: it
  /// does not). A context object with the rank and the communicator in it
  /// hands over a per-rank rank and a communicator every rank shares.
  using FieldSeedMap = std::map<const clang::FieldDecl *, const Provenance *>;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<std::optional<FieldSeedMap>>> FieldSeeds;

  /// The field seeds of parameter \p Index of \p Function; null when some
  /// call passes it as a whole value, or nothing in the file calls it.
  const FieldSeedMap *fieldSeedsOf(const clang::FunctionDecl *Function, unsigned Index) const;

  /// The functions \p Call may run that may throw out of their body: its
  /// callee, or the overrides a virtual call may run.
  std::vector<std::pair<const clang::FunctionDecl *, const FunctionFacts *>>
  throwingTargets(const clang::CallExpr *Call) const;

  /// Why a value of another file differs between ranks, as its summary says.
  const Provenance *fromSummary(const ExternalFunction &Summary, clang::SourceLocation Loc);

  /// The provenance "named as a rank" for \p D (one record per declaration).
  const Provenance *rankName(const clang::NamedDecl *D);

  /// Why \p Value, computed in \p Function, differs between ranks; null when
  /// it is uniform on every call of \p Function.
  const Provenance *resolve(const RankValue &Value, const clang::FunctionDecl *Function) const;
  /// The split that made the communicator \p Handle, computed in \p Function
  /// (null: none known).
  const Provenance *splitBehind(const RankValue &Handle, const clang::FunctionDecl *Function) const;

  /// Why a field or global that another file writes with a per-rank value
  /// differs between ranks (its summary says so); null when no file does.
  /// With PendingRoot, one of the project that no summary names is pending.
  const Provenance *writtenElsewhere(const clang::ValueDecl *D);

  /// Why the result of \p Call, to a function of the project defined in
  /// another file that no summary names, may differ between ranks (pending
  /// on its summary); null without PendingRoot or for a library function.
  const Provenance *returnedElsewhere(const clang::CallExpr *Call,
                                      const clang::FunctionDecl *Callee);

  // `lockstep check` resolves findings on fields, globals and functions of
  // other files that no summary names yet, declared under this directory
  // ("": none).
  std::string PendingRoot;

private:
  llvm::DenseMap<const clang::NamedDecl *, const Provenance *> NameProvenances;
  llvm::DenseMap<const clang::ValueDecl *, const Provenance *> ElsewhereProvenances;
  llvm::DenseMap<const clang::CallExpr *, const Provenance *> ReturnedProvenances;
};

/// A collective argument every rank must pass identically (root, count,
/// ...) that may differ between ranks.
struct AgreedArgument {
  const clang::CallExpr *Call = nullptr;
  std::string Collective;
  const char *Role = "";
  const clang::Expr *Argument = nullptr;
  RankValue Value;
};

/// A communicator created by a split whose colour differs between ranks:
/// only the ranks of one colour use each resulting communicator.
struct RankSplit {
  const clang::ValueDecl *Communicator = nullptr; // where the new handle is stored
  const clang::Expr *Color = nullptr;
  RankValue Value;
  const clang::ValueDecl *Parent = nullptr; // the communicator split, when named
  // A Cartesian sub-grid (no Color): split by this rank's coordinates in the
  // dimensions Dims drops, as the local array Coordinates holds them where
  // CoordinatesWrite wrote them, or as every object's array field
  // CoordinatesField does.
  const clang::VarDecl *Coordinates = nullptr;
  const void *CoordinatesWrite = nullptr;
  const clang::FieldDecl *CoordinatesField = nullptr;
  llvm::SmallVector<unsigned, 2> Dims;
  // Parted by where each rank runs (rules' parts_by_placement), not by Color:
  // its members are the ranks that share a part no formula here can name.
  bool ByPlacement = false;
  // Made for the members of the group Color names (rules' member_group,
  // `MPI_Comm_create(world, group, &sub)`); the other ranks hold a null
  // handle.
  bool ByGroup = false;
  const clang::CallExpr *Call = nullptr; // the call that made it

  /// Whether Color is a colour argument every member passes alike.
  bool colouredByArgument() const { return Color && !ByPlacement && !ByGroup; }
};

/// A call that may run one of several functions (an override, a stored
/// callable), with what decides which: the object or the callable it goes
/// through.
struct DispatchCall {
  const clang::CallExpr *Call = nullptr;
  const clang::Expr *Holder = nullptr; // `logger` of `logger->log()`, `f` of `f(x)`
  RankValue Value;                     // the holder's
  // A method that is not virtual itself but makes a virtual call on `this`
  // (`t->run()` calling `on_step_end()`): that call, which the holder's
  // type decides.
  const clang::CXXMemberCallExpr *Inner = nullptr;
  // The functions a library call chooses among (`std::visit`), when the
  // call has no targets of its own.
  std::vector<const clang::FunctionDecl *> Choices;
};

struct FunctionDependence {
  llvm::DenseMap<const clang::CFGBlock *, RankValue> Conditions; // tautologies are clean
  FunctionFacts Facts;
  std::vector<CallSiteRecord> Calls;
  std::vector<SharedWrite> SharedWrites;
  std::vector<AgreedArgument> AgreedArguments;
  std::vector<RankSplit> Splits;
  std::vector<DispatchCall> Dispatches;
  llvm::DenseSet<const clang::ValueDecl *> SharedReads;  // fields and globals consulted
  llvm::DenseMap<const clang::Expr *, RankValue> Values; // each expression where it is read
  bool Settled = true; // false: limits::DependenceVisitsPerBlock was reached
  // Where the flow read the parameters' seeds themselves rather than leaving
  // them as parameter bits; only new seeds there change the result. Bit i:
  // the fields of parameter i (a struct passed field by field). And the
  // communicators on parameters whose split it looked up, with the split
  // found (DependenceEnvironment::splitBehind).
  uint64_t FieldSeedsRead = 0;
  std::vector<std::pair<RankValue, const Provenance *>> SplitLookups;
};

FunctionDependence analyzeDependence(const FunctionCFG &Function, DependenceEnvironment &Env);

} // namespace lockstep::analysis
