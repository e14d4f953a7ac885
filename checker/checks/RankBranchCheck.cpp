#include "RankBranchCheck.h"
#include "DivergenceNotes.h"
#include "MoveOutOfBranchFix.h"

#include "../analysis/FunctionCFG.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;

// What the remedy moves out of the branch: a guard's declaration, the
// making of a heap object whose destructor runs collectives later, the end
// of an object (a `delete`, a temporary), or the call.
static std::string remedySubject(const analysis::CollectiveEvent &Event) {
  if (Event.Guard)
    return "declare " + quoted(Event.Guard->getName().str());
  if (const auto *Dtor = dyn_cast_or_null<CXXDestructorDecl>(Event.Via))
    return (Event.SiteStmt ? "make the " : "destroy the ") +
           quoted(Dtor->getParent()->getName().str());
  return "call " + quoted(calledName(Event));
}

// What the other ranks' call of the same collective does differently:
// " with count '0' (not '1')", " on another communicator"; empty for
// another collective.
static std::string otherArguments(const analysis::CollectiveEvent &Event,
                                  const analysis::CollectiveEvent &Other) {
  if (Event.Collective != Other.Collective)
    return "";
  auto [Role, Values] = firstDifference(Other, Event);
  if (Role != "arguments" && Values.first != Values.second)
    return " with " + Role + " '" + Values.first + "' (not '" + Values.second + "')";
  if (Role == "communicator" || Event.CommunicatorDecl != Other.CommunicatorDecl)
    return " on another communicator";
  return Role == "arguments" ? "" : " with another " + Role;
}

void RankBranchCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  const std::string Ranks = ranksWhere(D, Context);
  const analysis::CollectiveEvent &Event = D.Event;
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &Event, D.Condition);
  if (D.K == Divergence::Kind::OnlySomeRanks) {
    Message Others = D.OtherEvent ? "the other ranks call " +
                                        Finding.name(*D.OtherEvent, Naming::Collective) +
                                        otherArguments(Event, *D.OtherEvent) + " instead"
                                  : "the other ranks never call it";
    Finding.warning(Event.Site,
                    Finding.name(Event) + " runs only on " + Ranks + "; " + Others +
                        " and the job hangs",
                    {}, moveOutOfBranch(D, Context));
    addCommonNotes(Finding, D, Context);
    if (D.OtherEvent)
      Finding.note(D.OtherEvent->Site, "the other ranks call " +
                                           Finding.name(*D.OtherEvent, Naming::Collective) +
                                           " here");
    // A guard declared before the branch is on every rank already.
    if (!Event.Guard ||
        (D.Branch && analysis::sourceContains(Context.getSourceManager(),
                                              D.Branch->getSourceRange(), Event.Site)))
      Finding.note(Event.Site, remedySubject(Event) +
                                   " on every rank: move it out of the branch and keep only the "
                                   "rank-specific work under the condition");
    Finding.emit();
    return;
  }
  if (D.K == Divergence::Kind::Dispatch) {
    reportDispatch(D, Context);
    return;
  }
  assert(D.K == Divergence::Kind::Order && "the router sends only these three kinds");
  const analysis::CollectiveEvent &Other = *D.OtherEvent;
  Finding.warning(Event.Site, Finding.name(Event, Naming::Collective) +
                                  Finding.name(Event, Naming::OnCommunicator) + " runs first on " +
                                  Ranks + ", but the other ranks run " +
                                  Finding.name(Other, Naming::Collective) +
                                  Finding.name(Other, Naming::OnCommunicator) +
                                  " first; each side waits for the other and the job hangs");
  addCommonNotes(Finding, D, Context);
  Finding.note(Other.Site, "the other ranks start with " + Finding.name(Other, Naming::Collective) +
                               Finding.name(Other, Naming::OnCommunicator) + " here");
  Finding.note(Event.Site, "issue the collectives in the same order on every rank");
  Finding.emit();
}

// `logger->log(loss)` where `logger` holds a GlobalLogger on rank 0 and a
// NullLogger elsewhere: the choice of the function is the rank branch.
void RankBranchCheck::reportDispatch(const Divergence &D, ASTContext &Context) {
  const analysis::CollectiveEvent &Event = D.Event;
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &Event, D.Condition);
  const std::string Call = quoted(calledName(Event));
  const std::string Performer = functionName(Event.Via, Context);
  const std::string Other = functionName(D.OtherTarget, Context);
  // The same operation on communicators written differently is named with
  // them (`world_` against `comm_`).
  const bool ByCommunicator = D.OtherEvent && D.OtherEvent->Collective == Event.Collective &&
                              !Event.Communicator.empty() && !D.OtherEvent->Communicator.empty() &&
                              D.OtherEvent->Communicator != Event.Communicator;
  // After the collectives both call, one goes on where the other stops or
  // calls something else: `then` says the difference is not the first call.
  const char *Verb = D.OtherSharesPrefix ? "then calls " : "calls ";
  Message Calls = Finding.name(Event, Naming::Collective);
  Message Instead = D.OtherSharesPrefix ? "returns instead" : "calls none";
  if (ByCommunicator) {
    Calls = Calls + Finding.name(Event, Naming::OnCommunicator);
    Instead = Verb + Finding.name(*D.OtherEvent, Naming::Collective) +
              Finding.name(*D.OtherEvent, Naming::OnCommunicator);
  } else if (D.OtherEvent && D.OtherEvent->Collective == Event.Collective && !D.OtherPaired) {
    Instead = "runs other collectives"; // its first call is no difference
  } else if (D.OtherEvent) {
    Instead = Verb + Finding.name(*D.OtherEvent, Naming::Collective);
    if (D.OtherEvent->Collective == Event.Collective)
      Instead = Instead + " with other arguments";
  }
  Finding.warning(Event.Site,
                  Call + " may run " + Performer + ", which " + Verb + Calls + ", or " + Other +
                      ", which " + Instead + ", and " + quoted(sourceText(D.Condition, Context)) +
                      " differs between ranks: ranks that reach different functions run "
                      "different collectives and the job hangs");
  addCommonNotes(Finding, D, Context);
  if (D.Inner)
    Finding.note(D.Inner->getExprLoc(), Call + " calls the virtual " +
                                            quoted(D.Inner->getMethodDecl()->getNameAsString()) +
                                            " on its object here; the type of " +
                                            quoted(sourceText(D.Condition, Context)) +
                                            " picks the override");
  if (D.OtherEvent && D.OtherEvent->CollectiveSite.isValid())
    Finding.note(D.OtherEvent->CollectiveSite, Finding.name(*D.OtherEvent, Naming::Collective) +
                                                   " is called here, inside " + Other);
  else if (!D.OtherEvent)
    Finding.note(D.OtherTarget->getLocation(),
                 D.OtherSharesPrefix
                     ? Other + " returns after the collectives both call, without calling " +
                           Finding.name(Event, Naming::Collective)
                     : Other + " calls no collective");
  Finding.note(Event.Site, "make " + quoted(sourceText(D.Condition, Context)) +
                               " the same on every rank, or have every function " + Call +
                               " may run call the same collectives");
  Finding.emit();
}

// A bound of the engine was reached: say so rather than stay silently quiet.
void RankBranchCheck::reportLimit(const analysis::AnalysisLimit &Limit, ASTContext &) {
  diag(Limit.Where, "lockstep: analysis of %0 incomplete: %1", DiagnosticIDs::Remark)
      << Limit.Function << Limit.What;
}

} // namespace lockstep::checks
