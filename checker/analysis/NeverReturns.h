// Functions of this file that never return to their caller: every way
// through them ends in a call that does not return (`static void usage(void)
// { puts(...); exit(1); }`), though they are not declared `noreturn`. A call
// of one ends the path in the caller as `exit` does, so a rank that calls it
// leaves there.
#pragma once

#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace lockstep::analysis {

/// Whether a call of \p FD never returns: it is declared `noreturn`, or it
/// was found so here (markNeverReturning).
bool neverReturns(const clang::FunctionDecl &FD);

/// The first call in \p FD's body that does not return, which shows a
/// reader why \p FD never does; null when \p FD is declared `noreturn`
/// (the declaration says it) or has no body here.
const clang::CallExpr *firstEndingCall(const clang::FunctionDecl &FD);

/// Finds the functions of \p Functions that never return, marks them for
/// Clang's CFG builder (an implicit `analyzer_noreturn`, the attribute the
/// static analyzer reads; their calls really do not return), and builds
/// again the graphs that call one of them, updating \p ByDecl. Virtual
/// functions are left alone: an override may return.
void cutNeverReturningCalls(
    std::vector<std::unique_ptr<FunctionCFG>> &Functions,
    llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &ByDecl,
    const ThrowingFunctions *Throwing);

} // namespace lockstep::analysis
