// Exceptions that cross a call: which functions of the translation unit may
// throw out of their body, and the CFG blocks where a call inside a `try`
// may jump to its handlers instead of returning.
#pragma once

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

#include <vector>

namespace lockstep::analysis {

/// The functions whose body may let an exception out: a `throw` outside any
/// `try` of the same function, or a call there to such a function. Found
/// from the syntax, before any other analysis, with a worklist over the
/// calls (no recursion along call chains).
class ThrowingFunctions {
public:
  explicit ThrowingFunctions(const std::vector<const clang::FunctionDecl *> &Functions);
  bool mayThrow(const clang::FunctionDecl *FD) const {
    return FD && Throwing.count(FD->getCanonicalDecl());
  }
  /// The types of what \p FD may throw; none for a rethrow (`throw;`), which
  /// may be anything.
  std::optional<std::vector<clang::QualType>> thrownTypes(const clang::FunctionDecl *FD) const;

private:
  llvm::DenseSet<const clang::FunctionDecl *> Throwing;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<clang::QualType>> Thrown;
  llvm::DenseSet<const clang::FunctionDecl *> ThrowsAnything;
};

/// Whether \p Body has a `try` whose block calls a function \p Throwing says
/// may throw: its CFG needs the exceptional edges of those calls.
bool callsIntoHandlers(const clang::Stmt *Body, const ThrowingFunctions &Throwing);

/// A `try` whose handlers catch every type its block may throw (its own
/// `throw`s and its calls') loses its edge onwards to the caller. With
/// \p CallEdges, of the exceptional edges Clang adds to every call
/// (CFG::BuildOptions::AddEHEdges), keeps those of calls to a function that
/// may throw into a `try` of the function: the rest would only make every
/// call a branch no rank decides.
void keepHandlerEdges(clang::CFG &Graph, const ThrowingFunctions &Throwing, bool CallEdges);

/// The call that ends \p Block when the block's second edge is the jump to
/// the handlers of a `try` should the call throw; null for other blocks.
const clang::CallExpr *exceptionalCall(const clang::CFGBlock &Block);

} // namespace lockstep::analysis
