// The engine's entry point: analyses every function of a translation unit
// (rank dependence to a fixed point across calls, collective summaries,
// divergence) and keeps the results as plain data for the checks.
#pragma once

#include "CallClassifier.h"
#include "CollectiveEvents.h"
#include "Divergence.h"
#include "ErrorPaths.h"
#include "ExternalIndex.h"
#include "Formula.h"
#include "FunctionCFG.h"
#include "GroupBalance.h"
#include "GuardedSequences.h"
#include "HandleCommunicators.h"
#include "Limits.h"
#include "LoopDivergence.h"
#include "Membership.h"
#include "OwnFieldWrites.h"
#include "ParameterBindings.h"
#include "RankDependence.h"
#include "RankSolver.h"
#include "WrapperObjects.h"

#include "clang/AST/ASTContext.h"

#include <array>
#include <map>
#include <memory>
#include <vector>

namespace lockstep::analysis {

/// A branch whose condition differs between ranks.
struct RankDependentBranch {
  const clang::FunctionDecl *Function = nullptr;
  const clang::Expr *Condition = nullptr;
  const Provenance *Source = nullptr;
};

/// A collective argument every rank must pass identically that differs
/// between ranks: `ncclBroadcast(..., /*root=*/rank, ...)`.
struct RankArgument {
  const clang::FunctionDecl *Function = nullptr;
  const clang::CallExpr *Call = nullptr;
  std::string Collective;
  std::string Role; // "root", "count", ...
  const clang::Expr *Argument = nullptr;
  const Provenance *Source = nullptr;
  std::string Communicator; // as written, when the rules name one
  // Role "communicator": a rank the split that made the handle leaves out
  // (its colour is MPI_UNDEFINED, the handle null) reaches the call.
  std::optional<RankWitness> NonMember;
};

/// What `lockstep check` leaves pending until every file is summarised.
struct PendingFacts {
  bool Enabled = false;
  // Reads of fields and globals, and results of functions of other files,
  // declared under this directory (the project's, not a library's such as
  // `ompi_mpi_comm_world`); "": none.
  std::string Root;
};

class TranslationUnitAnalysis {
public:
  /// \p External summarises functions defined in other files. With
  /// \p Pending, calls to user functions defined nowhere yet also yield
  /// findings about pending events (CollectiveEvent::pendingUsr), and reads
  /// of fields and globals and results of functions of other files that no
  /// summary names yet yield findings pending on them (Provenance::Pending), for `lockstep check`
  /// to resolve once every file is summarised. \p Options say which error paths count as ranks that
  /// leave.
  TranslationUnitAnalysis(clang::ASTContext &Context, const CallClassifier &Classifier,
                          const ExternalSummaries *External = nullptr, PendingFacts Pending = {},
                          PathOptions Options = {});
  ~TranslationUnitAnalysis();

  const std::vector<Divergence> &divergences() const { return Divergences; }
  const std::vector<LoopDivergence> &loopDivergences() const { return LoopDivergences; }
  const std::vector<RankArgument> &rankArguments() const { return RankArguments; }
  const std::vector<GroupImbalance> &groupImbalances() const { return GroupImbalances; }
  const std::vector<RankDependentBranch> &rankDependentBranches() const { return Branches; }
  /// Bounds of Limits.h that were reached: claims about those functions may
  /// be incomplete.
  const std::vector<AnalysisLimit> &limits() const { return Limits; }
  /// How the rank questions were settled, for benchmarks.
  const SolverStatistics &solverStatistics() const { return Solver.statistics(); }

