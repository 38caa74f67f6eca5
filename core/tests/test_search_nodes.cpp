// The open list and node pool the searches share, against plain answers: a
// sorted copy of what was pushed, and a map of what this query wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "nav/node_pool.h"
#include "nav/open_list.h"

namespace nav {
namespace {

TEST(OpenList, PopsInEstimateOrderTiesByLowerNode) {
  std::mt19937 random(7);
  // Few distinct estimates, so that ties are common.
  std::uniform_int_distribution<int> estimate(0, 20), node(0, 500);
  for (int round = 0; round < 50; ++round) {
    OpenList open;
    std::vector<OpenEntry> pushed;
    std::vector<OpenEntry> popped;
    // Pushes and pops interleaved, as a search does.
    for (int i = 0; i < 200; ++i) {
      const OpenEntry entry{float(estimate(random)) * 0.5f, float(i), uint32_t(node(random))};
      open.push(entry);
      pushed.push_back(entry);
      if (i % 3 == 2) {
        const auto lowest = std::min_element(
            pushed.begin(), pushed.end(), [](const OpenEntry& a, const OpenEntry& b) {
              return std::tie(a.estimate, a.node) < std::tie(b.estimate, b.node);
            });
        const OpenEntry got = open.pop();
        EXPECT_EQ(got.estimate, lowest->estimate);
        EXPECT_EQ(got.node, lowest->node);
        pushed.erase(lowest);
      }
    }
    float lastEstimate = -1.0f;
    uint32_t lastNode = 0;
    EXPECT_EQ(open.size(), pushed.size());
    while (!open.empty()) {
      const OpenEntry got = open.pop();
      EXPECT_TRUE(got.estimate > lastEstimate ||
                  (got.estimate == lastEstimate && got.node >= lastNode));
      lastEstimate = got.estimate;
      lastNode = got.node;
    }
  }
}

// Any estimate but NaN keeps its place and comes back bit for bit, with its
// cost: negative ones, denormals and infinity too.
TEST(OpenList, EstimatesAndCostsComeBackAsPushed) {
  const float estimates[] = {3.5f,
                             -2.0f,
                             0.0f,
                             1e-40f,
                             -1e-40f,
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::max(),
                             3.5f,
                             1e-3f,
                             -7.25f};
  std::mt19937 random(3);
  std::vector<OpenEntry> pushed;
  OpenList open;
  for (uint32_t i = 0; i < std::size(estimates); ++i) {
    const OpenEntry entry{estimates[i], float(random() % 1000) * 0.25f, 100 - i};
    open.push(entry);
    pushed.push_back(entry);
  }
  std::sort(pushed.begin(), pushed.end(), [](const OpenEntry& a, const OpenEntry& b) {
    return std::tie(a.estimate, a.node) < std::tie(b.estimate, b.node);
  });
  for (const OpenEntry& expected : pushed) {
    ASSERT_FALSE(open.empty());
    const OpenEntry got = open.pop();
    EXPECT_EQ(std::bit_cast<uint32_t>(got.estimate), std::bit_cast<uint32_t>(expected.estimate));
    EXPECT_EQ(got.node, expected.node);
    EXPECT_EQ(got.cost, expected.cost);
  }
  EXPECT_TRUE(open.empty());
}

TEST(NodePool, EachQuerySeesOnlyWhatItWrote) {
  NodePool<int> pool;
  std::mt19937 random(11);
  std::uniform_int_distribution<uint32_t> slot(0, 99);
  for (int query = 0; query < 20; ++query) {
    pool.startQuery(100);
    std::map<uint32_t, int> written;
    for (int i = 0; i < 60; ++i) {
      const uint32_t s = slot(random);
      EXPECT_EQ(pool.seen(s), written.count(s) == 1);
      // touch keeps a slot this query wrote, and resets one it did not.
      int& value = pool.touch(s, -1);
      EXPECT_EQ(value, written.count(s) ? written[s] : -1);
      value = query * 1000 + i;
      written[s] = value;
    }
    for (uint32_t s = 0; s < 100; ++s) {
      EXPECT_EQ(pool.seen(s), written.count(s) == 1);
      if (written.count(s)) {
        EXPECT_EQ(pool[s], written[s]);
      }
    }
  }
}

TEST(NodePool, GrowsWithEverySlotUnseen) {
  NodePool<float> pool;
  pool.startQuery(4);
  pool.touch(3, 2.5f);
  pool.startQuery(1000);
  EXPECT_FALSE(pool.seen(3));
  EXPECT_FALSE(pool.seen(999));
  pool.touch(999, 1.0f);
  EXPECT_TRUE(pool.seen(999));
  EXPECT_EQ(pool[999], 1.0f);
}

}  // namespace
}  // namespace nav
