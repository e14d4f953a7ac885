// How an expression reads in the user's own file: the text between its first
// and last token, not the pretty-printed expansion of the macros in it, so
// that `MPI_COMM_WORLD` stays `MPI_COMM_WORLD` in a note and in JSON.
#pragma once

#include <string>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace lockstep::analysis {

/// The source text of \p S on one line. Inside a macro body, the name of the
/// macro that \p S is exactly (`MPI_COMM_WORLD` in
/// `#define SYNC() MPI_Barrier(MPI_COMM_WORLD)`); otherwise the
/// pretty-printed expression when no spelling covers it.
std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Context);

} // namespace lockstep::analysis
