#pragma once
// Checks that two searches gave the same answer: a sliced search and a
// one-shot one, or one search standing in for another; and two funnels.
#include <gtest/gtest.h>

#include "nav/funnel.h"
#include "nav/search.h"

namespace nav::test {

/// Every field of the results.
inline void expectSameResult(const PathResult& a, const PathResult& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.corridor.sectors, b.corridor.sectors);
  EXPECT_EQ(a.corridor.portals, b.corridor.portals);
  EXPECT_TRUE(a.corridor.start == b.corridor.start);
  EXPECT_TRUE(a.corridor.goal == b.corridor.goal);
  EXPECT_EQ(a.cost, b.cost);
  EXPECT_EQ(a.expansions, b.expansions);
  EXPECT_EQ(a.portalPoint, b.portalPoint);
  EXPECT_EQ(a.overRegions, b.overRegions);
}

/// The same events in the same order, with where their nodes stood.
inline void expectSameTrace(const SearchTrace& a, const SearchTrace& b) {
  ASSERT_EQ(a.events.size(), b.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    const SearchEvent &x = a.events[i], &y = b.events[i];
    EXPECT_TRUE(x.kind == y.kind && x.portal == y.portal && x.costSoFar == y.costSoFar &&
                x.estimatedTotal == y.estimatedTotal && x.from == y.from && x.to == y.to)
        << "event " << i;
  }
}

/// Corners, steps and all.
inline void expectSameFunnel(const FunnelResult& a, const FunnelResult& b) {
  EXPECT_EQ(a.corners, b.corners);
  EXPECT_EQ(a.cornerPortals, b.cornerPortals);
  EXPECT_EQ(a.reachedCorners, b.reachedCorners);
  EXPECT_EQ(a.length, b.length);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (size_t i = 0; i < a.steps.size(); ++i) {
    const FunnelStep &x = a.steps[i], &y = b.steps[i];
    EXPECT_TRUE(x.event == y.event && x.portal == y.portal && x.apex == y.apex &&
                x.left == y.left && x.right == y.right && x.apexPortal == y.apexPortal &&
                x.leftPortal == y.leftPortal && x.rightPortal == y.rightPortal &&
                x.cornerCount == y.cornerCount)
        << "step " << i;
  }
}

}  // namespace nav::test
