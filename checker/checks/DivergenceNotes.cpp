#include "DivergenceNotes.h"
#include "FindingBuilder.h"

#include "../analysis/CallSite.h"
#include "../analysis/NeverReturns.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace lockstep::checks {
using namespace clang;
using analysis::BranchArm;
using analysis::Provenance;

std::string calledName(const analysis::CollectiveEvent &Event) {
  if (!Event.Via)
    return Event.Collective.str();
  // A call that may run several functions is named as written: 'hook_->on_step'.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Event.SiteStmt); Call && Event.Dispatched) {
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    return sourceText(Operator ? Operator->getArg(0) : Call->getCallee(),
                      Event.Via->getASTContext());
  }
  // A callable the call keeps for later is named by that call (`hooks.add`).
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Event.SiteStmt);
      Call && Event.Kept && !isa<CXXOperatorCallExpr>(Call))
    return sourceText(Call->getCallee(), Event.Via->getASTContext());
  // A lambda is named by what holds it: `sync()` -> 'sync', `on_step_()`
  // (a std::function member) -> 'on_step_'.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Event.Via);
      Method && Method->getParent()->isLambda()) {
    if (const auto *Call = dyn_cast_or_null<CXXOperatorCallExpr>(Event.SiteStmt)) {
      if (const ValueDecl *Holder = analysis::namedStorage(Call->getArg(0)))
        return Holder->getNameAsString();
    } else if (const auto *Call = dyn_cast_or_null<CallExpr>(Event.SiteStmt)) {
      // Handed to a call: named by the call (`std::for_each`, `run`).
      return sourceText(Call->getCallee(), Event.Via->getASTContext());
    }
    return "lambda";
  }
  return qualifiedName(Event.Via);
}

std::string qualifiedName(const FunctionDecl *FD) {
  // As the user can write it: no `(anonymous namespace)::` or inline
  // namespace.
  PrintingPolicy Policy = FD->getASTContext().getPrintingPolicy();
  Policy.SuppressUnwrittenScope = true;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  if (FD->isFunctionTemplateSpecialization())
    FD->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  else
    FD->printQualifiedName(OS, Policy);
  return Name;
}

std::string functionName(const FunctionDecl *FD, const ASTContext &Context) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD); Method && Method->getParent()->isLambda())
    return "the lambda on line " +
           std::to_string(Context.getSourceManager().getPresumedLineNumber(
               Context.getSourceManager().getExpansionLoc(Method->getParent()->getLocation())));
  return quoted(qualifiedName(FD));
}

std::string ranksWhere(const analysis::Divergence &D, const ASTContext &Context) {
  return ranksWhere(D.Condition, D.Arm, Context);
}

std::string otherRanks(const analysis::Divergence &D, const ASTContext &Context) {
  auto InSwitch = [](const BranchArm &Arm) {
    return Arm.K == BranchArm::Kind::Case || Arm.K == BranchArm::Kind::Default;
  };
  return InSwitch(D.Arm) && InSwitch(D.OtherArm) ? ranksWhere(D.Condition, D.OtherArm, Context)
                                                 : "the other ranks";
}

/// The values of \p Cases as written, the last joined by \p Last (`0, 2 or
/// 4`), or all by commas without it.
static std::string caseValues(const std::vector<const CaseStmt *> &Cases, llvm::StringRef Last,
                              const ASTContext &Context) {
  std::string Out;
  for (size_t I = 0; I < Cases.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Cases.size() && !Last.empty() ? " " + Last.str() + " " : ", ";
    Out += sourceText(Cases[I]->getLHS(), Context);
  }
  return Out;
}

std::string ranksWhere(const Expr *Deciding, const BranchArm &Arm, const ASTContext &Context) {
  std::string Condition = quoted(sourceText(Deciding, Context));
  switch (Arm.K) {
  case BranchArm::Kind::True:
    return "ranks where " + Condition;
  case BranchArm::Kind::False:
    return "ranks where " + Condition + " is false";
  case BranchArm::Kind::Case: {
    std::vector<const CaseStmt *> Cases{cast<CaseStmt>(Arm.Label)};
    Cases.insert(Cases.end(), Arm.Alike.begin(), Arm.Alike.end());
    return "ranks where " + Condition + " is " + caseValues(Cases, "or", Context);
  }
  case BranchArm::Kind::Default:
    if (Arm.Unlike.size() == 1)
      return "ranks where " + Condition + " is not " + caseValues(Arm.Unlike, "", Context);
    if (Arm.Unlike.size() == 2)
      return "ranks where " + Condition + " is neither " + caseValues(Arm.Unlike, "nor", Context);
    if (!Arm.Unlike.empty())
      return "ranks where " + Condition + " is none of " + caseValues(Arm.Unlike, "", Context);
    return "ranks where " + Condition + " matches no case";
  case BranchArm::Kind::Returns:
    return "ranks where " + Condition + " returns";
  case BranchArm::Kind::Throws:
    return "ranks where " + Condition + " throws";
  }
  return "";
}

