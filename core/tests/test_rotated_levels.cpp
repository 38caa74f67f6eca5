// Turning a level about the vertical axis should not change the answers: the
// walkable area and the path lengths on a level turned by 17 and 45 degrees
// are compared with the unturned level's, on generated terrain (two seeds) and
// the bundled showcase and funnel: built on the file's axes (below), and on
// the grid chosen for the turned level (OnItsChosenGridAnswersAgree). Each pair of points is picked
// on the unturned build (its cells, with a seeded random stream) and turned with the same RotationY
// as the level.
//
// Measured (cells are 0.3 m; 20 pairs located by both builds; per pair, the
// relative difference in the funnel's length):
//
// A round unit (the levels' own sizes, shaped as an upright cylinder), exact
// search, every surface at cost 1, so the search minimises the length itself:
//   level      turn  area     total    worst pair
//   terrain 1   17   +0.60%   +0.08%   9.3% (0.68 m against 0.74; 1.0% without it)
//   terrain 1   45   +0.69%   +0.03%   0.80%
//   terrain 2   17   +0.53%   +0.11%   1.09%
//   terrain 2   45   +0.62%   +0.17%   2.80%
//   showcase    17   -1.18%   +1.48%   3.48%
//   showcase    45   -0.89%   +1.47%   5.22%
//   funnel      17   -2.03%   +1.71%   2.67%
//   funnel      45   -1.18%   +2.65%   5.88%
// Paths cross portals through gates on the cells (funnel.h) and start and end
// on the cells (a cell centre of the unturned grid is anywhere on a cell of
// the turned one): a short path's length moves by up to two half cells'
// diagonals, 0.42 m, and a path along a wall the turn sets at an angle to the
// grid zigzags between the gates of the sectors' staircase (on the funnel
// level turned 45 degrees, three corners 0.3 m apart at every step), where
// unturned it runs straight along the cells. So the turned showcase and
// funnel level are 1.5-2.7% longer in total, pairs up to 5.9%. Before gates
// every pair but one agreed within 2% and totals within 0.5%. Showcase pair 9 (the ninth drawn),
// (36.35, 3.05, 11.45) on the upper floor to (4.25, 0.05, 4.55) on the ground,
// is grid aliasing at a feature narrower than a cell plus the unit: turned,
// the unit steps from the upper floor (y 3.0) onto the 0.3 m wide top of the
// ledge's west railing (y 3.4, within its 0.45 m step) near (30.9, 20.5) and
// drops 3.25 m (within its 3.5 m) to the sidewalk; unturned, no cell centre of
// the grid stands on that top where the step is clear, and the path goes down
// the stairs at z 24.2: 51.1 m against 50.0 (17) and 48.4 (45). So the test
// asks for the total within 3%, and each pair within 6% of its length plus
// 0.15 m (its ends moved onto the cells: the worst short pair, 0.68 m against
// 0.74, differs by 0.06 m).
//
// The levels' own box unit is not shaped for this: its square footprint stays
// aligned with the grid while the level turns, so it keeps (w / 2)(|cos a| +
// |sin a|) from a wall at angle a to the grid, up to sqrt 2 times more at 45
// degrees. On the showcase and the funnel, whose walls all lie along the axes,
// that loses area and lengthens paths (box, default search and costs: area
// showcase -3.17% / -4.80%, funnel -6.99% / -9.07%; total length showcase
// +0.39% / +1.61%, funnel +2.46% / +2.72%, funnel pairs up to +4.9%). On the
// terrain, whose walls lie at every angle, it evens out: area +1.06% / +1.54%
// (seed 1), +1.26% / +1.73% (seed 2), total length within 0.65%, pairs within
// 7.8% (seed 2, 17 degrees, pair 17: 11.7 m against 12.6; 6.7% with the exact
// search). The default search adds its own differences: with the round unit,
// one pair of seed 1 ((32.55, -0.02, 39.45) to (8.55, 1.01, 3.45)) is 46.9 m
// unturned against 43.3 turned, although the unturned graph holds a 43.4 m way
// that the sector search and the exact search find: the search over regions
// (then the default) gave a longer corridor. So the terrain is also tested with its box unit and
// the default search: area within 3%, total within 2%, each pair within 10%.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "nav/funnel.h"
#include "nav/grid_angle.h"
#include "nav/level.h"
#include "nav/locate.h"
#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "nav/terrain_generator.h"
#include "test_levels.h"

