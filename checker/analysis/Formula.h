// Conditions over the ranks of one job as plain, hash-consed formulas: the
// divergence core's language, free of Clang types. Integer terms are 32-bit
// values (C's `int`), built over three kinds of symbols:
//   - the rank and the size of the job (0 <= rank < size);
//   - uniform symbols: one value that every rank sees (a bound read from the
//     command line, a loop counter of a uniform loop);
//   - per-rank symbols: a value each rank may see differently (a flag read
//     from a per-rank file, a rank-dependent value lockstep cannot express).
// A query about two ranks instantiates the rank and per-rank symbols once per
// rank and shares the uniform ones: `InRank1`/`InRank2` pin a subformula to
// one rank, for conditions that compare the two (same colour of a split).
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::analysis {

using FormulaRef = uint32_t;

enum class FormulaOp : uint8_t {
  True,
  False,
  Const, // leaves
  Rank,
  Size,
  Uniform,
  PerRank, // symbols (Uniform and PerRank: boolean or integer)
  Not,
  And,
  Or, // boolean
  Eq,
  Ne,
  Lt,
  Le, // signed comparisons
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Neg, // integer arithmetic (Div and Rem truncate, as in C)
  Ite, // Ite(cond, then, else)
  InRank1,
  InRank2, // the operand seen by one rank of the pair
};

/// Whether \p Op is a constant or a symbol; how many operands it takes.
/// Inline: evaluation plans ask for every node they visit.
inline bool isLeaf(FormulaOp Op) { return Op <= FormulaOp::PerRank; }
static_assert(FormulaOp::True < FormulaOp::PerRank && FormulaOp::PerRank < FormulaOp::Not,
              "isLeaf: the leaves come first in FormulaOp, up to PerRank");
inline unsigned arity(FormulaOp Op) {
  switch (Op) {
  case FormulaOp::Not:
  case FormulaOp::Neg:
  case FormulaOp::InRank1:
  case FormulaOp::InRank2:
    return 1;
  case FormulaOp::Ite:
    return 3;
  default:
    return isLeaf(Op) ? 0 : 2;
  }
}

struct FormulaNode {
  FormulaOp Op;
  bool Boolean;      // the sort: boolean or integer
  int64_t Value = 0; // Const: the value; symbols: the symbol's id
  FormulaRef A = 0, B = 0, C = 0;
  // Derived: mentions neither the rank nor a per-rank symbol outside a pin,
  // so every rank sees the same value.
  bool RankFree = true;
};

/// Owns the formulas of one translation unit; equal formulas share one node.
class FormulaArena {
public:
  FormulaArena();

  const FormulaNode &node(FormulaRef F) const { return Nodes[F]; }
  size_t size() const { return Nodes.size(); }

  FormulaRef truth() const { return TrueRef; }
  FormulaRef falsity() const { return FalseRef; }
  FormulaRef constant(int64_t Value);
  FormulaRef rank();
  FormulaRef sizeSymbol();
  /// The symbol named by \p Key (an address that identifies it, such as a
  /// declaration or an expression); one node per key, kind and sort.
  FormulaRef uniform(const void *Key, bool Boolean);
  FormulaRef perRank(const void *Key, bool Boolean);
  /// A fresh per-rank value: a condition or integer lockstep cannot express
  /// (an unknown integer is unbounded, not a boolean read as 0 or 1).
  FormulaRef unknownPerRank(bool Boolean = true);

  FormulaRef negate(FormulaRef F);
  FormulaRef conjoin(FormulaRef A, FormulaRef B);
  FormulaRef disjoin(FormulaRef A, FormulaRef B);
  FormulaRef compare(FormulaOp Op, FormulaRef A, FormulaRef B);
  FormulaRef arithmetic(FormulaOp Op, FormulaRef A, FormulaRef B);
  FormulaRef negative(FormulaRef A);
  FormulaRef choose(FormulaRef Cond, FormulaRef Then, FormulaRef Else);
  FormulaRef inRank(unsigned Which, FormulaRef F);
  /// An integer as a condition (`if (x)`): x != 0.
  FormulaRef asBoolean(FormulaRef F);
  /// A condition as an integer (`int b = x < y`): 1 or 0.
  FormulaRef asInteger(FormulaRef F);

  /// The value of \p F for the ranks \p Rank1, \p Rank2 of a job of
  /// \p Size, with its symbols given the values numbered \p Assignment
  /// (uniform ones the same on both ranks, per-rank ones each its own): any
  /// assignment is one the program can meet, so a true value is a witness.
  std::optional<int64_t> evaluate(FormulaRef F, int64_t Rank1, int64_t Rank2, int64_t Size,
                                  unsigned Assignment = 0) const;

  /// \p F flattened for many evaluations: its (node, rank) pairs in
  /// post-order, each with the positions of its operands, and the values
  /// its symbols are sampled from (the formula's own constants and their
  /// neighbours, so `x % 100 == 0` and `p == u - 1` are met by sampling).
  struct EvaluationStep {
    FormulaRef Node;
    unsigned Which;       // the rank of the pair the node is seen by
    uint32_t Operands[3]; // positions in the plan
  };
  struct EvaluationPlan {
    std::vector<EvaluationStep> Steps;
    std::vector<int64_t> Constants; // distinct, in the order met
    std::vector<int64_t> Samples;
    bool HasSymbols = false; // uniform or per-rank symbols besides rank and size
  };
  EvaluationPlan plan(FormulaRef F) const;
  /// plan() into \p Into, reusing its storage.
  void plan(FormulaRef F, EvaluationPlan &Into) const;
  /// evaluate() on a plan; \p Values is scratch space reused across calls.
  std::optional<int64_t> evaluate(const EvaluationPlan &Plan, int64_t Rank1, int64_t Rank2,
                                  int64_t Size, unsigned Assignment,
                                  std::vector<int64_t> &Values) const;

  /// Whether a formula of one rank holds on \p Rank of a job of \p Size,
  /// its symbols given the values numbered 0; none for a formula that
  /// compares two ranks, or one C leaves undefined there.
  std::optional<bool> holdsOnRank(FormulaRef F, int64_t Rank, int64_t Size) const;

  /// Readable form, for tests and debugging.
  std::string print(FormulaRef F) const;

private:
  FormulaRef make(FormulaNode Node);
  FormulaRef symbol(FormulaOp Op, const void *Key, bool Boolean);

  struct NodeKey {
    uint8_t Op;
    bool Boolean;
    int64_t Value;
    FormulaRef A, B, C;
    bool operator==(const NodeKey &O) const {
      return Op == O.Op && Boolean == O.Boolean && Value == O.Value && A == O.A && B == O.B &&
             C == O.C;
    }
  };
  struct NodeKeyInfo {
    static NodeKey getEmptyKey() { return {255, false, 0, 0, 0, 0}; }
    static NodeKey getTombstoneKey() { return {254, false, 0, 0, 0, 0}; }
    static unsigned getHashValue(const NodeKey &K) {
      return static_cast<unsigned>(llvm::hash_combine(K.Op, K.Boolean, K.Value, K.A, K.B, K.C));
    }
    static bool isEqual(const NodeKey &A, const NodeKey &B) { return A == B; }
  };

  std::vector<FormulaNode> Nodes;
  llvm::DenseMap<NodeKey, FormulaRef, NodeKeyInfo> Unique;
  llvm::DenseMap<std::pair<const void *, unsigned>, int64_t> SymbolIds;
  // plan()'s scratch, indexed by 2 * node + rank - 1: the plan that placed
  // the pair last, and where. Stamps spare a map per plan.
  mutable std::vector<uint32_t> PlanStamps, PlanPositions;
  mutable uint32_t PlanGeneration = 0;
  mutable std::vector<std::pair<FormulaRef, unsigned>> PlanStack;
  // holdsOnRank()'s plan and values, reused: it is asked once per block of
  // a concrete run.
  mutable EvaluationPlan RankPlan;
  mutable std::vector<int64_t> RankValues;
  int64_t NextSymbol = 0;
  FormulaRef TrueRef = 0, FalseRef = 0;
};

} // namespace lockstep::analysis
