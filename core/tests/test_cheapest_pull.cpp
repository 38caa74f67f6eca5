// pullCheapest: the path through gates that costs least where the metre
// changes, checked against crossings found by scanning every point of the
// gates where it changes (the pieces between them are straight, or bend at
// one gate end worked out by hand).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nav/cheapest_pull.h"
#include "nav/funnel.h"
#include "nav/geometry.h"

namespace nav {
namespace {

FunnelPortal point(float x, float z) {
  return {{x, 0.0f, z}, {x, 0.0f, z}};
}

// A gate across the corridor at z, from x = low to x = high (left is low
// walking towards +z: left of +Z is -X).
FunnelPortal gate(float z, float low, float high) {
  return {{low, 0.0f, z}, {high, 0.0f, z}};
}

double cost(const std::vector<glm::vec3>& corners, const std::vector<float>& metreAtZ,
            const std::vector<float>& boundaries) {
  // The metre of a stretch: the strip (between boundaries in z) its middle lies in.
  double total = 0.0;
  for (size_t i = 1; i < corners.size(); ++i) {
    const float middle = 0.5f * (corners[i - 1].z + corners[i].z);
    size_t strip = 0;
    while (strip < boundaries.size() && middle > boundaries[strip])
      ++strip;
    total += metreAtZ[strip] * glm::length(groundOf(corners[i]) - groundOf(corners[i - 1]));
  }
  return total;
}

TEST(CheapestPull, BendsWhereTheMetreChangesAsSnellsLawSays) {
  // Start (0, 0), goal (4, 4); a metre costs 1 below z = 2 and 3 above. The
  // cheapest crossing x of z = 2 minimises sqrt(x^2 + 4) + 3 sqrt((4 - x)^2 + 4).
  const std::vector<FunnelPortal> portals = {point(0, 0), gate(1, -10, 10), gate(2, -10, 10),
                                             gate(3, -10, 10), point(4, 4)};
  const std::vector<float> metres = {1, 1, 3, 3};
  FunnelResult funnel = stringPull(portals, false, FunnelInput::Gates);
  ASSERT_EQ(funnel.corners.size(), 2u);  // straight from start to goal
  pullCheapest(portals, metres, funnel);
  double best = 1e30, bestX = 0.0;
  for (int i = 0; i <= 400000; ++i) {
    const double x = 4.0 * i / 400000.0;
    const double c = std::sqrt(x * x + 4.0) + 3.0 * std::sqrt((4.0 - x) * (4.0 - x) + 4.0);
    if (c < best) {
      best = c;
      bestX = x;
    }
  }
  ASSERT_EQ(funnel.corners.size(), 3u);
  EXPECT_NEAR(funnel.corners[1].x, bestX, 1e-3);
  EXPECT_NEAR(funnel.corners[1].z, 2.0f, 1e-6);
  EXPECT_EQ(funnel.cornerPortals[1], 2u);
  EXPECT_NEAR(cost(funnel.corners, {1, 3}, {2}), best, 1e-4 * best);
  EXPECT_NEAR(funnel.length, polylineLength(funnel.corners), 1e-4);
}

TEST(CheapestPull, TwoChangesAndACornerAgainstAScanOfBothCrossings) {
  // Strips: z < 2 at 1 a metre, 2 < z < 4 at 2.5, z > 4 at 1. Below, a gate at
  // z = 1 open only for x in [3, 5] makes the way from the start bend at (3, 1)
  // when it crosses z = 2 left of the line through that end.
  const std::vector<FunnelPortal> portals = {point(0, 0),      gate(1, 3, 5),    gate(2, -10, 10),
                                             gate(3, -10, 10), gate(4, -10, 10), point(1, 6)};
  const std::vector<float> metres = {1, 1, 2.5f, 2.5f, 1};
  FunnelResult funnel = stringPull(portals, false, FunnelInput::Gates);
  const double before = cost(funnel.corners, {1, 2.5f, 1}, {2, 4});
  pullCheapest(portals, metres, funnel);
  const double after = cost(funnel.corners, {1, 2.5f, 1}, {2, 4});
  EXPECT_LT(after, before);
  // Shortest way from the start to (x, 2) through [3, 5] at z = 1.
  const auto firstPiece = [](double x) {
    const double across = 0.5 * x;  // where the straight line crosses z = 1
    const double end = across < 3.0 ? 3.0 : across > 5.0 ? 5.0 : across;
    return std::hypot(end, 1.0) + std::hypot(x - end, 1.0);
  };
  double best = 1e30;
  for (int i = 0; i <= 2000; ++i) {
    const double x1 = -2.0 + 10.0 * i / 2000.0;
    for (int j = 0; j <= 2000; ++j) {
      const double x2 = -2.0 + 10.0 * j / 2000.0;
      best = std::min(best,
                      firstPiece(x1) + 2.5 * std::hypot(x2 - x1, 2.0) + std::hypot(1.0 - x2, 2.0));
    }
  }
  // The scan's grid is 5 mm: it finds the least within 5 mm of each crossing.
  EXPECT_LE(after, best + 1e-4);
  EXPECT_GE(after, best - 3.0 * 0.005 * 2.5);
  // The corner at the narrow gate's end is kept.
  bool cornerAtEnd = false;
  for (const glm::vec3& c : funnel.corners)
    cornerAtEnd = cornerAtEnd || (std::abs(c.x - 3.0f) < 1e-5f && std::abs(c.z - 1.0f) < 1e-5f);
  EXPECT_TRUE(cornerAtEnd);
}

TEST(CheapestPull, OneMetreEverywhereLeavesTheShortestPath) {
  const std::vector<FunnelPortal> portals = {point(0, 0), gate(1, 3, 5), gate(2, -10, 10),
                                             point(1, 3)};
  FunnelResult funnel = stringPull(portals, false, FunnelInput::Gates);
  const std::vector<glm::vec3> shortest = funnel.corners;
  pullCheapest(portals, std::vector<float>{2, 2, 2}, funnel);
  EXPECT_EQ(funnel.corners, shortest);
  // Metres that are no cost at all are refused: nothing moves.
  pullCheapest(portals, std::vector<float>{1, 0, 1}, funnel);
  EXPECT_EQ(funnel.corners, shortest);
}

}  // namespace
}  // namespace nav
