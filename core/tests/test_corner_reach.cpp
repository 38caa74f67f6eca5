// Corners moved out to their portal ends' reach: by hand on two sectors (the
// direction ranges and the length outside the cell centres decide), round the
// end of a wall on the showcase and round a wall block on the funnel level
// (lengths computed by hand, the latter the exact search's too), and on random
// queries of the bundled levels and the dungeon, where every stretch from a
// moved corner is swept with the unit's own footprint (path_clearance.h, an
// independent measure) and must touch nothing, and no path gets longer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "corner_reach.h"
#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/level_settings.h"
#include "nav/nav_build.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

float groundLength(const std::vector<glm::vec3>& corners) {
  float length = 0.0f;
  for (size_t i = 0; i + 1 < corners.size(); ++i)
    length += glm::distance(groundOf(corners[i]), groundOf(corners[i + 1]));
  return length;
}

// Two sectors side by side, A x 0..2 and B x 2..4 (z 0..2 and 0..4), cells
// 0.3 m, joined at x = 2 by a portal over the cell centres z 0.15..1.85 and
// its reverse. Walking +x, the left end is at z 0.15, the right at z 1.85.
NavGraph twoSectors() {
  NavGraph graph;
  graph.cellSize = 0.3f;
  const auto sector = [](float x0, float x1, float z1, uint32_t firstPortal) {
    Sector s{};
    s.bounds = {{x0, 0.0f, 0.0f}, {x1, 0.0f, z1}};
    s.kind = SectorKind::Ground;
    s.waypath = kNoWaypath;
    s.firstPortal = firstPortal;
    s.portalCount = 1;
    return s;
  };
  graph.sectors = {sector(0, 2, 2, 0), sector(2, 4, 4, 1)};
  graph.portals = {
      {0, 1, {2, 0, 0.15f}, {2, 0, 1.85f}, Direction::PlusX, PortalKind::Walk, 0, 1},
      {1, 0, {2, 0, 1.85f}, {2, 0, 0.15f}, Direction::MinusX, PortalKind::Walk, 0, 0},
  };
  graph.reach.assign(4, PortalEndReach{});
  return graph;
}

// The right end of portal 0 may move out to (2, 0, 2), the corner of A.
PortalEndReach reachToTheCorner(float intoA0, float intoA1, float intoB0, float intoB1,
                                float length) {
  PortalEndReach reach;
  reach.point = {2.0f, 0.0f, 2.0f};
  reach.outwardMin[0] = intoA0;
  reach.outwardMax[0] = intoA1;
  reach.outwardMin[1] = intoB0;
  reach.outwardMax[1] = intoB1;
  reach.length = length;
  return reach;
}

std::vector<glm::vec3> reachedCorners(const NavGraph& graph, const glm::vec3& start,
                                      const glm::vec3& goal, size_t& moved) {
  const std::vector<FunnelPortal> leg = {
      {start, start}, {graph.portals[0].left, graph.portals[0].right}, {goal, goal}};
  const std::vector<uint32_t> ids = {kNoPortal, 0, kNoPortal};
  FunnelResult pulled = stringPull(leg);
  moved = reachCorners(graph, leg, ids, pulled.corners, pulled.cornerPortals);
  return pulled.corners;
}

