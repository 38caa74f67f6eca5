// The string the A* pulls through a corridor (pulled_string.h), on
// hand-computed cases. Walking +X, the walker's left is -Z.
#include "nav/pulled_string.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace nav {
namespace {

TEST(PulledString, AFreshStringSeesEverywhereAndCostsTheStraightLine) {
  const PulledString string = PulledString::startingAt({0, 0, 0}, 2.0f, 1.5f);
  EXPECT_TRUE(string.sees({-5, 1, 3}));
  EXPECT_TRUE(string.sees({0, 0, 0}));
  EXPECT_FLOAT_EQ(string.costTo({3, 0, 4}), 2.0f + 5.0f * 1.5f);
  EXPECT_FLOAT_EQ(string.costTo({0, 3, 4}), 2.0f + 5.0f * 1.5f);
}

TEST(PulledString, PortalsNarrowWhatTheApexSees) {
  PulledString string = PulledString::startingAt({0, 0, 0}, 0.0f, 1.0f);
  // From z -1 (left) to z 1 (right) at x 1.
  string.pullThrough({1, 0, -1}, {1, 0, 1}, {1, 0, 0}, 1.0f);
  EXPECT_EQ(string.apex, glm::vec3(0, 0, 0));
  EXPECT_TRUE(string.sees({2, 0, 2}));      // on the line through the right end
  EXPECT_FALSE(string.sees({2, 0, 2.5f}));  // past it
  EXPECT_FALSE(string.sees({2, 0, -2.5f}));
  EXPECT_FALSE(string.sees({-1, 0, 0}));  // behind
  // From z 0 to z 3 at x 2: its left end narrows the view, its right end
  // lies beyond the right bound and does not.
  string.pullThrough({2, 0, 0}, {2, 0, 3}, {2, 0, 1}, 2.0f);
  EXPECT_EQ(string.apex, glm::vec3(0, 0, 0));
  EXPECT_TRUE(string.sees({3, 0, 3}));
  EXPECT_FALSE(string.sees({3, 0, 3.5f}));
  EXPECT_FALSE(string.sees({4, 0, -0.5f}));
  EXPECT_TRUE(string.sees({4, 0, 0.5f}));
  EXPECT_FLOAT_EQ(string.costTo({3, 0, 4}), 5.0f);
}

TEST(PulledString, APortalTheApexCannotSeeStartsTheStringAgain) {
  PulledString string = PulledString::startingAt({0, 0, 0}, 0.0f, 1.0f);
  string.pullThrough({1, 0, -1}, {1, 0, 1}, {1, 0, 0}, 1.0f);
  string.pullThrough({2, 0, 0}, {2, 0, 3}, {2, 0, 1}, 2.0f);
  // From z 4 to z 6 at x 3: wholly right of what the apex sees. The string
  // starts again where the search last crossed, (2, 2.5) at cost 5.
  string.pullThrough({3, 0, 4}, {3, 0, 6}, {2, 0, 2.5f}, 5.0f);
  EXPECT_EQ(string.apex, glm::vec3(2, 0, 2.5f));
  EXPECT_FLOAT_EQ(string.apexCost, 5.0f);
  // At x 4 the new apex sees from z 5.5 (through (3, 4)) to z 9.5 (through (3, 6)).
  EXPECT_TRUE(string.sees({4, 0, 7}));
  EXPECT_FALSE(string.sees({4, 0, 5}));
  EXPECT_FALSE(string.sees({4, 0, 10}));
  EXPECT_FLOAT_EQ(string.costTo({3, 0, 5}), 5.0f + std::sqrt(1.0f + 2.5f * 2.5f));
}

TEST(PulledString, TheNearestSeenPointIsClampedToWhatTheApexSees) {
  PulledString string = PulledString::startingAt({0, 0, 0}, 0.0f, 1.0f);
  glm::vec3 point{2, 0, 4};
  // Nothing pulled yet: every point is seen, and stays.
  ASSERT_TRUE(string.nearestSeen({2, 0, -5}, {2, 0, 5}, point));
  EXPECT_EQ(point, glm::vec3(2, 0, 4));
  // Through z -1 .. 1 at x 1 the apex sees z -2 .. 2 at x 2.
  string.pullThrough({1, 0, -1}, {1, 0, 1}, {1, 0, 0}, 1.0f);
  ASSERT_TRUE(string.nearestSeen({2, 0, -5}, {2, 0, 5}, point));
  EXPECT_NEAR(point.z, 2.0f, 1e-6f);
  point = {2, 0, -3};
  ASSERT_TRUE(string.nearestSeen({2, 0, 5}, {2, 0, -5}, point));
  EXPECT_NEAR(point.z, -2.0f, 1e-6f);
  point = {2, 0, 1};
  ASSERT_TRUE(string.nearestSeen({2, 0, -5}, {2, 0, 5}, point));
  EXPECT_NEAR(point.z, 1.0f, 1e-6f);
  // Along z 1.5 it sees x from 1.5 on (the right bound runs along x = z).
  point = {0.5f, 0, 1.5f};
  ASSERT_TRUE(string.nearestSeen({0, 0, 1.5f}, {4, 0, 1.5f}, point));
  EXPECT_NEAR(point.x, 1.5f, 1e-6f);
  EXPECT_NEAR(point.z, 1.5f, 1e-6f);
  // Wholly right of the view, or behind the apex: nothing.
  point = {2, 0, 4};
  EXPECT_FALSE(string.nearestSeen({2, 0, 3}, {2, 0, 5}, point));
  point = {-2, 0, 0};
  EXPECT_FALSE(string.nearestSeen({-2, 0, -1}, {-2, 0, 1}, point));
}

// Against sampling: the point nearestSeen returns is as near the given point
// as the nearest seen sample of the segment, and itself seen within a
// sample's spacing; where no sample is seen it finds at most a sliver.
TEST(PulledString, TheNearestSeenPointMatchesSamplingTheSegment) {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> near(-10.0f, 10.0f), along(0.0f, 1.0f);
  constexpr int kSamples = 2000;
  int seenSome = 0, seenNone = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    PulledString string = PulledString::startingAt({near(random), 0, near(random)}, 0.0f, 1.0f);
    for (int pull = 0; pull < 1 + trial % 3; ++pull) {
      const glm::vec3 restart{near(random), 0, near(random)};
      string.pullThrough({near(random), 0, near(random)}, {near(random), 0, near(random)}, restart,
                         string.costTo(restart));
    }
    const glm::vec3 a{near(random), 0, near(random)}, b{near(random), 0, near(random)};
    const glm::vec3 given = glm::mix(a, b, along(random));
    float nearestSample = std::numeric_limits<float>::infinity();
    for (int k = 0; k <= kSamples; ++k) {
      const glm::vec3 sample = glm::mix(a, b, float(k) / kSamples);
      if (string.sees(sample))
        nearestSample = std::min(nearestSample, glm::distance(sample, given));
    }
    const float spacing = glm::distance(a, b) / kSamples + 1e-4f;
    glm::vec3 point = given;
    const bool found = string.nearestSeen(a, b, point);
    if (nearestSample < std::numeric_limits<float>::infinity()) {
      ++seenSome;
      ASSERT_TRUE(found) << "trial " << trial;
      EXPECT_LE(glm::distance(point, given), nearestSample + 1e-4f) << "trial " << trial;
      EXPECT_GE(glm::distance(point, given), nearestSample - spacing) << "trial " << trial;
    } else {
      ++seenNone;
      if (found) {
        EXPECT_LE(std::abs(glm::distance(a, point) + glm::distance(point, b) - glm::distance(a, b)),
                  1e-3f)
            << "trial " << trial;
      }
    }
  }
  // Both kinds of case came up often.
  EXPECT_GT(seenSome, 500);
  EXPECT_GT(seenNone, 500);
}

