#include "CollectiveEvents.h"
#include "CallSite.h"

#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <set>

namespace lockstep::analysis {
using namespace clang;

namespace {

constexpr size_t MaxPaths = 32;
constexpr size_t MaxEvents = 64;

std::string spelled(const Expr *E, ASTContext &Context) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult Result;
  if (!E->isValueDependent() && E->EvaluateAsInt(Result, Context))
    return llvm::toString(Result.Val.getInt(), 10);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  E->printPretty(OS, nullptr, Context.getPrintingPolicy());
  return OS.str();
}

} // namespace

std::string EventPath::signature() const {
  std::string Signature;
  for (const CollectiveEvent &Event : events)
    Signature += Event.key + "\x1f";
  return Signature;
}

bool PathSet::sameSequencesAs(const PathSet &Other) const {
  std::set<std::string> Mine, Theirs;
  for (const EventPath &Path : paths)
    Mine.insert(Path.signature());
  for (const EventPath &Path : Other.paths)
    Theirs.insert(Path.signature());
  return Mine == Theirs;
}

CollectiveEvents::CollectiveEvents(
    const CallClassifier &Classifier,
    const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions,
    const ExternalIndex &External, bool KeepPending)
    : Classifier(Classifier), Functions(Functions), External(External), KeepPending(KeepPending) {
  // Which functions perform collectives: direct ones, then their callers,
  // until nothing changes (recursion converges because the set only grows).
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Callees;
  for (const auto &[Decl, Function] : Functions) {
    for (const CFGBlock *Block : Function->cfg())
      forEachCall(*Block, Function->context(),
                  [&, Decl = Decl](const FunctionDecl *Callee, SourceLocation, const Stmt *) {
                    const CalleeRole &Role = Classifier.classify(Callee);
                    if (Role.isCollective() || Role.groupMarker || externallyPerforming(Callee))
                      Performing.insert(Decl);
                    else
                      Callees[Decl].push_back(Callee->getCanonicalDecl());
                  });
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Caller, List] : Callees)
      if (!Performing.count(Caller) &&
          std::any_of(List.begin(), List.end(),
                      [&](const FunctionDecl *Callee) { return Performing.count(Callee); }))
        Changed |= Performing.insert(Caller).second;
  }
}

bool CollectiveEvents::performsCollectives(const FunctionDecl *FD) const {
  return Performing.count(FD->getCanonicalDecl()) || externallyPerforming(FD);
}

bool CollectiveEvents::externallyPerforming(const FunctionDecl *Callee) const {
  if (cfgOf(Callee))
    return false;
  const ExternalFunction *Summary = External.find(Callee);
  return Summary ? Summary->performsCollectives() : pendingCandidate(Callee);
}

// Only the user's own functions can hide collectives in another file: not
// library functions from system headers, builtins or what the rules know.
bool CollectiveEvents::pendingCandidate(const FunctionDecl *Callee) const {
  if (!KeepPending || Callee->hasBody() || Callee->getBuiltinID() ||
      !Callee->isExternallyVisible())
    return false;
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.isKnown() || Role.environmentReader || Role.converter)
    return false;
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(Callee->getLocation());
}

const FunctionCFG *CollectiveEvents::cfgOf(const FunctionDecl *FD) const {
  auto It = Functions.find(FD->getCanonicalDecl());
  return It == Functions.end() ? nullptr : It->second;
}

CollectiveEvent CollectiveEvents::directEvent(const CallExpr *Call, const CalleeRole &Role,
                                              ASTContext &Context) const {
  CollectiveEvent Event;
  Event.collective = Role.name;
  Event.site = Event.collectiveSite = Call->getBeginLoc();
  Event.siteStmt = Call;
  Event.key = Role.name;
  Event.groupMarker = Role.groupMarker != nullptr;
  Event.shadowedBy = Role.shadowedBy;
  Event.joinBoundary = Role.joinBegin || Role.joinEnd;
  if (!Role.collective)
    return Event;
  for (const auto &[RoleName, Ref] : agreedArguments(*Role.collective)) {
    const Expr *Arg = ruleArgument(Call, *Ref);
    if (!Arg)
      continue;
    std::string Text = spelled(Arg, Context);
    Event.agreedArguments.emplace_back(RoleName, Text);
    Event.key += std::string("|") + RoleName + "=" + Text;
    if (Ref == &Role.collective->comm) {
      Event.communicator = Text;
      Event.communicatorDecl = namedStorage(Arg);
    }
  }
  return Event;
}