TEST(CornerReach, MovesOnlyWhereBothStretchesLeaveWithinTheirRanges) {
  const glm::vec3 start{0.5f, 0.0f, 0.5f}, goal{3.5f, 0.0f, 3.5f};
  // From (2, 2): to the start the direction is (-1, -1)/sqrt 2, into A, a
  // cosine of -0.707 with outward (+z); to the goal (1, 1)/sqrt 2, into B, +0.707.
  // Both reach the cell centres' rectangles (A's 0.15..1.85, B's x from 2.15)
  // after 0.15 sqrt 2 = 0.212 m.
  struct Case {
    const char* what;
    PortalEndReach reach;
    bool moves;
  };
  const Case cases[] = {
      {"both inside", reachToTheCorner(-1.0f, 0.0f, 0.5f, 1.0f, 1.0f), true},
      {"into A outside", reachToTheCorner(-0.5f, 0.0f, 0.5f, 1.0f, 1.0f), false},
      {"into B outside", reachToTheCorner(-1.0f, 0.0f, -1.0f, 0.7f, 1.0f), false},
      {"B closed", reachToTheCorner(-1.0f, 0.0f, 1.0f, -1.0f, 1.0f), false},
      {"longer outside the cells than proven", reachToTheCorner(-1.0f, 0.0f, 0.5f, 1.0f, 0.2f),
       false},
      {"just long enough", reachToTheCorner(-1.0f, 0.0f, 0.5f, 1.0f, 0.213f), true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    NavGraph graph = twoSectors();
    graph.reach[portalEndIndex(0, false)] = c.reach;
    size_t moved = 0;
    const std::vector<glm::vec3> corners = reachedCorners(graph, start, goal, moved);
    ASSERT_EQ(corners.size(), 3u);
    EXPECT_EQ(moved, c.moves ? 1u : 0u);
    // Unmoved, the path turns at the right end, (2, 1.85): 2.0180 + 2.2299 m on
    // the ground. Moved, it runs straight through (2, 2): 3 sqrt 2 = 4.2426 m.
    const glm::vec3 expected = c.moves ? glm::vec3(2.0f, 0.0f, 2.0f) : glm::vec3(2.0f, 0.0f, 1.85f);
    EXPECT_EQ(corners[1], expected);
    EXPECT_NEAR(groundLength(corners), c.moves ? 4.2426f : 4.2480f, 1e-3f);
  }
}

TEST(CornerReach, NothingMovesWithoutReachOrWithPortalsThatDoNotMatch) {
  NavGraph graph = twoSectors();
  const glm::vec3 start{0.5f, 0.0f, 0.5f}, goal{3.5f, 0.0f, 3.5f};
  size_t moved = 0;
  // No end reaches.
  EXPECT_EQ(reachedCorners(graph, start, goal, moved)[1], glm::vec3(2.0f, 0.0f, 1.85f));
  EXPECT_EQ(moved, 0u);
  graph.reach.clear();
  reachedCorners(graph, start, goal, moved);
  EXPECT_EQ(moved, 0u);
  // A reach, but a list of graph portals that does not match the leg.
  graph = twoSectors();
  graph.reach[portalEndIndex(0, false)] = reachToTheCorner(-1.0f, 0.0f, 0.5f, 1.0f, 1.0f);
  const std::vector<FunnelPortal> leg = {
      {start, start}, {graph.portals[0].left, graph.portals[0].right}, {goal, goal}};
  FunnelResult pulled = stringPull(leg);
  const std::vector<uint32_t> tooFew = {kNoPortal, 0};
  EXPECT_EQ(reachCorners(graph, leg, tooFew, pulled.corners, pulled.cornerPortals), 0u);
  const std::vector<uint32_t> outOfRange = {kNoPortal, 7, kNoPortal};
  EXPECT_EQ(reachCorners(graph, leg, outOfRange, pulled.corners, pulled.cornerPortals), 0u);
  const std::vector<uint32_t> ids = {kNoPortal, 0, kNoPortal};
  const std::vector<uint32_t> wrongPortals = {0, 0, 2};
  EXPECT_EQ(reachCorners(graph, leg, ids, pulled.corners, wrongPortals), 0u);
  EXPECT_EQ(pulled.corners[1], glm::vec3(2.0f, 0.0f, 1.85f));
  // The same, matching: it moves.
  EXPECT_EQ(reachCorners(graph, leg, ids, pulled.corners, pulled.cornerPortals), 1u);
}

// A wall 0.3 m thick runs east from x = 3 at z 28..28.3. A path from the
// north (4.25, 33.65) past its west end to the south (4.25, 18.35) crosses the
// strip north of its end (z 28.4..28.7) into the corridor west of the wall (x
// up to 2.6). Through the gates (funnelLegs) it turns at the cells: the
// strip's (2.45, 28.55) and the corridor's (2.45, 27.65). The unit, 0.3 m in
// radius, stands at (2.6, 28.4) too, 0.4 m from the wall's end, the reach of
// the end of the portal between the two at (2.45, 28.4): the first corner moves there.
TEST(CornerReach, RoundTheEndOfAWallOnTheShowcase) {
  const test::BuiltLevel s = test::builtForARoundUnit("showcase.obj");
  ASSERT_FALSE(s.build.graph.sectors.empty());
  const NavGraph& graph = s.build.graph;
  const glm::vec3 start{4.25f, 0.05f, 33.65f}, goal{4.25f, 0.05f, 18.35f};
  const PathResult path = findPath(graph, start, goal);
  ASSERT_EQ(path.status, PathStatus::Found) << path.reason;
  const std::vector<glm::vec3> base =
      stringPull(funnelPortals(graph, path.corridor), false, FunnelInput::Gates).corners;
  const FunnelResult reached = pullCorridor(graph, path.corridor, /*recordSteps=*/true);
  ASSERT_EQ(base.size(), 4u);
  ASSERT_EQ(reached.corners.size(), 4u);
  EXPECT_NEAR(base[1].x, 2.45f, 1e-4f);
  EXPECT_NEAR(base[1].z, 28.55f, 1e-4f);
  EXPECT_NEAR(base[2].x, 2.45f, 1e-4f);
  EXPECT_NEAR(base[2].z, 27.65f, 1e-4f);
  EXPECT_NEAR(reached.corners[1].x, 2.6f, 1e-4f);
  EXPECT_NEAR(reached.corners[1].z, 28.4f, 1e-4f);
  EXPECT_EQ(reached.corners[2], base[2]);
  // Ground lengths: 5.4083 + 0.9 + 9.4726 = 15.7809 m through the cell
  // centre, 5.5032 + 0.7649 + 9.4726 = 15.7406 m through the reach.
  EXPECT_NEAR(groundLength(base), 15.7809f, 1e-3f);
  EXPECT_NEAR(groundLength(reached.corners), 15.7406f, 1e-3f);
  // The unit walking it touches nothing.
  const ClearanceSummary clearance =
      summarizeClearance(pathClearance(*s.world, graph.unit, reached.corners));
  EXPECT_EQ(clearance.stretches, 3u);
  EXPECT_EQ(clearance.touching, 0u);
  // The step trace shows the move before the goal: the moved corner as the
  // apex, between the corners before and after it, at the strip's gate of
  // that portal (funnel portal 5; the start is 0, the corridor's gate 7).
  ASSERT_GE(reached.steps.size(), 2u);
  const FunnelStep& move = reached.steps[reached.steps.size() - 2];
  EXPECT_EQ(move.event, FunnelEvent::Reach);
  EXPECT_EQ(move.apex, reached.corners[1]);
  EXPECT_EQ(move.left, reached.corners[0]);
  EXPECT_EQ(move.right, reached.corners[2]);
  EXPECT_EQ(move.portal, 5u);
  EXPECT_EQ(move.apexPortal, 5u);
  EXPECT_EQ(move.leftPortal, 0u);
  EXPECT_EQ(move.rightPortal, 7u);
  EXPECT_EQ(reached.steps.back().event, FunnelEvent::Goal);
  EXPECT_EQ(reached.reachedCorners, 1u);
  EXPECT_STREQ(toString(FunnelEvent::Reach), "reach");
}

// The default path from `start` to `goal` on the funnel level, built for a
// round unit: its corners on the ground are `expected` (within a millimetre),
// its length in the ground plane `length`, equal to the exact search's when
// `asExact`, and the unit walking it touches nothing.
void expectFunnelLevelPath(const glm::vec3& start, const glm::vec3& goal,
                           const std::vector<glm::vec2>& expected, float length, bool asExact) {
  const test::BuiltLevel s = test::builtForARoundUnit("funnel.obj");
  ASSERT_FALSE(s.build.graph.sectors.empty());
  const NavGraph& graph = s.build.graph;
  const PathResult path = findPath(graph, start, goal);
  ASSERT_EQ(path.status, PathStatus::Found) << path.reason;
  const FunnelResult reached = pullCorridor(graph, path.corridor);
  ASSERT_EQ(reached.corners.size(), expected.size()) << test::describe(path.corridor);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(reached.corners[i].x, expected[i].x, 1e-3f) << "corner " << i;
    EXPECT_NEAR(reached.corners[i].z, expected[i].y, 1e-3f) << "corner " << i;
  }
  EXPECT_NEAR(groundLength(reached.corners), length, 1e-3f);
  if (asExact) {
    SearchOptions exact;
    exact.portalPoint = PortalPoint::Exact;
    const PathResult exactPath = findPath(graph, start, goal, exact);
    ASSERT_EQ(exactPath.status, PathStatus::Found) << exactPath.reason;
    EXPECT_NEAR(groundLength(pullCorridor(graph, exactPath.corridor).corners), length, 1e-3f);
  }
  const ClearanceSummary clearance =
      summarizeClearance(pathClearance(*s.world, graph.unit, reached.corners));
  EXPECT_EQ(clearance.stretches, expected.size() - 1);
  EXPECT_EQ(clearance.touching, 0u);
}

