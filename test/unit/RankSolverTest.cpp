// The formulas and the solver's decisions: questions about two ranks r1 != r2
// of one job that agree on every uniform symbol. Each positive question has a
// negative beside it that differs in one point.
#include "../../checker/analysis/RankSolver.h"
#include "../../checker/analysis/Formula.h"

#include <gtest/gtest.h>

using namespace lockstep::analysis;

namespace {

class RankSolverTest : public ::testing::Test {
protected:
  /// Whether ranks 1 and 2 can take \p Mine and \p Theirs respectively.
  Answer apart(FormulaRef Mine, FormulaRef Theirs) {
    return Solver.decide(
        {Arena.conjoin(Arena.inRank(1, Mine), Arena.inRank(2, Arena.negate(Theirs)))}, Witness);
  }
  FormulaRef gt(FormulaRef A, int64_t B) {
    return Arena.compare(FormulaOp::Lt, Arena.constant(B), A);
  }

  FormulaArena Arena;
  RankSolver Solver{Arena};
  RankWitness Witness;
  const int UniformKey = 0, PerRankKey = 0;
};

TEST_F(RankSolverTest, RankConditionsSplitTheJob) {
  FormulaRef Root = Arena.compare(FormulaOp::Eq, Arena.rank(), Arena.constant(0));
  EXPECT_EQ(apart(Root, Root), Answer::Holds);
  ASSERT_TRUE(Witness.Rank1 && Witness.Rank2);
  EXPECT_EQ(*Witness.Rank1, 0);
  EXPECT_NE(*Witness.Rank2, 0);
  // Every rank is below the size: a tautology in any spelling.
  FormulaRef Below = Arena.compare(FormulaOp::Lt, Arena.rank(), Arena.sizeSymbol());
  EXPECT_EQ(apart(Below, Below), Answer::Never);
}

TEST_F(RankSolverTest, RanksNextToLargeConstantsAreTried) {
  FormulaRef Last = Arena.compare(FormulaOp::Eq, Arena.rank(), Arena.constant(4000));
  EXPECT_EQ(apart(Last, Last), Answer::Holds);
  EXPECT_EQ(Solver.statistics().SolverCalls, 0u); // settled by evaluation
}

TEST_F(RankSolverTest, PerRankSymbolsDifferUniformOnesDoNot) {
  FormulaRef PerRank = gt(Arena.perRank(&PerRankKey, /*Boolean=*/false), 3);
  EXPECT_EQ(apart(PerRank, PerRank), Answer::Holds);
  EXPECT_EQ(Solver.statistics().SolverCalls, 0u); // a sample assignment is a witness
  FormulaRef Uniform = gt(Arena.uniform(&UniformKey, /*Boolean=*/false), 3);
  EXPECT_EQ(apart(Uniform, Uniform), RankSolver::haveSolver() ? Answer::Never : Answer::Unknown);
}

TEST_F(RankSolverTest, SamplesMeetTheQuestionsConstants) {
  // if (p == 0 && u % 100 == 0): needs p = 0 on one rank only and u a
  // multiple of 100; the samples draw from the formula's constants.
  FormulaRef P = Arena.perRank(&PerRankKey, /*Boolean=*/false);
  FormulaRef U = Arena.uniform(&UniformKey, /*Boolean=*/false);
  FormulaRef Every100 = Arena.compare(
      FormulaOp::Eq, Arena.arithmetic(FormulaOp::Rem, U, Arena.constant(100)), Arena.constant(0));
  FormulaRef Taken = Arena.conjoin(Arena.compare(FormulaOp::Eq, P, Arena.constant(0)), Every100);
  EXPECT_EQ(apart(Taken, Taken), Answer::Holds);
  EXPECT_EQ(Solver.statistics().SolverCalls, 0u);
  // p == u - 1: a relation between two symbols.
  FormulaRef Next =
      Arena.compare(FormulaOp::Eq, P, Arena.arithmetic(FormulaOp::Sub, U, Arena.constant(1)));
  EXPECT_EQ(apart(Next, Next), Answer::Holds);
  EXPECT_EQ(Solver.statistics().SolverCalls, 0u);
  // Negative: the same test on a uniform value never splits the ranks.
  FormulaRef Agreed = Arena.conjoin(Arena.compare(FormulaOp::Eq, U, Arena.constant(0)), Every100);
  EXPECT_EQ(apart(Agreed, Agreed), RankSolver::haveSolver() ? Answer::Never : Answer::Unknown);
}

TEST_F(RankSolverTest, EachPairOfRanksDrawsItsOwnSamples) {
  // `it % every == 0` with `every = 100 + 37 * rank > 150 ? 10 : 5`: ranks
  // 0 and 1 check every 5 iterations, the others every 10. The witness needs
  // a rank of each kind and `it` an odd multiple of 5 at once.
  FormulaRef It = Arena.uniform(&UniformKey, /*Boolean=*/false);
  FormulaRef Load =
      Arena.arithmetic(FormulaOp::Add, Arena.constant(100),
                       Arena.arithmetic(FormulaOp::Mul, Arena.constant(37), Arena.rank()));
  FormulaRef Every = Arena.choose(gt(Load, 150), Arena.constant(10), Arena.constant(5));
  FormulaRef Due =
      Arena.compare(FormulaOp::Eq, Arena.arithmetic(FormulaOp::Rem, It, Every), Arena.constant(0));
  EXPECT_EQ(apart(Due, Due), Answer::Holds);
  EXPECT_EQ(Solver.statistics().SolverCalls, 0u); // settled by evaluation, no solver timeout
  // Negative: a period chosen by the job size is the same on every rank.
  FormulaRef Agreed =
      Arena.choose(gt(Arena.sizeSymbol(), 150), Arena.constant(10), Arena.constant(5));
  FormulaRef DueAgreed =
      Arena.compare(FormulaOp::Eq, Arena.arithmetic(FormulaOp::Rem, It, Agreed), Arena.constant(0));
  EXPECT_EQ(apart(DueAgreed, DueAgreed),
            RankSolver::haveSolver() ? Answer::Never : Answer::Unknown);
}

TEST_F(RankSolverTest, TripCountsEqualOnEveryRank) {
  // for (i = rank; i < rank + n; ++i): n iterations everywhere.
  FormulaRef N = Arena.uniform(&UniformKey, false);
  FormulaRef Trip = Arena.arithmetic(
      FormulaOp::Sub, Arena.arithmetic(FormulaOp::Add, Arena.rank(), N), Arena.rank());
  FormulaRef Differ = Arena.compare(FormulaOp::Ne, Arena.inRank(1, Trip), Arena.inRank(2, Trip));
  EXPECT_EQ(Solver.decide({Differ}, Witness),
            RankSolver::haveSolver() ? Answer::Never : Answer::Unknown);
  // for (i = 0; i < rank; ++i): each rank its own count.
  FormulaRef PerRankTrip = Arena.rank();
  EXPECT_EQ(Solver.decide({Arena.compare(FormulaOp::Ne, Arena.inRank(1, PerRankTrip),
                                         Arena.inRank(2, PerRankTrip))},
                          Witness),
            Answer::Holds);
}

TEST_F(RankSolverTest, AnUnknownIntegerIsUnbounded) {
  // Past the expression bound a value is an unknown per-rank integer: far
  // from 0 or 1, so `x - 4095 > 0` can hold on one rank only.
  FormulaRef X = Arena.arithmetic(FormulaOp::Sub, Arena.unknownPerRank(/*Boolean=*/false),
                                  Arena.constant(4095));
  EXPECT_EQ(apart(gt(X, 0), gt(X, 0)), RankSolver::haveSolver() ? Answer::Holds : Answer::Unknown);
  FormulaRef Flag = Arena.arithmetic(FormulaOp::Sub, Arena.asInteger(Arena.unknownPerRank()),
                                     Arena.constant(4095));
  EXPECT_EQ(apart(gt(Flag, 0), gt(Flag, 0)),
            RankSolver::haveSolver() ? Answer::Never : Answer::Unknown);
}

TEST_F(RankSolverTest, AQuestionAskedTwiceIsAnsweredOnce) {
  FormulaRef Uniform = gt(Arena.uniform(&UniformKey, false), 3);
  Answer First = apart(Uniform, Uniform);
  EXPECT_EQ(apart(Uniform, Uniform), First);
  EXPECT_EQ(Solver.statistics().Questions, 2u);
  EXPECT_EQ(Solver.statistics().AnsweredBefore, 1u);
}

TEST_F(RankSolverTest, EvaluationGivesUniformSymbolsOneValue) {
  FormulaRef U = Arena.uniform(&UniformKey, false);
  // u == rank on two different ranks cannot hold: u has one value.
  FormulaRef Same = Arena.conjoin(Arena.inRank(1, Arena.compare(FormulaOp::Eq, U, Arena.rank())),
                                  Arena.inRank(2, Arena.compare(FormulaOp::Eq, U, Arena.rank())));
  EXPECT_FALSE(Arena.evaluate(Same, 0, 1, 2, 0).value_or(1));
  EXPECT_EQ(Solver.decide({Same}, Witness),
            RankSolver::haveSolver() ? Answer::Never : Answer::Unknown);
}

// holdsOnRank() places one rank on its path through a region: a condition
// of that rank alone has a value; one comparing two ranks, or one C leaves
// undefined, has none (the caller then walks every path instead).
TEST_F(RankSolverTest, AConditionOfOneRankIsEvaluatedOnIt) {
  FormulaRef Three = Arena.compare(FormulaOp::Eq, Arena.rank(), Arena.constant(3));
  EXPECT_EQ(Arena.holdsOnRank(Three, 3, 4), true);
  EXPECT_EQ(Arena.holdsOnRank(Three, 2, 4), false);
  FormulaRef Last =
      Arena.compare(FormulaOp::Eq, Arena.rank(),
                    Arena.arithmetic(FormulaOp::Sub, Arena.sizeSymbol(), Arena.constant(1)));
  EXPECT_EQ(Arena.holdsOnRank(Last, 7, 8), true);
  EXPECT_EQ(Arena.holdsOnRank(Last, 7, 9), false);
  FormulaRef SameRank =
      Arena.compare(FormulaOp::Eq, Arena.inRank(1, Arena.rank()), Arena.inRank(2, Arena.rank()));
  EXPECT_EQ(Arena.holdsOnRank(SameRank, 1, 2), std::nullopt);
  FormulaRef PinnedFirst =
      Arena.compare(FormulaOp::Eq, Arena.inRank(1, Arena.rank()), Arena.constant(1));
  EXPECT_EQ(Arena.holdsOnRank(PinnedFirst, 1, 2), std::nullopt);
  FormulaRef ByZero = Arena.compare(
      FormulaOp::Eq,
      Arena.arithmetic(FormulaOp::Div, Arena.constant(1),
                       Arena.arithmetic(FormulaOp::Sub, Arena.rank(), Arena.constant(1))),
      Arena.constant(0));
  EXPECT_EQ(Arena.holdsOnRank(ByZero, 1, 2), std::nullopt);
  EXPECT_EQ(Arena.holdsOnRank(ByZero, 0, 2), false);
}

// A rank's path is judged under one assignment: `u > 5` and `u >= 6` agree
// for every uniform symbol u, though they name different constants.
TEST_F(RankSolverTest, OneRanksConditionsSeeOneAssignment) {
  std::vector<int> Keys(64);
  for (const int &Key : Keys) {
    FormulaRef U = Arena.uniform(&Key, /*Boolean=*/false);
    FormulaRef Above5 = Arena.compare(FormulaOp::Lt, Arena.constant(5), U);
    FormulaRef From6 = Arena.compare(FormulaOp::Le, Arena.constant(6), U);
    EXPECT_EQ(Arena.holdsOnRank(Above5, 0, 2), Arena.holdsOnRank(From6, 0, 2));
  }
}

} // namespace
