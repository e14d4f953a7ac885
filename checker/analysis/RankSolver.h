// Decides questions about two ranks of one job: can ranks r1 != r2 in
// [0, size), agreeing on every uniform symbol, make one of several formulas
// hold? Small jobs are tried by evaluation first (most findings are settled
// by ranks 0 and 1 of 2); what evaluation cannot settle goes to Z3 through
// LLVM's SMT API, one solver per translation unit, push/pop per question.
#pragma once

#include "Formula.h"

#include "llvm/Support/SMTAPI.h"

#include <map>
#include <optional>
#include <vector>

namespace lockstep::analysis {

struct RankWitness {
  size_t Alternative = 0;                    // which of the formulas holds
  std::optional<int64_t> Rank1, Rank2, Size; // known when read off a model or evaluation
};

struct SolverStatistics {
  unsigned Questions = 0;      // asked of the solver object
  unsigned AnsweredBefore = 0; // the same question again: answered from memory
  unsigned ByEvaluation = 0;   // settled by evaluating small jobs
  unsigned SolverCalls = 0;    // sent to Z3
  unsigned Undecided = 0;      // Z3 gave up (time limit), or no Z3 in this LLVM
  double SolverSeconds = 0;
};

enum class Answer { Holds, Never, Unknown };

class RankSolver {
public:
  explicit RankSolver(FormulaArena &Arena);
  ~RankSolver();

  /// Whether some pair of ranks satisfies one of \p Alternatives; unpinned
  /// parts of a formula are read on the first rank of the pair.
  Answer decide(const std::vector<FormulaRef> &Alternatives, RankWitness &Witness);

  /// The smallest job, up to the sizes evaluation tries, in which two ranks
  /// make \p Question hold; \p Witness, one such pair, becomes that job's.
  static void smallestJob(const FormulaArena &Arena, const FormulaArena::EvaluationPlan &Question,
                          RankWitness &Witness);

  const SolverStatistics &statistics() const { return Stats; }
  /// False when LLVM was built without Z3: questions evaluation cannot
  /// settle are then Unknown.
  static bool haveSolver();

private:
  /// \p Witness.alternative indexes \p Live.
  Answer solve(const std::vector<FormulaRef> &Live, RankWitness &Witness);
  bool evaluateSmallJobs(const std::vector<FormulaRef> &Alternatives, RankWitness &Witness);
  llvm::SMTExprRef translate(FormulaRef Root);
  llvm::SMTExprRef translateNode(const FormulaNode &N, unsigned Which,
                                 llvm::ArrayRef<llvm::SMTExprRef> Operands);

  FormulaArena &Arena;
  llvm::SMTSolverRef Solver;
  SolverStatistics Stats;
  std::map<std::vector<FormulaRef>, std::pair<Answer, RankWitness>> Answered;
};

} // namespace lockstep::analysis
