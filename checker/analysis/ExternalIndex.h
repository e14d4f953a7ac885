// Looks up the summary of a function that has no body in this translation
// unit, by USR, once per declaration.
#pragma once

#include "ExternalSummary.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace lockstep::analysis {

class ExternalIndex {
public:
  explicit ExternalIndex(const ExternalSummaries *Summaries) : Summaries(Summaries) {}

  /// The summary of \p FD when it is defined in another file; null when it
  /// has a body here or no file summarised it.
  const ExternalFunction *find(const clang::FunctionDecl *FD) const;

  /// The summary of a field or global that another file writes with a
  /// per-rank value; null when no file does.
  const ExternalFunction *findStorage(const clang::ValueDecl *D) const;

  /// The USR a pending call names, computed once per declaration.
  const std::string &usr(const clang::FunctionDecl *FD) const;

private:
  const ExternalSummaries *Summaries;
  mutable llvm::DenseMap<const clang::FunctionDecl *, const ExternalFunction *> Found;
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::string> Usrs;
  mutable llvm::DenseMap<const clang::ValueDecl *, const ExternalFunction *> Storage;
};

} // namespace lockstep::analysis
