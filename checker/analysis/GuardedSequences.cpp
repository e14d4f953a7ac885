#include "GuardedSequences.h"
#include "Exceptions.h"
#include "Limits.h"
#include "TripCount.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <queue>

namespace lockstep::analysis {
using namespace clang;

// --- SequenceTable -------------------------------------------------------

SequenceTable::SequenceTable() {
  KeyNodes.push_back({0, 0});
  EventNodes.push_back({0, 0});
}

unsigned SequenceTable::keyOf(const CollectiveEvent &Event) {
  // The same text names different communicators in different functions
  // (`comm=sub`): the representative must hold the right one.
  auto [It, Inserted] =
      KeyIds.try_emplace({Event.Key.data(), Event.CommunicatorDecl}, Representatives.size());
  if (Inserted) {
    Representatives.push_back(&Event);
  }
  return It->second;
}

uint32_t SequenceTable::appendKey(uint32_t Sequence, unsigned Key) {
  auto [It, Inserted] = KeyChildren.try_emplace({Sequence, Key}, KeyNodes.size());
  if (Inserted)
    KeyNodes.push_back({Sequence, Key});
  return It->second;
}

uint32_t SequenceTable::appendEvent(uint32_t Sequence, const CollectiveEvent &Event) {
  // Occurrences are told apart by where they are reported.
  auto [It, Inserted] = EventChildren.try_emplace(
      {Sequence, Event.Site.getRawEncoding(), keyOf(Event)}, EventNodes.size());
  if (Inserted) {
    EventNodes.push_back({Sequence, static_cast<unsigned>(Occurrences.size())});
    Occurrences.push_back(&Event);
  }
  return It->second;
}

std::vector<unsigned> SequenceTable::keys(uint32_t Sequence) const {
  std::vector<unsigned> Out;
  for (; Sequence; Sequence = KeyNodes[Sequence].Parent)
    Out.push_back(KeyNodes[Sequence].Item);
  return {Out.rbegin(), Out.rend()};
}

std::vector<const CollectiveEvent *> SequenceTable::events(uint32_t Sequence) const {
  std::vector<const CollectiveEvent *> Out;
  for (; Sequence; Sequence = EventNodes[Sequence].Parent)
    Out.push_back(Occurrences[EventNodes[Sequence].Item]);
  return {Out.rbegin(), Out.rend()};
}

uint32_t SequenceTable::parentKey(uint32_t Sequence) const { return KeyNodes[Sequence].Parent; }
uint32_t SequenceTable::parentEvent(uint32_t Sequence) const { return EventNodes[Sequence].Parent; }
unsigned SequenceTable::lastKey(uint32_t Sequence) const { return KeyNodes[Sequence].Item; }
const CollectiveEvent &SequenceTable::lastEvent(uint32_t Sequence) const {
  return *Occurrences[EventNodes[Sequence].Item];
}

// --- merging ---------------------------------------------------------------

bool mergeSequence(std::vector<GuardedSequence> &Into, const GuardedSequence &Entry,
                   FormulaArena &Arena) {
  for (GuardedSequence &Existing : Into)
    if (Existing.Arm == Entry.Arm && Existing.Keys == Entry.Keys) {
      Existing.Guard = Arena.disjoin(Existing.Guard, Entry.Guard);
      if (!Existing.Leaving)
        Existing.Leaving = Entry.Leaving;
      return true;
    }
  Into.push_back(Entry);
  return Into.size() <= limits::MaxSequences;
}

// --- SequenceBuilder ---------------------------------------------------------

GuardedSequence SequenceBuilder::append(GuardedSequence Sequence, const CollectiveEvent &Event) {
  // A group of one operation is that operation: Start, X, End -> X; a group
  // of none (only point-to-point work, which is not matched here) is nothing.
  if (Event.GroupMarker && !Event.GroupBegins && Sequence.Keys) {
    uint32_t Inner = Sequence.Keys, Opening = Table.parentKey(Inner);
    if (const CollectiveEvent &Last = Table.representative(Table.lastKey(Inner));
        Last.GroupMarker && Last.GroupBegins) {
      Sequence.Keys = Opening;
      Sequence.Events = Table.parentEvent(Sequence.Events);
      return Sequence;
    }
    if (Opening) {
      const CollectiveEvent &First = Table.representative(Table.lastKey(Opening));
      const CollectiveEvent &Only = Table.lastEvent(Sequence.Events);
      if (First.GroupMarker && First.GroupBegins && !Only.GroupMarker) {
        Sequence.Keys = Table.appendKey(Table.parentKey(Opening), Table.keyOf(Only));
        Sequence.Events =
            Table.appendEvent(Table.parentEvent(Table.parentEvent(Sequence.Events)), Only);
        return Sequence;
      }
    }
  }
  Sequence.Keys = Table.appendKey(Sequence.Keys, Table.keyOf(Event));
  Sequence.Events = Table.appendEvent(Sequence.Events, Event);
  return Sequence;
}

bool SequenceBuilder::decidesCollectives(FunctionShape &Shape, const CFGBlock &Branch) {
  const FunctionCFG &Function = Shape.function();
  // Branches are asked inner first: a nested one already known to decide
  // nothing is not walked again (a `?:` chain stays linear).
  if (auto Known = Decides.find(&Branch); Known != Decides.end())
    return Known->second;
  llvm::BitVector Seen(Function.cfg().getNumBlockIDs());
  std::vector<const CFGBlock *> Work{&Branch};
  while (!Work.empty()) {
    const CFGBlock *Block = Work.back();
    Work.pop_back();
    for (const CFGBlock *Decided : Function.controlled(Block)) {
      if (Seen.test(Decided->getBlockID()))
        continue;
      Seen.set(Decided->getBlockID());
      if (runsCollectives(Function, *Decided) || leavingSkipsCollectives(Shape, *Decided))
        return Decides[&Branch] = true;
      if (auto Known = Decides.find(Decided); Known == Decides.end())
        Work.push_back(Decided);
      else if (Known->second)
        return Decides[&Branch] = true;
    }
  }
  return Decides[&Branch] = false;
}

// A `break` or `continue` skips only what the loops around it run (a search
// loop with a thousand `if (a[k] == rank) break;`): where those run no
// collective it decides none. A way out that also leaves the function, or a
// loop that ends by another one, is a block the deciding branches reach.
bool SequenceBuilder::leavingSkipsCollectives(FunctionShape &Shape, const CFGBlock &Block) {
  const Stmt *Leaving = leavingStatement(Block);
  if (!isa_and_nonnull<BreakStmt, ContinueStmt>(Leaving))
    return Leaving != nullptr;
  // A `break` lies outside the loop it leaves, after the block that takes it.
  llvm::SmallVector<const CFGBlock *, 4> Headers = Shape.loopsAround(&Block);
  for (const CFGBlock::AdjacentBlock &Pred : Block.preds())
    if (const CFGBlock *P = Pred.getReachableBlock(); P && Headers.empty())
      Headers = Shape.loopsAround(P);
  if (Headers.empty())
    return true; // a `switch`'s `break` outside any loop
  return llvm::any_of(Headers, [&](const CFGBlock *Header) {
    auto [Known, Inserted] = LoopRuns.try_emplace(Header, false);
    if (Inserted)
      Known->second = llvm::any_of(Shape.function().cfg(), [&](const CFGBlock *B) {
        return Shape.inLoop(Header, B) && runsCollectives(Shape.function(), *B);
      });
    return Known->second;
  });
}

RegionSequences
SequenceBuilder::region(FunctionShape &Shape,
                        const std::vector<std::pair<const CFGBlock *, GuardedSequence>> &Starts,
                        const CFGBlock *Stop) {
  return walk(Shape, Starts, Stop, nullptr);
}

/// The path classes waiting at each block of a region, handed out in
/// reverse post-order, and the classes that finished.
struct SequenceBuilder::Walk {
  Walk(FormulaArena &Arena, FunctionShape &Shape, bool PathsLost)
      : Arena(Arena), Shape(Shape), PathsLost(PathsLost) {}

