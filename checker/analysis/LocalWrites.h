// How one function's body writes its own variables (locals and parameters)
// and what it returns: enough to tell a variable that keeps the value it was
// given (a status held in `r_`, a flag tested twice) from one that changes.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace lockstep::analysis {

struct LocalWrites {
  std::vector<const clang::Expr *> Returns; // null: `return;`
  llvm::DenseMap<const clang::VarDecl *, std::vector<const clang::Expr *>> Writes; // init, `=`
  llvm::DenseSet<const clang::VarDecl *> Opaque; // also written otherwise, or address taken
  llvm::DenseSet<const clang::VarDecl *> InLoop; // declared in a loop: fresh each iteration

  static LocalWrites of(const clang::FunctionDecl *FD);

  /// Whether \p Var holds one value from its declaration on: written only by
  /// its initialiser (a parameter: never), and not declared in a loop.
  bool keepsItsValue(const clang::VarDecl *Var) const;
};

/// The local variable or parameter \p E names, or null.
const clang::VarDecl *localVariable(const clang::Expr *E);

} // namespace lockstep::analysis
