// Wording shared by the divergence checks: how a condition, an arm, a rank
// source and a leaving statement read in a diagnostic.
#pragma once

#include "../analysis/Divergence.h"
#include "../analysis/SourceText.h"

#include "Wording.h"

#include <string>
#include <vector>

namespace lockstep::checks {

class FindingBuilder;

using analysis::sourceText;
using findings::quoted;

/// "ranks where 'rank == 0'", "ranks where 'rank == 0' is false",
/// "ranks where 'rank % 4' is 2", ...
std::string ranksWhere(const analysis::Divergence &D, const clang::ASTContext &Context);
std::string ranksWhere(const clang::Expr *Deciding, const analysis::BranchArm &Arm,
                       const clang::ASTContext &Context);
/// The ranks that run D.OtherEvent: those of the other case of a switch
/// ("ranks where 'role' is Role::Evaluator"), else "the other ranks".
std::string otherRanks(const analysis::Divergence &D, const clang::ASTContext &Context);

/// The first argument every rank must pass alike (root, count, ...) that
/// \p A and \p B pass differently: its role and the two spellings; the role
/// "arguments" and empty spellings when none does.
std::pair<std::string, std::pair<std::string, std::string>>
firstDifference(const analysis::CollectiveEvent &A, const analysis::CollectiveEvent &B);

/// "return", "break out of the loop", "break out of the 'switch'", "throw",
/// "call 'exit'", ...
std::string leavingVerb(const clang::Stmt *Leaving, clang::ASTContext &Context);

/// For a leaving call of a function not declared `noreturn` that never
/// returns: a note at the call in its body that ends the process.
void noteWhyNeverReturns(FindingBuilder &Finding, const clang::Stmt *Leaving);

/// "return", "break", "continue", "throw", "goto", or the called function.
std::string leavingKeyword(const clang::Stmt *Leaving);

/// What the user calls at the site: the collective or the function around it.
std::string calledName(const analysis::CollectiveEvent &Event);

/// \p FD's qualified name as the user writes it, with the template arguments
/// of a specialization ('publish<true>'): two arms may call two
/// specializations of one template.
std::string qualifiedName(const clang::FunctionDecl *FD);

/// A function as a message names it: "'Logger::log'", or "the lambda on
/// line 12" for a lambda.
std::string functionName(const clang::FunctionDecl *FD, const clang::ASTContext &Context);

/// "'a', 'b' and 'c'".
std::string quotedList(const std::vector<std::string> &Names);

/// Notes every finding carries: the collective inside the called function,
/// the expression that differs between ranks (\p Subject, when it is not the
/// expression's value), and where its value comes from.
void addCommonNotes(FindingBuilder &Finding, const analysis::CollectiveEvent &Event,
                    const clang::Expr *Differing, const analysis::Provenance *Source,
                    const clang::ASTContext &Context, const std::string &Subject = "");
void addCommonNotes(FindingBuilder &Finding, const analysis::Divergence &D,
                    const clang::ASTContext &Context);

/// The location of a point in another file, loading that file into the
/// source manager; invalid when the file cannot be read.
clang::SourceLocation locate(const clang::ASTContext &Context, const analysis::SourcePoint &Point);

/// "where the rank comes from" notes, following derived values back.
void addSourceNotes(FindingBuilder &Finding, const analysis::Provenance *Source,
                    const clang::ASTContext &Context);

} // namespace lockstep::checks