// On the funnel level a path comes down a corridor (x 8.4..9.3) past the
// right end of its portal at z 6, then turns east through a sector of one
// cell (x 9.3..9.6, z 5.1..5.4) into the room below. Both portals of that
// cell are one cell long and widened to its edges, so the gates are its
// centre (9.45, 5.25) and the centres beside it: through the gates the path
// zigzags over (9.15, 5.25), (9.45, 5.25) and (9.45, 4.95). The first of
// those moves to the widened end (9.3, 5.4) without the second, whose gate
// (the first of the next portal) the way on from the end must still pass;
// then the last moves to the widened end (9.6, 5.1), in line with the centre.
// 1.4153 + 0.6 + 0.4243 + 2.1156 = 4.5552 m, against 4.8078 m zigzagging.
TEST(CornerReach, ThroughASectorOfOneCellByItsWidenedEnds) {
  expectFunnelLevelPath({10.249f, 0.2f, 7.05f}, {11.258f, 0.2f, 3.786f},
                        {{10.249f, 7.05f},
                         {9.3f, 6.0f},
                         {9.3f, 5.4f},
                         {9.45f, 5.25f},
                         {9.6f, 5.1f},
                         {11.258f, 3.786f}},
                        4.5552f, /*asExact=*/false);
}

// On the funnel level a path from the south room, (10.16, 3.3), to the north
// room, (11.04, 6.38), goes round the west end of a wall block (x from 9.7,
// z 5.5..5.8) through the corridor west of it (cell centres up to x 9.15).
// Through the gates it turns at the corridor's cells (9.15, 4.95) and
// (9.15, 6.15). The first can move out to the widened end (9.3, 5.1) of the
// portal into the corridor, but the straight way on from there passes the
// corridor's gate at z 5.85 east of its end (9.15, 5.85): the path turns at
// that end on the way, as the exact search's path does. 1.9949 + 0.7649 +
// 0.3 + 1.9039 = 4.9637 m, against 1.9346 + 1.2 + 1.9039 = 5.0385 m turning
// at the two cells.
TEST(CornerReach, AMoveTurnsAtTheEndOfAGateItsWayOnWouldMiss) {
  expectFunnelLevelPath(
      {10.16f, 0.2f, 3.3f}, {11.04f, 0.2f, 6.38f},
      {{10.16f, 3.3f}, {9.3f, 5.1f}, {9.15f, 5.85f}, {9.15f, 6.15f}, {11.04f, 6.38f}}, 4.9637f,
      /*asExact=*/true);
}

