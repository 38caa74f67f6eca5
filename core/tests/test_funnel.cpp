#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "nav/funnel.h"

namespace nav {
namespace {

// Walking +X with Y up, left is -Z; walking +Z, left is +X.
FunnelPortal point(glm::vec3 p) {
  return {p, p};
}

void expectPoint(const glm::vec3& actual, const glm::vec3& expected) {
  EXPECT_NEAR(actual.x, expected.x, 1e-5);
  EXPECT_NEAR(actual.y, expected.y, 1e-5);
  EXPECT_NEAR(actual.z, expected.z, 1e-5);
}

void expectCorners(const FunnelResult& result, const std::vector<glm::vec3>& expected) {
  ASSERT_EQ(result.corners.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "corner " << i);
    expectPoint(result.corners[i], expected[i]);
  }
}

std::vector<FunnelPortal> straightCorridor() {
  std::vector<FunnelPortal> portals{point({0, 0, 0})};
  for (float x : {2.0f, 4.0f, 6.0f, 8.0f})
    portals.push_back({{x, 0, -1}, {x, 0, 1}});
  portals.push_back(point({10, 0, 0}));
  return portals;
}

// East along a 2-wide corridor, then north (+Z) round the inner corner (4, 2).
std::vector<FunnelPortal> lShapedCorridor() {
  return {point({1, 0, 1}), {{4, 0, 0}, {4, 0, 2}}, {{6, 0, 2}, {4, 0, 2}}, point({5, 0, 7})};
}
const std::vector<glm::vec3> kLShapedCorners{{1, 0, 1}, {4, 0, 2}, {5, 0, 7}};

// Gaps alternately north and south of the axis; the middle one is 1 m higher.
std::vector<FunnelPortal> zigZagCorridor() {
  return {point({0, 0, 0}),
          {{2, 0, 1}, {2, 0, 2}},
          {{4, 1, -2}, {4, 1, -1}},
          {{6, 0, 1}, {6, 0, 2}},
          point({8, 0, 0})};
}
const std::vector<glm::vec3> kZigZagCorners{{0, 0, 0}, {2, 0, 1}, {4, 1, -1}, {6, 0, 1}, {8, 0, 0}};
// sqrt(5) twice on the flat ends, 3 = sqrt(4 + 1 + 4) twice over the hump.
const double kZigZagLength = 2.0 * std::sqrt(5.0) + 6.0;

TEST(Funnel, StraightCorridorHasTwoCorners) {
  const FunnelResult result = stringPull(straightCorridor());
  expectCorners(result, {{0, 0, 0}, {10, 0, 0}});
  EXPECT_NEAR(result.length, 10.0, 1e-5);
  EXPECT_TRUE(result.steps.empty());
}

TEST(Funnel, LShapedTurnsAtTheInnerCorner) {
  const FunnelResult result = stringPull(lShapedCorridor());
  expectCorners(result, kLShapedCorners);
  EXPECT_NEAR(result.length, std::sqrt(10.0) + std::sqrt(26.0), 1e-5);
}

TEST(Funnel, ZigZag) {
  const FunnelResult result = stringPull(zigZagCorridor());
  expectCorners(result, kZigZagCorners);
  EXPECT_NEAR(result.length, kZigZagLength, 1e-5);
}

TEST(Funnel, CollinearPortalEnds) {
  // Every left end lies on the straight line from start to goal.
  const FunnelResult touching = stringPull(std::vector<FunnelPortal>{
      point({0, 0, 0}), {{2, 0, 0}, {2, 0, 1}}, {{4, 0, 0}, {4, 0, 1}}, point({6, 0, 0})});
  EXPECT_NEAR(touching.length, 6.0, 1e-5);
  expectPoint(touching.corners.front(), {0, 0, 0});
  expectPoint(touching.corners.back(), {6, 0, 0});
  for (const glm::vec3& corner : touching.corners)
    EXPECT_NEAR(corner.z, 0.0, 1e-6);

  // Portals lying along the walk, and zero-width ones on the line.
  const FunnelResult along = stringPull(std::vector<FunnelPortal>{point({0, 0, 0}),
                                                                  {{2, 0, 0}, {3, 0, 0}},
                                                                  point({4, 0, 0}),
                                                                  {{5, 0, 0}, {4.5f, 0, 0}},
                                                                  point({6, 0, 0})});
  EXPECT_NEAR(along.length, 6.0, 1e-5);
  expectPoint(along.corners.back(), {6, 0, 0});
  for (const glm::vec3& corner : along.corners)
    EXPECT_NEAR(corner.z, 0.0, 1e-6);
}

// Walking south out of a start on a portal's line, then west: the portal
// along the line acts as its end nearest the apex, although the two were
// worked out apart and its x lies one rounding step off (as gates 32 m from
// the origin do). Taking its far end instead costs 0.25 m.
TEST(Funnel, PortalOnTheApexLineWithinRounding) {
  const float x = 32.25f, off = std::nextafter(x, 100.0f);
  const FunnelResult result =
      stringPull(std::vector<FunnelPortal>{point({x, 0, 53.85f}),
                                           {{x, 0, 53.55f}, {x + 0.3f, 0, 53.55f}},
                                           {{off, 0, 53.25f}, {off, 0, 52.35f}},
                                           {{x - 0.3f, 0, 53.25f}, {x - 0.3f, 0, 52.35f}},
                                           point({x - 0.6f, 0, 51.0f})});
  expectCorners(result,
                {{x, 0, 53.85f}, {x, 0, 53.25f}, {x - 0.3f, 0, 52.35f}, {x - 0.6f, 0, 51.0f}});
  EXPECT_NEAR(result.length, 0.6 + std::sqrt(0.9) + std::sqrt(0.09 + 1.8225), 1e-4);
}

// A gate one cell wide whose ends were worked out apart lie a rounding step
// apart: a point, a corner the path goes through, whichever way the step
// points. Taken as a portal seen from behind, it was skipped.
TEST(Funnel, PointPortalWithinRoundingIsACorner) {
  for (const float step : {2e-6f, -2e-6f}) {
    SCOPED_TRACE(step);
    const FunnelResult result =
        stringPull(std::vector<FunnelPortal>{point({55.65f, 0, 28.65f}),
                                             {{55.95f, 0, 28.65f}, {55.95f, 0, 28.65f + step}},
                                             point({55.95f, 0, 28.35f}),
                                             point({56.25f, 0, 28.35f}),
                                             point({58.0f, 0, 26.0f})});
    expectCorners(result, {{55.65f, 0, 28.65f},
                           {55.95f, 0, 28.65f},
                           {55.95f, 0, 28.35f},
                           {56.25f, 0, 28.35f},
                           {58.0f, 0, 26.0f}});
  }
}

TEST(Funnel, ZeroWidthPortalsAreCorners) {
  const FunnelResult result = stringPull(std::vector<FunnelPortal>{
      point({0, 0, 0}), point({2, 0, 1}), point({4, 0, 1}), point({6, 0, 0})});
  expectCorners(result, {{0, 0, 0}, {2, 0, 1}, {4, 0, 1}, {6, 0, 0}});
  EXPECT_NEAR(result.length, 2.0 * std::sqrt(5.0) + 2.0, 1e-5);
}

TEST(Funnel, StartEqualsGoal) {
  const FunnelResult direct =
      stringPull(std::vector<FunnelPortal>{point({1, 2, 3}), point({1, 2, 3})}, true);
  expectCorners(direct, {{1, 2, 3}});
  EXPECT_EQ(direct.length, 0.0f);
  EXPECT_EQ(direct.steps.back().event, FunnelEvent::Goal);

  const FunnelResult outAndBack = stringPull(
      std::vector<FunnelPortal>{point({0, 0, 0}), {{1, 0, -1}, {1, 0, 1}}, point({0, 0, 0})});
  expectCorners(outAndBack, {{0, 0, 0}});
  EXPECT_EQ(outAndBack.length, 0.0f);
}

TEST(Funnel, RepeatedPortalsChangeNothing) {
  auto repeated = [](const std::vector<FunnelPortal>& portals) {
    std::vector<FunnelPortal> out;
    for (const FunnelPortal& portal : portals)
      out.insert(out.end(), 3, portal);
    return out;
  };
  const FunnelResult straight = stringPull(repeated(straightCorridor()));
  expectCorners(straight, {{0, 0, 0}, {10, 0, 0}});
  const FunnelResult lShaped = stringPull(repeated(lShapedCorridor()));
  expectCorners(lShaped, kLShapedCorners);
  const FunnelResult zigZag = stringPull(repeated(zigZagCorridor()), true);
  expectCorners(zigZag, kZigZagCorners);
  EXPECT_NEAR(zigZag.length, kZigZagLength, 1e-5);
}

TEST(Funnel, EmptyAndSingle) {
  EXPECT_TRUE(stringPull({}).corners.empty());
  const FunnelResult single = stringPull(std::vector<FunnelPortal>{point({1, 0, 1})});
  expectCorners(single, {{1, 0, 1}});
}

TEST(Funnel, NonFiniteInputTerminates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const FunnelResult result = stringPull(std::vector<FunnelPortal>{
      point({0, 0, 0}), {{nan, 0, 0}, {2, 0, nan}}, {{inf, 0, 1}, {4, 0, -inf}}, point({6, 0, 0})});
  EXPECT_FALSE(result.corners.empty());
}

TEST(FunnelSteps, ZigZagTrace) {
  const FunnelResult result = stringPull(zigZagCorridor(), true);
  ASSERT_GE(result.steps.size(), 2u);
  const FunnelStep& first = result.steps.front();
  EXPECT_EQ(first.event, FunnelEvent::Start);
  EXPECT_EQ(first.cornerCount, 1u);
  expectPoint(first.apex, {0, 0, 0});
  const FunnelStep& last = result.steps.back();
  EXPECT_EQ(last.event, FunnelEvent::Goal);
  EXPECT_EQ(last.cornerCount, result.corners.size());
  expectPoint(last.apex, {8, 0, 0});

  // The turns: left end of the first gap, right end of the second, left of the third.
  std::vector<FunnelEvent> cornerEvents;
  for (size_t i = 0; i < result.steps.size(); ++i) {
    const FunnelStep& step = result.steps[i];
    ASSERT_GE(step.cornerCount, 1u);
    ASSERT_LE(step.cornerCount, result.corners.size());
    const glm::vec3& lastCorner = result.corners[step.cornerCount - 1];
    EXPECT_LE(step.portal, 4u);
    EXPECT_LE(step.apexPortal, step.leftPortal);
    EXPECT_LE(step.apexPortal, step.rightPortal);
    if (step.event == FunnelEvent::CornerLeft || step.event == FunnelEvent::CornerRight) {
      cornerEvents.push_back(step.event);
      expectPoint(step.event == FunnelEvent::CornerLeft ? step.left : step.right, lastCorner);
      ASSERT_LT(i + 1, result.steps.size());
      const FunnelStep& restart = result.steps[i + 1];
      EXPECT_EQ(restart.event, FunnelEvent::Restart);
      expectPoint(restart.apex, lastCorner);
      expectPoint(restart.left, lastCorner);
      expectPoint(restart.right, lastCorner);
      EXPECT_EQ(restart.cornerCount, step.cornerCount);
    } else if (step.event != FunnelEvent::Goal) {
      // Between corners the apex is the last corner found.
      expectPoint(step.apex, lastCorner);
    }
    if (step.event == FunnelEvent::Restart) {
      ASSERT_GT(i, 0u);
      EXPECT_TRUE(result.steps[i - 1].event == FunnelEvent::CornerLeft ||
                  result.steps[i - 1].event == FunnelEvent::CornerRight);
    }
  }
  ASSERT_GE(cornerEvents.size(), 3u);
  EXPECT_EQ(cornerEvents[0], FunnelEvent::CornerLeft);
  EXPECT_EQ(cornerEvents[1], FunnelEvent::CornerRight);
  EXPECT_EQ(cornerEvents[2], FunnelEvent::CornerLeft);
  // The apex portals of the turns: gap 1's left, gap 2's right, gap 3's left.
  std::vector<uint32_t> apexPortals;
  for (const FunnelStep& step : result.steps) {
    if (step.event == FunnelEvent::Restart) apexPortals.push_back(step.apexPortal);
  }
  ASSERT_GE(apexPortals.size(), 3u);
  EXPECT_EQ(apexPortals[0], 1u);
  EXPECT_EQ(apexPortals[1], 2u);
  EXPECT_EQ(apexPortals[2], 3u);
  EXPECT_STREQ(toString(FunnelEvent::CornerLeft), "corner left");
}

TEST(FunnelSteps, TightenAndSkip) {
  // The second portal is wider than the first: it cannot tighten anything.
  const FunnelResult result = stringPull(
      std::vector<FunnelPortal>{
          point({0, 0, 0}), {{2, 0, -1}, {2, 0, 1}}, {{4, 0, -3}, {4, 0, 3}}, point({6, 0, 0})},
      true);
  std::vector<FunnelEvent> events;
  for (const FunnelStep& step : result.steps)
    events.push_back(step.event);
  ASSERT_GE(events.size(), 5u);
  EXPECT_EQ(events[0], FunnelEvent::Start);
  EXPECT_EQ(events[1], FunnelEvent::TightenRight);
  EXPECT_EQ(events[2], FunnelEvent::TightenLeft);
  EXPECT_EQ(events[3], FunnelEvent::Skip);
  EXPECT_EQ(result.steps[3].portal, 2u);
  expectPoint(result.steps[3].left, {2, 0, -1});
  expectPoint(result.steps[3].right, {2, 0, 1});
  EXPECT_EQ(events.back(), FunnelEvent::Goal);
  expectCorners(result, {{0, 0, 0}, {6, 0, 0}});
}

// Shortest path through a monotone corridor of windows x = i, z in [lo, hi] on
// the ramp y = slope * x, by dynamic programming over the visibility graph of
// the window ends (the shortest path only bends there).
struct Window {
  float x, lo, hi;
};

double rampDistance(glm::dvec2 a, glm::dvec2 b, double slope) {
  const double dx = b.x - a.x, dz = b.y - a.y;
  return std::sqrt(dx * dx * (1.0 + slope * slope) + dz * dz);
}

double shortestThroughWindows(const std::vector<Window>& windows, double slope) {
  struct Node {
    size_t window;
    glm::dvec2 p;
  };
  std::vector<Node> nodes;
  for (size_t w = 0; w < windows.size(); ++w) {
    nodes.push_back({w, {windows[w].x, windows[w].lo}});
    if (windows[w].hi != windows[w].lo) nodes.push_back({w, {windows[w].x, windows[w].hi}});
  }
  auto visible = [&](const Node& a, const Node& b) {
    for (size_t m = a.window + 1; m < b.window; ++m) {
      const double t = (windows[m].x - a.p.x) / (b.p.x - a.p.x);
      const double z = a.p.y + (b.p.y - a.p.y) * t;
      if (z < windows[m].lo - 1e-6 || z > windows[m].hi + 1e-6) return false;
    }
    return true;
  };
  std::vector<double> best(nodes.size(), std::numeric_limits<double>::infinity());
  best[0] = 0.0;
  for (size_t b = 1; b < nodes.size(); ++b) {
    for (size_t a = 0; a < b; ++a) {
      if (nodes[a].window >= nodes[b].window || !visible(nodes[a], nodes[b])) continue;
      best[b] = std::min(best[b], best[a] + rampDistance(nodes[a].p, nodes[b].p, slope));
    }
  }
  return best.back();
}

TEST(FunnelRandom, ShortestThroughMonotoneCorridors) {
  std::mt19937 rng(424242);
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 500; ++trial) {
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    const float slope = trial % 2 == 0 ? 0.0f : 0.3f;
    const int inner = std::uniform_int_distribution<int>(0, 12)(rng);
    std::vector<Window> windows;
    const float startZ = uniform(-3, 3);
    windows.push_back({0.0f, startZ, startZ});
    for (int i = 1; i <= inner; ++i) {
      float lo = uniform(-3, 3), hi = std::bernoulli_distribution(0.1)(rng) ? lo : uniform(-3, 3);
      if (lo > hi) std::swap(lo, hi);
      // Round to a coarse grid so some windows share ends.
      windows.push_back({float(i), std::round(lo * 4) / 4, std::round(hi * 4) / 4});
    }
    const float goalZ = uniform(-3, 3);
    windows.push_back({float(inner + 1), goalZ, goalZ});

    std::vector<FunnelPortal> portals;
    std::vector<glm::vec3> midpoints;
    for (const Window& w : windows) {
      const float y = slope * w.x;
      // Walking +X, left is -Z.
      portals.push_back({{w.x, y, w.lo}, {w.x, y, w.hi}});
      midpoints.push_back({w.x, y, (w.lo + w.hi) * 0.5f});
    }
    const FunnelResult result = stringPull(portals);
    ASSERT_GE(result.corners.size(), 1u);
    expectPoint(result.corners.front(), portals.front().left);
    expectPoint(result.corners.back(), portals.back().left);
    EXPECT_NEAR(result.length, shortestThroughWindows(windows, slope), 1e-3);
    EXPECT_LE(result.length, polylineLength(midpoints) + 1e-4f);

    // Every segment passes through every window it spans.
    for (size_t c = 1; c < result.corners.size(); ++c) {
      const glm::vec3 a = result.corners[c - 1], b = result.corners[c];
      ASSERT_LE(a.x, b.x);
      for (const Window& w : windows) {
        if (w.x <= a.x || w.x >= b.x) continue;
        const float z = a.z + (b.z - a.z) * (w.x - a.x) / (b.x - a.x);
        EXPECT_GE(z, w.lo - 1e-4f);
        EXPECT_LE(z, w.hi + 1e-4f);
      }
    }
  }
}