namespace nav {
namespace {

constexpr size_t kPairs = 20;

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Generated terrain of seed 1 or 2, or a bundled level ("showcase.obj").
Level levelNamed(const std::string& name) {
  if (name.starts_with("terrain")) {
    TerrainParams params;
    params.seed = uint32_t(std::stoul(name.substr(7)));
    std::ostringstream obj;
    const Result<TerrainInfo> info = generateTerrain(params, obj);
    EXPECT_TRUE(info.ok()) << info.error();
    Result<Level> level = parseObj(obj.str(), name);
    EXPECT_TRUE(level.ok()) << level.error();
    if (!info || !level) return {};
    Level terrain = std::move(level).value();
    terrain.settings = parseLevelSettings(info.value().sidecarJson, name).value();
    return terrain;
  }
  Result<Level> level = loadLevel(test::assetFile(name));
  EXPECT_TRUE(level.ok()) << level.error();
  return level ? std::move(level).value() : Level{};
}

std::optional<NavBuild> build(const Level& level, std::optional<UnitShape> shape) {
  const CollisionWorld world(level);
  FloodFillParams params = defaultFillParams(level);
  if (shape) params.unit.shape = *shape;
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> built = buildNavigation(level, world, params, options);
  EXPECT_TRUE(built.ok()) << built.error();
  if (!built) return std::nullopt;
  return std::move(built).value();
}

struct Agreement {
  double area = 0.0, turnedArea = 0.0;
  double total = 0.0, turnedTotal = 0.0;
  /// Per pair both found: |turned - unturned| / unturned, and the unturned length.
  std::vector<double> differences, lengths;
  /// Pairs one build answers partially because its box unit no longer fits
  /// into the corner the goal lies in (boxLeftOutOfCorner).
  size_t cornersLeftOut = 0;
};

// A box unit keeps its sides along the grid, so a turn sets it further from
// walls at an angle (see above): where a goal lies in a corner, one build may
// no longer fit the box in and answers partially, ending within the box's
// half-diagonal of the goal (terrain 1 turned 45 degrees: the pair (28.05,
// 0.56, 13.05) to (53.55, 0.41, 53.25) ends 0.73 m from its goal, the box 1.2
// m wide).
bool boxLeftOutOfCorner(const NavBuild& build, const PathResult& path, const glm::vec3& goal) {
  if (build.graph.unit.shape != UnitShape::Box || path.status != PathStatus::Partial) return false;
  const std::vector<glm::vec3> corners = pullCorridor(build.graph, path.corridor).corners;
  return !corners.empty() && glm::distance(groundOf(corners.back()), groundOf(goal)) <=
                                 build.graph.unit.footprint() / std::sqrt(2.0f);
}

// The turned level as it is built: on the file's axes, or on the grid
// chooseGridAngle picks for it (as the CLI and the debugger build it).
enum class Grid { FileAxes, Chosen };

// Builds the level and its turned copy, and runs the same pairs on both.
Agreement measure(const Level& level, float degrees, std::optional<UnitShape> shape,
                  bool exactLengths, Grid grid = Grid::FileAxes) {
  Agreement agreement;
  Result<Level> turnedLevel = rotatedAboutY(level, degrees);
  EXPECT_TRUE(turnedLevel.ok()) << turnedLevel.error();
  if (grid == Grid::Chosen && turnedLevel) {
    FloodFillParams params = defaultFillParams(turnedLevel.value());
    if (shape) params.unit.shape = *shape;
    const Result<float> chosen = chooseGridAngle(turnedLevel.value(), params);
    EXPECT_TRUE(chosen.ok()) << chosen.error();
    turnedLevel = levelOnGrid(turnedLevel.value(), chosen ? chosen.value() : 0.0f);
  }
  const RotationY fileTurn = rotationAboutY(level, degrees).value();
  const GridFrame frame = turnedLevel ? turnedLevel.value().gridFrame : GridFrame{};
  // An unturned point where the turned build has it.
  const auto turn = [&](const glm::vec3& p) { return frame.toGrid(fileTurn.apply(p)); };
  const std::optional<NavBuild> unturned = build(level, shape);
  const std::optional<NavBuild> turned = build(turnedLevel.value(), shape);
  if (!unturned || !turned) return agreement;
  const float cellArea = unturned->graph.cellSize * unturned->graph.cellSize;
  agreement.area = double(unturned->stats.cells) * cellArea;
  agreement.turnedArea = double(turned->stats.cells) * cellArea;

  SearchOptions options;
  if (exactLengths) {
    options.portalPoint = PortalPoint::Exact;
    for (const SurfaceSpec& surface : unturned->graph.surfaces)
      options.filter.surfaceCosts[surface.name] = 1.0f;
  }
  const CellGrid& cells = *unturned->cells;
  uint64_t random = 12345;
  const auto pick = [&] {
    return cells.center(uint32_t(splitmix64(random) % cells.size())) + glm::vec3(0, 0.05f, 0);
  };
  const auto located = [](const NavGraph& graph, const glm::vec3& p) {
    return locateSector(graph, p).sector != kNoSector;
  };
  size_t pairs = 0;
  for (int tries = 0; pairs < kPairs && tries < 200; ++tries) {
    const glm::vec3 start = pick(), goal = pick();
    if (!located(unturned->graph, start) || !located(unturned->graph, goal) ||
        !located(turned->graph, turn(start)) || !located(turned->graph, turn(goal))) {
      continue;
    }
    ++pairs;
    const PathResult path = findPath(unturned->graph, start, goal, options);
    const PathResult turnedPath = findPath(turned->graph, turn(start), turn(goal), options);
    if (path.status != turnedPath.status) {
      if (boxLeftOutOfCorner(*unturned, path, goal) ||
          boxLeftOutOfCorner(*turned, turnedPath, turn(goal))) {
        ++agreement.cornersLeftOut;
      } else {
        ADD_FAILURE() << "pair " << pairs << " from " << start.x << "," << start.y << "," << start.z
                      << " to " << goal.x << "," << goal.y << "," << goal.z << ": status "
                      << int(path.status) << " unturned, " << int(turnedPath.status) << " turned";
      }
    }
    if (path.status != PathStatus::Found || turnedPath.status != PathStatus::Found) continue;
    const double length = pullCorridor(unturned->graph, path.corridor).length;
    const double turnedLength = pullCorridor(turned->graph, turnedPath.corridor).length;
    agreement.total += length;
    agreement.turnedTotal += turnedLength;
    agreement.differences.push_back(std::abs(turnedLength - length) / std::max(length, 1e-3));
    agreement.lengths.push_back(std::max(length, 1e-3));
  }
  EXPECT_EQ(pairs, kPairs) << "too few points both builds locate";
  EXPECT_GE(agreement.differences.size(), kPairs / 2) << "too few paths found";
  return agreement;
}

struct Case {
  std::string level;
  float degrees;
};

// What GoogleTest prints for a case (and ctest lists).
void PrintTo(const Case& c, std::ostream* out) {
  *out << c.level << " turned " << c.degrees << " degrees";
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.level.substr(0, info.param.level.find('.'));
  return name + "_" + std::to_string(int(info.param.degrees));
}

class RotatedLevel : public ::testing::TestWithParam<Case> {};

// A round unit's shape does not depend on the level's turn: what differs is
// the grid's aliasing only (see the figures above).
TEST_P(RotatedLevel, RoundUnitAnswersAgree) {
  const Level level = levelNamed(GetParam().level);
  ASSERT_FALSE(level.triangles.empty());
  const Agreement a = measure(level, GetParam().degrees, UnitShape::Round, true);
  EXPECT_NEAR(a.turnedArea / a.area, 1.0, 0.03);
  EXPECT_NEAR(a.turnedTotal / a.total, 1.0, 0.03);
  for (size_t p = 0; p < a.differences.size(); ++p)
    EXPECT_LT(a.differences[p], 0.06 + 0.15 / a.lengths[p]) << "path " << p;
}

INSTANTIATE_TEST_SUITE_P(Levels, RotatedLevel,
                         ::testing::Values(Case{"terrain1", 17}, Case{"terrain1", 45},
                                           Case{"terrain2", 17}, Case{"terrain2", 45},
                                           Case{"showcase.obj", 17}, Case{"showcase.obj", 45},
                                           Case{"funnel.obj", 17}, Case{"funnel.obj", 45}),
                         caseName);

class RotatedTerrain : public ::testing::TestWithParam<Case> {};

// The terrain's own box unit and the default search, as a user runs them.
TEST_P(RotatedTerrain, DefaultAnswersAgree) {
  const Level level = levelNamed(GetParam().level);
  ASSERT_FALSE(level.triangles.empty());
  const Agreement a = measure(level, GetParam().degrees, std::nullopt, false);
  EXPECT_LE(a.cornersLeftOut, 1u);
  EXPECT_NEAR(a.turnedArea / a.area, 1.0, 0.03);
  EXPECT_NEAR(a.turnedTotal / a.total, 1.0, 0.02);
  for (size_t p = 0; p < a.differences.size(); ++p)
    EXPECT_LT(a.differences[p], 0.10) << "path " << p;
}

// Each level with its own unit (the box) and the default search, turned, on
// the grid chosen for it, as the CLI and the debugger build it by default:
// the grid turns back with the level, and so does the box, so the answers
// agree but for where cells fall on the ground (measured: area within
// 0.02 %, totals within 0.04 %, pairs within 0.94 %, none left out).
TEST_P(RotatedLevel, OnItsChosenGridAnswersAgree) {
  const Level level = levelNamed(GetParam().level);
  ASSERT_FALSE(level.triangles.empty());
  const Agreement a = measure(level, GetParam().degrees, std::nullopt, false, Grid::Chosen);
  EXPECT_EQ(a.cornersLeftOut, 0u);
  EXPECT_NEAR(a.turnedArea / a.area, 1.0, 0.005);
  EXPECT_NEAR(a.turnedTotal / a.total, 1.0, 0.005);
  for (size_t p = 0; p < a.differences.size(); ++p)
    EXPECT_LT(a.differences[p], 0.02) << "path " << p;
}

INSTANTIATE_TEST_SUITE_P(Levels, RotatedTerrain,
                         ::testing::Values(Case{"terrain1", 17}, Case{"terrain1", 45},
                                           Case{"terrain2", 17}, Case{"terrain2", 45}),
                         caseName);

}  // namespace
}  // namespace nav
