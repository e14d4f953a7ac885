// The engine's findings beyond branches: rank-dependent loops and join
// regions, agreed arguments, group balance and communicator membership.
#include "AnalysisFixture.h"

using lockstep::analysis::GroupImbalance;
using lockstep::analysis::LoopDivergence;
using lockstep::testing::AnalysisTest;

TEST_F(AnalysisTest, LoopsWithRankDependentTripCounts) {
  analyze(R"(
    void f(int total) {
      int rank, size, steps;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      for (int i = 0; i < total / size + (rank < total % size); ++i) MPI_Barrier(MPI_COMM_WORLD);
      int mine = rank + 1;
      MPI_Allreduce(&mine, &steps, 1, 0, 0, MPI_COMM_WORLD);
      for (int i = 0; i < steps; ++i) MPI_Barrier(MPI_COMM_WORLD);
      for (int r = 0; r < size; ++r) MPI_Bcast(&mine, 1, 0, r, MPI_COMM_WORLD);
    })");
  ASSERT_EQ(Result->loopDivergences().size(), 1u);
  const LoopDivergence &D = Result->loopDivergences()[0];
  EXPECT_EQ(D.K, LoopDivergence::Kind::TripCount);
  EXPECT_EQ(D.Event.Collective, "MPI_Barrier");
  EXPECT_EQ(text(D.Condition), "i < total / size + (rank < total % size)");
  EXPECT_TRUE(Result->divergences().empty());
}

TEST_F(AnalysisTest, AgreedArgumentsThatDifferBetweenRanks) {
  analyze(R"(
    void f(int x) {
      int rank;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      MPI_Bcast(&x, 1, 0, rank, MPI_COMM_WORLD);
      MPI_Bcast(&x, rank + 1, 0, 0, MPI_COMM_WORLD);
      MPI_Bcast(&x, 1, 0, 0, MPI_COMM_WORLD);
    })");
  std::vector<std::string> Roles;
  for (const auto &A : Result->rankArguments())
    Roles.push_back(A.Role + "=" + text(A.Argument));
  EXPECT_THAT(Roles, ::testing::UnorderedElementsAre("root=rank", "count=rank + 1"));
}

TEST_F(AnalysisTest, GroupBalanceFollowsPathsAndGuards) {
  analyze(R"(
    bool failed();
    void open_on_return() { ncclGroupStart(); if (failed()) return; ncclGroupEnd(); }
    struct Guard { Guard() { ncclGroupStart(); } ~Guard() { ncclGroupEnd(); } };
    void guarded() { Guard g; if (failed()) return; }
    void helper_begin() { ncclGroupStart(); }
    void paired() { helper_begin(); ncclGroupEnd(); }
    void end_only(bool b) { if (b) ncclGroupStart(); ncclGroupEnd(); }
  )");
  std::vector<std::pair<GroupImbalance::Kind, std::string>> Found;
  for (const GroupImbalance &P : Result->groupImbalances())
    Found.emplace_back(P.K, P.Function->getNameAsString());
  EXPECT_THAT(Found, ::testing::UnorderedElementsAre(
                         std::pair{GroupImbalance::Kind::LeftOpen, std::string("open_on_return")},
                         std::pair{GroupImbalance::Kind::UnmatchedEnd, std::string("end_only")}));
}

TEST_F(AnalysisTest, MembershipDecidesSplitCommunicators) {
  analyze(R"(
    void f() {
      int rank;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      MPI_Comm leaders;
      MPI_Comm_split(MPI_COMM_WORLD, rank % 8 == 0 ? 0 : -32766, rank, &leaders);
      if (rank % 8 == 0) MPI_Barrier(leaders);
      if (leaders != MPI_COMM_NULL) MPI_Barrier(leaders);
      if (rank == 8) MPI_Barrier(leaders);
    })");
  // Rank 8 leads too, but the other leaders never join its barrier.
  ASSERT_EQ(Result->divergences().size(), 1u);
  EXPECT_EQ(text(Result->divergences()[0].Condition), "rank == 8");
}

TEST_F(AnalysisTest, ConstantTablesAndCountersAgreeOnTheMembersOfASplit) {
  analyze(R"(
    static const int kLayers[4] = {5, 8, 8, 3};
    void stages(double *x) {
      int rank;
      MPI_Comm dp;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      int stage = rank % 4;
      MPI_Comm_split(MPI_COMM_WORLD, stage, rank, &dp);
      for (int l = 0; l < kLayers[stage]; ++l) MPI_Barrier(dp);
      for (int k = 0; k <= stage; ++k) MPI_Bcast(x, 1, 0, k, dp);
      for (int l = 0; l < kLayers[stage]; ++l) MPI_Barrier(MPI_COMM_WORLD);
    })");
  ASSERT_EQ(Result->loopDivergences().size(), 1u);
  EXPECT_EQ(Result->loopDivergences()[0].Event.Communicator, "MPI_COMM_WORLD");
  EXPECT_TRUE(Result->rankArguments().empty());
}
