#include "HandleCommunicators.h"

#include "CallSite.h"
#include "SourceText.h"

namespace lockstep::analysis {
using namespace clang;

const Expr *HandleCommunicators::creator(const ValueDecl *Handle) const {
  if (!Handle)
    return nullptr;
  if (!Scanned)
    scan();
  auto It = Creators.find(Handle);
  return It == Creators.end() ? nullptr : It->second;
}

void HandleCommunicators::scan() const {
  Scanned = true;
  for (const auto &[Decl, Function] : Functions)
    forEachStmtInOrder(Function->decl()->getBody(), [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      const rules::CollectiveRule *Rule = Callee ? Classifier.classify(Callee).Collective : nullptr;
      if (!Rule)
        return;
      const Expr *Comm = ruleArgument(Call, Rule->Comm);
      const ValueDecl *Handle = namedStorage(ruleArgument(Call, Rule->NewHandle));
      if (!Comm || !Handle)
        return;
      auto [Known, Inserted] = Creators.try_emplace(Handle, Comm);
      // Created on two communicators (two spellings, or one name for two
      // variables): no one answer, whatever the order of the scan.
      if (!Inserted && Known->second &&
          (accessedStorage(Known->second) != accessedStorage(Comm) ||
           sourceText(Known->second, Function->context()) != sourceText(Comm, Function->context())))
        Known->second = nullptr;
    });
}

} // namespace lockstep::analysis