  FormulaArena &Arena;
  FunctionShape &Shape;
  RegionSequences Result;
  llvm::DenseMap<const CFGBlock *, std::vector<GuardedSequence>> Pending;
  using Item = std::pair<unsigned, const CFGBlock *>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> Queue;
  // Whether some path ended before reaching the blocks below (a cut error
  // edge, an iteration's back edge, a call that does not return): their
  // classes no longer stand for every path from the start.
  bool PathsLost;

  void finish(const GuardedSequence &S) {
    if (!mergeSequence(Result.Sequences, S, Arena))
      Result.Overflow = true;
  }
  void send(const CFGBlock *To, const GuardedSequence &S) {
    if (S.Guard == Arena.falsity())
      return;
    std::vector<GuardedSequence> &List = Pending[To];
    if (List.empty())
      Queue.push({Shape.order(To), To});
    if (!mergeSequence(List, S, Arena))
      Result.Overflow = true;
  }
  /// The next block with classes waiting, and takes them into \p In.
  const CFGBlock *next(std::vector<GuardedSequence> &In) {
    while (!Queue.empty() && !Result.Overflow) {
      const CFGBlock *Block = Queue.top().second;
      Queue.pop();
      if (auto Found = Pending.find(Block); Found != Pending.end()) {
        In = std::move(Found->second);
        Pending.erase(Found);
        return Block;
      }
    }
    return nullptr;
  }
};

RegionSequences
SequenceBuilder::walk(FunctionShape &Shape,
                      const std::vector<std::pair<const CFGBlock *, GuardedSequence>> &Starts,
                      const CFGBlock *Stop, const CFGBlock *Loop) {
  const FunctionCFG &Function = Shape.function();
  const CFGBlock *Exit = &Function.cfg().getExit();
  Walk W(Arena, Shape, /*PathsLost=*/Loop != nullptr);
  for (const auto &[Block, Sequence] : Starts)
    if (Shape.reachable(Block))
      W.send(Block, Sequence);
  std::vector<GuardedSequence> In;
  while (const CFGBlock *Block = W.next(In)) {
    ++WalkedBlocks;
    // Every path from a single start reaches a block that post-dominates
    // it: one class arriving there runs under the start's own guard, not the
    // disjunction of every path's (a `?:` chain would make that huge).
    if (!W.PathsLost && Starts.size() == 1 && In.size() == 1 &&
        Shape.postDominates(Block, Starts.front().first))
      In.front().Guard = Starts.front().second.Guard;
    if (Block == Stop || Block == Exit || (Loop && !Shape.inLoop(Loop, Block))) {
      for (const GuardedSequence &S : In)
        W.finish(S);
      continue;
    }
    if (Block != Loop && Shape.isLoopHeader(Block)) {
      const CollectiveEvent *Event = loopEvent(Shape, Block);
      for (auto [From, Index] : Shape.loopExits(Block)) {
        if (!Paths.follows(Function, *From, Index)) {
          W.PathsLost = true; // an error path out of the body
          continue;
        }
        const CFGBlock *Target = std::next(From->succ_begin(), Index)->getReachableBlock();
        for (const GuardedSequence &S : In) {
          GuardedSequence After = Event ? append(S, *Event) : S;
          // Back to an enclosing loop's header (`goto retry;`): an iteration
          // of that loop ends, as at its back edge. Sends only go forward.
          if (Shape.order(Target) <= Shape.order(Block)) {
            W.PathsLost = true;
            W.finish(After);
          } else
            W.send(Target, After);
        }
      }
      continue;
    }
    const Stmt *Leaving = leavingStatement(*Block);
    for (GuardedSequence &S : In) {
      for (const CollectiveEvent &Event : Events.blockEvents(Function, *Block))
        S = append(S, Event);
      if (!S.Leaving)
        S.Leaving = Leaving;
    }
    leaveBlock(W, Block, Stop, In, Loop);
  }
  return std::move(W.Result);
}

std::optional<uint32_t> SequenceBuilder::run(FunctionShape &Shape, const CFGBlock *From,
                                             const CFGBlock *Stop, int64_t Rank, int64_t Size) {
  const FunctionCFG &Function = Shape.function();
  const CFGBlock *Exit = &Function.cfg().getExit();
  GuardedSequence S;
  // No back edge is followed, so the path visits each block at most once.
  for (const CFGBlock *Block = From; Block != Stop && Block != Exit;) {
    if (Shape.isLoopHeader(Block))
      return std::nullopt;
    for (const CollectiveEvent &Event : Events.blockEvents(Function, *Block))
      S = append(S, Event);
    const CFGBlock *Next = nullptr;
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const CFGBlock *Target = Succ.getReachableBlock();
      unsigned EdgeIndex = Index++;
      if (!Target || !Shape.reachable(Target))
        continue;
      std::optional<bool> Taken =
          Arena.holdsOnRank(Shape.conditions().edge(*Block, EdgeIndex), Rank, Size);
      if (!Taken)
        return std::nullopt;
      if (!*Taken)
        continue;
      if (Next || Shape.isBackEdge(Block, Target) || !Paths.follows(Function, *Block, EdgeIndex))
        return std::nullopt;
      Next = Target;
    }
    if (!Next)
      return std::nullopt; // the path ends here (a call that does not return)
    Block = Next;
  }
  return S.Keys;
}

