// A call through an object or a callable that differs between ranks, to
// functions that run different collectives: `if (rank == 0) logger =
// std::make_unique<GlobalLogger>(); else logger =
// std::make_unique<NullLogger>(); logger->log(loss);`. No branch of the
// function decides it, so the guarded sequences cannot: the value that
// picks the function does.
#include "CallSite.h"
#include "DependenceDataflow.h"
#include "LocalWrites.h"
#include "TranslationUnitAnalysis.h"

#include "clang/Basic/SourceManager.h"

namespace lockstep::analysis {
using namespace clang;

/// Whether \p Source says \p Holder was chosen under a rank-dependent
/// condition: what picks a function. A value that only carries per-rank data
/// (`std::make_unique<Trainer>(rank)`, a factory given the rank) is taken to
/// have the same type, and run the same overrides, on every rank; a plain
/// function pointer carries nothing but the choice. A value picked where a
/// branch on the callers' rank met (\p Value.Chosen, `if (rank == 0)` on a
/// parameter) was chosen too, though its source is the parameter's.
static bool chosenByRank(const Expr *Holder, const RankValue &Value, const Provenance *Source) {
  if (Source &&
      (Holder->getType()->isFunctionPointerType() ||
       Holder->getType()->isMemberFunctionPointerType() || (Value.Chosen && !fromSplit(Source))))
    return true;
  for (; Source; Source = Source->Via)
    if (Source->K == Provenance::Kind::Implicit)
      return true;
  return false;
}

/// The condition that picks what the local \p Holder holds: the one `if`
/// whose arms make every assignment to it (`if (stage_id == 0) stage = ...;
/// else stage = ...;`), or the `?:` that initializes it when nothing assigns
/// it again; null otherwise.
static const Expr *choosingCondition(const FunctionCFG &Function, const Expr *Holder) {
  const VarDecl *Var = localVariable(Holder);
  if (!Var || !Function.decl()->getBody())
    return nullptr;
  const auto *Choice = dyn_cast_or_null<ConditionalOperator>(
      Var->getInit() ? dependence::stripCopies(Var->getInit()) : nullptr);
  const IfStmt *Chooser = nullptr;
  bool Assigned = false, OneIf = true;
  forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
    const Expr *Target = nullptr;
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
        Operator && Operator->isAssignmentOp() && Operator->getNumArgs() == 2)
      Target = Operator->getArg(0);
    else if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp())
      Target = Binary->getLHS();
    if (!Target || localVariable(Target) != Var)
      return;
    const Stmt *Child = S, *Parent = Function.parents().getParent(S);
    while (Parent && !(isa<IfStmt>(Parent) && cast<IfStmt>(Parent)->getCond() != Child))
      Child = Parent, Parent = Function.parents().getParent(Parent);
    const auto *If = dyn_cast_or_null<IfStmt>(Parent);
    OneIf = OneIf && If && (!Assigned || If == Chooser);
    Chooser = If;
    Assigned = true;
  });
  if (!Assigned)
    return Choice ? Choice->getCond() : nullptr;
  return OneIf && !Choice ? Chooser->getCond() : nullptr;
}

void TranslationUnitAnalysis::findDispatchDivergences() {
  std::set<unsigned> Reported;
  for (const Divergence &D : Divergences)
    Reported.insert(D.Event.Site.getRawEncoding());
  for (const auto &Function : Functions)
    for (const DispatchCall &Call : Dependence[Function.get()].Dispatches) {
      const Provenance *Source = Env.resolve(Call.Value, Function->decl());
      // Pending on another file: no summary says yet that it differs.
      if (!Source || Source->Pending)
        continue;
      // Objects built on the parts of a split (`FluidSolver(sub)`), chosen
      // by a rank-dependent branch: the split explains their communicator,
      // not the branch; only collectives on their own communicator are
      // made by the members of one part.
      // So are objects chosen by membership of a split (`if (coarse !=
      // MPI_COMM_NULL) cs = make_unique<Direct>(coarse); else cs =
      // make_unique<Idle>();`): a member and a non-member share no part.
      const bool ByMembership = Source->K == Provenance::Kind::Implicit && Source->MembersOf;
      const bool OnParts = ByMembership || (!chosenByRank(Call.Holder, Call.Value, Source) &&
                                            Call.Value.Chosen && fromSplit(Source));
      if (!OnParts && !chosenByRank(Call.Holder, Call.Value, Source))
        continue;
      // `post()` on a std::function begins, as written, at its holder.
      SourceLocation Site = Call.Call->getBeginLoc();
      if (Function->context().getSourceManager().isBeforeInTranslationUnit(
              Call.Holder->getBeginLoc(), Site))
        Site = Call.Holder->getBeginLoc();
      std::optional<DispatchChoice> Choice = Events->dispatchChoice(
          Call.Choices.empty() ? Indirect->targets(Call.Inner ? Call.Inner : Call.Call)
                               : Call.Choices,
          Site, Call.Call);
      // (At the call, the event names the object's communicator field: one
      // that holds a part of the split somewhere, not a communicator every
      // rank shares, such as a `world_` beside the part's `comm_`.)
      auto OnOwnPart = [&](const CollectiveEvent *Event) {
        const auto *Field = Event ? dyn_cast_or_null<FieldDecl>(Event->CommunicatorDecl) : nullptr;
        if (Field && Event->WrapperField) // a field holding a wrapper: the wrapper's own
          Field = Event->WrapperField;
        return !Event || (Field && fromSplit(Env.Shared.lookup(Field).Source));
      };
      // Objects chosen by what the members of the communicators their
      // collectives run on agree on (`if (stage_id == 0)` with the stage's
      // communicator split by `stage_id`): the members all run one function.
      const Expr *Condition = choosingCondition(*Function, Call.Holder);
      auto ChosenAlikeByMembers = [&](const CollectiveEvent *Event) {
        return !Event || (Condition && Event->CommunicatorDecl &&
                          sameOnMembers(*Function, Condition, Event->CommunicatorDecl));
      };
      if (!Choice ||
          (OnParts && OnOwnPart(&Choice->Event) &&
           OnOwnPart(Choice->OtherEvent ? &*Choice->OtherEvent : nullptr)) ||
          (ChosenAlikeByMembers(&Choice->Event) &&
           ChosenAlikeByMembers(Choice->OtherEvent ? &*Choice->OtherEvent : nullptr)) ||
          !Reported.insert(Choice->Event.Site.getRawEncoding()).second)
        continue;
      Divergence D;
      D.K = Divergence::Kind::Dispatch;
      D.Function = Function->decl();
      D.Event = Choice->Event;
      D.Condition = Call.Holder;
      D.Source = Source;
      D.OtherEvent = Choice->OtherEvent;
      D.OtherTarget = Choice->Other;
      D.OtherSharesPrefix = Choice->AfterCommonPrefix;
      D.OtherPaired = Choice->Paired;
      D.Inner = Call.Inner;
      Divergences.push_back(std::move(D));
    }
}

} // namespace lockstep::analysis
