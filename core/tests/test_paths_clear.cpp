// Paths keep clear of the level: a unit following the default path (findPath
// with SearchOptions{}, then pullCorridor) touches nothing, as the unit's own
// footprint swept along it over the ground says (path_clearance.h). On the
// showcase's and the funnel level's default paths (their sidecars' start and
// goal, the first path the debugger shows), and on 10,000 seeded random pairs
// of points anywhere on the cells' squares per bundled level and dungeon.obj
// (skipped when ../shared is absent), for the box unit and the round one.
// Before the funnel crossed portals through gates (funnelLegs in funnel.h), the
// showcase's default path touched on 4 of 12 stretches, 7.4 cm deep, and the
// funnel level's on 7 of 11, 9.1 cm.
//
// A start or goal in the half cell past a sector's last cells, where the unit
// was never tested, moves onto them; so does the end of a partial path (the
// goal out of reach), the reachable point nearest the goal.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"

namespace nav {
namespace {

constexpr size_t kPairs = 10000;

struct Built {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;
};

// A bundled level for its first unit, or dungeon.obj (nullptr when absent)
// for the Detour-matched unit, made the given shape.
std::unique_ptr<Built> buildFor(const std::string& name, UnitShape shape) {
  const bool dungeon = name == "dungeon.obj";
  const std::string path = dungeon ? test::sharedFile("meshes/dungeon.obj") : test::assetFile(name);
  if (path.empty()) return nullptr;
  auto built = std::make_unique<Built>();
  Result<Level> level = loadLevel(path);
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return nullptr;
  built->level = std::move(level).value();
  built->world = std::make_unique<CollisionWorld>(built->level);
  FloodFillParams params =
      dungeon ? test::detourMatchedParams(0.9f) : defaultFillParams(built->level);
  params.unit.shape = shape;
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> build = buildNavigation(built->level, *built->world, params, options);
  EXPECT_TRUE(build.ok()) << build.error();
  if (!build) return nullptr;
  built->build = std::move(build).value();
  return built;
}

struct Touches {
  size_t paths = 0, stretches = 0, touching = 0;
  float deepest = 0.0f;
  std::string first;
};

void walk(const Built& built, const glm::vec3& start, const glm::vec3& goal, Touches& touches,
          const SearchOptions& options = {}) {
  const NavGraph& graph = built.build.graph;
  PathStages stages;
  stages.clearance = true;
  PathAnswer answer;
  planPath(graph, start, goal, options, stages, answer, built.world.get());
  if (!answer.hasPath()) return;
  ++touches.paths;
  const FunnelResult& funnel = answer.funnel;
  const std::vector<StretchClearance>& stretches = answer.clearance;
  for (size_t i = 0; i < stretches.size(); ++i) {
    if (!stretches[i].walked) continue;
    ++touches.stretches;
    if (!(stretches[i].depth > 0.0f)) continue;
    ++touches.touching;
    touches.deepest = std::max(touches.deepest, stretches[i].depth);
    if (touches.first.empty()) {
      const glm::vec3 a = funnel.corners[i], b = funnel.corners[i + 1], at = stretches[i].deepestAt;
      std::ostringstream text;
      text << "from (" << start.x << ", " << start.y << ", " << start.z << ") to (" << goal.x
           << ", " << goal.y << ", " << goal.z << "): the stretch (" << a.x << ", " << a.y << ", "
           << a.z << ") -> (" << b.x << ", " << b.y << ", " << b.z << ") reaches "
           << stretches[i].depth << " m in at (" << at.x << ", " << at.y << ", " << at.z << ")";
      touches.first = text.str();
    }
  }
}

// Seeded points anywhere in a cell's square (the half cell past a sector's
// last cells too), 5 cm above the cell.
class PointsOnCells {
 public:
  PointsOnCells(const NavBuild& build, uint32_t seed)
      : m_cells(*build.cells),
        m_random(seed),
        m_pick(0, uint32_t(m_cells.size() - 1)),
        m_off(-0.5f * build.graph.cellSize, 0.5f * build.graph.cellSize) {}

  glm::vec3 next() {
    return m_cells.center(m_pick(m_random)) + glm::vec3(m_off(m_random), 0.05f, m_off(m_random));
  }

