// The functions of the translation unit that a call may run when it names
// none directly: every override of a virtual method (and the method itself)
// for a call through a pointer, a reference or a smart pointer, and the
// lambdas and functions stored in a std::function or a function pointer
// (a variable, a field or a parameter, wherever the translation unit
// assigns or passes it).
#pragma once

#include "FunctionCFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace lockstep::analysis {

class IndirectCalls {
public:
  /// \p Functions are the analysed functions, by canonical declaration.
  explicit IndirectCalls(
      const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions);

  /// What \p Call may run, among \p Functions; empty for a direct call (one
  /// that runs its callee's own body) and for an indirect call whose targets
  /// are not known here.
  std::vector<const clang::FunctionDecl *> targets(const clang::Stmt *Call) const;

  /// What one argument hands a call to run: one function, or a choice
  /// among several (an overload set of lambdas for `std::visit`, a
  /// std::function that may hold several).
  struct Runnable {
    const clang::Expr *Argument = nullptr;
    std::vector<const clang::FunctionDecl *> Targets;
    bool Kept = false; // kept to run later (`hooks.add(f)`), not run during the call
  };

  /// The analysed functions \p Call hands as arguments to a callee that
  /// runs them during the call (a library algorithm: `std::for_each`,
  /// `std::call_once`, `std::visit`; a parameter the callee runs or keeps):
  /// a lambda (every instance of a generic one), a function, an overload set
  /// of lambdas, or a callable held in storage. One entry per argument.
  std::vector<Runnable> passedCallables(const clang::Stmt *Call) const;

  /// Whether the translation unit stores callables in \p Storage (a
  /// std::function, a container of them, an object with virtual methods).
  bool holdsCallables(const clang::ValueDecl *Storage) const {
    return Stored.count(Storage) || StoredClasses.count(Storage);
  }

private:
  void recordStores(const clang::FunctionDecl &Function);
  bool returnsCallables(const clang::FunctionDecl *Callee) const;
  void storeArguments(const clang::FunctionDecl *Callee, llvm::ArrayRef<const clang::Expr *> Args);
  void recordInvocations(const clang::CallExpr *Call);
  void closeInvoked();
  void addTarget(std::vector<const clang::FunctionDecl *> &Targets,
                 const clang::FunctionDecl *Target) const;
  void addMethodTargets(std::vector<const clang::FunctionDecl *> &Targets,
                        const clang::FunctionDecl *Target) const;
  void store(const clang::ValueDecl *Storage, const clang::Expr *Value);
  void storeOne(const clang::ValueDecl *Storage, const clang::Expr *Value);
  void copyStored();

  const llvm::DenseMap<const clang::FunctionDecl *, const FunctionCFG *> &Functions;
  // By the canonical declaration of the overridden method.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> Overriders;
  // By the variable or field that holds the callable (a factory function:
  // what it returns).
  llvm::DenseMap<const clang::ValueDecl *, std::vector<const clang::FunctionDecl *>> Stored;
  // Storage that takes what other storage holds: an element of a table of
  // callables (`auto f = actions[rank & 1]`, `for (auto &h : hooks)`).
  std::vector<std::pair<const clang::ValueDecl *, const clang::ValueDecl *>> Copies;
  // By the pointer (or smart pointer) to a polymorphic class: the classes of
  // the objects the translation unit stores in it, and the pointers it also
  // stores something else in (a factory's result, another pointer).
  llvm::DenseMap<const clang::ValueDecl *, std::vector<const clang::CXXRecordDecl *>> StoredClasses;
  llvm::DenseSet<const clang::ValueDecl *> UnknownClasses;
  // Callable parameters their function runs or keeps to run later (calls,
  // hands to a library algorithm or method, or to such a parameter): a call
  // of the function runs what it passes there, on the ranks that make it.
  // A parameter passed on to another's, until closed.
  llvm::DenseSet<const clang::ParmVarDecl *> Invoked;
  llvm::DenseSet<const clang::ParmVarDecl *> RunDuringCall; // those of Invoked it runs itself
  std::vector<std::pair<const clang::ParmVarDecl *, const clang::ParmVarDecl *>> PassedOn;
};

} // namespace lockstep::analysis
