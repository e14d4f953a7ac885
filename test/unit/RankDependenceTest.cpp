// Rank dependence: which branch conditions the engine finds to differ
// between ranks, and why.
#include "AnalysisFixture.h"

using lockstep::analysis::Provenance;
using lockstep::testing::AnalysisTest;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST_F(AnalysisTest, OutParameterOfRankSource) {
  analyze("void f() { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r == 0) {} }");
  ASSERT_THAT(dependentConditions(), ElementsAre("r == 0"));
  EXPECT_EQ(Result->rankDependentBranches()[0].Source->K, Provenance::Kind::SourceCall);
  EXPECT_EQ(Result->rankDependentBranches()[0].Source->Name, "MPI_Comm_rank");
}

TEST_F(AnalysisTest, ArithmeticFieldsReferencesAndPointers) {
  analyze(R"(
    struct Ctx { int who; };
    void f() {
      int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
      int half = r / 2 + 1;
      Ctx c; c.who = half;
      int &alias = c.who;
      int *p = &alias;
      if (*p > 3) {}
    })");
  EXPECT_THAT(dependentConditions(), ElementsAre("*p > 3"));
}

TEST_F(AnalysisTest, ReturnValuesAndParametersAcrossFunctions) {
  analyze(R"(
    static int get() { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
    static int twice(int x) { return 2 * x; }
    static void use(int v) { if (v) {} }
    void f() { use(twice(get())); int k = twice(4); if (k) {} }
  )");
  EXPECT_THAT(dependentConditions(), ElementsAre("v"));
}

TEST_F(AnalysisTest, OutParameterHelper) {
  analyze(R"(
    static void rank_of(int *out) { MPI_Comm_rank(MPI_COMM_WORLD, out); }
    void f() { int me; rank_of(&me); if (me == 1) {} }
  )");
  EXPECT_THAT(dependentConditions(), ElementsAre("me == 1"));
}

TEST_F(AnalysisTest, EnvironmentAndConverters) {
  analyze(R"(
    void f() {
      int a = atoi(getenv("SLURM_PROCID"));
      int b = atoi(getenv("OMP_NUM_THREADS"));
      if (a == 0) {}
      if (b == 0) {}
    })");
  ASSERT_THAT(dependentConditions(), ElementsAre("a == 0"));
  EXPECT_EQ(Result->rankDependentBranches()[0].Source->K, Provenance::Kind::Environment);
}

TEST_F(AnalysisTest, UniformSourcesCleanValues) {
  analyze(R"(
    void f() {
      int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
      int n = r, total = 0;
      MPI_Allreduce(&n, &total, 1, 0, 0, MPI_COMM_WORLD);
      int root_value = r;
      MPI_Bcast(&root_value, 1, 0, 0, MPI_COMM_WORLD);
      if (total > 1) {}
      if (root_value) {}
    })");
  EXPECT_THAT(dependentConditions(), IsEmpty());
}

TEST_F(AnalysisTest, TautologiesAreNotDivergence) {
  analyze(R"(
    void f() {
      int r, s; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &s);
      if (r >= 0) {} if (r < s) {} if (r <= s - 1) {} if (s > r) {} if (r < 0) {}
      if (r < s - 1) {}
    })");
  EXPECT_THAT(dependentConditions(), ElementsAre("r < s - 1"));
}

TEST_F(AnalysisTest, ImplicitFlowUnderRankCondition) {
  analyze(R"(
    void f() {
      int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
      int n = 3;
      if (r == 0) n = 5;
      if (n > 4) {}
    })");
  EXPECT_THAT(dependentConditions(), ElementsAre("n > 4", "r == 0"));
}

TEST_F(AnalysisTest, NamePatternOnlyForUnknownOrigin) {
  analyze(R"(
    void lib(int local_rank) { if (local_rank == 0) {} }
    static void helper(int rank) { if (rank == 0) {} }
    void caller() { helper(0); int rank = 7; if (rank) {} }
    struct S { int world_rank_; int root_rank; void m() { if (world_rank_) {} if (root_rank) {} } };
  )");
  EXPECT_THAT(dependentConditions(), ElementsAre("local_rank == 0", "this->world_rank_"));
}

TEST_F(AnalysisTest, LambdaCaptures) {
  analyze(R"(
    void f() {
      int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
      auto g = [r] { if (r == 2) {} };
      g();
    })");
  EXPECT_THAT(dependentConditions(), ElementsAre("r == 2"));
}

TEST_F(AnalysisTest, FieldWrittenInConstructor) {
  analyze(R"(
    struct T {
      int me;
      T() { MPI_Comm_rank(MPI_COMM_WORLD, &me); }
      void step() { if (me == 0) {} }
    };)");
  EXPECT_THAT(dependentConditions(), ElementsAre("this->me == 0"));
}
