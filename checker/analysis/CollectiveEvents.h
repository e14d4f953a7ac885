// The collective events of a function: which collectives run, in which
// order, on every path between two points of its CFG. Calls to functions of
// the translation unit contribute their own sequence (their summary), so a
// barrier hidden in a checkpoint routine is seen at the call.
#pragma once

#include "CallClassifier.h"
#include "DecidingParameters.h"
#include "ExternalIndex.h"
#include "FunctionCFG.h"
#include "HandleCommunicators.h"
#include "IndirectCalls.h"
#include "StaticInitializers.h"
#include "WrapperObjects.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace lockstep::analysis {

/// An argument every rank must pass identically, by its role in the rules.
struct EventArgument {
  llvm::StringRef Role;    // "root", "count", ...
  llvm::StringRef Value;   // what is compared: the constant, or the expanded expression
  llvm::StringRef Written; // as the user wrote it, for the diagnostics
  // The parameter of the function making the call that the argument names
  // (`void bar(MPI_Comm c) { MPI_Barrier(c); }`): its callers compare what
  // they pass for it.
  const clang::ParmVarDecl *Parameter = nullptr;
  // Reads a local variable of that function: another function's event
  // cannot be compared with it by what is written.
  bool Local = false;
  // A root that may be MPI_ROOT or MPI_PROC_NULL (IntercommRoots.h): the
  // other group of an intercommunicator names the root's rank instead.
  bool IntercommMarker = false;
};

/// Where events keep their text, once per translation unit. A callee's
/// events are copied into the sequences of every caller, so an event refers
/// to its strings instead of owning them; equal strings are one copy (keys
/// compare by address).
class EventStrings {
public:
  llvm::StringRef save(const llvm::Twine &Text) { return Saver.save(Text); }
  /// A copy of \p Items that lives as long as the strings.
  template <typename T> llvm::ArrayRef<T> save(llvm::ArrayRef<T> Items) {
    static_assert(std::is_trivially_destructible_v<T>, "the allocator runs no destructor");
    if (Items.empty())
      return {};
    T *Saved = Allocator.Allocate<T>(Items.size());
    std::uninitialized_copy(Items.begin(), Items.end(), Saved);
    return {Saved, Items.size()};
  }

private:
  llvm::BumpPtrAllocator Allocator;
  llvm::UniqueStringSaver Saver{Allocator};
};

/// One collective as the ranks see it. Its text lives in EventStrings.
struct CollectiveEvent {
  llvm::StringRef Key;          // what every rank must agree on: operation and arguments
  llvm::StringRef Collective;   // "MPI_Barrier", "c10d::ProcessGroup::allreduce", ...
  llvm::StringRef Communicator; // the communicator as written, when the rules name it
  const clang::ValueDecl *CommunicatorDecl = nullptr; // the variable or field holding it
  // Set where CommunicatorDecl is an object standing for this field of it
  // (WrapperObjects): its callers name the object instead.
  const clang::FieldDecl *WrapperField = nullptr;
  // CommunicatorDecl is a field of the object the function runs on
  // (`comm_`, `this->comm()`), not of another object (`peer.comm_`).
  bool OwnField = false;
  llvm::ArrayRef<EventArgument> AgreedArguments;
  clang::SourceLocation Site;               // in the analysed function
  const clang::Stmt *SiteStmt = nullptr;    // the call there (null for destructors)
  clang::SourceLocation CollectiveSite;     // the collective call itself
  const clang::FunctionDecl *Via = nullptr; // the function called at site, if any
  // Run by the destructor of a local object (an RAII guard): site is the
  // object's declaration, destroyedAt where this destructor call runs.
  const clang::VarDecl *Guard = nullptr;
  clang::SourceLocation DestroyedAt;
  bool Dispatched = false;       // a virtual call or a stored callable: via is one it may run
  bool Kept = false;             // in a callable the call at site keeps to run later
  bool GroupMarker = false;      // ncclGroupStart/End: local, but must pair up
  bool GroupBegins = false;      // the marker opens a group
  bool SelfCommunicator = false; // on MPI_COMM_SELF: no other rank takes part
  bool StartsLocally = false;    // the rules' starts_locally: a nonblocking MPI start
  // The communicator is a library's predefined handle (`MPI_COMM_WORLD`: an
  // integer constant, or the address of the library's global object).
  bool PredefinedCommunicator = false;
  // Collective over the members of a group (the rules' `group`): by the
  // call's contract they are the ranks that make it.
  bool GroupMembers = false;
  // The communicator, file or window the call creates (the rules'
  // `new_comm`, `new_handle`), and the file or window it acts on (`handle`).
  const clang::ValueDecl *Creates = nullptr;
  const clang::ValueDecl *Handle = nullptr;
  llvm::StringRef LoopTrip; // a loop's event: its trip count ("9", or "?")
  bool Loop = false;        // stands for a loop: its iterations' collectives
  uint32_t LoopBody = 0;    // a loop's event: the key sequence each iteration runs (SequenceTable)
  std::optional<uint32_t> LoopTripFormula; // a loop's event: its trip count as a formula
  bool JoinBoundary = false;               // a join protocol's own begin or end
  llvm::ArrayRef<const rules::JoinProtocolRule *> ShadowedBy; // join protocols that shadow the call
  // The collective inside a function of another file (its summary's).
  const SourcePoint *ExternalSite = nullptr;
  // A call to a function no file has summarised yet: the callee's USR.
  llvm::StringRef PendingUsr;

