// Shortcuts and ways round through the A*'s corridor (corridor_shortcuts.h),
// as every path gets them through the pipeline: on levels nobody tuned for,
// against the corridor the search gave and against the exact search.
#include <gtest/gtest.h>

#include <algorithm>

#include "nav/funnel.h"
#include "nav/nav_draw.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

// Each portal leads from the sector before it to the sector after it.
::testing::AssertionResult joined(const NavGraph& graph, const Corridor& corridor) {
  if (corridor.sectors.size() != corridor.portals.size() + 1)
    return ::testing::AssertionFailure() << "sectors and portals do not alternate";
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    const Portal& portal = corridor.portal(graph, i);
    if (portal.fromSector != corridor.sectors[i] || portal.toSector != corridor.sectors[i + 1])
      return ::testing::AssertionFailure() << "portal " << i << " does not join its sectors";
  }
  return ::testing::AssertionSuccess();
}

// Generated terrain 703 turned 45 degrees, round unit: from the start, the
// A* reaches a portal further on first by strips of sectors towards the
// goal, and its corridor enters sectors the way need not enter: pulled, 35.31 m.
// Leaving them out gives the exact search's way, 32.89 m.
TEST(CorridorShortcuts, LeaveOutSectorsTheWayNeedNotEnter) {
  const Result<NavBuild> build = test::terrainOnChosenGrid(703, 45.0f, UnitShape::Round);
  ASSERT_TRUE(build.ok()) << build.error();
  const NavGraph& graph = build.value().graph;
  // In the turned level's coordinates; the graph's grid runs along its walls.
  const glm::vec3 start = graph.gridFrame.toGrid({45.416f, 2.421f, 43.552f});
  const glm::vec3 goal = graph.gridFrame.toGrid({65.776f, 0.355f, 24.965f});
  SearchOptions options = test::uniformCosts(graph);
  const PathResult searched = findPath(graph, start, goal, options);
  ASSERT_EQ(searched.status, PathStatus::Found) << searched.reason;
  const float searchedLength = pullCorridor(graph, searched.corridor).length;
  EXPECT_GT(searchedLength, 35.0f) << "the A* alone no longer detours here: pick another pair";

  PathAnswer crossing, exact;
  planPath(graph, start, goal, options, {}, crossing);
  options.portalPoint = PortalPoint::Exact;
  planPath(graph, start, goal, options, {}, exact);
  ASSERT_EQ(exact.search.status, PathStatus::Found) << exact.search.reason;
  EXPECT_TRUE(joined(graph, crossing.search.corridor));
  EXPECT_LT(crossing.search.corridor.sectors.size(), searched.corridor.sectors.size());
  EXPECT_NEAR(crossing.funnel.length, exact.funnel.length, 1e-3f)
      << "crossing: " << test::describe(crossing.search.corridor)
      << "\nexact: " << test::describe(exact.search.corridor);

  // The answer names the sectors left out: the search's, not the path's.
  const std::vector<uint32_t>& leftOut = crossing.sectorsLeftOut;
  const auto holds = [](const std::vector<uint32_t>& sectors, uint32_t s) {
    return std::find(sectors.begin(), sectors.end(), s) != sectors.end();
  };
  EXPECT_EQ(leftOut.size(),
            searched.corridor.sectors.size() - crossing.search.corridor.sectors.size());
  for (const uint32_t s : leftOut) {
    EXPECT_TRUE(holds(searched.corridor.sectors, s)) << s;
    EXPECT_FALSE(holds(crossing.search.corridor.sectors, s)) << s;
  }
  // Drawn in their own shade over each of them.
  struct Recorder : DebugDraw {
    std::vector<glm::vec3> corners;
    void line(const glm::vec3&, const glm::vec3&, Color) override {}
    void triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                  Color color) override {
      EXPECT_EQ(color, colors::kLeftOutSector);
      corners.insert(corners.end(), {a, b, c});
    }
    void point(const glm::vec3&, float, Color) override {}
    void text(const glm::vec3&, std::string_view, Color) override {}
  } recorder;
  drawLeftOutSectors(recorder, graph, leftOut);
  for (const uint32_t s : leftOut) {
    const Aabb& box = graph.sectors[s].bounds;
    const size_t inside = size_t(
        std::count_if(recorder.corners.begin(), recorder.corners.end(), [&](const glm::vec3& p) {
          return p.x >= box.min.x - 1e-3f && p.x <= box.max.x + 1e-3f && p.z >= box.min.z - 1e-3f &&
                 p.z <= box.max.z + 1e-3f;
        }));
    EXPECT_GE(inside, 6u) << "sector " << s;
  }
}