// Sends \p In along the edges out of \p Block that the walk follows.
void SequenceBuilder::leaveBlock(Walk &W, const CFGBlock *Block, const CFGBlock *Stop,
                                 std::vector<GuardedSequence> &In, const CFGBlock *Loop) {
  FunctionShape &Shape = W.Shape;
  unsigned Index = 0;
  bool AnySuccessor = false;
  for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
    const CFGBlock *Target = Succ.getReachableBlock();
    unsigned EdgeIndex = Index++;
    if (!Target || !Shape.reachable(Target))
      continue;
    if (Block == Loop && !Shape.inLoop(Loop, Target))
      continue; // the loop ends: its iterations are what it runs
    AnySuccessor = true;
    if (!Paths.follows(Shape.function(), *Block, EdgeIndex)) {
      W.PathsLost = true;
      continue; // an error path: the path ends without a claim
    }
    FormulaRef Edge = Shape.conditions().edge(*Block, EdgeIndex);
    // The back edge of a loop without collectives that the region reaches
    // past (a branch in it that returns): the remaining iterations run
    // nothing, so the ranks that stay go on to what follows the loop (`for
    // (...) if (rank == 3) return; MPI_Barrier(comm);`). A loop with
    // collectives is judged by its trip count instead.
    const bool PastLoop = Shape.isBackEdge(Block, Target) && Shape.isLoopHeader(Target) &&
                          Target != Loop && Stop && !Shape.inLoop(Target, Stop) &&
                          !loopEvent(Shape, Target);
    // The ranks where the call throws leave the `try` there.
    const Stmt *Throwing = EdgeIndex == 1 ? exceptionalCall(*Block) : nullptr;
    for (GuardedSequence S : In) {
      S.Guard = Arena.conjoin(S.Guard, Edge);
      if (Throwing && !S.Leaving)
        S.Leaving = Throwing;
      if (PastLoop) {
        // Out of the loop where it ends (its test, a `break`); a later
        // iteration's return is another condition than this one's.
        for (auto [From, Index] : Shape.loopExits(Target)) {
          const Stmt *Ends = From->getTerminatorStmt();
          if (isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, BreakStmt>(Ends) &&
              Paths.follows(Shape.function(), *From, Index))
            W.send(std::next(From->succ_begin(), Index)->getReachableBlock(), S);
          else
            W.PathsLost = true;
        }
      } else if (Shape.isBackEdge(Block, Target)) { // one iteration ends here
        W.PathsLost = true;
        W.finish(S);
      } else
        W.send(Target, S);
    }
  }
  if (!AnySuccessor) {
    W.PathsLost = true;
    for (const GuardedSequence &S : In)
      W.finish(S);
  }
}

