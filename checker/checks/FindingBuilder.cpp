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
  Finding.check = std::string(CheckName);
}

void FindingBuilder::about(const FunctionDecl *Function, const analysis::CollectiveEvent *Event,
                           const Stmt *Condition) {
  Finding.function = Function ? Function->getQualifiedNameAsString() : "";
  if (Event && !Event->pending()) {
    Finding.collective = Event->collective;
    Finding.communicator = Event->communicator;
  }
  Finding.condition = sourceText(Condition, Context);
}

unsigned FindingBuilder::callOf(const analysis::CollectiveEvent &Event) {
  for (unsigned I = 0; I < Events.size(); ++I)
    if (Events[I] == &Event)
      return I;
  findings::Call Call;
  Call.collective.name = Event.pending() ? "" : Event.collective;
  Call.collective.communicator = Event.communicator;
  Call.collective.callee = Event.via ? calledName(Event) : "";
  Call.collective.guard = Event.guard ? Event.guard->getName().str() : "";
  Call.usr = Event.pendingUsr;
  // What the callee receives, named once its summary says which parameter.
  if (const auto *Site = dyn_cast_or_null<CallExpr>(Event.siteStmt); Site && Event.pending())
    for (const Expr *Argument : analysis::explicitArguments(Site))
      Call.arguments.push_back(sourceText(Argument, Context));
  Wording.calls.push_back(std::move(Call));
  Events.push_back(&Event);
  return Events.size() - 1;
}

Message FindingBuilder::name(const analysis::CollectiveEvent &Event, Naming N) {
  return Message::naming(callOf(Event), N);
}

void FindingBuilder::warning(SourceLocation Loc, Message Text, SourceRange Range,
                             std::vector<FixItHint> FixIt) {
  Finding.location = location(Loc);
  Wording.warning = std::move(Text);
  Warning = {Loc, Range};
  Fix = std::move(FixIt);
}

void FindingBuilder::note(SourceLocation Loc, Message Text, SourceRange Range) {
  Finding.notes.push_back({location(Loc), ""});
  Wording.notes.push_back(std::move(Text));
  Notes.push_back({Loc, Range});
}

void FindingBuilder::calleeNote(const analysis::CollectiveEvent &Event, SourceLocation Inside) {
  const unsigned Call = callOf(Event);
  if (Event.pending())
    Wording.calls[Call].calleeNote = Notes.size();
  else
    note(Inside, findings::calleeNote(Wording.calls[Call].collective));
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

void FindingBuilder::emit() {
  findings::render(Finding, Wording);
  {
    DiagnosticBuilder Diagnostic = Check.diag(Warning.loc, "%0");
    Diagnostic << Finding.message << Fix;
    if (Warning.range.isValid())
      Diagnostic << Warning.range;
  }
  for (size_t I = 0; I < Notes.size(); ++I) {
    DiagnosticBuilder Diagnostic = Check.diag(Notes[I].loc, "%0", DiagnosticIDs::Note);
    Diagnostic << Finding.notes[I].message;
    if (Notes[I].range.isValid())
      Diagnostic << Notes[I].range;
  }
  if (!sink())
    return;
  const SourceManager &SM = Context.getSourceManager();
  for (const FixItHint &Hint : Fix) {
    tooling::Replacement R(SM, Hint.RemoveRange, Hint.CodeToInsert);
    Finding.fix.push_back(
        {R.getFilePath().str(), R.getOffset(), R.getLength(), R.getReplacementText().str()});
  }
  EmittedFinding Emitted{std::move(Finding), "", 0};
  // As tooling::DiagnosticMessage records it: no offset in scratch space.
  if (Warning.loc.isValid()) {
    SourceLocation At = SM.getFileLoc(Warning.loc);
    Emitted.diagnosticFile = SM.getFilename(At).str();
    if (!Emitted.diagnosticFile.empty())
      Emitted.diagnosticOffset = SM.getFileOffset(At);
  }
  sink()(std::move(Emitted));
}

} // namespace lockstep::checks