// Over random pairs, a shortcut is kept only when the pull through it is
// shorter; the corridor stays joined, and the search methods that show
// their own corridor (midpoints, centroids) keep it.
void checkNeverLonger(const NavBuild& build, uint32_t seed) {
  const NavGraph& graph = build.graph;
  int shortened = 0;
  for (const test::QueryPair& pair : test::randomPairs(build, 300, seed)) {
    SearchOptions options = test::uniformCosts(graph);
    const PathResult searched = findPath(graph, pair.start, pair.goal, options);
    if (searched.status != PathStatus::Found) continue;
    const float searchedLength = pullCorridor(graph, searched.corridor).length;
    PathAnswer answer;
    planPath(graph, pair.start, pair.goal, options, {}, answer);
    ASSERT_TRUE(joined(graph, answer.search.corridor)) << test::describe(pair);
    EXPECT_LE(answer.funnel.length, searchedLength) << test::describe(pair);
    if (answer.search.corridor.sectors != searched.corridor.sectors) {
      ++shortened;
      EXPECT_LT(answer.funnel.length, searchedLength) << test::describe(pair);
    }
    // Shortcuts are taken until none saves: completing the answer again,
    // from its own corridor, finds nothing more.
    const std::vector<glm::vec3> corners = answer.funnel.corners;
    const float length = answer.funnel.length;
    completePath(graph, options, {}, answer);
    EXPECT_TRUE(answer.funnel.corners == corners)
        << test::describe(pair) << ": " << length << " m, completed again " << answer.funnel.length
        << " m";
    options.portalPoint = PortalPoint::Midpoint;
    const PathResult midpoints = findPath(graph, pair.start, pair.goal, options);
    planPath(graph, pair.start, pair.goal, options, {}, answer);
    EXPECT_EQ(answer.search.corridor.portals, midpoints.corridor.portals) << test::describe(pair);
  }
  EXPECT_GT(shortened, 0);
}

TEST(CorridorShortcuts, NeverLongerOnTurnedTerrain) {
  const NavBuild& build = test::terrainBuild(711, 8.0f);
  ASSERT_FALSE(build.graph.sectors.empty());
  checkNeverLonger(build, 5);
}

TEST(CorridorShortcuts, NeverLongerOnTheDungeon) {
  const NavBuild* build = test::dungeonBuild();
  if (build == nullptr) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  checkNeverLonger(*build, 6);
}

// dungeon.obj, from the upper floor down the ramp and across the lower one:
// the first shortcuts move the corners at the ramp's foot, and only from
// there does a shortcut past a sector on the lower floor save. Taken once,
// the path was 117.475 m, 0.6 % over the exact search's 116.749 m.
TEST(CorridorShortcuts, TakenAgainWhereThePullMovedTheCorners) {
  const NavBuild* build = test::dungeonBuild();
  if (build == nullptr) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  const NavGraph& graph = build->graph;
  const glm::vec3 start(27.407f, 15.069f, -77.784f), goal(37.199f, 10.197f, 1.849f);
  SearchOptions options = test::uniformCosts(graph);
  PathAnswer crossing, exact;
  planPath(graph, start, goal, options, {}, crossing);
  options.portalPoint = PortalPoint::Exact;
  planPath(graph, start, goal, options, {}, exact);
  ASSERT_EQ(crossing.search.status, PathStatus::Found) << crossing.search.reason;
  ASSERT_EQ(exact.search.status, PathStatus::Found) << exact.search.reason;
  EXPECT_TRUE(joined(graph, crossing.search.corridor));
  EXPECT_LE(crossing.funnel.length, exact.funnel.length * 1.002f)
      << "crossing: " << test::describe(crossing.search.corridor)
      << "\nexact: " << test::describe(exact.search.corridor);
}

// dungeon.obj, on the upper floor: the A*'s corridor turns round a corner
// through sectors the way need not enter, and the way cuts across a sector
// beside it, which the corridor never entered. A way round through it
// shortens the path from 6.905 m to the exact search's 6.414 m (7 %).
TEST(CorridorShortcuts, WayRoundThroughSectorsBesideTheCorridor) {
  const NavBuild* build = test::dungeonBuild();
  if (build == nullptr) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  const NavGraph& graph = build->graph;
  const glm::vec3 start(17.735f, 16.544f, -74.291f), goal(22.835f, 14.997f, -76.691f);
  SearchOptions options = test::uniformCosts(graph);
  const PathResult searched = findPath(graph, start, goal, options);
  ASSERT_EQ(searched.status, PathStatus::Found) << searched.reason;
  const float searchedLength = pullCorridor(graph, searched.corridor).length;
  PathAnswer crossing, exact;
  planPath(graph, start, goal, options, {}, crossing);
  options.portalPoint = PortalPoint::Exact;
  planPath(graph, start, goal, options, {}, exact);
  ASSERT_EQ(exact.search.status, PathStatus::Found) << exact.search.reason;
  EXPECT_GT(searchedLength, 6.8f) << "the A* alone no longer detours here: pick another pair";
  EXPECT_TRUE(joined(graph, crossing.search.corridor));
  EXPECT_NEAR(crossing.funnel.length, exact.funnel.length, 1e-3f)
      << "crossing: " << test::describe(crossing.search.corridor)
      << "\nexact: " << test::describe(exact.search.corridor);
  const std::vector<uint32_t>& before = searched.corridor.sectors;
  const size_t beside = size_t(std::count_if(
      crossing.search.corridor.sectors.begin(), crossing.search.corridor.sectors.end(),
      [&](uint32_t s) { return std::find(before.begin(), before.end(), s) == before.end(); }));
  EXPECT_GT(beside, 0u) << "no sector beside the search's corridor was taken";
}

}  // namespace
}  // namespace nav