TEST(FunnelPortals, FromCorridor) {
  NavGraph graph;
  graph.portals.push_back(
      {0, 1, {2, 0, 0}, {2, 0, 2}, Direction::PlusX, PortalKind::Walk, 0, kNoPortal});
  graph.portals.push_back(
      {1, 2, {4, 0.5f, 0}, {4, 0.5f, 1}, Direction::PlusX, PortalKind::Walk, 0, kNoPortal});
  Corridor corridor;
  corridor.start = {1, 0, 1};
  corridor.goal = {5, 1, 1};
  corridor.sectors = {0, 1, 2};
  corridor.portals = {1, 0};  // any order: the portals are copied as listed
  const std::vector<FunnelPortal> portals = funnelPortals(graph, corridor);
  ASSERT_EQ(portals.size(), 4u);
  expectPoint(portals[0].left, {1, 0, 1});
  expectPoint(portals[0].right, {1, 0, 1});
  expectPoint(portals[1].left, {4, 0.5f, 0});
  expectPoint(portals[1].right, {4, 0.5f, 1});
  expectPoint(portals[2].left, {2, 0, 0});
  expectPoint(portals[3].left, {5, 1, 1});
  expectPoint(portals[3].right, {5, 1, 1});
}

TEST(FunnelHeights, StairsBetweenTwoCorners) {
  // A straight climb: portals 0.25 m higher every 2 m, no corner in between.
  std::vector<FunnelPortal> portals{point({0, 0, 0})};
  for (int i = 1; i <= 4; ++i) {
    const float y = 0.25f * float(i);
    portals.push_back({{2.0f * float(i), y, -1}, {2.0f * float(i), y, 1}});
  }
  portals.push_back(point({10, 1.25f, 0}));
  const FunnelResult result = stringPull(portals);
  ASSERT_EQ(result.corners.size(), 2u);
  const std::vector<glm::vec3> path = followPortalHeights(result, portals);
  ASSERT_EQ(path.size(), 6u);
  for (int i = 1; i <= 4; ++i)
    expectPoint(path[size_t(i)], {2.0f * float(i), 0.25f * float(i), 0});
  expectPoint(path.back(), {10, 1.25f, 0});
}

