#include "SourceText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace lockstep::analysis {
using namespace clang;

namespace {

/// Whether the token at \p Last (in a macro definition) ends the definition:
/// nothing but a comment follows it on its line.
bool endsDefinition(SourceLocation Last, const SourceManager &SM, const LangOptions &Options) {
  const char *After = SM.getCharacterData(Last) + Lexer::MeasureTokenLength(Last, SM, Options);
  while (*After == ' ' || *After == '\t')
    ++After;
  return *After == '\n' || *After == '\r' || *After == '\0' ||
         (After[0] == '/' && (After[1] == '/' || After[1] == '*'));
}

/// The text of \p Range, climbing out of the macro expansions that it
/// exactly fills to the macro name the user wrote in a macro body.
std::string spelledText(SourceRange Range, const SourceManager &SM, const LangOptions &Options) {
  CharSourceRange File =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), SM, Options);
  if (File.isValid())
    return Lexer::getSourceText(File, SM, Options).str();
  SourceLocation Begin = Range.getBegin(), End = Range.getEnd();
  while (Begin.isMacroID() && End.isMacroID() && SM.getDecomposedLoc(Begin).second == 0) {
    CharSourceRange Use = SM.getImmediateExpansionRange(Begin);
    if (Use.getAsRange() != SM.getImmediateExpansionRange(End).getAsRange() ||
        !endsDefinition(SM.getSpellingLoc(End), SM, Options))
      break;
    Begin = Use.getBegin();
    End = Use.getEnd();
  }
  // Only a macro name is taken from a macro body: longer text there may hold
  // the parameters of the macro around it (`(cmd) != 0`).
  if (Begin != End)
    return "";
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(SM.getSpellingLoc(Begin), SM.getSpellingLoc(End)), SM,
             Options)
      .str();
}

} // namespace

std::string sourceText(const Stmt *S, const ASTContext &Context) {
  if (!S)
    return "";
  std::string Text =
      spelledText(S->getSourceRange(), Context.getSourceManager(), Context.getLangOpts());
  if (Text.empty()) {
    llvm::raw_string_ostream OS(Text);
    S->printPretty(OS, nullptr, Context.getPrintingPolicy());
  }
  // One line: collapse the whitespace of multi-line conditions.
  std::string Collapsed;
  for (char C : Text) {
    bool Space = C == ' ' || C == '\n' || C == '\t' || C == '\r';
    if (!Space || (!Collapsed.empty() && Collapsed.back() != ' '))
      Collapsed += Space ? ' ' : C;
  }
  return Collapsed;
}

} // namespace lockstep::analysis
