// The collective events of a function: which collectives run, in which
// order, on every path between two points of its CFG. Calls to functions of
// the translation unit contribute their own sequence (their summary), so a
// barrier hidden in a checkpoint routine is seen at the call.
#pragma once

#include "CallClassifier.h"
#include "ExternalIndex.h"
#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

namespace lockstep::analysis {

/// One collective as the ranks see it.
struct CollectiveEvent {
  std::string key;          // what every rank must agree on: operation and arguments
  std::string collective;   // "MPI_Barrier", "c10d::ProcessGroup::allreduce", ...
  std::string communicator; // the communicator as written, when the rules name it
  const clang::ValueDecl *communicatorDecl = nullptr; // the variable or field holding it
  std::vector<std::pair<std::string, std::string>> agreedArguments; // (role, as written)
  clang::SourceLocation site;                  // in the analysed function
  const clang::Stmt *siteStmt = nullptr;       // the call there (null for destructors)
  clang::SourceLocation collectiveSite;        // the collective call itself
  const clang::FunctionDecl *via = nullptr;    // the function called at site, if any
  bool loopBack = false;                       // marks a path that goes around a loop
  bool groupMarker = false;                    // ncclGroupStart/End: local, but must pair up
  bool joinBoundary = false;                   // a join protocol's own begin or end
  std::vector<const rules::JoinProtocolRule *> shadowedBy; // join protocols that shadow the call
  SourcePoint externalSite; // the collective inside a function of another file
  bool pending = false;     // a call to a function no file has summarised yet
};

/// The events on one path, and how the path leaves (return, break, ...).
struct EventPath {
  std::vector<CollectiveEvent> events;
  const clang::Stmt *leaving = nullptr;

  std::string signature() const;
};

struct PathSet {
  std::vector<EventPath> paths; // distinct by signature
  bool overflow = false;        // too many paths or events: no claim is made

  bool sameSequencesAs(const PathSet &Other) const;
};

class CollectiveEvents {
public:
  /// With \p KeepPending, a call to a user function defined in no analysed
  /// file is an event named PendingPrefix + its USR, resolved later.
  CollectiveEvents(const CallClassifier &Classifier,
                   const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions,
                   const ExternalIndex &External, bool KeepPending);

  /// Whether \p FD performs a collective or a group marker, directly or
  /// through the functions of the translation unit it calls.
  bool performsCollectives(const clang::FunctionDecl *FD) const;

  /// The sequences \p FD runs from entry to exit; null for a function
  /// without a CFG here, or one already being summarised (recursion).
  const PathSet *functionSummary(const clang::FunctionDecl *FD);

  /// Every path from \p From up to (excluding) \p Stop.
  PathSet paths(const FunctionCFG &Function, const clang::CFGBlock *From,
                const clang::CFGBlock *Stop);

  /// The collectives of one block, in execution order.
  std::vector<CollectiveEvent> blockEvents(const FunctionCFG &Function,
                                           const clang::CFGBlock &Block);

private:
  const FunctionCFG *cfgOf(const clang::FunctionDecl *FD) const;
  void addCallEvents(const clang::FunctionDecl *Callee, clang::SourceLocation Site,
                     const clang::Stmt *SiteStmt, std::vector<CollectiveEvent> &Out);
  bool externallyPerforming(const clang::FunctionDecl *Callee) const;
  bool pendingCandidate(const clang::FunctionDecl *Callee) const;
  CollectiveEvent directEvent(const clang::CallExpr *Call, const CalleeRole &Role,
                              clang::ASTContext &Context) const;

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  const ExternalIndex &External;
  bool KeepPending;
  llvm::DenseSet<const clang::FunctionDecl *> Performing;
  llvm::DenseMap<const clang::FunctionDecl *, PathSet> Summaries;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

} // namespace lockstep::analysis