TEST(FunnelHeights, CrossingsInterpolateAlongTiltedPortals) {
  // The L-shaped corridor with its first portal tilted (left end 0, right end 1).
  std::vector<FunnelPortal> portals = lShapedCorridor();
  portals[1].right.y = 1.0f;
  const FunnelResult result = stringPull(portals);
  const std::vector<glm::vec3> path = followPortalHeights(result, portals);
  // Both portals end at the corner (4, 2): the path is start, that corner, goal.
  ASSERT_EQ(path.size(), 3u);
  expectPoint(path[1], result.corners[1]);
  EXPECT_NEAR(path[1].x, 4.0f, 1e-5f);
  EXPECT_NEAR(path[1].z, 2.0f, 1e-5f);

  // A zig-zag: every crossing is a corner, so the path is the corners.
  const std::vector<FunnelPortal> zigZag = zigZagCorridor();
  const std::vector<glm::vec3> zigZagPath = followPortalHeights(stringPull(zigZag), zigZag);
  ASSERT_EQ(zigZagPath.size(), kZigZagCorners.size());
  for (size_t i = 0; i < zigZagPath.size(); ++i)
    expectPoint(zigZagPath[i], kZigZagCorners[i]);
}

TEST(FunnelHeights, MidSegmentCrossingOnASlopedPortal) {
  // Straight path along z = 0 through a portal from (2, 0, -1) to (2, 2, 1):
  // crossing at its middle, height 1.
  const std::vector<FunnelPortal> portals{
      point({0, 0, 0}), {{2, 0, -1}, {2, 2, 1}}, point({4, 0, 0})};
  const std::vector<glm::vec3> path = followPortalHeights(stringPull(portals), portals);
  ASSERT_EQ(path.size(), 3u);
  expectPoint(path[1], {2, 1, 0});
}

TEST(FunnelLength, Polyline) {
  const std::vector<glm::vec3> points{{0, 0, 0}, {3, 4, 0}, {3, 4, 12}};
  EXPECT_NEAR(polylineLength(points), 17.0, 1e-5);
  EXPECT_EQ(polylineLength(std::span<const glm::vec3>(points.data(), 1)), 0.0f);
  EXPECT_EQ(polylineLength({}), 0.0f);
}

}  // namespace
}  // namespace nav
