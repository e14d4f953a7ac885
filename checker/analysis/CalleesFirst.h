// Per-function facts that depend on the same fact of the callees (does it
// return only statuses, does it always end the job), decided callees first
// with an explicit stack: call chains can be thousands deep.
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace lockstep::analysis {

/// Decides \p Key into \p Decided. \p Decide(F, Needed) answers for F, or
/// lists in Needed the callees it must know first (neither decided nor in
/// \p Deciding: a recursive call is answered by the caller's default).
template <typename Result, typename DecideFn>
void decideCalleesFirst(const clang::FunctionDecl *Key,
                        llvm::DenseMap<const clang::FunctionDecl *, Result> &Decided,
                        llvm::DenseSet<const clang::FunctionDecl *> &Deciding, DecideFn Decide) {
  std::vector<const clang::FunctionDecl *> Stack{Key};
  Deciding.insert(Key);
  while (!Stack.empty()) {
    const clang::FunctionDecl *Top = Stack.back();
    std::vector<const clang::FunctionDecl *> Needed;
    Result Answer = Decide(Top, Needed);
    if (!Needed.empty()) {
      Deciding.insert(Needed.front());
      Stack.push_back(Needed.front());
      continue;
    }
    Decided[Top] = Answer;
    Deciding.erase(Top);
    Stack.pop_back();
  }
}

} // namespace lockstep::analysis
