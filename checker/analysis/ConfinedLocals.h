// Local objects that no other code can reach: what a function writes into
// their fields stays in them, so it says nothing about the same field of
// the objects other code reaches through pointers.
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {

class FunctionCFG;

class ConfinedLocals {
public:
  explicit ConfinedLocals(const FunctionCFG &Function) : Function(Function) {}

  /// Whether \p Local, a struct variable (or by-value parameter) of the
  /// function, is read only by the function's own statements: its address
  /// or a reference to it goes nowhere but into calls that do not keep it
  /// (`MPI_Bcast(&c.n, ...)`, `run(&c)` where `run` only reads `c->n`), no
  /// lambda captures it, and it has no method called and no destructor that
  /// runs code. Copies of it are new objects.
  bool confined(const clang::VarDecl *Local) const;

private:
  const FunctionCFG &Function;
  mutable llvm::DenseMap<const clang::VarDecl *, bool> Known;
};

} // namespace lockstep::analysis
