#include "MoveOutOfBranchFix.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace lockstep::checks {
using namespace clang;

namespace {

/// Finds what makes moving a statement out of a block unsafe: an early exit
/// from the block, or (in the moved statement) a use of a variable declared
/// inside the block.
class MoveHazards : public RecursiveASTVisitor<MoveHazards> {
public:
  MoveHazards(const SourceManager &SM, SourceRange Block) : SM(SM), Block(Block) {}
  bool VisitReturnStmt(ReturnStmt *) { return Found = true, false; }
  bool VisitBreakStmt(BreakStmt *) { return Found = true, false; }
  bool VisitContinueStmt(ContinueStmt *) { return Found = true, false; }
  bool VisitGotoStmt(GotoStmt *) { return Found = true, false; }
  bool VisitCXXThrowExpr(CXXThrowExpr *) { return Found = true, false; }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && Block.isValid() &&
        SM.isPointWithin(Var->getLocation(), Block.getBegin(), Block.getEnd()))
      return Found = true, false;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool Found = false;

private:
  const SourceManager &SM;
  SourceRange Block;
};

bool hazardous(const Stmt *Moved, const Stmt *Block, const SourceManager &SM) {
  MoveHazards InBlock(SM, SourceRange()), InMoved(SM, Block->getSourceRange());
  InBlock.TraverseStmt(const_cast<Stmt *>(Block));
  InMoved.TraverseStmt(const_cast<Stmt *>(Moved));
  return InBlock.Found || InMoved.Found;
}

/// The whitespace that starts the line of \p Loc.
std::string indentation(SourceLocation Loc, const SourceManager &SM) {
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
  unsigned Offset = SM.getFileOffset(Loc);
  unsigned Start = Buffer.rfind('\n', Offset) + 1; // npos + 1 == 0
  unsigned End = Start;
  while (End < Buffer.size() && (Buffer[End] == ' ' || Buffer[End] == '\t'))
    ++End;
  return Buffer.slice(Start, End).str();
}

} // namespace

std::vector<FixItHint> moveOutOfBranch(const analysis::Divergence &D, const ASTContext &Context) {
  const auto *If = dyn_cast_or_null<IfStmt>(D.Branch);
  const auto *Call = dyn_cast_or_null<CallExpr>(D.Event.SiteStmt);
  if (D.K != analysis::Divergence::Kind::OnlySomeRanks || D.OtherEvent || !If || !Call ||
      D.Arm.K != analysis::BranchArm::Kind::True || If->getElse() || If->getInit() ||
      If->getConditionVariable() || If->isConsteval() || D.Condition != If->getCond())
    return {};
  const SourceManager &SM = Context.getSourceManager();
  const LangOptions &Lang = Context.getLangOpts();
  if (If->getBeginLoc().isMacroID() || If->getEndLoc().isMacroID() ||
      Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID())
    return {};
  // In an `else if`, the other arms would still not run it. Read off the
  // (raw) token before the `if`: the AST's parent map would cost a walk of the
  // whole translation unit.
  std::optional<Token> Before = Lexer::findPreviousToken(If->getBeginLoc(), SM, Lang,
                                                         /*IncludeComments=*/false);
  if (Before && Before->is(tok::raw_identifier) && Before->getRawIdentifier() == "else")
    return {};
  const Stmt *Then = If->getThen();
  const auto *Block = dyn_cast<CompoundStmt>(Then);
  const Stmt *Last = Block ? Block->body_back() : Then;
  const auto *LastExpr = dyn_cast_or_null<Expr>(Last);
  if (!LastExpr || LastExpr->IgnoreImplicit() != Call || hazardous(Call, Then, SM))
    return {};
  SourceLocation Semi = Lexer::findLocationAfterToken(Call->getEndLoc(), tok::semi, SM, Lang,
                                                      /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (Semi.isInvalid())
    return {};
  std::string Text =
      Lexer::getSourceText(CharSourceRange::getCharRange(Call->getBeginLoc(), Semi), SM, Lang)
          .str();
  if (!Block) { // `if (c) call;`: the call alone replaces the whole statement
    if (If->getCond()->HasSideEffects(Context))
      return {};
    return {
        FixItHint::CreateReplacement(CharSourceRange::getCharRange(If->getBeginLoc(), Semi), Text)};
  }
  // Remove the statement with its line, and re-insert it after the block.
  SourceLocation From = Call->getBeginLoc();
  std::string Indent = indentation(From, SM);
  if (SM.getSpellingColumnNumber(From) == Indent.size() + 1)
    From = From.getLocWithOffset(-static_cast<int>(Indent.size()) - 1); // the newline before
  return {FixItHint::CreateRemoval(CharSourceRange::getCharRange(From, Semi)),
          FixItHint::CreateInsertion(Block->getRBracLoc().getLocWithOffset(1),
                                     "\n" + indentation(If->getBeginLoc(), SM) + Text)};
}

} // namespace lockstep::checks
