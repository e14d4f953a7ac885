// The matcher on hand-made call streams: each kind of divergence, and no
// alarm where ranks agree (split communicators included).
#include "Matcher.h"
#include "../../unit/ErrorText.h"
#include "Diagnosis.h"

#include <gtest/gtest.h>

using namespace lockstep;
using namespace lockstep::run;

namespace {

class MatcherTest : public ::testing::Test {
protected:
  Matcher M{2, 1000};
  uint64_t Now = 1;

  uint32_t fn(const std::string &Name, const std::string &Op, uint64_t Flags = wire::HostBlocking) {
    return M.names().function({Name, Op, Flags});
  }
  void comm(int Rank, uint64_t Id, uint32_t Size, uint32_t RankInComm) {
    wire::Comm C;
    C.Id = Id;
    C.Size = Size;
    C.RankInComm = RankInComm;
    C.Api = 1;
    ASSERT_EQ(errorText(M.addComm(Rank, C, Now)), "");
  }
  std::string call(int Rank, uint64_t Comm, uint64_t Seq, uint32_t Func, int64_t Count = 1) {
    Call C;
    C.Seq = Seq;
    C.Func = Func;
    C.Count = Count;
    C.TimeNs = ++Now;
    return errorText(M.addCall(Rank, Comm, C, Now));
  }
  void world() {
    comm(0, 1, 2, 0);
    comm(1, 1, 2, 1);
  }
  /// The world and two more communicators over both ranks.
  void threeComms() {
    world();
    for (uint64_t Id : {10, 11}) {
      comm(0, Id, 2, 0);
      comm(1, Id, 2, 1);
    }
  }
};

TEST_F(MatcherTest, AgreeingRanksPass) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  for (uint64_t Seq = 1; Seq <= 3; ++Seq)
    for (int R : {0, 1})
      ASSERT_EQ(call(R, 1, Seq, Ar), "");
  M.departed(0, true, ++Now);
  M.departed(1, true, ++Now);
  M.tick(++Now);
  EXPECT_FALSE(M.divergence());
}

TEST_F(MatcherTest, OperationMismatch) {
  world();
  call(0, 1, 1, fn("MPI_Barrier", "barrier"));
  call(1, 1, 1, fn("MPI_Allreduce", "allreduce"));
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Mismatch);
  EXPECT_EQ(M.divergence()->Field, "operation");
}

TEST_F(MatcherTest, CountMismatch) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  call(0, 1, 1, Ar, 4);
  call(1, 1, 1, Ar, 8);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->Field, "count");
}

TEST_F(MatcherTest, RankLeftWhileOthersWait) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  call(0, 1, 1, Ar);
  call(1, 1, 1, Ar);
  call(0, 1, 2, Ar);
  M.departed(1, false, ++Now);
  M.tick(Now + 1);
  EXPECT_FALSE(M.divergence()); // the grace for ranks leaving at the same moment
  M.tick(Now + Matcher::LeftGraceNs);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Left);
  EXPECT_EQ(M.divergence()->Points.front().Seq, 2u);
  EXPECT_EQ(M.divergence()->Culprits, std::vector<int>{1});
}

TEST_F(MatcherTest, FinalizeAgainstACollectiveIsRankLeft) {
  world();
  call(0, 1, 1, fn("MPI_Allreduce", "allreduce"));
  call(1, 1, 1, fn("MPI_Finalize", "finalize"));
  M.finish(++Now);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Left);
  EXPECT_EQ(M.divergence()->Culprits, std::vector<int>{1});
}

TEST_F(MatcherTest, LeavingWithMpiOpenBreaksTheJobBeforeAnyoneWaits) {
  world();
  M.connected(0);
  M.connected(1);
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  call(0, 1, 1, Ar);
  call(1, 1, 1, Ar);
  M.bye(1, wire::Bye{0, wire::LeftMpiOpen}); // exit(0) without MPI_Finalize
  M.departed(1, true, ++Now);
  M.tick(++Now);
  EXPECT_FALSE(M.divergence());
  M.tick(Now + Matcher::LeftGraceNs);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Left);
  EXPECT_EQ(M.divergence()->Points.front().Seq, 2u);
  EXPECT_EQ(M.divergence()->Culprits, std::vector<int>{1});
}

TEST_F(MatcherTest, NoRankLeftWhenEveryoneFinalized) {
  world();
  M.connected(0);
  M.connected(1);
  uint32_t Fin = fn("MPI_Finalize", "finalize");
  call(0, 1, 1, Fin);
  call(1, 1, 1, Fin);
  M.departed(1, false, ++Now); // crashed after MPI_Finalize: nothing to break
  M.departed(0, true, ++Now);
  M.finish(++Now);
  EXPECT_FALSE(M.divergence());
}

