// Islands: grouping checked against a flood over the portals, and searches
// between islands answered at once with the nearest point of the start's.
#include <gtest/gtest.h>

#include "nav/islands.h"
#include "nav/jump_portals.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

void expectIslandsMatchFloods(const NavGraph& graph) {
  const Islands& islands = graph.islands;
  ASSERT_FALSE(islands.empty());
  size_t listed = 0;
  for (uint32_t i = 0; i < islands.count(); ++i) {
    const auto sectors = islands.sectors(i);
    ASSERT_FALSE(sectors.empty());
    listed += sectors.size();
    const std::vector<bool> reached = test::sectorsReached(graph, sectors.front());
    for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
      EXPECT_EQ(islands.of(s) == i, reached[s]) << "sector " << s << ", island " << i;
    }
    EXPECT_TRUE(std::is_sorted(sectors.begin(), sectors.end()));
  }
  EXPECT_EQ(listed, graph.sectors.size());
}

TEST(Islands, MatchAFloodOverThePortals) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    SCOPED_TRACE(name);
    Result<Level> level = loadLevel(test::assetFile(name));
    ASSERT_TRUE(level.ok()) << level.error();
    expectIslandsMatchFloods(test::buildGraph(std::move(level).value()));
  }
  const std::string dungeon = test::sharedFile("meshes/dungeon.obj");
  if (dungeon.empty()) GTEST_SKIP() << "no shared dungeon mesh";
  Result<Level> level = loadLevel(dungeon);
  ASSERT_TRUE(level.ok()) << level.error();
  const NavGraph graph = test::buildGraph(std::move(level).value());
  EXPECT_GT(graph.islands.count(), 1u) << "the dungeon has ledges nothing climbs back onto";
  expectIslandsMatchFloods(graph);
}

// Each island's area is the cells of its sectors, counted from the cells
// themselves: the chasm's two 10 x 6 floors, and the bundled levels.
TEST(Islands, AreasAreTheCellsOfTheirSectors) {
  for (const std::string name : {"chasm", "showcase.obj", "funnel.obj"}) {
    std::optional<NavBuild> chasm;
    if (name == "chasm") {
      Level level = test::chasmLevel();
      test::finish(level);
      chasm = test::buildLevel(level, true);
      ASSERT_TRUE(chasm);
    }
    const NavBuild& build = chasm ? *chasm : test::bundledBuild(name);
    ASSERT_TRUE(build.cells) << name;
    const NavGraph& graph = build.graph;
    std::vector<double> counted(graph.islands.count(), 0.0);
    for (uint32_t c = 0; c < build.cells->size(); ++c) {
      const uint32_t sector = build.cellSectors[c];
      if (sector != kNoSector && graph.sectors[sector].kind == SectorKind::Ground)
        counted[graph.islands.of(sector)] += double(graph.cellSize) * double(graph.cellSize);
    }
    const std::vector<float> areas = islandAreas(graph);
    ASSERT_EQ(areas.size(), counted.size()) << name;
    for (size_t i = 0; i < areas.size(); ++i)
      EXPECT_NEAR(areas[i], counted[i], 1e-3 * counted[i]) << name << " island " << i;
    if (name == "chasm") {
      ASSERT_EQ(areas.size(), 2u);
      // 10 x 6 m each, less the unit's half footprint all round (no overhang).
      EXPECT_GT(areas[0], 40.0f);
      EXPECT_LT(areas[0], 60.0f);
      EXPECT_FLOAT_EQ(areas[0], areas[1]);
    }
  }
}

TEST(Islands, ASearchToAnotherIslandEndsAtItsNearestPoint) {
  const NavGraph graph = test::buildGraph(test::chasmLevel());
  ASSERT_EQ(graph.islands.count(), 2u);
  const glm::vec3 west{2.0f, 0.05f, 1.0f}, east{22.0f, 0.05f, 4.0f};

  const PathResult partial = findPath(graph, west, east);
  ASSERT_EQ(partial.status, PathStatus::Partial);
  EXPECT_NE(partial.reason.find("another island"), std::string::npos) << partial.reason;
  // The west floor's cell centre nearest the goal, level with it: the last
  // column of cells, half a cell in from the sector's edge at x 9.6 (the unit
  // stands wholly on the floor, which ends at x 10).
  const float half = 0.5f * graph.cellSize;
  EXPECT_NEAR(partial.corridor.goal.x,
              graph.sectors[partial.corridor.sectors.back()].bounds.max.x - half, 1e-4f);
  EXPECT_LE(partial.corridor.goal.x, 10.0f - 0.5f * graph.unit.footprint());
  const Location end = locateSector(graph, partial.corridor.goal);
  ASSERT_NE(end.sector, kNoSector);
  EXPECT_EQ(graph.islands.of(end.sector), graph.islands.of(partial.corridor.sectors.front()));
  EXPECT_NEAR(partial.corridor.goal.z, 4.0f, 1e-4f);
  EXPECT_NEAR(partial.corridor.goal.y, 0.0f, 1e-4f);

  SearchOptions noPartial;
  noPartial.allowPartial = false;
  const PathResult none = findPath(graph, west, east, noPartial);
  EXPECT_EQ(none.status, PathStatus::Unreachable);
  EXPECT_EQ(none.expansions, 0u) << "answered without searching";
  EXPECT_TRUE(none.corridor.sectors.empty());

  // A jump joins the islands for the queries that may take it.
  JumpBucket jumps;
  JumpSpec spec;
  spec.takeoff = {9.0f, 0.0f, 3.0f};
  spec.landing = {15.0f, 0.0f, 3.0f};
  ASSERT_TRUE(jumps.add(graph, spec).ok());
  noPartial.jumps = &jumps;
  EXPECT_EQ(findPath(graph, west, east, noPartial).status, PathStatus::Found);
}

// Every partial path, to another island or behind the showcase's locked door,
// ends on the cell centres of its last sector: the half cell past them, up
// to the sector's edge, is ground the unit was never tested on.
TEST(Islands, PartialPathsEndOnTheCellCentres) {
  const NavBuild& build = test::bundledBuild("showcase.obj");
  const NavGraph& graph = build.graph;
  const float half = 0.5f * graph.cellSize;
  size_t partial = 0;
  for (const test::QueryPair& pair : test::randomPairs(build, 2000, 41)) {
    const PathResult path = findPath(graph, pair.start, pair.goal);
    if (path.status != PathStatus::Partial) continue;
    ++partial;
    const Aabb& box = graph.sectors[path.corridor.sectors.back()].bounds;
    const glm::vec3& end = path.corridor.goal;
    EXPECT_GE(end.x, box.min.x + half - 1e-4f);
    EXPECT_LE(end.x, box.max.x - half + 1e-4f);
    EXPECT_GE(end.z, box.min.z + half - 1e-4f);
    EXPECT_LE(end.z, box.max.z - half + 1e-4f);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(partial, 20u);
}

}  // namespace
}  // namespace nav
