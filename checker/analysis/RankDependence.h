// Rank dependence of one function: a forward data flow over its CFG from the
// rank sources of the rules through assignments, arithmetic, fields,
// references, pointers to locals, calls and implicit flow (assignments made
// under a rank-dependent condition). Parameters stay symbolic (a bit per
// parameter) so that one run per function serves every call site.
#pragma once

#include "CallClassifier.h"
#include "CallSite.h"
#include "ExternalIndex.h"
#include "FunctionCFG.h"
#include "RankValue.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <vector>

namespace lockstep::analysis {

/// The fields of a record value, each with its own dependence.
using FieldValues = std::map<const clang::FieldDecl *, RankValue>;

/// What callers need to know about a function.
struct FunctionFacts {
  RankValue returnValue;            // params bits refer to the callee's parameters
  FieldValues returnedFields;       // a returned record, field by field
  std::vector<RankValue> outParams; // written through pointer or reference parameters
  uint64_t agreedParams = 0; // bit i: a collective agrees what parameter i points or refers to
  // Globals it, or a function it calls, writes with a value that may differ
  // between ranks: they hold that value after a call, not before it.
  llvm::DenseSet<const clang::ValueDecl *> writtenGlobals;

  bool sameAs(const FunctionFacts &Other) const;
};

struct CallSiteRecord {
  const clang::FunctionDecl *callee = nullptr; // canonical declaration
  std::vector<RankValue> args;                 // in the caller's terms
  // Each argument that is a plain struct, field by field (none otherwise).
  std::vector<std::optional<FieldValues>> argFields;
};

/// A write to storage that outlives the function: a field or a global.
struct SharedWrite {
  const clang::ValueDecl *decl = nullptr;
  RankValue value;
};

/// The interprocedural facts one function's analysis reads.
class DependenceEnvironment {
public:
  DependenceEnvironment(const CallClassifier &Classifier, ProvenanceArena &Arena,
                        const ExternalIndex &External)
      : classifier(Classifier), arena(Arena), external(External) {}

  const CallClassifier &classifier;
  ProvenanceArena &arena;
  const ExternalIndex &external; // functions defined in other files
  llvm::DenseMap<const clang::FunctionDecl *, FunctionFacts> facts; // by canonical decl
  llvm::DenseMap<const clang::ValueDecl *, RankValue> shared;       // fields, globals, captures
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const Provenance *>> seeds;
  /// Struct parameters (by value or reference) that every call of the file
  /// passes field by field: why each field differs between ranks (null: it
  /// does not). A context object with the rank and the communicator in it
  /// hands over a per-rank rank and a communicator every rank shares.
  using FieldSeeds = std::map<const clang::FieldDecl *, const Provenance *>;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<std::optional<FieldSeeds>>> fieldSeeds;

  /// The field seeds of parameter \p Index of \p Function; null when some
  /// call passes it as a whole value, or nothing in the file calls it.
  const FieldSeeds *fieldSeedsOf(const clang::FunctionDecl *Function, unsigned Index) const;

  /// The provenance "named as a rank" for \p D (one record per declaration).
  const Provenance *rankName(const clang::NamedDecl *D);

  /// Why \p Value, computed in \p Function, differs between ranks; null when
  /// it is uniform on every call of \p Function.
  const Provenance *resolve(const RankValue &Value, const clang::FunctionDecl *Function) const;

  /// Why a field or global that another file writes with a per-rank value
  /// differs between ranks (its summary says so); null when no file does.
  const Provenance *writtenElsewhere(const clang::ValueDecl *D);

private:
  llvm::DenseMap<const clang::NamedDecl *, const Provenance *> NameProvenances;
  llvm::DenseMap<const clang::ValueDecl *, const Provenance *> ElsewhereProvenances;
};

/// A collective argument every rank must pass identically (root, count,
/// ...) that may differ between ranks.
struct AgreedArgument {
  const clang::CallExpr *call = nullptr;
  std::string collective;
  const char *role = "";
  const clang::Expr *argument = nullptr;
  RankValue value;
};

/// A communicator created by a split whose colour differs between ranks:
/// only the ranks of one colour use each resulting communicator.
struct RankSplit {
  const clang::ValueDecl *communicator = nullptr; // where the new handle is stored
  const clang::Expr *color = nullptr;
  RankValue value;
};

struct FunctionDependence {
  llvm::DenseMap<const clang::CFGBlock *, RankValue> conditions; // tautologies are clean
  FunctionFacts facts;
  std::vector<CallSiteRecord> calls;
  std::vector<SharedWrite> sharedWrites;
  std::vector<AgreedArgument> agreedArguments;
  std::vector<RankSplit> splits;
  llvm::DenseSet<const clang::ValueDecl *> sharedReads;  // fields and globals consulted
  llvm::DenseMap<const clang::Expr *, RankValue> values; // each expression where it is read
  bool settled = true; // false: limits::DependenceVisitsPerBlock was reached
};

FunctionDependence analyzeDependence(const FunctionCFG &Function, DependenceEnvironment &Env);

} // namespace lockstep::analysis
