// The events of a call that may run one of several functions: a virtual
// call, a stored callable, an overload set handed to `std::visit`.
#include "CollectiveEvents.h"
#include "SourceText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "llvm/ADT/STLExtras.h"

namespace lockstep::analysis {
using namespace clang;

// A call that runs one of several functions (overrides, stored callables):
// their common sequence when they all run the same one, else one event named
// after the call that matches only itself, with the first function that
// performs collectives as the one that runs them (for the notes).
std::vector<const FunctionDecl *>::const_iterator
CollectiveEvents::firstPerformer(const std::vector<const FunctionDecl *> &Targets) const {
  return llvm::find_if(Targets,
                       [&](const FunctionDecl *Target) { return performsCollectives(Target); });
}

// What two functions a call may run must agree on: the operations, and the
// arguments that mean the same in both (constants, shared storage, the
// call's own arguments by position); their locals differ by name alone.
std::vector<llvm::StringRef> CollectiveEvents::targetKeys(const FunctionDecl *Target) const {
  std::vector<llvm::StringRef> Keys;
  if (!performsCollectives(Target))
    return Keys;
  if (const FunctionSummary *Summary = functionSummary(Target); Summary && !Summary->Several)
    for (const CollectiveEvent *Event : Summary->Events) {
      std::string Key = Event->Collective.str();
      for (const EventArgument &Argument : Event->AgreedArguments)
        if (Argument.Parameter)
          Key += ("|" + Argument.Role + "=#" +
                  llvm::Twine(Argument.Parameter->getFunctionScopeIndex()))
                     .str();
        else if (!Argument.Local)
          Key += ("|" + Argument.Role + "=" + Argument.Value).str();
      Keys.push_back(Strings.save(Key));
    }
  else
    Keys.push_back(Strings.save("call " + Target->getQualifiedNameAsString()));
  return Keys;
}

std::vector<CollectiveEvent> CollectiveEvents::dispatchedEvents(const FunctionDecl *Target,
                                                                SourceLocation Site,
                                                                const Stmt *SiteStmt) {
  std::vector<CollectiveEvent> Events;
  addCallEvents(Target, Site, SiteStmt, Events);
  for (CollectiveEvent &Event : Events)
    Event.Dispatched = true;
  return Events;
}

// The first collective where two of the functions differ names the choice:
// `Full::run` and `Lite::run` both begin with `MPI_Allreduce`, then one
// calls `MPI_Bcast` where the other calls `MPI_Barrier`. The function that
// goes on where the other stops is the one named first.
std::optional<DispatchChoice>
CollectiveEvents::dispatchChoice(const std::vector<const FunctionDecl *> &Targets,
                                 SourceLocation Site, const Stmt *SiteStmt) {
  auto Performer = firstPerformer(Targets);
  if (Performer == Targets.end())
    return std::nullopt;
  const std::vector<llvm::StringRef> First = targetKeys(*Performer);
  auto Other = llvm::find_if(
      Targets, [&](const FunctionDecl *Target) { return targetKeys(Target) != First; });
  if (Other == Targets.end())
    return std::nullopt;
  const FunctionDecl *Longer = *Performer, *Shorter = *Other;
  std::vector<llvm::StringRef> LongerKeys = First, ShorterKeys = targetKeys(*Other);
  size_t Differ = llvm::mismatch(LongerKeys, ShorterKeys).first - LongerKeys.begin();
  if (Differ == LongerKeys.size()) {
    std::swap(Longer, Shorter);
    std::swap(LongerKeys, ShorterKeys);
  }
  std::vector<CollectiveEvent> Events = dispatchedEvents(Longer, Site, SiteStmt);
  if (Events.empty())
    return std::nullopt;
  std::vector<CollectiveEvent> Others = performsCollectives(Shorter)
                                            ? dispatchedEvents(Shorter, Site, SiteStmt)
                                            : std::vector<CollectiveEvent>();
  // Keys and events pair up by position when each key is one event;
  // otherwise (a target's sequence is not one list) the first events speak.
  const bool ByPosition = Events.size() == LongerKeys.size() && Others.size() == ShorterKeys.size();
  const size_t At = ByPosition ? Differ : 0;
  DispatchChoice Choice{Events[At], Shorter, std::nullopt, ByPosition && Differ > 0, ByPosition};
  if (At < Others.size())
    Choice.OtherEvent = Others[At];
  return Choice;
}

void CollectiveEvents::addDispatchEvents(const std::vector<const FunctionDecl *> &Targets,
                                         SourceLocation Site, const Stmt *SiteStmt,
                                         std::vector<CollectiveEvent> &Out) {
  auto Performer = firstPerformer(Targets);
  if (Performer == Targets.end())
    return;
  const std::vector<llvm::StringRef> First = targetKeys(*Performer);
  bool Same = llvm::all_of(Targets,
                           [&](const FunctionDecl *Target) { return targetKeys(Target) == First; });
  std::vector<CollectiveEvent> Events = dispatchedEvents(*Performer, Site, SiteStmt);
  if (Same || Events.empty()) {
    Out.insert(Out.end(), Events.begin(), Events.end());
    return;
  }
  CollectiveEvent Event = Events.front();
  Event.Key = Strings.save("dispatch " + sourceText(SiteStmt, (*Performer)->getASTContext()));
  Event.GroupMarker = Event.GroupBegins = false;
  Out.push_back(std::move(Event));
}

} // namespace lockstep::analysis
