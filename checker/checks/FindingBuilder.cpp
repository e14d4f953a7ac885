#include "FindingBuilder.h"
#include "DivergenceNotes.h"

#include "../analysis/CallSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"

namespace lockstep::checks {
using namespace clang;

namespace {

FindingSink &sink() {
  static thread_local FindingSink Sink;
  return Sink;
}

} // namespace

void setFindingSink(FindingSink Sink) { sink() = std::move(Sink); }

FindingBuilder::FindingBuilder(tidy::ClangTidyCheck &Check, std::string_view CheckName,
                               const ASTContext &Context)
    : Check(Check), Context(Context) {
  Finding.Check = std::string(CheckName);
}

void FindingBuilder::about(const FunctionDecl *Function, const analysis::CollectiveEvent *Event,
                           const Stmt *Condition) {
  Finding.Function = Function ? Function->getQualifiedNameAsString() : "";
  if (Event && !Event->pending()) {
    Finding.Collective = Event->Collective;
    Finding.Communicator = Event->Communicator;
  }
  Finding.Condition = sourceText(Condition, Context);
}

unsigned FindingBuilder::callOf(const analysis::CollectiveEvent &Event) {
  for (unsigned I = 0; I < Events.size(); ++I)
    if (Events[I] == &Event)
      return I;
  findings::Call Call;
  Call.Collective.Name = Event.pending() ? "" : Event.Collective;
  Call.Collective.Communicator = Event.Communicator;
  Call.Collective.Callee = Event.Via ? calledName(Event) : "";
  Call.Collective.Guard = Event.Guard ? Event.Guard->getName().str() : "";
  Call.Collective.Kept = Event.Kept;
  Call.Usr = Event.PendingUsr;
  // What the callee receives, named once its summary says which parameter.
  if (const auto *Site = dyn_cast_or_null<CallExpr>(Event.SiteStmt); Site && Event.pending())
    for (const Expr *Argument : analysis::explicitArguments(Site))
      Call.Arguments.push_back(sourceText(Argument, Context));
  Wording.Calls.push_back(std::move(Call));
  Events.push_back(&Event);
  return Events.size() - 1;
}

Message FindingBuilder::name(const analysis::CollectiveEvent &Event, Naming N) {
  return Message::naming(callOf(Event), N);
}

void FindingBuilder::warning(SourceLocation Loc, Message Text, SourceRange Range,
                             std::vector<FixItHint> FixIt) {
  Finding.Location = location(Loc);
  Wording.Warning = std::move(Text);
  Warning = {Loc, Range};
  Fix = std::move(FixIt);
}

void FindingBuilder::note(SourceLocation Loc, Message Text, SourceRange Range) {
  Finding.Notes.push_back({location(Loc), ""});
  Wording.Notes.push_back(std::move(Text));
  Notes.push_back({Loc, Range});
}

void FindingBuilder::calleeNote(const analysis::CollectiveEvent &Event, SourceLocation Inside) {
  const unsigned Call = callOf(Event);
  if (Event.pending())
    Wording.Calls[Call].CalleeNote = Notes.size();
  else
    note(Inside, findings::calleeNote(Wording.Calls[Call].Collective));
}

// Where clang-tidy puts a diagnostic: the file location of a macro's.
findings::Location FindingBuilder::location(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return {};
  const SourceManager &SM = Context.getSourceManager();
  Loc = SM.getFileLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  return {SM.getFilename(Loc).str(), SM.getLineNumber(File, Offset),
          SM.getColumnNumber(File, Offset)};
}

void FindingBuilder::awaitStorage(const analysis::Provenance &Storage) {
  Wording.Reads.push_back({Storage.Usr, Storage.Name, unsigned(Notes.size())});
}

void FindingBuilder::emit() {
  findings::render(Finding, Wording);
  {
    DiagnosticBuilder Diagnostic = Check.diag(Warning.Loc, "%0");
    Diagnostic << Finding.Message << Fix;
    if (Warning.Range.isValid())
      Diagnostic << Warning.Range;
  }
  for (size_t I = 0; I < Notes.size(); ++I) {
    DiagnosticBuilder Diagnostic = Check.diag(Notes[I].Loc, "%0", DiagnosticIDs::Note);
    Diagnostic << Finding.Notes[I].Message;
    if (Notes[I].Range.isValid())
      Diagnostic << Notes[I].Range;
  }
  if (!sink())
    return;
  const SourceManager &SM = Context.getSourceManager();
  for (const FixItHint &Hint : Fix) {
    tooling::Replacement R(SM, Hint.RemoveRange, Hint.CodeToInsert);
    Finding.Fix.push_back(
        {R.getFilePath().str(), R.getOffset(), R.getLength(), R.getReplacementText().str()});
  }
  EmittedFinding Emitted{std::move(Finding), "", 0};
  // As tooling::DiagnosticMessage records it: no offset in scratch space.
  if (Warning.Loc.isValid()) {
    SourceLocation At = SM.getFileLoc(Warning.Loc);
    Emitted.DiagnosticFile = SM.getFilename(At).str();
    if (!Emitted.DiagnosticFile.empty())
      Emitted.DiagnosticOffset = SM.getFileOffset(At);
  }
  sink()(std::move(Emitted));
}

} // namespace lockstep::checks