TEST_F(MatcherTest, OppositeOrderIsADeadlock) {
  threeComms();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  call(0, 10, 1, Ar);
  call(1, 11, 1, Ar);
  M.tick(++Now);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Deadlock);
}

TEST_F(MatcherTest, NoDeadlockWhenARankMayHaveMovedOn) {
  threeComms();
  // A root may leave a broadcast before the others enter it.
  call(0, 10, 1, fn("MPI_Bcast", "broadcast"));
  call(1, 11, 1, fn("MPI_Allreduce", "allreduce"));
  M.tick(++Now);
  EXPECT_FALSE(M.divergence());
}

TEST_F(MatcherTest, StallAfterTimeout) {
  world();
  call(0, 1, 1, fn("MPI_Barrier", "barrier"));
  M.tick(Now + 500);
  EXPECT_FALSE(M.divergence());
  M.tick(Now + 2000);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Stall);
  EXPECT_EQ(M.divergence()->Culprits, std::vector<int>{1});
}

TEST_F(MatcherTest, StallFoundFromHeartbeatsWhenRecordsWereDropped) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  for (uint64_t Seq = 1; Seq <= 3; ++Seq)
    for (int R : {0, 1})
      ASSERT_EQ(call(R, 1, Seq, Ar), "");
  ASSERT_EQ(call(0, 1, 5, Ar), ""); // #4 dropped; rank 1's #4 and #5 dropped
  wire::Beat Inside;                // both made 5 calls and are inside the 5th
  Inside.Lanes = {{1, 5, 4}};
  M.heartbeat(0, Inside, Now);
  M.heartbeat(1, Inside, Now);
  EXPECT_TRUE(M.incomplete(0));
  M.tick(Now + 500);
  EXPECT_FALSE(M.divergence());
  M.tick(Now + 2000);
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Stall);
  EXPECT_EQ(M.divergence()->Points.front().Seq, 5u);
  EXPECT_EQ(M.divergence()->Culprits, std::vector<int>{1}); // no record of what it called
}

TEST_F(MatcherTest, NoStallWhileHeartbeatsShowProgress) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  ASSERT_EQ(call(0, 1, 1, Ar), "");
  for (uint64_t Calls = 2; Calls < 10; ++Calls) { // rank 1's records are all lost
    Now += 600;
    wire::Beat B;
    B.Lanes = {{1, Calls, Calls - 1}};
    M.heartbeat(1, B, Now);
    M.heartbeat(0, B, Now);
    M.tick(Now);
  }
  EXPECT_FALSE(M.divergence());
}

TEST_F(MatcherTest, MatchingResumesAfterOneRankFellFarBehind) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce"), Bar = fn("MPI_Barrier", "barrier");
  const uint64_t Far = Matcher::MaxOpen + 10;
  for (uint64_t Seq = 1; Seq <= Far; ++Seq)
    ASSERT_EQ(call(0, 1, Seq, Ar), "");
  EXPECT_GT(M.comms().at(1).ResyncFrom, 0u);
  for (uint64_t Seq = 1; Seq <= Far; ++Seq)
    ASSERT_EQ(call(1, 1, Seq, Ar), "");
  EXPECT_FALSE(M.divergence());
  ASSERT_EQ(call(0, 1, Far + 1, Ar), "");
  ASSERT_EQ(call(1, 1, Far + 1, Bar), "");
  ASSERT_TRUE(M.divergence());
  EXPECT_EQ(M.divergence()->K, DivergenceKind::Mismatch);
}

TEST_F(MatcherTest, RefusesInconsistentReports) {
  world();
  uint32_t Ar = fn("MPI_Allreduce", "allreduce");
  EXPECT_NE(call(0, 99, 1, Ar), ""); // unregistered communicator
  ASSERT_EQ(call(0, 1, 2, Ar), "");
  EXPECT_NE(call(0, 1, 2, Ar), ""); // sequence numbers only grow
  wire::Comm C;
  C.Id = 1;
  C.Size = 3;
  C.Api = 1;
  EXPECT_NE(errorText(M.addComm(0, C, Now)), ""); // another size for the same communicator
}

TEST(RankList, Ranges) {
  EXPECT_EQ(rankList({3, 1, 2, 0}), "0-3");
  EXPECT_EQ(rankList({0, 2}), "0, 2");
}

} // namespace