std::string leavingKeyword(const Stmt *Leaving) {
  if (isa_and_nonnull<ReturnStmt>(Leaving))
    return "return";
  if (isa_and_nonnull<BreakStmt>(Leaving))
    return "break";
  if (isa_and_nonnull<ContinueStmt>(Leaving))
    return "continue";
  if (isa_and_nonnull<CXXThrowExpr>(Leaving))
    return "throw";
  if (isa_and_nonnull<GotoStmt, IndirectGotoStmt>(Leaving))
    return "goto";
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Leaving)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A call that returns leaves only by what it throws (exceptionalCall).
    return Callee && !analysis::neverReturns(*Callee) ? "throw"
           : Callee                                   ? Callee->getName().str()
                                                      : "exit";
  }
  return "exit";
}

void noteWhyNeverReturns(FindingBuilder &Finding, const Stmt *Leaving) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Leaving);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !analysis::neverReturns(*Callee))
    return;
  if (const CallExpr *Ending = analysis::firstEndingCall(*Callee))
    Finding.note(Ending->getBeginLoc(),
                 quoted(qualifiedName(Callee)) +
                     " does not return: every way through it ends in a call that does not "
                     "return, as " +
                     quoted(qualifiedName(Ending->getDirectCallee())) + " here");
}

// The loop or switch an unlabelled `break` leaves: its nearest enclosing one.
static bool breaksOutOfSwitch(const BreakStmt &Break, ASTContext &Context) {
  for (DynTypedNodeList Parents = Context.getParents(Break); !Parents.empty();) {
    const auto *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return false;
    if (isa<SwitchStmt>(Parent))
      return true;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Parent))
      return false;
    Parents = Context.getParents(*Parent);
  }
  return false;
}

std::string leavingVerb(const Stmt *Leaving, ASTContext &Context) {
  const auto *Call = dyn_cast_or_null<CallExpr>(Leaving);
  if (Call && Call->getDirectCallee() && !analysis::neverReturns(*Call->getDirectCallee()))
    return "leave the 'try'";
  if (Call && Call->getDirectCallee())
    return "call " + quoted(leavingKeyword(Leaving));
  const std::string Keyword = leavingKeyword(Leaving);
  if (Keyword == "break")
    return breaksOutOfSwitch(*cast<BreakStmt>(Leaving), Context) ? "break out of the 'switch'"
                                                                 : "break out of the loop";
  if (Keyword == "continue")
    return "continue with the next iteration";
  if (Keyword == "goto")
    return "jump away with goto";
  return Keyword == "return" || Keyword == "throw" ? Keyword : "leave";
}

SourceLocation locate(const ASTContext &Context, const analysis::SourcePoint &Point) {
  // Loading a file for a note does not change what the AST means.
  SourceManager &SM = const_cast<ASTContext &>(Context).getSourceManager();
  auto File = SM.getFileManager().getOptionalFileRef(Point.File);
  if (!File || Point.Line == 0)
    return {};
  FileID ID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
  return SM.translateLineCol(ID, Point.Line, std::max(1u, Point.Column));
}

void addSourceNotes(FindingBuilder &Finding, const Provenance *Source, const ASTContext &Context) {
  // Pending on a field or global another file may write: the finding waits
  // for the summaries, and the note at that write follows the read's note.
  const Provenance *Pending = pendingRoot(Source);
  for (int Depth = 0; Source && Depth < 4; Source = Source->Via, ++Depth) {
    const std::string Name = quoted(Source->Name);
    switch (Source->K) {
    case Provenance::Kind::SourceCall:
      Finding.note(Source->Loc, "the rank comes from " + Name + " here");
      break;
    case Provenance::Kind::Annotated:
      Finding.note(Source->Loc, "the rank comes from " + Name + ", annotated as a rank source");
      break;
    case Provenance::Kind::Environment:
      Finding.note(Source->Loc, "the rank comes from the environment variable " + Name + " here");
      break;
    case Provenance::Kind::RankName:
      Finding.note(Source->Loc, Name + " is taken to hold the rank because of its name "
                                       "(rank_pattern in the lockstep rules)");
      break;
    case Provenance::Kind::Parameter:
      Finding.note(Source->Loc,
                   "parameter " + Name + " receives a rank-dependent value from a caller");
      break;
    case Provenance::Kind::Implicit:
      Finding.note(Source->Loc, "the value is assigned under this rank-dependent condition");
      break;
    case Provenance::Kind::Split:
      Finding.note(Source->Loc,
                   "each part of the split by " + Name + " here gets its own communicator");
      break;
    case Provenance::Kind::PerRankData:
      if (Source->Holder.empty())
        Finding.note(Source->Loc,
                     Name + " returns " + Source->Why + " here; each rank reads its own");
      else
        Finding.note(Source->Loc,
                     quoted(Source->Holder) + " is " + Source->Why + " from " + Name +
                         (Source->MembersOf
                              ? "; only the ranks that share one " +
                                    quoted(Source->MembersOf->getName().str()) + " agree on it"
                              : "; each rank reads its own"));
      break;
    case Provenance::Kind::UnseenCall:
      Finding.note(Source->Loc, Name +
                                    " is given a value that differs between ranks; its body is "
                                    "not visible, so " +
                                    (Source->Holder.empty()
                                         ? "its result is"
                                         : "what it writes to " + quoted(Source->Holder) + " is") +
                                    " taken to differ as well");
      break;
    case Provenance::Kind::External:
      Finding.note(Source->Loc, "the rank comes from " + Name + ", defined in another file");
      if (SourceLocation There = locate(Context, {Source->File, Source->Line, Source->Column});
          There.isValid())
        Finding.note(There, Name + " gets the rank here");
      break;
    case Provenance::Kind::Pending:
      Finding.note(Source->Loc, "the rank comes from " + Name + ", defined in another file");
      Finding.awaitStorage(*Source);
      Pending = nullptr;
      break;
    }
  }
  if (Pending) // deeper than the notes go
    Finding.awaitStorage(*Pending);
}

