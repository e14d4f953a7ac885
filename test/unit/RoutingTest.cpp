// Routing: every kind of engine result goes to exactly one check, group
// calls included (a rank exit that skipped a group start once went to none).
#include "Routing.h"

#include <gtest/gtest.h>

using namespace lockstep::checks;
using lockstep::analysis::Divergence;
using lockstep::analysis::LoopDivergence;
using K = Divergence::Kind;

namespace {

CheckId routed(K Kind, bool Marker, bool Begins = false, bool OtherMarker = false) {
  Divergence D;
  D.K = Kind;
  D.Event.GroupMarker = Marker;
  D.Event.GroupBegins = Begins;
  if (OtherMarker) {
    D.OtherEvent.emplace();
    D.OtherEvent->GroupMarker = true;
  }
  return route(&D);
}

} // namespace

TEST(Routing, DivergencesOfCollectives) {
  EXPECT_EQ(routed(K::OnlySomeRanks, false), CheckId::RankBranchCheck);
  EXPECT_EQ(routed(K::Order, false), CheckId::RankBranchCheck);
  EXPECT_EQ(routed(K::SkippedAfterExit, false), CheckId::RankExitCheck);
  EXPECT_EQ(routed(K::Arguments, false), CheckId::RankArgumentCheck);
  EXPECT_EQ(routed(K::TripCount, false), CheckId::RankLoopCheck);
}

TEST(Routing, DivergencesOfGroupCalls) {
  EXPECT_EQ(routed(K::OnlySomeRanks, true, true), CheckId::GroupBalanceCheck);
  EXPECT_EQ(routed(K::OnlySomeRanks, false, false, /*OtherMarker=*/true),
            CheckId::GroupBalanceCheck);
  EXPECT_EQ(routed(K::Order, true, true), CheckId::GroupBalanceCheck);
  // Ranks that leave before a group start: their decision to leave.
  EXPECT_EQ(routed(K::SkippedAfterExit, true, /*Begins=*/true), CheckId::RankExitCheck);
  // A group end they skip leaves their group open.
  EXPECT_EQ(routed(K::SkippedAfterExit, true, /*Begins=*/false), CheckId::GroupBalanceCheck);
}

TEST(Routing, OtherResults) {
  LoopDivergence Trip, Unshadowed;
  Unshadowed.K = LoopDivergence::Kind::Unshadowed;
  EXPECT_EQ(route(&Trip), CheckId::RankLoopCheck);
  EXPECT_EQ(route(&Unshadowed), CheckId::JoinBarrierCheck);
  lockstep::analysis::RankArgument Argument;
  EXPECT_EQ(route(&Argument), CheckId::RankArgumentCheck);
  lockstep::analysis::GroupImbalance Imbalance;
  EXPECT_EQ(route(&Imbalance), CheckId::GroupBalanceCheck);
  lockstep::analysis::AnalysisLimit Limit;
  EXPECT_EQ(route(&Limit), CheckId::RankBranchCheck);
}
