// SearchReplay against a trace worked out by hand, and against the searches
// themselves: at every step of real A* and exact searches on the bundled
// levels, the node the search expands next must be one the replay holds open
// with the lowest estimate, and every node's parents lead back to the start.
#include <gtest/gtest.h>

#include "nav/path_pipeline.h"
#include "nav/search_replay.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

SearchEvent event(SearchEvent::Kind kind, uint32_t portal, float g, float f, glm::vec3 at) {
  return {kind, portal, g, f, at, at};
}

// Start S; expanding it opens portals 1 (f 10) and 2 (f 8); expanding 2 opens
// 3 (f 9) and reopens 1 cheaper (f 9.5, another crossing point); expanding 3
// ends at the goal.
SearchTrace handTrace() {
  using K = SearchEvent::Kind;
  SearchTrace trace;
  trace.events = {
      event(K::Open, kNoPortal, 0, 7, {0, 0, 0}), event(K::Close, kNoPortal, 0, 7, {0, 0, 0}),
      event(K::Open, 1, 4, 10, {4, 0, 0}),        event(K::Open, 2, 3, 8, {0, 0, 3}),
      event(K::Close, 2, 3, 8, {0, 0, 3}),        event(K::Open, 3, 6, 9, {3, 0, 3}),
      event(K::Reopen, 1, 3.5f, 9.5f, {3, 0, 1}), event(K::Close, 3, 6, 9, {3, 0, 3}),
  };
  return trace;
}

TEST(SearchReplay, StepsThroughAHandTrace) {
  const SearchTrace trace = handTrace();
  SearchReplay replay(trace);
  ASSERT_EQ(replay.expansions(), 3u);

  // Before any expansion: the start, open.
  EXPECT_EQ(replay.step(), 0u);
  EXPECT_FALSE(replay.expanding());
  ASSERT_EQ(replay.nodes().size(), 1u);
  EXPECT_EQ(replay.openByEstimate(), std::vector<uint32_t>{0});

  replay.seek(1);  // the start expanded: portals 1 and 2 opened, 2 first (f 8 < 10)
  ASSERT_EQ(replay.expanding(), 0u);
  EXPECT_TRUE(replay.nodes()[0].closed);
  EXPECT_EQ(std::vector<uint32_t>(replay.successors().begin(), replay.successors().end()),
            (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(replay.openByEstimate(), (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(replay.nodes()[1].parent, 0u);
  EXPECT_FLOAT_EQ(replay.nodes()[1].heuristic(), 6.0f);

  replay.seek(2);  // portal 2 expanded: 3 opened, 1 reopened through it
  ASSERT_EQ(replay.expanding(), 2u);
  ASSERT_EQ(replay.nodes().size(), 4u);
  const ReplayNode& reopened = replay.nodes()[1];
  EXPECT_EQ(reopened.parent, 2u);
  EXPECT_FLOAT_EQ(reopened.costSoFar, 3.5f);
  EXPECT_EQ(reopened.from, glm::vec3(3, 0, 1));
  EXPECT_EQ(replay.openByEstimate(), (std::vector<uint32_t>{3, 1}));

  replay.seek(3);
  EXPECT_EQ(replay.expanding(), 3u);
  EXPECT_TRUE(replay.successors().empty());
  EXPECT_EQ(replay.openByEstimate(), std::vector<uint32_t>{1});

  replay.seek(1);  // and back
  EXPECT_EQ(replay.expanding(), 0u);
  EXPECT_EQ(replay.nodes().size(), 3u);
  EXPECT_EQ(replay.nodes()[1].parent, 0u);
  EXPECT_FLOAT_EQ(replay.nodes()[1].costSoFar, 4.0f);
  replay.seek(99);  // clamped
  EXPECT_EQ(replay.step(), 3u);
}

// Replays one search step by step against itself.
void expectReplayFollowsTheSearch(const SearchTrace& trace, const std::string& what) {
  SearchReplay replay(trace);
  for (size_t k = 0; k < replay.expansions(); ++k) {
    replay.seek(k);
    const std::vector<uint32_t> open = replay.openByEstimate();
    ASSERT_FALSE(open.empty()) << what << " step " << k;
    const float lowest = replay.nodes()[open.front()].estimatedTotal;
    replay.seek(k + 1);
    const uint32_t expanded = *replay.expanding();
    ASSERT_NE(std::find(open.begin(), open.end(), expanded), open.end())
        << what << " step " << k + 1 << ": the expanded node was not open";
    EXPECT_LE(replay.nodes()[expanded].estimatedTotal, lowest + 1e-4f * (1.0f + lowest))
        << what << " step " << k + 1 << ": a lower estimate was open";
  }
  // Parents are expanded nodes, of estimates no higher than their children's
  // (the heuristic is consistent, up to the heights: strings are pulled on the
  // ground, lengths are 3D), back to the start. Costs may fall: a child's
  // string need not pass where its parent stood on its portal.
  const std::span<const ReplayNode> nodes = replay.nodes();
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    uint32_t at = n;
    size_t hops = 0;
    while (nodes[at].parent != ReplayNode::kNoParent && hops <= nodes.size()) {
      const ReplayNode& parent = nodes[nodes[at].parent];
      EXPECT_TRUE(parent.closed) << what;
      EXPECT_LE(parent.estimatedTotal,
                nodes[at].estimatedTotal + 1e-3f * (1.0f + nodes[at].estimatedTotal))
          << what;
      at = nodes[at].parent;
      ++hops;
    }
    EXPECT_EQ(at, 0u) << what << ": node " << n << " does not lead back to the start";
  }
}

TEST(SearchReplay, FollowsTheAStarAndTheExactSearchOnTheBundledLevels) {
  size_t searches = 0;
  for (const std::string name : {"showcase.obj", "funnel.obj"}) {
    const NavBuild& build = test::bundledBuild(name);
    for (const PortalPoint method : {PortalPoint::Crossing, PortalPoint::Exact}) {
      SearchOptions options = test::uniformCosts(build.graph);
      options.portalPoint = method;
      PathStages stages;
      stages.searchTrace = true;
      size_t pair = 0;
      for (const test::QueryPair& query : test::randomPairs(build, 25, 11)) {
        PathAnswer answer;
        planPath(build.graph, query.start, query.goal, options, stages, answer);
        // Start and goal in one sector: nothing to expand.
        if (answer.search.status != PathStatus::Found || answer.search.expansions == 0) continue;
        expectReplayFollowsTheSearch(
            answer.trace, name + " " + toString(method) + " pair " + std::to_string(pair++));
        ++searches;
      }
    }
  }
  EXPECT_GT(searches, 60u);
}

}  // namespace
}  // namespace nav
