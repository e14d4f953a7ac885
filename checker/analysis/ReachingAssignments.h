// Which assignment a read of a local variable sees, as a choice between
// assignments by the branches that decide which one ran (gated SSA, built on
// demand for one read): after `if (size > 4) n = 4; else n = size;` a read
// of `n` is `size > 4 ? 4 : size`, and after `dest = 0;` a read of `dest`
// is `0`, however often the function assigns it elsewhere. Formulas turn the
// choice into an if-then-else over the branch's condition, so that tests of
// such variables line up with each other and with the rank.
#pragma once

#include "FunctionCFG.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace lockstep::analysis {

/// Whether \p Assign updates its variable by arithmetic (`rows += 1`, `n /=
/// 2`): what it stores is the variable's value before it, updated.
bool arithmeticUpdate(const clang::BinaryOperator *Assign);

class ReachingAssignments {
public:
  /// One node of the choice: an assigned value (an expression stored, or an
  /// arithmeticUpdate), or a branch whose first edge leads to the value of
  /// node Then and whose second to node Else.
  struct Node {
    const clang::Expr *Assigned = nullptr;
    const clang::CFGBlock *Branch = nullptr;
    unsigned Then = 0, Else = 0;
  };

  explicit ReachingAssignments(const FunctionCFG &Function);
  ~ReachingAssignments();

  /// The choice \p Read sees, children before parents (the root last).
  /// Empty where lockstep cannot tell: the variable is used other than by
  /// plain reads and assignments (`++`, `&n`, a reference, a lambda), a
  /// loop around the read assigns it before the read sees the assignment
  /// of this iteration, a loop is entered at more than one block (`goto`),
  /// or paths merge other than after one two-way branch. \p Limited is set
  /// when the read met more than limits::MaxReachingBranches merges.
  std::vector<Node> of(const clang::DeclRefExpr *Read, bool &Limited);

private:
  struct Query;
  void collectCandidates();
  void indexElements();
  const clang::Expr *const *assignmentIn(const clang::Stmt *S, const clang::VarDecl *Var) const;
  bool assignedBetween(const clang::VarDecl *Var, const clang::CFGBlock *From,
                       const clang::CFGBlock *To) const;
  bool assignedInLoopOf(const clang::VarDecl *Var, const clang::CFGBlock *Header) const;
  int valueBefore(Query &Q, const clang::CFGBlock *Block, unsigned Before);
  int valueAtEnd(Query &Q, const clang::CFGBlock *Block);
  int merge(Query &Q, const clang::CFGBlock *Block, std::vector<const clang::CFGBlock *> Preds);
  bool hasIrreducibleLoop() const;
  const clang::CFGBlock *
  nearestCommonDominator(const std::vector<const clang::CFGBlock *> &Blocks) const;

  const FunctionCFG &Function;
  // Whether some loop is entered at more than one block; computed on first use.
  std::optional<bool> Irreducible;
  llvm::DenseSet<const clang::VarDecl *> Candidates; // plain reads and assignments only
  // Each CFG element's statement: its block and index.
  llvm::DenseMap<const clang::Stmt *, std::pair<const clang::CFGBlock *, unsigned>> Positions;
  // The blocks that assign each candidate.
  llvm::DenseMap<const clang::VarDecl *, std::vector<const clang::CFGBlock *>> AssignedIn;
  // The candidate an assignment or declaration stores into, and what it
  // stores (null: a declaration without an initializer, whose value
  // lockstep cannot tell).
  llvm::DenseMap<const clang::Stmt *, std::pair<const clang::VarDecl *, const clang::Expr *>>
      Stores;
};

} // namespace lockstep::analysis
