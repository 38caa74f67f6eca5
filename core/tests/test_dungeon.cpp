// A real level nobody here wrote: the Recast demo's dungeon.obj from ../shared.
// Skipped cleanly when ../shared is absent (a user's fresh clone).
#include <gtest/gtest.h>

#include <random>

#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "test_invariants.h"
#include "test_levels.h"

namespace nav {
namespace {

class Dungeon : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string path = test::sharedFile("meshes/dungeon.obj");
    if (path.empty()) return;
    Result<Level> loaded = loadLevel(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    s_level = new Level(std::move(loaded).value());
    s_world = new CollisionWorld(*s_level);
    // The settings Recast comparisons use, with the default drop.
    const FloodFillParams params = test::detourMatchedParams(UnitProfile{}.maxDrop);
    BuildOptions options;
    options.keepCells = true;
    Result<NavBuild> build = buildNavigation(*s_level, *s_world, params, options);
    ASSERT_TRUE(build.ok()) << build.error();
    s_build = new NavBuild(std::move(build).value());
  }
  static void TearDownTestSuite() {
    delete s_build;
    delete s_world;
    delete s_level;
    s_build = nullptr;
    s_world = nullptr;
    s_level = nullptr;
  }
  void SetUp() override {
    if (!s_build) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  }

  static Level* s_level;
  static CollisionWorld* s_world;
  static NavBuild* s_build;
};
Level* Dungeon::s_level = nullptr;
CollisionWorld* Dungeon::s_world = nullptr;
NavBuild* Dungeon::s_build = nullptr;

TEST_F(Dungeon, BuildsWithSaneFigures) {
  const BuildStats& stats = s_build->stats;
  EXPECT_GT(stats.cells, 10000u);
  EXPECT_GT(stats.sectors, 100u);
  EXPECT_GT(stats.portals, stats.sectors / 2);
  EXPECT_LT(stats.sectors, stats.cells / 10) << "compression should merge cells";
}

TEST_F(Dungeon, Invariants) {
  test::checkInvariants(*s_build, test::surfaceOfMaterial(*s_level));
  test::checkSameReachability(*s_build, 0);
}

// Random cell-to-cell queries: a path is found exactly when the goal cell is
// reachable over cell links, and a found path is never shorter than the
// straight line nor does it skip its endpoints.
TEST_F(Dungeon, QueriesAgreeWithCellReachability) {
  const CellGrid& cells = *s_build->cells;
  std::mt19937 random(7);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  int found = 0;
  for (int q = 0; q < 60; ++q) {
    const uint32_t from = pick(random);
    const std::vector<bool> reachable = test::reachableCells(cells, from);
    for (int g = 0; g < 5; ++g) {
      const uint32_t to = pick(random);
      const glm::vec3 start = cells.center(from) + glm::vec3(0, 0.05f, 0);
      const glm::vec3 goal = cells.center(to) + glm::vec3(0, 0.05f, 0);
      const PathResult path = findPath(s_build->graph, start, goal);
      // Locate may choose a different floor only where two floors are within a
      // unit height of the point; cell centres are unambiguous otherwise.
      ASSERT_NE(path.status, PathStatus::StartOffMesh);
      ASSERT_NE(path.status, PathStatus::GoalOffMesh)
          << "goal " << goal.x << " " << goal.y << " " << goal.z;
      EXPECT_EQ(path.status == PathStatus::Found, bool(reachable[to])) << from << " -> " << to;
      if (path.status != PathStatus::Found) continue;
      ++found;
      const FunnelResult funnel = stringPull(funnelPortals(s_build->graph, path.corridor));
      ASSERT_GE(funnel.corners.size(), 1u);
      EXPECT_NEAR(glm::distance(funnel.corners.front(), path.corridor.start), 0.0f, 1e-3f);
      EXPECT_NEAR(glm::distance(funnel.corners.back(), path.corridor.goal), 0.0f, 1e-3f);
      EXPECT_GE(funnel.length + 1e-3f,
                glm::distance(groundOf(path.corridor.start), groundOf(path.corridor.goal)));
    }
  }
  EXPECT_GT(found, 20);
}

}  // namespace
}  // namespace nav
