// Where one root reaches a line's points no dearer than another, against
// dense sampling of the two costs along the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "nav/root_dominance.h"

namespace nav {
namespace {

constexpr DominanceTolerance kTolerance{1e-4f, 0.01f};

float costAt(const CostedRoot& root, float metre, const glm::vec2& p) {
  return root.cost + glm::distance(root.at, p) * metre;
}

// Earlier at (0, 1) costing 0, later at (4, 0) costing 2, along the x axis
// from 0 to 4: earlier costs sqrt(x^2 + 1) and later 6 - x, so earlier is no
// dearer up to x = 35 / 12.
TEST(RootDominance, HandWorkedCrossing) {
  const CostedRoot earlier{{0.0f, 1.0f}, 0.0f}, later{{4.0f, 0.0f}, 2.0f};
  const float cut =
      noDearerUpTo(earlier, later, 1.0f, {0.0f, 0.0f}, {1.0f, 0.0f}, 0.0f, 4.0f, kTolerance);
  EXPECT_LE(cut, 35.0f / 12.0f);
  EXPECT_GE(cut, 35.0f / 12.0f - kTolerance.step);
  // Walking the other way, from the later root's end, it is dearer at once.
  EXPECT_EQ(noDearerUpTo(earlier, later, 1.0f, {0.0f, 0.0f}, {1.0f, 0.0f}, 4.0f, 0.0f, kTolerance),
            4.0f);
}

// Whatever it claims is no dearer everywhere; where the costs cross once it
// finds the crossing within the step.
TEST(RootDominance, NeverClaimsADearerPointAndFindsASingleCrossing) {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> coordinate(-10.0f, 10.0f), unit(0.0f, 1.0f);
  int cuts = 0, wholes = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const CostedRoot earlier{{coordinate(random), coordinate(random)}, 0.0f};
    const CostedRoot later{{coordinate(random), coordinate(random)}, 0.0f};
    const float metre = 0.5f + 2.0f * unit(random);
    // Costs whose difference lies within and just past the walk between the roots.
    const float between = glm::distance(earlier.at, later.at) * metre;
    const CostedRoot costedEarlier{earlier.at, 20.0f + (2.4f * unit(random) - 1.2f) * between};
    const CostedRoot costedLater{later.at, 20.0f};
    const float angle = 6.2831853f * unit(random);
    const glm::vec2 from{coordinate(random), coordinate(random)};
    const glm::vec2 along{std::cos(angle), std::sin(angle)};
    const float start = 8.0f * unit(random), end = 8.0f * unit(random);
    const float cut =
        noDearerUpTo(costedEarlier, costedLater, metre, from, along, start, end, kTolerance);
    const float direction = end >= start ? 1.0f : -1.0f;
    ASSERT_GE((cut - start) * direction, 0.0f);
    ASSERT_LE((cut - end) * direction, 0.0f);
    // Dense samples of [start, cut]: no dearer at each, within rounding
    // (a cut at the start claims nothing).
    constexpr int kSamples = 400;
    for (int k = 0; cut != start && k <= kSamples; ++k) {
      const float s = start + (cut - start) * float(k) / kSamples;
      const glm::vec2 p = from + along * s;
      ASSERT_LE(costAt(costedEarlier, metre, p),
                costAt(costedLater, metre, p) + kTolerance.slack + 1e-4f)
          << "trial " << trial << " s " << s;
    }
    // From the start, the first sample where earlier is dearer: a cut short
    // of it by more than the step misses ground it could have claimed, unless
    // the answer gave up on both ends being no dearer.
    float firstDearer = end;
    bool crosses = false;
    for (int k = 0; k <= 4 * kSamples; ++k) {
      const float s = start + (end - start) * float(k) / (4 * kSamples);
      const glm::vec2 p = from + along * s;
      if (costAt(costedEarlier, metre, p) > costAt(costedLater, metre, p) + kTolerance.slack) {
        firstDearer = s;
        crosses = true;
        break;
      }
    }
    const glm::vec2 endPoint = from + along * end;
    const bool endHeld = costAt(costedEarlier, metre, endPoint) <=
                         costAt(costedLater, metre, endPoint) + kTolerance.slack;
    if (crosses && !endHeld) {
      EXPECT_GE((cut - firstDearer) * direction,
                -(kTolerance.step + std::abs(end - start) / (4 * kSamples)) - 1e-4f)
          << "trial " << trial;
      if (cut != start) ++cuts;
    }
    if (!crosses && cut == end) ++wholes;
  }
  // Both kinds of answer occur.
  EXPECT_GT(cuts, 100);
  EXPECT_GT(wholes, 100);
}

}  // namespace
}  // namespace nav