  /// What this file's functions do, for the callers in other files.
  ExternalSummaries exportSummaries() const;

private:
  void collectFunctions(clang::ASTContext &Context);
  void computeDependence();
  std::vector<const FunctionCFG *> calleesFirst() const;
  std::map<const clang::ValueDecl *, std::string> splitsByPart() const;
  void computeSeeds();
  void computeFieldSeeds();
  /// Publishes the fields and globals \p Function writes with per-rank
  /// values; returns those that were not known to be per-rank before.
  llvm::SmallVector<const clang::ValueDecl *> publishSharedWrites(const FunctionCFG &Function,
                                                                  const FunctionDependence &Result);
  FunctionShape &shapeOf(const FunctionCFG &Function, bool WithPending = false);
  /// Summaries of \p With's functions; those that do not wait for another
  /// file take \p Settled's (the pass without pending events) unwalked.
  void summarize(CollectiveEvents &With, SequenceBuilder &Walker,
                 const CollectiveEvents *Settled = nullptr);
  bool tripAgreed(FunctionShape &Shape, const clang::CFGBlock &Header,
                  const clang::ValueDecl *Comm = nullptr, const clang::VarDecl *Counter = nullptr);
  std::optional<FormulaRef> passedValue(const clang::ParmVarDecl *Param, bool WithPending);
  bool sameOnMembers(const FunctionCFG &Function, const clang::Expr *Value,
                     const clang::ValueDecl *Comm);
  void findDivergences();
  void findDispatchDivergences();
  void findRankArguments();
  /// The condition under which a rank reaches \p Call in \p Function.
  std::optional<FormulaRef> reachingCall(const FunctionCFG &Function, const clang::CallExpr *Call);
  std::optional<RankWitness> nonMemberReaches(const FunctionCFG &Function,
                                              const clang::CallExpr *Call, const clang::Expr *Comm);
  std::pair<clang::SourceLocation, const clang::FunctionDecl *>
  throwSite(const clang::CFGBlock &Block) const;
  void findGroupImbalances();
  void collectSplits();
  FormulaRef groupColour(const FunctionCFG &Function, const RankSplit &Split);
  void collectCoordinateCopies(const FunctionCFG &Function, const RankSplit &Split);
  void collectHandleCopies();

  const CallClassifier &Classifier;
  ProvenanceArena Arena;
  ExternalIndex External;
  DependenceEnvironment Env;
  std::vector<std::unique_ptr<FunctionCFG>> Functions;
  std::unique_ptr<ThrowingFunctions> Throwing; // which functions may let an exception out
  llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> ByDecl;
  llvm::DenseMap<const FunctionCFG *, FunctionDependence> Dependence;
  std::unique_ptr<ErrorPaths> Paths;
  std::unique_ptr<IndirectCalls> Indirect;
  std::unique_ptr<ParameterBindings> Bindings;
  OwnFieldWrites OwnFields;
  unsigned BindingDepth = 0; // callers followed for the parameter being translated
  llvm::DenseSet<const clang::ParmVarDecl *> BindingLimited; // reported at the depth bound
  // What calls pass for a parameter, once worked out; and the functions
  // whose parameters are being worked out (not entered again).
  llvm::DenseMap<std::pair<const clang::ParmVarDecl *, unsigned>, std::optional<FormulaRef>>
      PassedValues;
  llvm::DenseSet<const FunctionCFG *> Translating;
  std::unique_ptr<HandleCommunicators> Handles;
  WrapperObjects Wrappers;
  EventStrings Strings; // the text of every event below
  std::unique_ptr<CollectiveEvents> Events;
  std::unique_ptr<CollectiveEvents> PendingEvents; // with calls to not yet summarised functions
  std::vector<Divergence> Divergences;
  std::vector<LoopDivergence> LoopDivergences;
  std::vector<RankArgument> RankArguments;
  std::vector<GroupImbalance> GroupImbalances;
  std::vector<RankDependentBranch> Branches;
  std::vector<AnalysisLimit> Limits;
  FormulaArena Formulas;
  RankSolver Solver;
  Membership Members;
  llvm::DenseSet<const clang::ValueDecl *> ColourFields; // fields that hold a split's colour
  // Those nothing writes but the one assignment the colour comes from: a
  // read of one, as an argument, is the colour.
  llvm::DenseSet<const clang::ValueDecl *> ColourFieldsSetOnce;
  // Array fields that hold a sub-grid's coordinates: one key per element.
  std::map<const clang::FieldDecl *, std::array<char, limits::TrackedElements>> CoordinateFields;
  // Scalar fields a sub-grid's coordinates are copied into once (`g.j =
  // coords[1]`): the coordinates as the splits name them, and the dimension.
  struct CoordinateCopy {
    const clang::VarDecl *Coordinates;
    const void *Write;
    unsigned Dim;
  };
  llvm::DenseMap<const clang::FieldDecl *, CoordinateCopy> CoordinateCopies;
  SequenceTable Table;
  std::unique_ptr<SequenceBuilder> Builder, PendingBuilder;
  llvm::DenseMap<const FunctionCFG *, std::unique_ptr<FunctionShape>> Shapes, PendingShapes;
};

} // namespace lockstep::analysis