TEST(PulledString, TheSegmentBoundIsTheApexCostPlusTheGroundDistance) {
  const PulledString string = PulledString::startingAt({0, 5, 0}, 2.0f, 1.5f);
  // Nearest the segment from z 3 to z 7 at x 4 is (4, 3): 5 m on the ground.
  EXPECT_NEAR(string.costBelowSegment({4, 0, 3}, {4, 1, 7}), 2.0f + 5.0f * 1.5f, 1e-4f);
  // Over the segment's middle.
  EXPECT_NEAR(string.costBelowSegment({-3, 0, 2}, {3, 0, 2}), 2.0f + 2.0f * 1.5f, 1e-4f);
  // A zero-width portal is its point.
  EXPECT_NEAR(string.costBelowSegment({3, 0, 4}, {3, 0, 4}), 2.0f + 5.0f * 1.5f, 1e-4f);
}

// Checked against the costs the search computes: no point of the portal,
// reached by the string or by a string started again from a point the
// string reaches, costs less than the bound, far from the origin too.
TEST(PulledString, NoPointOfTheSegmentCostsLessThanTheBound) {
  std::mt19937 random(5);
  for (const float origin : {0.0f, 3000.0f, -250000.0f}) {
    std::uniform_real_distribution<float> near(-20.0f, 20.0f), cost(0.0f, 500.0f);
    for (int trial = 0; trial < 2000; ++trial) {
      const glm::vec3 apex{origin + near(random), near(random) * 0.1f, origin + near(random)};
      const float metre = 1.0f + float(trial % 4);
      PulledString string = PulledString::startingAt(apex, cost(random), metre);
      const glm::vec3 restart{origin + near(random), 0.0f, origin + near(random)};
      const float restartCost = string.costTo(restart);
      string.pullThrough({origin + near(random), 0, origin + near(random)},
                         {origin + near(random), 0, origin + near(random)}, restart, restartCost);
      const glm::vec3 a{origin + near(random), near(random) * 0.1f, origin + near(random)};
      const glm::vec3 b =
          trial % 5 == 0 ? a : glm::vec3{origin + near(random), 0, origin + near(random)};
      const float bound = string.costBelowSegment(a, b);
      for (int k = 0; k <= 64; ++k) {
        const glm::vec3 point = glm::mix(a, b, float(k) / 64.0f);
        const float restarted = string.apexCost + glm::distance(string.apex, restart) * metre +
                                glm::distance(restart, point) * metre;
        ASSERT_LE(bound, string.costTo(point)) << "origin " << origin << ", trial " << trial;
        ASSERT_LE(bound, restarted) << "origin " << origin << ", trial " << trial;
      }
    }
  }
}

}  // namespace
}  // namespace nav
