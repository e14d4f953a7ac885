#include "LoopDivergence.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace lockstep::analysis {
using namespace clang;

namespace {

/// The part of a loop that runs once per iteration: everything but a for
/// statement's init.
SourceRange iteratedRange(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    if (const Stmt *Init = For->getInit())
      return SourceRange(Init->getEndLoc().getLocWithOffset(1), For->getEndLoc());
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop))
    return RangeFor->getBody()->getSourceRange();
  return Loop->getSourceRange();
}

/// The whole `&&`/`||` chain \p Operand is tested in: the condition of a
/// break as written (`rank > 1 && epoch == 3`).
const Expr *wholeChain(const Expr *Operand, const ParentMap &Parents) {
  while (Operand) {
    const auto *Chain = dyn_cast_or_null<BinaryOperator>(
        Parents.getParentIgnoreParenImpCasts(const_cast<Expr *>(Operand)));
    if (!Chain || !Chain->isLogicalOp())
      break;
    Operand = Chain;
  }
  return Operand;
}

bool shadows(const JoinRegion &Region, const CollectiveEvent &Event) {
  return std::find(Event.ShadowedBy.begin(), Event.ShadowedBy.end(), Region.Protocol) !=
         Event.ShadowedBy.end();
}

} // namespace

std::vector<LoopDivergence> loopDivergences(const FunctionCFG &Function, const CFGBlock &Header,
                                            const CFGBlock &Deciding, const Provenance *Source,
                                            const std::vector<CollectiveEvent> &FunctionEvents,
                                            const std::vector<JoinRegion> &Regions) {
  std::vector<LoopDivergence> Found;
  // The statement that owns the header's test: the loop around the first
  // operand of a `&&` chain (`while (err > tol && pass < max)`), too.
  const Stmt *Loop = loopStatement(Header, Function.parents());
  const SourceManager &SM = Function.context().getSourceManager();
  const SourceRange Iterated = Loop ? iteratedRange(Loop) : SourceRange();
  const JoinRegion *Join = nullptr;
  for (const JoinRegion &Region : Regions)
    if (Loop && sourceContains(SM, Region.Range, Loop->getBeginLoc()))
      Join = &Region;
  for (const CollectiveEvent &Event : FunctionEvents) {
    if (Event.GroupMarker || Event.JoinBoundary)
      continue;
    const bool Inside = !Loop || sourceContains(SM, Iterated, Event.Site);
    // In a join region, what runs after the uneven loop is misaligned too:
    // the ranks that finished early are already shadowing.
    const bool After = Join && !Inside &&
                       SM.isBeforeInTranslationUnit(Loop->getEndLoc(), Event.Site) &&
                       sourceContains(SM, Join->Range, Event.Site);
    if ((!Inside && !After) || (Join && shadows(*Join, Event)))
      continue;
    LoopDivergence D;
    D.K = Join ? LoopDivergence::Kind::Unshadowed : LoopDivergence::Kind::TripCount;
    D.Function = Function.decl();
    D.Event = Event;
    // A range-for differs by its range: `for (x : inputs)` reads as 'inputs'.
    const auto *RangeFor = dyn_cast_or_null<CXXForRangeStmt>(Loop);
    D.Condition = &Deciding != &Header || !Loop
                      ? wholeChain(decidingCondition(Deciding), Function.parents())
                  : RangeFor ? RangeFor->getRangeInit()
                             : decidingCondition(Header);
    D.Source = Source;
    if (Join)
      D.Join = *Join;
    D.AfterLoop = After;
    Found.push_back(std::move(D));
  }
  return Found;
}

} // namespace lockstep::analysis