 private:
  const CellGrid& m_cells;
  std::mt19937 m_random;
  std::uniform_int_distribution<uint32_t> m_pick;
  std::uniform_real_distribution<float> m_off;
};

// Walks `count` seeded pairs of PointsOnCells.
Touches walkRandomPairs(const Built& built, size_t count, uint32_t seed,
                        const SearchOptions& options = {}) {
  PointsOnCells points(built.build, seed);
  Touches touches;
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 start = points.next();
    const glm::vec3 goal = points.next();
    walk(built, start, goal, touches, options);
  }
  return touches;
}

struct Case {
  std::string level;
  UnitShape shape;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.level << ", " << toString(c.shape) << " unit";
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  return info.param.level.substr(0, info.param.level.find('.')) + "_" + toString(info.param.shape);
}

class DefaultPathClear : public ::testing::TestWithParam<Case> {};

// The first path a user sees: the sidecar's start and goal.
TEST_P(DefaultPathClear, TouchesNothing) {
  const std::unique_ptr<Built> built = buildFor(GetParam().level, GetParam().shape);
  ASSERT_TRUE(built);
  const LevelSettings& settings = built->level.settings;
  ASSERT_TRUE(settings.start && settings.goal);
  const PathResult path = findPath(built->build.graph, *settings.start, *settings.goal);
  EXPECT_EQ(path.status, PathStatus::Found) << path.reason;
  Touches touches;
  walk(*built, *settings.start, *settings.goal, touches);
  EXPECT_GE(touches.stretches, 10u);
  EXPECT_EQ(touches.touching, 0u) << "deepest " << touches.deepest << " m; " << touches.first;
}

INSTANTIATE_TEST_SUITE_P(Levels, DefaultPathClear,
                         ::testing::Values(Case{"showcase.obj", UnitShape::Box},
                                           Case{"showcase.obj", UnitShape::Round},
                                           Case{"funnel.obj", UnitShape::Box},
                                           Case{"funnel.obj", UnitShape::Round}),
                         caseName);

class RandomPathsClear : public ::testing::TestWithParam<Case> {};

TEST_P(RandomPathsClear, TouchNothing) {
  const std::unique_ptr<Built> built = buildFor(GetParam().level, GetParam().shape);
  if (!built && GetParam().level == "dungeon.obj")
    GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  ASSERT_TRUE(built);
  const Touches touches = walkRandomPairs(*built, kPairs, 20261122);
  EXPECT_GT(touches.paths, kPairs / 2);
  EXPECT_EQ(touches.touching, 0u) << "of " << touches.stretches << " stretches, deepest "
                                  << touches.deepest << " m; first " << touches.first;
  RecordProperty("stretches", int(touches.stretches));
}

INSTANTIATE_TEST_SUITE_P(
    Levels, RandomPathsClear,
    ::testing::Values(Case{"showcase.obj", UnitShape::Box}, Case{"showcase.obj", UnitShape::Round},
                      Case{"funnel.obj", UnitShape::Box}, Case{"funnel.obj", UnitShape::Round},
                      Case{"dungeon.obj", UnitShape::Box}, Case{"dungeon.obj", UnitShape::Round}),
    caseName);

// Under uneven costs the exact search's path bends where the metre changes
// (cheapest_pull.h), its corners on gates: clear as the funnel's are. The
// showcase with sidewalks at 3 a metre, 1,000 seeded pairs per unit shape.
TEST(CheapestPathsClear, TouchNothing) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    const std::unique_ptr<Built> built = buildFor("showcase.obj", shape);
    ASSERT_TRUE(built);
    SearchOptions options;
    options.portalPoint = PortalPoint::Exact;
    options.filter.surfaceCosts["sidewalk"] = 3.0f;
    constexpr size_t kCheapestPairs = 1000;
    const Touches touches = walkRandomPairs(*built, kCheapestPairs, 20261129, options);
    EXPECT_GT(touches.paths, kCheapestPairs / 2);
    EXPECT_EQ(touches.touching, 0u) << "of " << touches.stretches << " stretches, deepest "
                                    << touches.deepest << " m; first " << touches.first;
  }
}

// A path starts and ends on the cells of its first and last sectors (their
// boxes shrunk by half a cell), where the unit was tested, not on a box's rim:
// a start or goal there moves onto the cells, and so does the end of a
// partial path, the reachable point nearest the goal.
TEST(RandomPathsClear, PathsStartAndEndOnTheCells) {
  const std::unique_ptr<Built> built = buildFor("showcase.obj", UnitShape::Box);
  ASSERT_TRUE(built);
  const NavGraph& graph = built->build.graph;
  const float half = 0.5f * graph.cellSize;
  PointsOnCells points(built->build, 20261122);
  const auto onCells = [&](uint32_t sector, const glm::vec3& p) {
    const Aabb& box = graph.sectors[sector].bounds;
    return p.x >= box.min.x + half - 1e-4f && p.x <= box.max.x - half + 1e-4f &&
           p.z >= box.min.z + half - 1e-4f && p.z <= box.max.z - half + 1e-4f;
  };
  size_t partial = 0, moved = 0;
  for (size_t i = 0; i < kPairs; ++i) {
    const glm::vec3 start = points.next(), goal = points.next();
    const PathResult path = findPath(graph, start, goal);
    if (path.corridor.sectors.empty()) continue;
    partial += path.status == PathStatus::Partial;
    moved += path.corridor.start.x != start.x || path.corridor.start.z != start.z;
    const glm::vec3& begin = path.corridor.start;
    const glm::vec3& end = path.corridor.goal;
    EXPECT_TRUE(onCells(path.corridor.sectors.front(), begin))
        << "starts at (" << begin.x << ", " << begin.z << ")";
    EXPECT_TRUE(onCells(path.corridor.sectors.back(), end))
        << "ends at (" << end.x << ", " << end.z << ")";
  }
  EXPECT_GT(partial, 100u);
  EXPECT_GT(moved, 100u);
}

}  // namespace
}  // namespace nav
