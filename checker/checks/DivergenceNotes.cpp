#include "DivergenceNotes.h"

#include "../analysis/CallSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace lockstep::checks {
using namespace clang;
using analysis::BranchArm;
using analysis::Provenance;

std::string quoted(llvm::StringRef Name) { return "'" + Name.str() + "'"; }

std::string calledName(const analysis::CollectiveEvent &Event) {
  if (!Event.via)
    return Event.collective;
  // A call that may run several functions is named as written: 'hook_->on_step'.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Event.siteStmt); Call && Event.dispatched) {
    const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
    return sourceText(Operator ? Operator->getArg(0) : Call->getCallee(),
                      Event.via->getASTContext());
  }
  // A lambda is named by what holds it: `sync()` -> 'sync', `on_step_()`
  // (a std::function member) -> 'on_step_'.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Event.via);
      Method && Method->getParent()->isLambda()) {
    if (const auto *Call = dyn_cast_or_null<CXXOperatorCallExpr>(Event.siteStmt))
      if (const ValueDecl *Holder = analysis::namedStorage(Call->getArg(0)))
        return Holder->getNameAsString();
    return "lambda";
  }
  return Event.via->getQualifiedNameAsString();
}

std::string namedCollective(const analysis::CollectiveEvent &Event) {
  if (!Event.via)
    return quoted(Event.collective);
  if (Event.guard)
    return "the destructor of " + quoted(Event.guard->getName()) + " (which calls " +
           quoted(Event.collective) + ")";
  return quoted(calledName(Event)) + " (which calls " + quoted(Event.collective) + ")";
}

std::string ranksWhere(const analysis::Divergence &D, const ASTContext &Context) {
  std::string Condition = quoted(sourceText(D.condition, Context));
  switch (D.arm.kind) {
  case BranchArm::Kind::True:
    return "ranks where " + Condition;
  case BranchArm::Kind::False:
    return "ranks where " + Condition + " is false";
  case BranchArm::Kind::Case:
    return "ranks where " + Condition + " is " +
           sourceText(cast<CaseStmt>(D.arm.label)->getLHS(), Context);
  case BranchArm::Kind::Default:
    return "ranks where " + Condition + " matches no case";
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
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Leaving))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      return Callee->getName().str();
  return "exit";
}

std::string leavingVerb(const Stmt *Leaving) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Leaving); Call && Call->getDirectCallee())
    return "call " + quoted(leavingKeyword(Leaving));
  const std::string Keyword = leavingKeyword(Leaving);
  if (Keyword == "break")
    return "break out of the loop";
  if (Keyword == "continue")
    return "continue with the next iteration";
  if (Keyword == "goto")
    return "jump away with goto";
  return Keyword == "return" || Keyword == "throw" ? Keyword : "leave";
}

SourceLocation locate(const ASTContext &Context, const analysis::SourcePoint &Point) {
  // Loading a file for a note does not change what the AST means.
  SourceManager &SM = const_cast<ASTContext &>(Context).getSourceManager();
  auto File = SM.getFileManager().getOptionalFileRef(Point.file);
  if (!File || Point.line == 0)
    return {};
  FileID ID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
  return SM.translateLineCol(ID, Point.line, std::max(1u, Point.column));
}

void addSourceNotes(tidy::ClangTidyCheck &Check, const Provenance *Source,
                    const ASTContext &Context) {
  for (int Depth = 0; Source && Depth < 4; Source = Source->via, ++Depth) {
    switch (Source->kind) {
    case Provenance::Kind::SourceCall:
      Check.diag(Source->loc, "the rank comes from %0 here", DiagnosticIDs::Note)
          << quoted(Source->name);
      break;
    case Provenance::Kind::Annotated:
      Check.diag(Source->loc, "the rank comes from %0, annotated as a rank source",
                 DiagnosticIDs::Note)
          << quoted(Source->name);
      break;
    case Provenance::Kind::Environment:
      Check.diag(Source->loc, "the rank comes from the environment variable %0 here",
                 DiagnosticIDs::Note)
          << quoted(Source->name);
      break;
    case Provenance::Kind::RankName:
      Check.diag(Source->loc,
                 "%0 is taken to hold the rank because of its name (rank_pattern in the "
                 "lockstep rules)",
                 DiagnosticIDs::Note)
          << quoted(Source->name);
      break;
    case Provenance::Kind::Parameter:
      Check.diag(Source->loc, "parameter %0 receives a rank-dependent value from a caller",
                 DiagnosticIDs::Note)
          << quoted(Source->name);
      break;
    case Provenance::Kind::Implicit:
      Check.diag(Source->loc, "the value is assigned under this rank-dependent condition",
                 DiagnosticIDs::Note);
      break;
    case Provenance::Kind::Split:
      Check.diag(Source->loc, "each part of the split by %0 here gets its own communicator",
                 DiagnosticIDs::Note)
          << quoted(Source->name);
      break;
    case Provenance::Kind::PerRankData:
      if (Source->holder.empty())
        Check.diag(Source->loc, "%0 returns %1 here; each rank reads its own",
                   DiagnosticIDs::Note)
            << quoted(Source->name) << Source->why;
      else
        Check.diag(Source->loc, "%0 is %1 from %2; each rank reads its own", DiagnosticIDs::Note)
            << quoted(Source->holder) << Source->why << quoted(Source->name);
      break;
    case Provenance::Kind::External:
      Check.diag(Source->loc, "the rank comes from %0, defined in another file",
                 DiagnosticIDs::Note)
          << quoted(Source->name);
      if (SourceLocation There = locate(Context, {Source->file, Source->line, Source->column});
          There.isValid())
        Check.diag(There, "%0 gets the rank here", DiagnosticIDs::Note) << quoted(Source->name);
      break;
    }
  }
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

void addCommonNotes(tidy::ClangTidyCheck &Check, const analysis::CollectiveEvent &Event,
                    const Expr *Differing, const Provenance *Source, const ASTContext &Context) {
  if (Event.guard)
    Check.diag(Event.destroyedAt, "%0 is destroyed here; its destructor calls %1",
               DiagnosticIDs::Note)
        << quoted(Event.guard->getName()) << quoted(Event.collective);
  SourceLocation Inside = Event.collectiveSite;
  if (Inside.isInvalid() && !Event.externalSite.file.empty())
    Inside = locate(Context, Event.externalSite); // the callee is defined in another file
  if (Event.via && Event.dispatched && Inside.isValid()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Event.via);
    const bool Lambda = Method && Method->getParent()->isLambda();
    Check.diag(Inside, "%0 is called here, inside %1, which %2 may run", DiagnosticIDs::Note)
        << quoted(Event.collective)
        << (Lambda ? "the lambda" : quoted(Event.via->getQualifiedNameAsString()))
        << quoted(calledName(Event));
  } else if (Event.via && Inside.isValid()) {
    Check.diag(Inside, "%0 is called here, inside %1", DiagnosticIDs::Note)
        << quoted(Event.collective) << quoted(calledName(Event));
  }
  if (Differing)
    Check.diag(Differing->getBeginLoc(), "%0 differs between ranks", DiagnosticIDs::Note)
        << quoted(sourceText(Differing, Context)) << Differing->getSourceRange();
  addSourceNotes(Check, Source, Context);
}

void addCommonNotes(tidy::ClangTidyCheck &Check, const analysis::Divergence &D,
                    const ASTContext &Context) {
  addCommonNotes(Check, D.event, D.condition, D.source, Context);
}

} // namespace lockstep::checks
