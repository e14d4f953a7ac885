#include "JoinRegion.h"
#include "CallSite.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace lockstep::analysis {
using namespace clang;

namespace {

/// The end of the scope a guard object lives in: its enclosing block.
SourceLocation scopeEnd(const Stmt *Construct, const ParentMap &Parents, SourceLocation Fallback) {
  for (const Stmt *S = Construct; S; S = Parents.getParent(S))
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      return Block->getRBracLoc();
  return Fallback;
}

} // namespace

std::vector<JoinRegion> joinRegions(const FunctionCFG &Function, const CallClassifier &Classifier) {
  std::vector<JoinRegion> Regions;
  const SourceManager &SM = Function.context().getSourceManager();
  const SourceLocation BodyEnd = Function.decl()->getBody()->getEndLoc();
  struct Boundary {
    const rules::JoinProtocolRule *Protocol;
    SourceLocation Loc;
    bool Begins;
    const clang::Stmt *Stmt;
  };
  std::vector<Boundary> Boundaries;
  for (const CFGBlock *Block : Function.cfg())
    forEachCall(*Block, Function.context(),
                [&](const FunctionDecl *Callee, SourceLocation Site, const Stmt *SiteStmt) {
                  if (!SiteStmt) // guard destructors end with their scope
                    return;
                  const CalleeRole &Role = Classifier.classify(Callee);
                  if (Role.JoinBegin)
                    Boundaries.push_back({Role.JoinBegin, Site, true, SiteStmt});
                  else if (Role.JoinEnd)
                    Boundaries.push_back({Role.JoinEnd, Site, false, SiteStmt});
                });
  for (const Boundary &Begin : Boundaries) {
    if (!Begin.Begins)
      continue;
    SourceLocation End =
        Begin.Protocol->Guard.empty() ? BodyEnd : scopeEnd(Begin.Stmt, Function.parents(), BodyEnd);
    // A begin/end pair closes at the first end call that follows it.
    for (const Boundary &Close : Boundaries)
      if (!Close.Begins && Close.Protocol == Begin.Protocol &&
          SM.isBeforeInTranslationUnit(Begin.Loc, Close.Loc) &&
          SM.isBeforeInTranslationUnit(Close.Loc, End))
        End = Close.Loc;
    Regions.push_back({Begin.Protocol, SourceRange(Begin.Loc, End)});
  }
  return Regions;
}

} // namespace lockstep::analysis
