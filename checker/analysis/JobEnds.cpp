#include "JobEnds.h"
#include "CalleesFirst.h"

#include "llvm/ADT/STLExtras.h"

namespace lockstep::analysis {
using namespace clang;

JobEnds::JobEnds(const CallClassifier &Classifier,
                 const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions,
                 bool AssertionsAsExits)
    : Classifier(Classifier), Functions(Functions), AssertionsAsExits(AssertionsAsExits) {}

/// `assert(x)` failing stops the process, and the launcher the job.
static bool failsAnAssertion(const FunctionDecl &Callee) {
  return Callee.getIdentifier() &&
         llvm::is_contained({"__assert_fail", "__assert_perror_fail", "__assert_rtn", "_wassert",
                             "__assert2", "__assert"},
                            Callee.getName());
}

bool JobEnds::endsJob(const CFGBlock &Block) { return endsJob(Block, nullptr); }

bool JobEnds::endsJob(const CFGBlock &Block, std::vector<const FunctionDecl *> *Missing) {
  for (const CFGElement &Element : Block)
    if (auto S = Element.getAs<CFGStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()); Call && callEndsJob(*Call, Missing))
        return true;
  return false;
}

bool JobEnds::callEndsJob(const CallExpr &Call, std::vector<const FunctionDecl *> *Missing) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return false;
  if (Classifier.classify(Callee).AbortsJob || (!AssertionsAsExits && failsAnAssertion(*Callee)))
    return true;
  const FunctionDecl *Key = Callee->getCanonicalDecl();
  if (auto Known = Decided.find(Key); Known != Decided.end())
    return Known->second;
  if (!Functions.count(Key) || Deciding.count(Key))
    return false; // no body here, or recursion: it may return
  if (Missing) {
    Missing->push_back(Key);
    return false;
  }
  return alwaysEndsJob(Key);
}

bool JobEnds::alwaysEndsJob(const FunctionDecl *FD) {
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (auto Known = Decided.find(Key); Known != Decided.end())
    return Known->second;
  if (!Functions.count(Key))
    return false;
  decideCalleesFirst(Key, Decided, Deciding,
                     [&](const FunctionDecl *F, std::vector<const FunctionDecl *> &Needed) {
                       return decide(*Functions.lookup(F), Needed);
                     });
  return Decided.lookup(Key);
}

// Ends the job when every way through it passes a block that does.
bool JobEnds::decide(const FunctionCFG &Function, std::vector<const FunctionDecl *> &Missing) {
  const bool Ends = everyWayPasses(Function.cfg(),
                                   [&](const CFGBlock &Block) { return endsJob(Block, &Missing); });
  return Missing.empty() && Ends;
}

} // namespace lockstep::analysis
