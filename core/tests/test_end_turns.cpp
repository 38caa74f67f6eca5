// The exact search turns past the gates (interval_search.h): at portal ends
// widening moved out and at ends' reach, where the funnel's gates would not
// let a path turn. The unit following such a path touches nothing, and the
// path is shorter than the same corridor pulled through its gates and corner
// reach alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/portal_ends.h"
#include "path_measures.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

using test::groundLength;

struct Built {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;
};

std::unique_ptr<Built> buildAt(Level level, UnitShape shape) {
  auto built = std::make_unique<Built>();
  built->level = std::move(level);
  built->world = std::make_unique<CollisionWorld>(built->level);
  FloodFillParams params = test::detourMatchedParams(0.9f);
  params.unit.shape = shape;
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> build = buildNavigation(built->level, *built->world, params, options);
  if (!build.ok()) {
    ADD_FAILURE() << build.error();
    return nullptr;
  }
  built->build = std::move(build).value();
  return built;
}

// Exact paths between random cells: every stretch the unit walks touches
// nothing, and paths keep turns past the gates (planPath drops them when the
// corridor pulled through its gates alone comes out shorter, or the funnel
// leaves a reach's point where the reach proves nothing) that make them
// shorter than that pull.
void expectTurnsClearAndShorter(const std::string& name, const Built& built, size_t pairs) {
  SCOPED_TRACE(name);
  const NavGraph& graph = built.build.graph;
  SearchOptions options;
  options.portalPoint = PortalPoint::Exact;
  PathStages stages;
  stages.clearance = true;
  size_t turning = 0, turns = 0, atReach = 0, touching = 0;
  PathAnswer answer;
  for (const test::QueryPair& pair : test::randomPairs(built.build, pairs, 20261128)) {
    planPath(graph, pair.start, pair.goal, options, stages, answer, built.world.get());
    if (answer.search.status != PathStatus::Found) continue;
    for (const StretchClearance& stretch : answer.clearance) {
      if (stretch.walked && stretch.depth > 0.0f) {
        ++touching;
        ADD_FAILURE() << "touches " << stretch.depth << " m deep at (" << stretch.deepestAt.x
                      << ", " << stretch.deepestAt.z << "), " << test::describe(pair);
      }
    }
    const Corridor& corridor = answer.search.corridor;
    const size_t here = size_t(std::count_if(corridor.endTurns.begin(), corridor.endTurns.end(),
                                             [](EndTurn turn) { return turn != EndTurn::None; }));
    if (here == 0) continue;
    Corridor throughGates = corridor;
    throughGates.endTurns.clear();
    const double withTurns = groundLength(answer.funnel.corners);
    const double without = groundLength(pullCorridor(graph, throughGates).corners);
    turning += withTurns < without - 1e-3;
    turns += here;
    atReach +=
        size_t(std::count_if(corridor.endTurns.begin(), corridor.endTurns.end(), [](EndTurn turn) {
          return turn == EndTurn::LeftReach || turn == EndTurn::RightReach;
        }));
  }
  EXPECT_EQ(touching, 0u);
  EXPECT_GT(turning, pairs / 50);
  testing::Test::RecordProperty(name + " paths shorter for their turns", int(turning));
  testing::Test::RecordProperty(name + " turns", int(turns));
  testing::Test::RecordProperty(name + " turns at a reach", int(atReach));
}

TEST(EndTurns, ClearAndShorterOnGeneratedTerrain) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    for (const auto& [seed, degrees] : {std::pair(1u, 0.0f), std::pair(2u, 17.0f)}) {
      const std::unique_ptr<Built> built = buildAt(test::terrainLevel(seed, degrees), shape);
      ASSERT_TRUE(built);
      expectTurnsClearAndShorter("terrain " + std::to_string(seed) + " turned " +
                                     std::to_string(int(degrees)) + ", " + toString(shape),
                                 *built, 300);
    }
  }
}

TEST(EndTurns, ClearAndShorterInTheDungeon) {
  const std::string path = test::sharedFile("meshes/dungeon.obj");
  if (path.empty()) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    Result<Level> level = loadLevel(path);
    ASSERT_TRUE(level.ok()) << level.error();
    const std::unique_ptr<Built> built = buildAt(std::move(level).value(), shape);
    ASSERT_TRUE(built);
    expectTurnsClearAndShorter(std::string("dungeon.obj, ") + toString(shape), *built, 300);
  }
}

// reachSees against its definition, sampled: every point of the part it
// returns between its ends is one a stretch from the reach's point leaves
// towards into the entered sector as the reach proves (reachLeavesInto), both
// ends included, and no sample outside the part is (beyond a sample's width).
void expectReachSeesWhatItProves(const NavGraph& graph) {
  constexpr int kSamples = 200;
  size_t checked = 0, partial = 0;
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Walk) continue;
    for (const bool left : {true, false}) {
      const PortalEndReach& reach = graph.reach[portalEndIndex(p, left)];
      if (!reach.reaches()) continue;
      const Sector& entered = graph.sectors[portal.toSector];
      for (uint32_t q = entered.firstPortal; q < entered.firstPortal + entered.portalCount; ++q) {
        if (graph.portals[q].kind != PortalKind::Walk) continue;
        const glm::vec2 from = groundOf(gatePoint(graph, q, true, false));
        const glm::vec2 to = groundOf(gatePoint(graph, q, false, false));
        if (from == to) continue;
        const SegmentPart part = reachSees(graph, p, left, from, to);
        const auto proven = [&](float t) {
          return reachLeavesInto(graph, portal, reach, left, pointOnSegment(from, to, t)) == 1;
        };
        SCOPED_TRACE("reach of portal " + std::to_string(p) + (left ? " left" : " right") +
                     ", gate of portal " + std::to_string(q));
        ++checked;
        if (!part.empty()) {
          EXPECT_TRUE(proven(part.low));
          EXPECT_TRUE(proven(part.high));
          if (part.low > 0.0f || part.high < 1.0f) ++partial;
        }
        const float width = 1.0f / float(kSamples);
        for (int i = 0; i <= kSamples; ++i) {
          const float t = float(i) * width;
          const bool inside = !part.empty() && t >= part.low && t <= part.high;
          const bool nearEdge = !part.empty() && (std::abs(t - part.low) <= width ||
                                                  std::abs(t - part.high) <= width);
          if (inside) {
            EXPECT_TRUE(proven(t)) << "t " << t;
          } else if (!nearEdge) {
            EXPECT_FALSE(proven(t)) << "t " << t;
          }
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_GT(partial, 10u) << "too few parts cut short to test the edges";
}

TEST(EndTurns, ReachSeesWhatItProvesOnGeneratedTerrain) {
  expectReachSeesWhatItProves(test::terrainBuild(3, 17.0f).graph);
}

TEST(EndTurns, ReachSeesWhatItProvesInTheDungeon) {
  const NavBuild* build = test::dungeonBuild();
  if (!build) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  expectReachSeesWhatItProves(build->graph);
}

}  // namespace
}  // namespace nav