void CollectiveEvents::addCallEvents(const FunctionDecl *Callee, SourceLocation Site,
                                     const Stmt *SiteStmt, std::vector<CollectiveEvent> &Out) {
  const CalleeRole &Role = Classifier.classify(Callee);
  if (!cfgOf(Callee)) { // defined in another file
    CollectiveEvent Event;
    Event.site = Site;
    Event.siteStmt = SiteStmt;
    Event.via = Callee;
    Event.shadowedBy = Role.shadowedBy;
    if (const ExternalFunction *Summary = External.find(Callee)) {
      for (const ExternalFunction::Collective &C : Summary->collectives) {
        Event.collective = Event.key = C.name;
        Event.externalSite = C.site;
        Out.push_back(Event);
        if (Summary->severalSequences) {
          Out.back().key = "call " + External.usr(Callee);
          return;
        }
      }
      return;
    }
    Event.key = "call " + External.usr(Callee);
    Event.collective = PendingPrefix + External.usr(Callee);
    Event.pending = true;
    Out.push_back(std::move(Event));
    return;
  }
  const PathSet *Inner = functionSummary(Callee);
  auto Rebase = [&](CollectiveEvent Event) {
    Event.site = Site;
    Event.siteStmt = SiteStmt;
    Event.via = Callee;
    Event.shadowedBy.insert(Event.shadowedBy.end(), Role.shadowedBy.begin(),
                            Role.shadowedBy.end());
    Event.joinBoundary = Role.joinBegin || Role.joinEnd;
    return Event;
  };
  if (Inner && !Inner->overflow && Inner->paths.size() == 1) {
    for (const CollectiveEvent &Event : Inner->paths.front().events)
      Out.push_back(Rebase(Event));
    return;
  }
  // Several possible sequences (or recursion): the call is one event that
  // only matches a call of the same function.
  CollectiveEvent Event;
  if (Inner)
    for (const EventPath &Path : Inner->paths) {
      auto First = std::find_if(Path.events.begin(), Path.events.end(),
                                [](const CollectiveEvent &E) { return !E.loopBack; });
      if (First != Path.events.end()) {
        Event = *First;
        break;
      }
    }
  Event = Rebase(Event);
  Event.key = "call " + Callee->getQualifiedNameAsString();
  if (Event.collective.empty())
    Event.collective = Callee->getQualifiedNameAsString();
  Out.push_back(std::move(Event));
}

std::vector<CollectiveEvent> CollectiveEvents::blockEvents(const FunctionCFG &Function,
                                                           const CFGBlock &Block) {
  std::vector<CollectiveEvent> Events;
  forEachCall(Block, Function.context(),
              [&](const FunctionDecl *Callee, SourceLocation Site, const Stmt *SiteStmt) {
                const CalleeRole &Role = Classifier.classify(Callee);
                if (Role.isCollective() || Role.groupMarker) {
                  if (const auto *Call = dyn_cast_or_null<CallExpr>(SiteStmt))
                    Events.push_back(directEvent(Call, Role, Function.context()));
                } else if (performsCollectives(Callee)) {
                  addCallEvents(Callee, Site, SiteStmt, Events);
                }
              });
  return Events;
}

const PathSet *CollectiveEvents::functionSummary(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  if (auto It = Summaries.find(FD); It != Summaries.end())
    return &It->second;
  const FunctionCFG *Function = cfgOf(FD);
  if (!Function || !InProgress.insert(FD).second)
    return nullptr; // recursion: the caller sees an opaque call
  PathSet Result = paths(*Function, &Function->cfg().getEntry(), &Function->cfg().getExit());
  // A path that goes around a loop without a collective is one more
  // iteration of a path that leaves the loop later: it adds no sequence.
  auto Idle = [](const EventPath &Path) {
    return std::all_of(Path.events.begin(), Path.events.end(),
                       [](const CollectiveEvent &E) { return E.loopBack; });
  };
  if (std::any_of(Result.paths.begin(), Result.paths.end(),
                  [&](const EventPath &Path) { return !Idle(Path); }))
    Result.paths.erase(std::remove_if(Result.paths.begin(), Result.paths.end(),
                                      [&](const EventPath &Path) {
                                        return Idle(Path) && !Path.events.empty();
                                      }),
                       Result.paths.end());
  InProgress.erase(FD);
  return &(Summaries[FD] = std::move(Result));
}

PathSet CollectiveEvents::paths(const FunctionCFG &Function, const CFGBlock *From,
                                const CFGBlock *Stop) {
  llvm::DenseMap<const CFGBlock *, PathSet> Memo;
  llvm::DenseSet<const CFGBlock *> OnStack;

  std::function<PathSet(const CFGBlock *)> Walk = [&](const CFGBlock *Block) -> PathSet {
    if (Block == Stop || Block == &Function.cfg().getExit())
      return PathSet{{EventPath{}}, false};
    if (auto It = Memo.find(Block); It != Memo.end())
      return It->second;
    OnStack.insert(Block);
    std::vector<CollectiveEvent> Events = blockEvents(Function, *Block);
    const Stmt *Leaving = leavingStatement(*Block);
    PathSet Result;
    std::set<std::string> Seen;
    auto Add = [&](const EventPath &Tail) {
      EventPath Path;
      Path.events = Events;
      Path.events.insert(Path.events.end(), Tail.events.begin(), Tail.events.end());
      Path.leaving = Leaving ? Leaving : Tail.leaving;
      if (Path.events.size() > MaxEvents)
        Result.overflow = true;
      else if (Seen.insert(Path.signature()).second)
        Result.paths.push_back(std::move(Path));
      if (Result.paths.size() > MaxPaths)
        Result.overflow = true;
    };
    bool AnySuccessor = false;
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const CFGBlock *Next = Succ.getReachableBlock();
      if (!Next)
        continue;
      AnySuccessor = true;
      if (OnStack.count(Next)) {
        EventPath Around;
        CollectiveEvent Back;
        Back.key = "<loop>";
        Back.loopBack = true;
        Around.events.push_back(Back);
        Add(Around);
        continue;
      }
      PathSet Tail = Walk(Next);
      Result.overflow |= Tail.overflow;
      for (const EventPath &Path : Tail.paths)
        Add(Path);
    }
    if (!AnySuccessor)
      Add(EventPath{});
    OnStack.erase(Block);
    return Memo[Block] = Result;
  };
  return Walk(From);
}

} // namespace lockstep::analysis