const CollectiveEvent *SequenceBuilder::loopEvent(FunctionShape &Shape, const CFGBlock *Header) {
  if (auto Known = Loops.find(Header); Known != Loops.end())
    return Known->second.get(); // null while being summarised: a loop reached from itself
  Loops[Header] = nullptr;
  GuardedSequence Start;
  Start.Guard = Arena.truth();
  RegionSequences Body = walk(Shape, {{Header, Start}}, nullptr, Header);
  std::vector<uint32_t> Distinct;
  for (const GuardedSequence &S : Body.Sequences)
    if (std::find(Distinct.begin(), Distinct.end(), S.Keys) == Distinct.end())
      Distinct.push_back(S.Keys);
  if (!Body.Overflow && Distinct.size() == 1 && Distinct.front() == 0)
    return nullptr; // no collective in the loop
  // The loop's event stands for its first collective in reports.
  const CollectiveEvent *First = nullptr;
  for (const GuardedSequence &S : Body.Sequences)
    if (S.Events) {
      First = Table.events(S.Events).front();
      break;
    }
  if (!First)
    return nullptr;
  auto Event = std::make_unique<CollectiveEvent>(*First);
  Event->GroupMarker = false;
  Event->Loop = true;
  // The loop creates and acts on what its iterations do, not its first call.
  Event->Creates = Event->Handle = nullptr;
  for (uint32_t Keys : Distinct)
    for (unsigned Key : Table.keys(Keys)) {
      const CollectiveEvent &Inner = Table.representative(Key);
      Event->SelfCommunicator &= Inner.SelfCommunicator;
      Event->GroupMembers &= Inner.GroupMembers;
    }
  if (Body.Overflow)
    Event->SelfCommunicator = Event->GroupMembers = false;
  if (Body.Overflow || Distinct.size() > 1) {
    // Ranks may run different iterations; each iteration's branches are
    // judged where they are. The loop matches only itself.
    Event->Key = Events.strings().save("loop@" + llvm::Twine(Shape.order(Header)) + "{?}");
  } else {
    const Stmt *Loop = Header->getTerminatorStmt();
    Event->LoopTripFormula =
        Loop ? analysis::tripCount(Loop, Shape.function().parents(), Shape.conditions(), Arena)
             : std::nullopt;
    Event->LoopTrip = Events.strings().save(tripText(Event->LoopTripFormula));
    Event->LoopBody = Distinct.front();
    for (unsigned Key : Table.keys(Distinct.front())) {
      const CollectiveEvent &Inner = Table.representative(Key);
      if (Inner.CommunicatorDecl != Event->CommunicatorDecl)
        Event->CommunicatorDecl = nullptr;
    }
    // Equal key sequences are one trie node: the body is named by its id.
    Event->Key = Events.strings().save("loop[" + Event->LoopTrip + "]{" +
                                       llvm::Twine(Event->LoopBody) + "}");
  }
  return (Loops[Header] = std::move(Event)).get();
}

std::string SequenceBuilder::tripText(std::optional<FormulaRef> Count) const {
  if (!Count)
    return "?";
  const FormulaNode &Node = Arena.node(*Count);
  return Node.Op == FormulaOp::Const ? std::to_string(Node.Value) : "f" + std::to_string(*Count);
}

} // namespace lockstep::analysis