// On the funnel level a path from (5.52, 1.92) north to (2.04, 9.23) turns at
// the cell (4.65, 8.85) through the gates. That corner may move out to its
// end's reach (4.5, 8.7), but the reach proves no way from there straight to
// the goal: the path turns on the next gate (x 3.75) where what the reach
// sees of it ends, (3.75, 8.948) (the edge of the reach's directions, found
// by bisection), as the exact search's path does. 6.8537 + 0.7906 + 1.7346 =
// 9.3789 m, against 9.6213 m turning at the cell.
TEST(CornerReach, AMoveToAReachTurnsWhereItsViewOfTheNextGateEnds) {
  expectFunnelLevelPath({5.516f, 0.2f, 1.922f}, {2.038f, 0.2f, 9.229f},
                        {{5.516f, 1.922f}, {4.5f, 8.7f}, {3.75f, 8.948f}, {2.038f, 9.229f}},
                        9.3789f, /*asExact=*/true);
}

// On generated terrain 1586 turned 38 degrees, for a box unit 0.6 m wide,
// 1.8 m tall, stepping and dropping 0.45 m: a corner moves to its end's reach
// and the path turns on the next gate where the reach stops seeing it, then
// runs 10 m straight on to the goal over undulating ground. The turn stands
// on that ground; at the height between the gate's two far-apart cell
// centres it stood 18.5 cm too high and the stretch on touched the level.
TEST(CornerReach, ATurnInsideAGateStandsOnTheGround) {
  UnitProfile unit;
  unit.shape = UnitShape::Box;
  unit.width = 0.6f;
  unit.height = 1.8f;
  unit.stepHeight = 0.45f;
  unit.maxDrop = 0.45f;
  const std::unique_ptr<test::TerrainOnGrid> terrain =
      test::terrainOnChosenGridWithWorld(1586, 38.0f, unit, 0.3f);
  ASSERT_TRUE(terrain);
  const NavGraph& graph = terrain->build.graph;
  // The whole pipeline, as the clearance benchmark found it.
  PathStages stages;
  stages.clearance = true;
  PathAnswer answer;
  planPath(graph, {55.3604507f, -0.0522546507f, 54.1053314f},
           {47.1702499f, 0.704529583f, 2.18024731f}, {}, stages, answer, terrain->world.get());
  ASSERT_TRUE(answer.hasPath());
  EXPECT_GT(answer.funnel.reachedCorners, 0u);
  const ClearanceSummary clearance = summarizeClearance(answer.clearance);
  EXPECT_GT(clearance.stretches, 0u);
  EXPECT_EQ(clearance.touching, 0u) << clearance.deepest;
}