  bool pending() const { return !PendingUsr.empty(); }
  /// Only the ranks that make the call take part: no other rank can miss it.
  bool callersOnly() const { return SelfCommunicator || GroupMembers; }
};

/// The index of the first agreed argument (root, count, ...) that two calls
/// of the same collective pass differently, if any; an intercommunicator's
/// roots (MPI_ROOT or MPI_PROC_NULL against the root's rank) are no
/// difference.
std::optional<size_t> firstDifferingArgument(const CollectiveEvent &A, const CollectiveEvent &B);

/// Whether two calls of the same collective with different agreed arguments
/// may still match: they differ only in count and datatype, where one
/// datatype is a derived one (a handle, not an `MPI_` constant), so that
/// `n` of `MPI_DOUBLE` at the root of a gather and `1` of a vector of `n`
/// doubles elsewhere match by type signature, which lockstep does not
/// compute; or only in a root that one side gives as MPI_ROOT or
/// MPI_PROC_NULL, the two groups of an intercommunicator.
bool mayMatch(const CollectiveEvent &A, const CollectiveEvent &B);

class SequenceTable;

/// Whether two collectives the function calls itself may run in either
/// order without a hang: one only starts a nonblocking MPI operation
/// (starts_locally), so no rank waits there, and they are on communicators
/// known to differ: two handles that are each \p Fresh (created once by
/// their function and never rewritten), or one such handle and a
/// predefined one. A request completed between the two (`MPI_Wait`) is not
/// seen.
bool commute(const CollectiveEvent &A, const CollectiveEvent &B,
             llvm::function_ref<bool(const clang::ValueDecl *)> Fresh);

/// \p Keys in the first order, by key, of those that swapping neighbours
/// that commute reaches: two sequences with the same canonical order run
/// the same collectives on each communicator, and wait in the same order.
std::vector<unsigned>
canonicalOrder(const std::vector<unsigned> &Keys, const SequenceTable &Table,
               llvm::function_ref<bool(const CollectiveEvent &, const CollectiveEvent &)> Commute);

/// Whether two loops' iterations run matching collectives: the same body,
/// or bodies whose events match pairwise (mayMatch; nested loops of one trip
/// count with matching bodies), as when two groups of an intercommunicator
/// loop over `couple()` of their own classes. Neither their trip counts nor
/// what they are passed is compared.
bool matchingIterations(const SequenceTable &Table, const CollectiveEvent &A,
                        const CollectiveEvent &B);

/// What a function does for its callers: the sequence every path runs, or
/// the mark that paths run different sequences.
struct FunctionSummary {
  // The sequence (with `several`, the first path's): events of the callee's
  // blocks and loops, which the translation unit's analysis keeps.
  std::vector<const CollectiveEvent *> Events;
  bool Several = false;         // paths run different sequences (or too many to say)
  bool OnlyGroupMarkers = true; // every event of every path opens or closes a group
};

/// A call that may run functions with different collectives: the event of
/// one where it first differs from another function the call may run
/// instead, and that function's event there (none where it stops first).
struct DispatchChoice {
  CollectiveEvent Event;
  const clang::FunctionDecl *Other = nullptr;
  std::optional<CollectiveEvent> OtherEvent; // where the two first differ
  bool AfterCommonPrefix = false;            // both call the same collectives before
  bool Paired = true; // false: a sequence is no one list, and the first events stand for it
};

