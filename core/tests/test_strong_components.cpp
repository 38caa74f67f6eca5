// Strong components checked against brute force (which sectors each sector
// reaches over portals taken the way they lead), and searches whose goal no
// way reaches: answered without searching, or with the path to the reachable
// point nearest the goal, found by trying every sector.
#include <gtest/gtest.h>

#include <limits>

#include "nav/locate.h"
#include "nav/nav_graph.h"
#include "nav/path_solver.h"
#include "nav/strong_components.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

// Which sectors `from` reaches, itself included, over portals taken forwards.
std::vector<bool> reachedForwards(const NavGraph& graph, uint32_t from) {
  return test::sectorsReached(graph, from, kNoSector, true);
}

void expectComponentsMatchReach(const NavGraph& graph) {
  const StrongComponents& components = graph.components;
  const uint32_t count = uint32_t(graph.sectors.size());
  std::vector<std::vector<bool>> reach(count);
  for (uint32_t s = 0; s < count; ++s)
    reach[s] = reachedForwards(graph, s);
  for (uint32_t a = 0; a < count; ++a) {
    for (uint32_t b = 0; b < count; ++b) {
      EXPECT_EQ(components.of(a) == components.of(b), reach[a][b] && reach[b][a])
          << "sectors " << a << ", " << b;
    }
  }
  for (uint32_t c = 0; c < components.count(); ++c) {
    for (uint32_t s : components.sectors(c))
      EXPECT_EQ(components.of(s), c);
  }
  // The DAG's links are exactly the portals between components, each leading up.
  std::vector<std::vector<bool>> linked(components.count(),
                                        std::vector<bool>(components.count(), false));
  for (const Portal& portal : graph.portals) {
    const uint32_t from = components.of(portal.fromSector), to = components.of(portal.toSector);
    EXPECT_LE(from, to) << "a portal leads down the topological order";
    if (from != to) linked[from][to] = true;
  }
  for (uint32_t c = 0; c < components.count(); ++c) {
    std::vector<bool> listed(components.count(), false);
    for (uint32_t next : components.successors(c)) {
      EXPECT_FALSE(listed[next]) << "listed twice";
      listed[next] = true;
    }
    EXPECT_EQ(listed, linked[c]) << "component " << c;
  }
}

TEST(StrongComponents, AreTheSectorsThatReachEachOther) {
  size_t joined = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE(seed);
    NavGraph graph = test::randomSectorGraph(seed, 1.0f);
    graph.components = StrongComponents(graph);
    expectComponentsMatchReach(graph);
    joined += graph.sectors.size() - graph.components.count();
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(joined, 500u) << "too few loops to test";
}

TEST(StrongComponents, OnBuiltLevels) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    SCOPED_TRACE(name);
    expectComponentsMatchReach(test::bundledBuild(name).graph);
  }
}

// A floor with a 2 m high platform on it, which the unit may drop off but
// never climb onto: one island, two components.
Level platformLevel() {
  Level level;
  test::addFloor(level, 0, 0, 12, 8, 0, "floor");
  test::addBox(level, {{4, 0, 2}, {8, 2, 6}}, "floor");
  level.settings.seeds = {{6, 2.05f, 4}};
  test::finish(level);
  return level;
}

TEST(StrongComponents, AGoalPastADropIsAnsweredWithoutSearching) {
  const NavGraph graph = test::buildGraph(platformLevel());
  ASSERT_EQ(graph.islands.count(), 1u);
  const glm::vec3 floor{1.0f, 0.05f, 4.0f}, platform{6.0f, 2.05f, 4.0f};
  const uint32_t up = locateSector(graph, platform).sector;
  const uint32_t down = locateSector(graph, floor).sector;
  ASSERT_NE(up, kNoSector);
  ASSERT_NE(down, kNoSector);
  EXPECT_LT(graph.components.of(up), graph.components.of(down));

  EXPECT_EQ(findPath(graph, platform, floor).status, PathStatus::Found);
  SearchOptions noPartial;
  noPartial.allowPartial = false;
  const PathResult none = findPath(graph, floor, platform, noPartial);
  EXPECT_EQ(none.status, PathStatus::Unreachable);
  EXPECT_NE(none.reason.find("one-way"), std::string::npos) << none.reason;
  EXPECT_EQ(none.expansions, 0u) << "answered without searching";

  // The partial path ends on the floor at the platform's foot, beside the goal.
  const PathResult partial = findPath(graph, floor, platform);
  ASSERT_EQ(partial.status, PathStatus::Partial);
  EXPECT_NE(partial.reason.find("one-way"), std::string::npos) << partial.reason;
  EXPECT_NEAR(partial.corridor.goal.y, 0.0f, 1e-3f);
  EXPECT_LT(glm::distance(partial.corridor.goal, platform), 2.0f + 2.0f + 1.0f);
}

// Every goal out of reach gets the path to the point nearest it of the
// sectors the start reaches: brute force over every sector.
void expectPartialPathsEndNearest(const NavBuild& build, size_t pairs, size_t minimumPartial) {
  const NavGraph& graph = build.graph;
  size_t partial = 0;
  for (const test::QueryPair& pair : test::randomPairs(build, pairs, 7)) {
    const PathResult path = findPath(graph, pair.start, pair.goal);
    const Location start = placeForPath(graph, pair.start, SearchOptions{}.snapExtents);
    const Location goal = placeForPath(graph, pair.goal, SearchOptions{}.snapExtents);
    if (start.sector == kNoSector || goal.sector == kNoSector) continue;
    const std::vector<bool> reached = reachedForwards(graph, start.sector);
    if (reached[goal.sector]) {
      EXPECT_EQ(path.status, PathStatus::Found) << path.reason;
      continue;
    }
    ++partial;
    ASSERT_EQ(path.status, PathStatus::Partial);
    float nearest = std::numeric_limits<float>::infinity();
    for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
      if (!reached[s] || graph.sectors[s].kind != SectorKind::Ground) continue;
      const glm::vec3 point = onCellsNearest(graph, graph.sectors[s], goal.point);
      nearest = std::min(nearest, glm::distance(point, goal.point));
    }
    EXPECT_NEAR(glm::distance(path.corridor.goal, goal.point), nearest, 1e-4f)
        << "from " << pair.start.x << " " << pair.start.y << " " << pair.start.z << " to "
        << pair.goal.x << " " << pair.goal.y << " " << pair.goal.z;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GE(partial, minimumPartial);
}

TEST(StrongComponents, PartialPathsEndAtTheNearestReachablePoint) {
  std::optional<NavBuild> platform = test::buildLevel(platformLevel(), true);
  ASSERT_TRUE(platform);
  expectPartialPathsEndNearest(*platform, 300, 20);
  const std::string dungeon = test::sharedFile("meshes/dungeon.obj");
  if (dungeon.empty()) GTEST_SKIP() << "no shared dungeon mesh";
  Result<Level> level = loadLevel(dungeon);
  ASSERT_TRUE(level.ok()) << level.error();
  std::optional<NavBuild> build = test::buildLevel(level.value(), true);
  ASSERT_TRUE(build);
  expectComponentsMatchReach(build->graph);
  expectPartialPathsEndNearest(*build, 500, 50);
}

}  // namespace
}  // namespace nav
