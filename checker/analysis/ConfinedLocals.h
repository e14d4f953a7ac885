// Local objects that no other code can reach: what a function writes into
// their fields stays in them, so it says nothing about the same field of
// the objects other code reaches through pointers.
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace lockstep::analysis {

class FunctionCFG;

class ConfinedLocals {
public:
  /// \p FillsIn says which functions without a body here only fill in or
  /// read the buffer a pointer argument names during the call (the rules'
  /// calls, `memset`): others (`pthread_create`, `MPI_Comm_set_attr`) may
  /// keep it.
  ConfinedLocals(const FunctionCFG &Function,
                 std::function<bool(const clang::FunctionDecl *)> FillsIn)
      : Function(Function), FillsIn(std::move(FillsIn)) {}

  /// Whether \p Local, a struct variable (or by-value parameter) of the
  /// function, is read only by the function's own statements: its address
  /// or a reference to it goes nowhere but into calls that do not keep it
  /// (`MPI_Bcast(&c.n, ...)`, `run(&c)` where `run` only reads `c->n`), no
  /// lambda captures it, and it has no method called and no destructor that
  /// runs code. Copies of it are new objects, kept in other locals.
  bool confined(const clang::VarDecl *Local) const;

private:
  const FunctionCFG &Function;
  std::function<bool(const clang::FunctionDecl *)> FillsIn;
  mutable llvm::DenseMap<const clang::VarDecl *, bool> Known;
};

} // namespace lockstep::analysis