// Random queries: each path against the same corridor's path pulled through
// the same gates with no corner moved; both stretches of each moved corner
// (to a widened end or a reach) swept whole.
void checkRandomQueries(const std::string& path, UnitShape shape, float width, float height,
                        float step, size_t pairs) {
  SCOPED_TRACE(path + ", " + toString(shape));
  Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  const CollisionWorld world(level.value());
  UnitProfile unit;
  unit.shape = shape;
  unit.width = width;
  unit.height = height;
  unit.stepHeight = step;
  FloodFillParams params = fillParamsFor(level.value(), unit);
  params.unit = unit;
  params.cellSize = 0.3f;
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> build = buildNavigation(level.value(), world, params, options);
  ASSERT_TRUE(build.ok()) << build.error();
  const NavGraph& graph = build.value().graph;
  ASSERT_TRUE(std::any_of(graph.reach.begin(), graph.reach.end(), [](const PortalEndReach& reach) {
    return reach.reaches();
  })) << "no portal end reaches";
  size_t paths = 0, moved = 0, shorter = 0, unwalked = 0, added = 0;
  for (const test::QueryPair& pair : test::randomPairs(build.value(), pairs, 20261122)) {
    const PathResult result = findPath(graph, pair.start, pair.goal);
    if (result.status != PathStatus::Found) continue;
    ++paths;
    std::vector<glm::vec3> base;
    const std::vector<std::vector<FunnelPortal>> legs =
        funnelLegs(graph, result.corridor, FunnelInput::Gates);
    for (const std::vector<FunnelPortal>& leg : legs) {
      for (const glm::vec3& corner : stringPull(leg, false, FunnelInput::Gates).corners) {
        if (base.empty() || !samePoint(base.back(), corner)) base.push_back(corner);
      }
    }
    const FunnelResult reached = pullCorridor(graph, result.corridor, /*recordSteps=*/true);
    const size_t movedHere = size_t(std::count_if(
        reached.steps.begin(), reached.steps.end(),
        [](const FunnelStep& funnelStep) { return funnelStep.event == FunnelEvent::Reach; }));
    // A corner turned at on both sides of a portal may move as one; a move
    // may add a turn at the end of a gate its way on would miss.
    ASSERT_LE(reached.corners.size(), base.size() + movedHere) << test::describe(pair);
    EXPECT_LE(groundLength(reached.corners), groundLength(base) + 1e-4f) << test::describe(pair);
    shorter += groundLength(reached.corners) < groundLength(base) - 1e-4f;
    added += reached.corners.size() > base.size();
    for (const FunnelStep& move : reached.steps) {
      if (move.event != FunnelEvent::Reach) continue;
      ++moved;
      // Out from a cell by at most half a cell along the portal and half a
      // cell across it: from a corner of the pull, or from a gate's end
      // where a move added a turn.
      float nearest = std::numeric_limits<float>::infinity();
      for (const glm::vec3& corner : base)
        nearest = std::min(nearest, glm::distance(groundOf(move.apex), groundOf(corner)));
      for (const std::vector<FunnelPortal>& leg : legs) {
        for (const FunnelPortal& gate : leg) {
          for (const glm::vec3& end : {gate.left, gate.right})
            nearest = std::min(nearest, glm::distance(groundOf(move.apex), groundOf(end)));
        }
      }
      EXPECT_LE(nearest, graph.cellSize * 0.5f * std::sqrt(2.0f) + 1e-4f) << test::describe(pair);
      for (const glm::vec3& other : {move.left, move.right}) {
        const glm::vec3 stretch[2] = {move.apex, other};
        const StretchClearance clearance = pathClearance(world, graph.unit, stretch).front();
        if (!clearance.walked) {
          ++unwalked;
          continue;
        }
        EXPECT_EQ(clearance.depth, 0.0f)
            << "from (" << move.apex.x << ", " << move.apex.z << ") to (" << other.x << ", "
            << other.z << "), " << test::describe(pair);
      }
    }
    EXPECT_EQ(reached.reachedCorners, movedHere) << test::describe(pair);
  }
  EXPECT_GT(paths, pairs / 4);
  EXPECT_GT(moved, 0u);
  EXPECT_GT(shorter, 0u);
  // A stretch the ground walk cannot follow is a drop or a climb off its line, seldom.
  EXPECT_LE(unwalked, moved / 10);
  testing::Test::RecordProperty(path + " " + toString(shape) + " moved", int(moved));
  testing::Test::RecordProperty(path + " " + toString(shape) + " with a turn added", int(added));
}

TEST(CornerReach, MovedStretchesTouchNothingOnTheBundledLevels) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    checkRandomQueries(test::assetFile("showcase.obj"), shape, 0.6f, 1.8f, 0.45f, 1500);
    checkRandomQueries(test::assetFile("funnel.obj"), shape, 0.6f, 1.8f, 0.45f, 1000);
  }
}

TEST(CornerReach, MovedStretchesTouchNothingInTheDungeon) {
  const std::string path = test::sharedFile("meshes/dungeon.obj");
  if (path.empty()) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round})
    checkRandomQueries(path, shape, 1.2f, 2.0f, 0.9f, 1000);
}

}  // namespace
}  // namespace nav