std::string quotedList(const std::vector<std::string> &Names) {
  std::string List;
  for (size_t I = 0; I < Names.size(); ++I) {
    if (I)
      List += I + 1 == Names.size() ? " and " : ", ";
    List += quoted(Names[I]);
  }
  return List;
}

void addCommonNotes(FindingBuilder &Finding, const analysis::CollectiveEvent &Event,
                    const Expr *Differing, const Provenance *Source, const ASTContext &Context,
                    const std::string &Subject) {
  if (Event.Guard)
    Finding.note(Event.DestroyedAt, quoted(Event.Guard->getName().str()) +
                                        " is destroyed here; its destructor calls " +
                                        Finding.name(Event, Naming::Collective));
  SourceLocation Inside = Event.CollectiveSite;
  if (Inside.isInvalid() && Event.ExternalSite)
    Inside = locate(Context, *Event.ExternalSite); // the callee is defined in another file
  if (Event.Via && Event.Dispatched && Inside.isValid()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Event.Via);
    const bool Lambda = Method && Method->getParent()->isLambda();
    Finding.note(Inside, Finding.name(Event, Naming::Collective) + " is called here, inside " +
                             (Lambda ? "the lambda" : quoted(qualifiedName(Event.Via))) +
                             ", which " + quoted(calledName(Event)) + " may run");
  } else if (Event.Via && (Inside.isValid() || Event.pending())) {
    Finding.calleeNote(Event, Inside);
  }
  if (Differing)
    Finding.note(Differing->getBeginLoc(),
                 (Subject.empty() ? quoted(sourceText(Differing, Context)) : Subject) +
                     " differs between ranks",
                 Differing->getSourceRange());
  addSourceNotes(Finding, Source, Context);
}

/// Two ranks of a job that part at \p D's branch, where the job is not the
/// smallest one: the condition bounds the job (`rank < participants` with
/// `participants` at most 10), which a reader would not guess.
static void noteWitness(FindingBuilder &Finding, const analysis::Divergence &D) {
  using Kind = analysis::Divergence::Kind;
  const std::optional<analysis::RankWitness> &Witness = D.Witness;
  if (!Witness || !Witness->Rank1 || !Witness->Rank2 || !Witness->Size || *Witness->Size <= 2 ||
      !D.Condition || (D.K != Kind::OnlySomeRanks && D.K != Kind::SkippedAfterExit))
    return;
  const bool Calls = D.K == Kind::OnlySomeRanks;
  Finding.note(D.Condition->getBeginLoc(),
               "for example, in a job of " + std::to_string(*Witness->Size) + " ranks, rank " +
                   std::to_string(*Witness->Rank1) + (Calls ? " calls " : " reaches ") +
                   Finding.name(D.Event, Naming::Collective) + " and rank " +
                   std::to_string(*Witness->Rank2) + (Calls ? " does not" : " leaves before it"));
}

void addCommonNotes(FindingBuilder &Finding, const analysis::Divergence &D,
                    const ASTContext &Context) {
  const auto *Call = dyn_cast_or_null<CallExpr>(D.Condition);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || (D.Arm.K != BranchArm::Kind::Returns && D.Arm.K != BranchArm::Kind::Throws)) {
    addCommonNotes(Finding, D.Event, D.Condition, D.Source, Context);
    noteWitness(Finding, D);
    return;
  }
  const std::string Name = quoted(qualifiedName(D.Thrower ? D.Thrower : Callee));
  addCommonNotes(Finding, D.Event, D.Condition, D.Source, Context,
                 "whether " + quoted(sourceText(D.Condition, Context)) + " throws");
  if (D.ThrowSite.isValid())
    Finding.note(D.ThrowSite, Name + " lets out the exception thrown here; the handlers of the "
                                     "'try' around the call catch it");
}

std::pair<std::string, std::pair<std::string, std::string>>
firstDifference(const analysis::CollectiveEvent &A, const analysis::CollectiveEvent &B) {
  std::optional<size_t> I = analysis::firstDifferingArgument(A, B);
  if (!I)
    return {"arguments", {"", ""}};
  return {A.AgreedArguments[*I].Role.str(),
          {A.AgreedArguments[*I].Written.str(), B.AgreedArguments[*I].Written.str()}};
}

} // namespace lockstep::checks