class CollectiveEvents {
public:
  /// With \p KeepPending, a call to a user function defined in no analysed
  /// file is a pending event (pendingUsr), resolved later.
  CollectiveEvents(
      const CallClassifier &Classifier,
      const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions,
      const ExternalIndex &External, const IndirectCalls &Indirect,
      const HandleCommunicators &Handles, const WrapperObjects &Wrappers, EventStrings &Strings,
      bool KeepPending);

  EventStrings &strings() const { return Strings; }

  /// Whether \p FD performs a collective or a group marker, directly or
  /// through the functions of the translation unit it calls.
  bool performsCollectives(const clang::FunctionDecl *FD) const;

  /// Whether a pending event can run in \p FD: it calls, directly or through
  /// the functions it calls, a function no file has summarised yet. Every
  /// other function runs what it runs without pending events.
  bool waits(const clang::FunctionDecl *FD) const;

  /// What \p FD runs from entry to exit; null for a function without a CFG
  /// here, or one not summarised yet (recursion).
  const FunctionSummary *functionSummary(const clang::FunctionDecl *FD) const;
  void setSummary(const clang::FunctionDecl *FD, FunctionSummary Summary);

  /// The functions of the translation unit \p FD calls that perform
  /// collectives: summarise them first.
  const std::vector<const clang::FunctionDecl *> &
  performingCallees(const clang::FunctionDecl *FD) const;

  /// Whether the functions a call at \p Site may run (\p Targets) run
  /// different collectives, and which; nullopt when they all run the same.
  std::optional<DispatchChoice>
  dispatchChoice(const std::vector<const clang::FunctionDecl *> &Targets,
                 clang::SourceLocation Site, const clang::Stmt *SiteStmt);

  /// The collectives of one block, in execution order (computed once).
  const std::vector<CollectiveEvent> &blockEvents(const FunctionCFG &Function,
                                                  const clang::CFGBlock &Block);

private:
  const clang::ValueDecl *communicatorKey(const clang::Expr *Arg) const;
  const FunctionCFG *cfgOf(const clang::FunctionDecl *FD) const;
  CollectiveEvent firstDirectEvent(const FunctionCFG &Function) const;
  void addCallEvents(const clang::FunctionDecl *Callee, clang::SourceLocation Site,
                     const clang::Stmt *SiteStmt, std::vector<CollectiveEvent> &Out);
  std::vector<const clang::FunctionDecl *>::const_iterator
  firstPerformer(const std::vector<const clang::FunctionDecl *> &Targets) const;
  std::vector<llvm::StringRef> targetKeys(const clang::FunctionDecl *Target) const;
  std::vector<CollectiveEvent> dispatchedEvents(const clang::FunctionDecl *Target,
                                                clang::SourceLocation Site,
                                                const clang::Stmt *SiteStmt);
  void addDispatchEvents(const std::vector<const clang::FunctionDecl *> &Targets,
                         clang::SourceLocation Site, const clang::Stmt *SiteStmt,
                         std::vector<CollectiveEvent> &Out);
  bool externallyPerforming(const clang::FunctionDecl *Callee) const;
  bool pendingCandidate(const clang::FunctionDecl *Callee) const;
  bool waitsOn(const clang::FunctionDecl *Callee) const;
  CollectiveEvent directEvent(const clang::CallExpr *Call, const CalleeRole &Role,
                              clang::ASTContext &Context) const;
  llvm::StringRef keyOf(llvm::StringRef Collective, llvm::ArrayRef<EventArgument> Arguments) const;
  void addArguments(CollectiveEvent &Event, llvm::ArrayRef<EventArgument> Arguments) const;
  const DecidingParameters &decidingParameters(const clang::FunctionDecl *FD);
  bool callsCollectives(const FunctionCFG &Function, const clang::CFGBlock &Block) const;

  const CallClassifier &Classifier;
  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  const ExternalIndex &External;
  const IndirectCalls &Indirect;
  const HandleCommunicators &Handles;
  const WrapperObjects &Wrappers;
  EventStrings &Strings;
  bool KeepPending;
  llvm::DenseSet<const clang::FunctionDecl *> Performing, Waiting;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> Callees;
  llvm::DenseMap<const clang::FunctionDecl *, FunctionSummary> Summaries;
  llvm::DenseMap<const clang::CFGBlock *, std::vector<CollectiveEvent>> BlockEvents;
  llvm::DenseMap<const clang::FunctionDecl *, DecidingParameters> Deciding;
  StaticInitializers Statics;
};

} // namespace lockstep::analysis
