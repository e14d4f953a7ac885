// Divergence: the kinds the engine reports for unbalanced branches, and the
// balanced ones it must leave alone.
#include "AnalysisFixture.h"

#include <tuple>

using lockstep::analysis::Divergence;
using lockstep::testing::AnalysisTest;

namespace {
std::vector<std::pair<Divergence::Kind, std::string>>
summarize(const std::vector<Divergence> &Found) {
  std::vector<std::pair<Divergence::Kind, std::string>> Out;
  for (const Divergence &D : Found)
    Out.emplace_back(D.K, D.Event.Collective);
  return Out;
}
using K = Divergence::Kind;
} // namespace

TEST_F(AnalysisTest, KindsOfDivergence) {
  analyze(R"(
    void only(int rank) { if (rank == 0) MPI_Barrier(MPI_COMM_WORLD); }
    void skipped(int rank) { if (rank == 0) return; MPI_Barrier(MPI_COMM_WORLD); }
    void order(int rank, MPI_Comm a, MPI_Comm b) {
      if (rank) { MPI_Barrier(a); MPI_Barrier(b); } else { MPI_Barrier(b); MPI_Barrier(a); }
    }
    void args(int rank, int x) {
      if (rank) MPI_Bcast(&x, 1, 0, 0, MPI_COMM_WORLD); else MPI_Bcast(&x, 1, 0, 1, MPI_COMM_WORLD);
    })");
  auto Found = summarize(Result->divergences());
  std::sort(Found.begin(), Found.end());
  EXPECT_EQ(Found, (std::vector<std::pair<K, std::string>>{{K::OnlySomeRanks, "MPI_Barrier"},
                                                           {K::SkippedAfterExit, "MPI_Barrier"},
                                                           {K::Order, "MPI_Barrier"},
                                                           {K::Arguments, "MPI_Bcast"}}));
}

TEST_F(AnalysisTest, BalancedShapesAreSilent) {
  analyze(R"(
    static void hidden() { MPI_Barrier(MPI_COMM_WORLD); }
    void f(int rank, int n, bool flag) {
      if (rank == 0) hidden(); else MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) { for (int i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD); }
      else { for (int i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD); }
      if (rank == 0) { if (flag) MPI_Barrier(MPI_COMM_WORLD); }
      else { if (flag) MPI_Barrier(MPI_COMM_WORLD); }
      if (rank == 0) MPI_Send(&n, 1, 0, 1, 0, MPI_COMM_WORLD);
      switch (rank) { case 0: MPI_Barrier(MPI_COMM_WORLD); break; default: hidden(); }
    })");
  EXPECT_TRUE(Result->divergences().empty());
}

TEST_F(AnalysisTest, SummariesAreTransitiveAndHandleRecursion) {
  analyze(R"(
    static void a(int depth);
    static void b(int depth) { if (depth > 0) a(depth - 1); }
    static void a(int depth) { MPI_Barrier(MPI_COMM_WORLD); b(depth); }
    static void quiet(int depth) { if (depth) quiet(depth - 1); }
    void f(int rank) { if (rank == 0) b(3); if (rank == 1) quiet(2); }
  )");
  ASSERT_EQ(Result->divergences().size(), 1u);
  EXPECT_EQ(Result->divergences()[0].Event.Via->getName(), "b");
  EXPECT_EQ(Result->divergences()[0].Event.Collective, "MPI_Barrier");
}

// A call inside a `try` to a function that throws on some ranks is a branch
// whose arms are "returns" and "throws"; one that throws on a uniform
// condition, or not at all, is none.
TEST_F(AnalysisTest, ThrowingCallsBranchByWhereTheyThrow) {
  analyze(R"(
    static void check(int shard) { if (shard == 2) throw 1; }
    static void deeper(int shard) { check(shard); }
    static void uniform(int n) { if (n == 0) throw 1; }
    static void quiet(int) {}
    void skipped(int rank) {
      try { deeper(rank); MPI_Barrier(MPI_COMM_WORLD); } catch (int) {}
    }
    void handled(int rank) {
      try { check(rank); } catch (int) { MPI_Barrier(MPI_COMM_WORLD); }
    }
    void silent(int rank, int n) {
      try { uniform(n); quiet(rank); MPI_Barrier(MPI_COMM_WORLD); } catch (int) { return; }
    })");
  std::vector<std::tuple<K, std::string, lockstep::analysis::BranchArm::Kind>> Found;
  for (const Divergence &D : Result->divergences())
    Found.emplace_back(D.K, D.Function->getNameAsString(), D.Arm.K);
  std::sort(Found.begin(), Found.end());
  using Arm = lockstep::analysis::BranchArm::Kind;
  EXPECT_EQ(Found, (std::vector<std::tuple<K, std::string, Arm>>{
                       {K::OnlySomeRanks, "handled", Arm::Throws},
                       {K::SkippedAfterExit, "skipped", Arm::Throws}}));
}
