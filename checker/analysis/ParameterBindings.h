// What the callers of a function pass for its parameters, where the
// translation unit shows every call: a function other files cannot call, that
// no pointer, table or callback reaches. A helper `sync(b, n, node_rank,
// leaders)` called once is then analysed with the caller's values: its test
// `node_rank == 0` is the caller's, and `leaders` the caller's split.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class ValueDecl;
} // namespace clang

namespace lockstep::analysis {

class FunctionCFG;

class ParameterBindings {
public:
  /// One call of a function: the function making it and what it passes.
  struct Site {
    const FunctionCFG *Caller;
    const clang::Expr *Argument;
  };

  ParameterBindings(const std::vector<std::unique_ptr<FunctionCFG>> &Functions,
                    clang::ASTContext &Context);

  /// Every call's argument for \p Param; empty when some call is not seen
  /// here (the function is visible to other files, its address is taken,
  /// or it calls itself).
  std::vector<Site> sites(const clang::ParmVarDecl *Param) const;

  /// The variable or field every call passes for \p Param, or null.
  const clang::ValueDecl *storage(const clang::ParmVarDecl *Param) const;

  /// One call of a function seen here.
  struct Call {
    const FunctionCFG *Caller;
    const clang::CallExpr *Expr;
    std::vector<const clang::Expr *> Arguments; // explicitArguments
  };
  /// The calls of \p Callee this translation unit makes, whether or not
  /// others may call it too.
  llvm::ArrayRef<Call> callsSeen(const clang::FunctionDecl *Callee) const;

private:
  // By function (canonical).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Call>> Calls;
  llvm::DenseSet<const clang::FunctionDecl *> Escaping;
  mutable llvm::DenseMap<const clang::ParmVarDecl *, const clang::ValueDecl *> Storage;
};

} // namespace lockstep::analysis
