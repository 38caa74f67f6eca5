// The string the A* pulls through a corridor (pulled_string.h), on
// hand-computed cases. Walking +X, the walker's left is -Z.
#include "nav/pulled_string.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace nav
