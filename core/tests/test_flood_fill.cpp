// Flood fill on small hand-made levels whose answers can be worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "nav/flood_fill.h"
#include "nav/grid_angle.h"
#include "nav/nav_build.h"
#include "nav/path_clearance.h"
#include "nav/stand_test.h"
#include "test_levels.h"

namespace nav {
namespace {

struct Built {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  Result<CellGrid> cells = Result<CellGrid>::failure("not built");
};

Built fill(Level level, FloodFillParams params = {}) {
  test::finish(level);
  Built built{std::move(level), nullptr};
  built.world = std::make_unique<CollisionWorld>(built.level);
  built.cells = floodFill(built.level, *built.world, params);
  return built;
}

size_t countAt(const CellGrid& cells, float y) {
  size_t n = 0;
  for (uint32_t i = 0; i < cells.size(); ++i)
    n += std::abs(cells.height(i) - y) < 1e-4f;
  return n;
}

size_t linksFromTo(const CellGrid& cells, float fromY, float toY) {
  size_t n = 0;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    if (std::abs(cells[i].y - fromY) > 1e-4f) continue;
    for (int d = 0; d < kDirectionCount; ++d) {
      const uint32_t next = cells.neighbor(i, Direction(d));
      n += next != kNoCell && std::abs(cells[next].y - toY) < 1e-4f;
    }
  }
  return n;
}

size_t fallsFromTo(const CellGrid& cells, float fromY, float toY) {
  return size_t(std::count_if(cells.falls().begin(), cells.falls().end(), [&](const FallLink& f) {
    return std::abs(cells.height(f.from) - fromY) < 1e-4f &&
           std::abs(cells.height(f.to) - toY) < 1e-4f;
  }));
}

TEST(FloodFill, FlatFloorCellCountAndLinks) {
  // A 3 m square floor, unit 0.6 wide, cells 0.3 from the floor's corner: the
  // whole footprint must lie on the floor (to the ground raster's 3 cm
  // reach), so centres from 0.45 to 2.55 m: columns 1..8, 8 x 8 cells.
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  Built built = fill(std::move(level));
  ASSERT_TRUE(built.cells.ok()) << built.cells.error();
  const CellGrid& cells = built.cells.value();
  EXPECT_FLOAT_EQ(cells.cellSize(), 0.3f);
  EXPECT_EQ(cells.size(), 64u);
  // Every cell links to each neighbour that exists: 2 * 8 * 7 pairs, both ways.
  size_t links = 0;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    for (int d = 0; d < kDirectionCount; ++d)
      links += cells[i].canStep(Direction(d));
  }
  EXPECT_EQ(links, 2u * 2u * 8u * 7u);
}

// Where a unit of either shape can stand next to a 1 m square pillar, worked out
// from its distance to the pillar: a box keeps half its side away along both
// axes (the Chebyshev distance), a disc keeps its radius (the Euclidean one).
TEST(FloodFill, EachShapeKeepsItsOwnDistanceFromAPillar) {
  constexpr float kHalf = 0.6f;
  const Aabb pillar{{2.1f, 0.0f, 2.1f}, {3.1f, 2.5f, 3.1f}};
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    Level level;
    test::addFloor(level, -3, -3, 8, 8, 0);
    test::addBox(level, pillar);
    FloodFillParams params;
    params.unit.shape = shape;
    params.unit.width = 2.0f * kHalf;
    params.cellSize = 0.3f;
    params.seeds = {{-2.0f, 0.05f, -2.0f}};
    Built built = fill(std::move(level), params);
    ASSERT_TRUE(built.cells.ok()) << built.cells.error();
    const CellGrid& cells = built.cells.value();
    std::map<std::pair<int, int>, bool> standing;
    for (uint32_t i = 0; i < cells.size(); ++i) {
      const glm::ivec2 column = cells.columnOf(cells.center(i));
      standing[{column.x, column.y}] = true;
    }
    int closerThanABox = 0;
    for (int x = 0; x < 36; ++x) {
      for (int z = 0; z < 36; ++z) {
        const glm::vec3 center = cells.columnCenter(x, z, 0.0f);
        if (center.x < -2.0f || center.x > 7.0f || center.z < -2.0f || center.z > 7.0f) continue;
        const float dx = std::max({pillar.min.x - center.x, center.x - pillar.max.x, 0.0f});
        const float dz = std::max({pillar.min.z - center.z, center.z - pillar.max.z, 0.0f});
        const float distance = shape == UnitShape::Box ? std::max(dx, dz) : std::hypot(dx, dz);
        ASSERT_GT(std::abs(distance - kHalf), 0.01f) << "too close to call";
        EXPECT_EQ(standing.count({x, z}) > 0, distance > kHalf)
            << "column centre " << center.x << ", " << center.z << " is " << distance << " m away";
        closerThanABox += distance > kHalf && std::max(dx, dz) < kHalf;
      }
    }
    // The disc stands in the pillar's corners, where the box cannot.
    EXPECT_EQ(closerThanABox > 0, shape == UnitShape::Round);
  }
}

// A thin pole between two neighbouring columns, out of reach of the disc at
// either, but inside the stadium the disc sweeps going from one to the other.
TEST(FloodFill, RoundUnitSweepsTheWholeStepNotJustItsTwoDiscs) {
  for (const bool pole : {false, true}) {
    SCOPED_TRACE(pole ? "pole" : "no pole");
    Level level;
    test::addFloor(level, -3, -3, 3, 3, 0);
    FloodFillParams params;
    params.unit.shape = UnitShape::Round;
    params.unit.width = 1.2f;
    params.cellSize = 0.3f;
    params.seeds = {{2.0f, 0.05f, -2.0f}};
    // Column centres lie at -2.85 + 0.3 k: take the step from x = -0.15 to 0.15 at z = -0.15.
    const glm::vec2 a(-0.15f, -0.15f), b(0.15f, -0.15f);
    // 0.595 m across the step's line: 0.61 m from either centre.
    const glm::vec2 at(0.0f, -0.15f + 0.595f);
    ASSERT_GT(glm::distance(at, a), 0.61f);
    if (pole) {
      const auto first = uint32_t(level.vertices.size());
      level.vertices.push_back({at.x, 0.0f, at.y});
      level.vertices.push_back({at.x, 2.5f, at.y});
      level.vertices.push_back({at.x + 0.001f, 1.0f, at.y});
      level.triangles.push_back({{first, first + 1, first + 2}, 0});
    }
    Built built = fill(std::move(level), params);
    ASSERT_TRUE(built.cells.ok()) << built.cells.error();
    const CellGrid& cells = built.cells.value();
    auto cellAt = [&](glm::vec2 p) {
      for (uint32_t i = 0; i < cells.size(); ++i) {
        if (glm::distance(groundOf(cells.center(i)), p) < 1e-3f) return i;
      }
      return kNoCell;
    };
    const uint32_t from = cellAt(a), to = cellAt(b);
    ASSERT_NE(from, kNoCell);
    ASSERT_NE(to, kNoCell);
    EXPECT_EQ(cells.neighbor(from, Direction::PlusX) == to, !pole);
    EXPECT_EQ(cells.neighbor(to, Direction::MinusX) == from, !pole);
  }
}

// A link names its cell by the move's height window (CellGrid::neighbor). On
// random soups with floors at many heights, every link must lead to the cell
// its step lands on: the ground the unit finds in the next column, within the
// half unit height that makes a cell the same as that ground. (A cell matched
// just above the window once made a link name a cell 1.9 m lower: a drop that
// does not exist.)
TEST(FloodFill, EveryLinkLeadsWhereItsStepLands) {
  for (const uint32_t seed : {1u, 2u, 3u, 4u}) {
    for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
      for (const float cellSize : {0.3f, 0.65f}) {
        SCOPED_TRACE(::testing::Message()
                     << "soup " << seed << ", " << toString(shape) << ", cells " << cellSize);
        test::SoupShape soup;
        soup.flatsAndWalls = true;
        Level level = test::randomSoup(seed, soup);
        const CollisionWorld world(level);
        FloodFillParams params;
        params.unit.shape = shape;
        params.cellSize = cellSize;
        const Result<CellGrid> filled = floodFill(level, world, params);
        ASSERT_TRUE(filled.ok()) << filled.error();
        const CellGrid& cells = filled.value();
        size_t checked = 0;
        for (uint32_t i = 0; i < cells.size(); ++i) {
          for (int d = 0; d < kDirectionCount; ++d) {
            const uint32_t next = cells.neighbor(i, Direction(d));
            if (next == kNoCell) continue;
            const glm::vec3 from = cells.center(i);
            const StandResult landing =
                tryStand(world, params.unit, groundOf(cells.center(next)),
                         from.y - params.unit.maxDrop, from.y + params.unit.stepHeight);
            ASSERT_TRUE(landing.ok) << "cell " << i << " direction " << d;
            EXPECT_LT(std::abs(landing.y - cells.height(next)), params.unit.height * 0.5f)
                << "from " << from.x << ", " << from.y << ", " << from.z << " the step lands at "
                << landing.y << " but the link leads to " << cells.height(next);
            ++checked;
          }
        }
        EXPECT_GT(checked, 30u);
      }
    }
  }
}

TEST(FloodFill, SeedReachesOnlyItsRoom) {
  // Two 3 m rooms side by side split by a wall along x = 3; the wall has a
  // doorway of the given width.
  auto rooms = [](float doorway) {
    Level level;
    test::addFloor(level, 0, 0, 6.2f, 3, 0);
    const float doorStart = 1.5f - doorway / 2, doorEnd = 1.5f + doorway / 2;
    test::addBox(level, Aabb{{3.0f, 0, -0.1f}, {3.2f, 2.5f, doorStart}});
    test::addBox(level, Aabb{{3.0f, 0, doorEnd}, {3.2f, 2.5f, 3.1f}});
    FloodFillParams params;
    params.seeds = {{1.0f, 0.05f, 1.5f}};
    return fill(std::move(level), params);
  };
  Built closed = rooms(0.4f);  // narrower than the unit
  Built open = rooms(1.2f);
  ASSERT_TRUE(closed.cells.ok() && open.cells.ok());
  auto maxX = [](const CellGrid& cells) {
    float m = -1e9f;
    for (uint32_t i = 0; i < cells.size(); ++i)
      m = std::max(m, cells.center(i).x);
    return m;
  };
  EXPECT_LT(maxX(closed.cells.value()), 3.0f);
  EXPECT_GT(maxX(open.cells.value()), 5.0f);
  EXPECT_GT(open.cells.value().size(), closed.cells.value().size());
}

// A seed that adds no cell says which one and why, and the others still fill.
TEST(FloodFill, ASeedThatStandsNowhereIsAWarning) {
  Level level;
  test::addFloor(level, 0, 0, 6, 3, 0);
  test::finish(level);
  CollisionWorld world(level);
  FloodFillParams params;
  params.seeds = {{1, 0.05f, 1}};
  const Result<CellGrid> one = floodFill(level, world, params);
  ASSERT_TRUE(one.ok()) << one.error();
  ASSERT_GT(one.value().size(), 0u);

  // In the air, off the level, and on the floor's edge (the footprint hangs over it).
  params.seeds = {{1, 0.05f, 1}, {1, 5, 1}, {100, 0.05f, 1}, {5.99f, 0.05f, 1.5f}};
  std::vector<std::string> warnings;
  const Result<CellGrid> four = floodFill(level, world, params, nullptr, &warnings);
  ASSERT_TRUE(four.ok()) << four.error();
  EXPECT_EQ(four.value().size(), one.value().size());
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_NE(warnings[0].find("seed 2 at (1, 5, 1): the unit finds no ground"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[1].find("seed 3 at (100, 0.05, 1): outside the level"), std::string::npos)
      << warnings[1];
  EXPECT_NE(warnings[2].find("seed 4 at (5.99, 0.05, 1.5): the unit's footprint would hang"),
            std::string::npos)
      << warnings[2];

  // Alone, the hanging seed leaves the graph empty, with its warning.
  params.seeds = {{5.99f, 0.05f, 1.5f}};
  warnings.clear();
  const Result<CellGrid> edge = floodFill(level, world, params, nullptr, &warnings);
  ASSERT_TRUE(edge.ok()) << edge.error();
  EXPECT_EQ(edge.value().size(), 0u);
  EXPECT_EQ(warnings.size(), 1u);
}

// A build that finds no cell says why: a file wound the other way (its
// floors face down) names the setting that turns it over; a level of walls
// alone, or ground too small for the unit, says that.
TEST(FloodFill, ABuildWithNoCellsSaysWhy) {
  const auto build = [](const Level& level, const FloodFillParams& params = {}) {
    const CollisionWorld world(level);
    Result<NavBuild> built = buildNavigation(level, world, params);
    EXPECT_TRUE(built.ok()) << built.error();
    return built ? std::move(built).value() : NavBuild{};
  };
  Level upright;
  test::addFloor(upright, 0, 0, 6, 3, 0);
  test::finish(upright);
  const NavBuild expected = build(upright);
  ASSERT_GT(expected.stats.cells, 0u);
  EXPECT_TRUE(expected.stats.warnings.empty());

  Level backwards = upright;
  for (LevelTriangle& triangle : backwards.triangles)
    std::swap(triangle.vertex[0], triangle.vertex[1]);
  const NavBuild none = build(backwards);
  EXPECT_EQ(none.stats.cells, 0u);
  ASSERT_EQ(none.stats.warnings.size(), 1u);
  const std::string& why = none.stats.warnings[0];
  EXPECT_NE(why.find("no face flat enough to stand on (slopes up to 45 degrees) faces up, and 2 "
                     "faces flat enough face down"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("\"flipFaces\": true, or --flip-faces"), std::string::npos) << why;

  setFacesFlipped(backwards, true);
  const NavBuild turned = build(backwards);
  EXPECT_EQ(turned.stats.cells, expected.stats.cells);
  EXPECT_EQ(turned.stats.sectors, expected.stats.sectors);
  EXPECT_TRUE(turned.stats.warnings.empty());
  setFacesFlipped(upright, true);
  const NavBuild overturned = build(upright);
  ASSERT_EQ(overturned.stats.warnings.size(), 1u);
  EXPECT_NE(overturned.stats.warnings[0].find("turned over by flipFaces"), std::string::npos)
      << overturned.stats.warnings[0];

  Level walls;
  test::addBox(walls, Aabb{{0, 0, 0}, {0.2f, 3, 6}});
  test::finish(walls);
  const NavBuild wallsOnly = build(walls);
  ASSERT_EQ(wallsOnly.stats.warnings.size(), 1u);
  EXPECT_NE(wallsOnly.stats.warnings[0].find("no cells: the box unit 0.60 m across and 1.80 m "
                                             "tall stands nowhere the fill tried (every face "
                                             "that faces up)"),
            std::string::npos)
      << wallsOnly.stats.warnings[0] << " (the box's top is 0.2 m wide)";
  EXPECT_EQ(wallsOnly.stats.warnings[0].find("less than the unit"), std::string::npos);

  // A 4 x 3 m floor read as decimetres: smaller than the unit.
  Level tiny;
  test::addFloor(tiny, 0, 0, 0.4f, 0.3f, 0);
  test::finish(tiny);
  const NavBuild tinyBuild = build(tiny);
  ASSERT_EQ(tinyBuild.stats.warnings.size(), 1u);
  EXPECT_NE(tinyBuild.stats.warnings[0].find("; the whole level spans 0.4 x 0.3 m, less than the "
                                             "unit: navscope reads metres unless the sidecar's "
                                             "\"unitScale\" or --unit-scale says otherwise"),
            std::string::npos)
      << tinyBuild.stats.warnings[0];

  Level steep;
  test::addBox(steep, Aabb{{0, 0, 0}, {0.2f, 3, 6}});
  steep.triangles.erase(
      std::remove_if(steep.triangles.begin(), steep.triangles.end(),
                     [&](const LevelTriangle& t) {
                       return steep.vertices[t.vertex[0]].y == steep.vertices[t.vertex[1]].y &&
                              steep.vertices[t.vertex[1]].y == steep.vertices[t.vertex[2]].y;
                     }),
      steep.triangles.end());
  test::finish(steep);
  const NavBuild wallsAlone = build(steep);
  ASSERT_EQ(wallsAlone.stats.warnings.size(), 1u);
  EXPECT_EQ(wallsAlone.stats.warnings[0],
            "no cells: no face of the level is flat enough to stand on (slopes up to 45 degrees)");

  // The floor of a file written Z up: upright, facing +z.
  Level zUp;
  zUp.vertices = {{0, 0, 0}, {6, 0, 0}, {6, 3, 0}, {0, 3, 0}};
  zUp.triangles = {{{0, 1, 2}, 0}, {{0, 2, 3}, 0}};
  test::finish(zUp);
  const NavBuild zUpBuild = build(zUp);
  ASSERT_EQ(zUpBuild.stats.warnings.size(), 1u);
  EXPECT_NE(zUpBuild.stats.warnings[0].find(
                "; the level may have been written Z up: it spans 3.0 m along Y (up) and 0.0 m "
                "along Z, and 18 m2 of its faces would be flat were Z up against 0 m2 as read"),
            std::string::npos)
      << zUpBuild.stats.warnings[0];
}

// A room written Z up: its floor upright, its back wall lying flat and facing
// up as read. The unit stands on the wall, and the build says the file may
// be Z up; read Z up, it stands on the floor and the build says nothing.
TEST(FloodFill, ALevelOnItsSideIsAWarning) {
  Level sideways;
  sideways.vertices = {{0, 0, 0}, {6, 0, 0}, {6, 3, 0}, {0, 3, 0},
                       {0, 3, 0}, {6, 3, 0}, {6, 3, 1}, {0, 3, 1}};
  sideways.triangles = {{{0, 1, 2}, 0}, {{0, 2, 3}, 0}, {{4, 6, 5}, 0}, {{4, 7, 6}, 0}};
  test::finish(sideways);
  ASSERT_EQ(countFacings(sideways, 45.0f).up, 2u) << "the wall faces up as read";
  const auto build = [](const Level& level) {
    const CollisionWorld world(level);
    Result<NavBuild> built = buildNavigation(level, world, FloodFillParams{});
    EXPECT_TRUE(built.ok()) << built.error();
    return built ? std::move(built).value() : NavBuild{};
  };
  const NavBuild asRead = build(sideways);
  EXPECT_GT(asRead.stats.cells, 0u);
  ASSERT_EQ(asRead.stats.warnings.size(), 1u);
  EXPECT_EQ(asRead.stats.warnings[0],
            "the level may have been written Z up: it spans 3.0 m along Y (up) and 1.0 m along "
            "Z, and 18 m2 of its faces would be flat were Z up against 6 m2 as read; if so, read "
            "it with the sidecar's \"upAxis\": \"z\" or --up-axis z");

  Level upright = sideways;
  for (glm::vec3& v : upright.vertices)
    v = glm::vec3(v.x, v.z, -v.y);
  upright.settings.upAxis = UpAxis::Z;
  test::finish(upright);
  const NavBuild zUp = build(upright);
  EXPECT_GT(zUp.stats.cells, asRead.stats.cells) << "the floor is wider than the wall";
  EXPECT_TRUE(zUp.stats.warnings.empty()) << zUp.stats.warnings[0];
}

TEST(FloodFill, LedgeDropIsOneWay) {
  // A 2 m high block on a floor; the fill starts on top of the block. Columns
  // are centred at -2.85 + 0.3 k. On top the whole 0.6 m footprint must lie on
  // the block [0, 4]: centres 0.45 .. 3.45, 11 x 11 cells. Walking off the
  // edge at 3.45, the footprint hangs over it at 3.75 and 4.05 and clears the
  // block's side (x = 4) at 4.35, where the unit lands on the floor: a fall of
  // 3 columns from each of the 4 x 11 edge cells.
  Level level;
  test::addFloor(level, -3, -3, 7, 7, 0);
  test::addBox(level, Aabb{{0, 0, 0}, {4, 2, 4}});
  FloodFillParams params;
  params.seeds = {{2, 2.05f, 2}};
  Built built = fill(std::move(level), params);
  ASSERT_TRUE(built.cells.ok()) << built.cells.error();
  const CellGrid& cells = built.cells.value();
  EXPECT_EQ(countAt(cells, 2.0f), 121u);
  EXPECT_GT(countAt(cells, 0.0f), 0u) << "the unit drops off the block onto the floor";
  EXPECT_EQ(linksFromTo(cells, 2.0f, 0.0f), 0u) << "no cell hangs over the edge";
  EXPECT_EQ(fallsFromTo(cells, 2.0f, 0.0f), 44u);
  for (const FallLink& fall : cells.falls()) {
    EXPECT_EQ(fall.columns, 3u);
    const Cell from = cells[fall.from], to = cells[fall.to];
    EXPECT_EQ(glm::ivec2(to.x, to.z) - glm::ivec2(from.x, from.z),
              3 * glm::ivec2(kDirectionDx[int(fall.direction)], kDirectionDz[int(fall.direction)]));
    EXPECT_FALSE(from.canStep(fall.direction)) << "a fall is not a step";
  }
  EXPECT_EQ(linksFromTo(cells, 0.0f, 2.0f), 0u) << "2 m is far above the 0.45 m step";
  EXPECT_EQ(fallsFromTo(cells, 0.0f, 2.0f), 0u);
}

TEST(FloodFill, DropDeeperThanMaxDropIsNotTaken) {
  Level level;
  test::addFloor(level, -3, -3, 7, 7, 0);
  test::addBox(level, Aabb{{0, 0, 0}, {4, 5, 4}});
  FloodFillParams params;
  params.seeds = {{2, 5.05f, 2}};
  Built built = fill(std::move(level), params);
  ASSERT_TRUE(built.cells.ok());
  EXPECT_EQ(countAt(built.cells.value(), 0.0f), 0u);
  EXPECT_EQ(built.cells.value().size(), countAt(built.cells.value(), 5.0f));
}

TEST(FloodFill, StepHeightDecidesDirection) {
  // Blocks of 0.4 m (below the 0.45 m step) and 0.6 m on a floor.
  for (const float height : {0.4f, 0.6f}) {
    Level level;
    test::addFloor(level, -3, -3, 7, 7, 0);
    test::addBox(level, Aabb{{0, 0, 0}, {4, height, 4}});
    Built built = fill(std::move(level));
    ASSERT_TRUE(built.cells.ok());
    const CellGrid& cells = built.cells.value();
    // Down a step, or off a ledge higher than a step.
    EXPECT_GT(linksFromTo(cells, height, 0.0f) + fallsFromTo(cells, height, 0.0f), 0u) << height;
    EXPECT_EQ(fallsFromTo(cells, height, 0.0f) > 0, height > 0.45f) << height;
    if (height < 0.45f) {
      EXPECT_GT(linksFromTo(cells, 0.0f, height), 0u) << height;
    } else {
      EXPECT_EQ(linksFromTo(cells, 0.0f, height), 0u) << height;
    }
  }
}

TEST(FloodFill, TwoCellsInOneColumnUnderABridge) {
  // A 0.2 m slab with its top at 3 m spans the floor: 2.8 m of headroom below.
  Level level;
  test::addFloor(level, 0, 0, 10, 10, 0);
  test::addBox(level, Aabb{{4, 2.8f, -1}, {6, 3.0f, 11}});
  Built built = fill(std::move(level));  // no seeds: every walkable surface
  ASSERT_TRUE(built.cells.ok());
  const CellGrid& cells = built.cells.value();
  std::map<std::pair<int, int>, std::vector<float>> columns;
  for (uint32_t i = 0; i < cells.size(); ++i)
    columns[{cells[i].x, cells[i].z}].push_back(cells[i].y);
  size_t stacked = 0;
  for (auto& [column, heights] : columns) {
    if (heights.size() < 2) continue;
    ASSERT_EQ(heights.size(), 2u);
    std::sort(heights.begin(), heights.end());
    EXPECT_NEAR(heights[0], 0.0f, 1e-5f);
    EXPECT_NEAR(heights[1], 3.0f, 1e-5f);
    ++stacked;
  }
  EXPECT_GT(stacked, 20u);
}

TEST(FloodFill, LowCeilingBlocksTheUnit) {
  // A slab at 1.0..1.2 m over the middle of the floor: too low for a 1.8 m unit.
  Level level;
  test::addFloor(level, 0, 0, 10, 10, 0);
  test::addBox(level, Aabb{{3, 1.0f, 3}, {7, 1.2f, 7}});
  FloodFillParams params;
  params.seeds = {{1, 0.05f, 1}};
  Built built = fill(std::move(level), params);
  ASSERT_TRUE(built.cells.ok());
  const CellGrid& cells = built.cells.value();
  for (uint32_t i = 0; i < cells.size(); ++i) {
    const glm::vec3 c = cells.center(i);
    const bool footprintUnderSlab =
        c.x + 0.3f > 3 && c.x - 0.3f < 7 && c.z + 0.3f > 3 && c.z - 0.3f < 7;
    EXPECT_FALSE(footprintUnderSlab && c.y < 0.5f) << c.x << " " << c.z;
  }
}

TEST(FloodFill, SlopeLimit) {
  // A ramp rising along +x from the floor; walkable at 30 degrees, not at 60.
  for (const float degrees : {30.0f, 60.0f}) {
    Level level;
    test::addFloor(level, -5, 0, 0, 4, 0);
    const float rise = 3.0f * std::tan(glm::radians(degrees));
    const uint32_t base = uint32_t(level.vertices.size());
    level.vertices.insert(level.vertices.end(), {{0, 0, 0}, {0, 0, 4}, {3, rise, 4}, {3, rise, 0}});
    level.triangles.push_back({{base, base + 1, base + 2}, 0});
    level.triangles.push_back({{base, base + 2, base + 3}, 0});
    FloodFillParams params;
    params.seeds = {{-4, 0.05f, 2}};
    Built built = fill(std::move(level), params);
    ASSERT_TRUE(built.cells.ok());
    float highest = 0;
    const CellGrid& cells = built.cells.value();
    for (uint32_t i = 0; i < cells.size(); ++i)
      highest = std::max(highest, cells.height(i));
    if (degrees < 45) {
      EXPECT_GT(highest, rise * 0.8f);
    } else {
      EXPECT_LT(highest, 0.5f);
    }
  }
}

// A face too steep to stand on is a step's edge when it rises no more than a
// step: the unit stands beside it, resting on the edge under its footprint with
// its feet on the floor, and climbs it. Taller, it is a wall whatever its slope:
// resting part way up never counts as a step of its own. Faces at two slopes
// (one wider than a cell, one narrower), shifted across a cell's width, so that
// footprint edges fall all along them.
TEST(FloodFill, ASteepFaceNoTallerThanAStepIsClimbed) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    for (const float degrees : {50.0f, 80.0f}) {
      for (const float rise : {0.4f, 0.8f}) {
        for (const float start : {-0.02f, 0.0f, 0.06f, 0.12f, 0.18f, 0.24f}) {
          SCOPED_TRACE(::testing::Message() << toString(shape) << ", " << degrees
                                            << " degrees, rise " << rise << " from x = " << start);
          // Lower floor to x = start, the face up to start + run, upper floor beyond.
          const float run = rise / std::tan(glm::radians(degrees));
          const float top = start + run;
          Level level;
          test::addFloor(level, -4, 0, start, 4, 0);
          const auto base = uint32_t(level.vertices.size());
          level.vertices.insert(level.vertices.end(),
                                {{start, 0, 0}, {start, 0, 4}, {top, rise, 4}, {top, rise, 0}});
          level.triangles.push_back({{base, base + 1, base + 2}, 0});
          level.triangles.push_back({{base, base + 2, base + 3}, 0});
          test::addFloor(level, top, 0, top + 4, 4, rise);
          FloodFillParams params;
          params.unit.shape = shape;
          params.seeds = {{-3, 0.05f, 2}};
          const float step = params.unit.stepHeight;
          const float half = params.unit.footprint() * 0.5f;
          Built built = fill(std::move(level), params);
          ASSERT_TRUE(built.cells.ok()) << built.cells.error();
          const CellGrid& cells = built.cells.value();
          const auto groundAt = [&](float x) {
            return std::clamp((x - start) / run, 0.0f, 1.0f) * rise;
          };
          bool upper = false;
          std::map<int, float> lowerRow;  // column x -> resting height, in the row at z = 1.95
          for (uint32_t i = 0; i < cells.size(); ++i) {
            const glm::vec3 c = cells.center(i);
            if (c.y > rise - 1e-3f) {
              upper = true;
              continue;
            }
            // Beside the face: the centre on the floor, resting on the face
            // under the footprint's edge.
            EXPECT_LT(c.x, start);
            EXPECT_NEAR(c.y, groundAt(c.x + half), 0.02f) << "at x = " << c.x;
            if (std::abs(c.z - 1.95f) < 1e-3f) lowerRow[cells.columnOf(c).x] = c.y;
          }
          EXPECT_EQ(upper, rise <= step);
          // Every column of the row with its centre on the floor and its
          // footprint's edge on the face less than a step up has its cell there
          // (past the face it rests on the upper floor, counted above).
          for (int x = 0; x < 40; ++x) {
            const float center = cells.columnCenter(x, 0, 0.0f).x;
            if (center < -2.0f || center > start - 0.01f || center + half > top - 0.01f) continue;
            const float edge = groundAt(center + half);
            if (std::abs(edge - step) < 0.02f) continue;  // too close to call
            EXPECT_EQ(lowerRow.count(x) > 0, edge < step) << "column centre x = " << center;
          }
        }
      }
    }
  }
}

// The face above, wider than a cell: some cell rests on it part way up.
TEST(FloodFill, TheUnitRestsOnASteepFaceBesideIt) {
  Level level;
  test::addFloor(level, -4, 0, 0, 4, 0);
  const float run = 0.4f / std::tan(glm::radians(50.0f));
  const auto base = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(),
                        {{0, 0, 0}, {0, 0, 4}, {run, 0.4f, 4}, {run, 0.4f, 0}});
  level.triangles.push_back({{base, base + 1, base + 2}, 0});
  level.triangles.push_back({{base, base + 2, base + 3}, 0});
  test::addFloor(level, run, 0, run + 4, 4, 0.4f);
  FloodFillParams params;
  params.seeds = {{-3, 0.05f, 2}};
  Built built = fill(std::move(level), params);
  ASSERT_TRUE(built.cells.ok()) << built.cells.error();
  size_t onTheFace = 0;
  for (uint32_t i = 0; i < built.cells.value().size(); ++i) {
    const float y = built.cells.value().height(i);
    onTheFace += y > 0.01f && y < 0.39f;
  }
  EXPECT_GT(onTheFace, 0u);
}

TEST(FloodFill, BadParametersNameTheParameter) {
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  FloodFillParams params;
  params.cellSize = std::nanf("");
  Built nanCell = fill(level, params);
  ASSERT_FALSE(nanCell.cells.ok());
  EXPECT_NE(nanCell.cells.error().find("cellSize"), std::string::npos) << nanCell.cells.error();
  // Printed as read (std::to_string gave 0.000000), with the range for this unit.
  params.cellSize = 1e-30f;
  Built tiny = fill(level, params);
  ASSERT_FALSE(tiny.cells.ok());
  EXPECT_EQ(
      tiny.cells.error().rfind("flood fill: cellSize = 1e-30 is out of range: from 0.009375 m", 0),
      0u)
      << tiny.cells.error();

  params = {};
  params.unit.width = -1;
  Built negative = fill(level, params);
  ASSERT_FALSE(negative.cells.ok());
  EXPECT_NE(negative.cells.error().find("width"), std::string::npos) << negative.cells.error();

  params = {};
  params.seeds = {{std::nanf(""), 0, 0}};
  Built badSeed = fill(level, params);
  ASSERT_FALSE(badSeed.cells.ok());
  EXPECT_NE(badSeed.cells.error().find("seed"), std::string::npos);

  Built empty = fill(Level{});
  EXPECT_FALSE(empty.cells.ok());
}

TEST(FloodFill, MaxCellsStopsTheFill) {
  Level level;
  test::addFloor(level, 0, 0, 30, 30, 0);
  FloodFillParams params;
  params.maxCells = 500;
  Built built = fill(std::move(level), params);
  ASSERT_FALSE(built.cells.ok());
  EXPECT_NE(built.cells.error().find("maxCells"), std::string::npos) << built.cells.error();
}

TEST(FloodFill, SameInputSameCells) {
  Level level;
  test::addFloor(level, 0, 0, 10, 10, 0);
  test::addBox(level, Aabb{{4, 2.8f, -1}, {6, 3.0f, 11}});
  test::addBox(level, Aabb{{1, 0, 1}, {2, 0.3f, 8}});
  Built a = fill(level);
  Built b = fill(level);
  ASSERT_TRUE(a.cells.ok() && b.cells.ok());
  ASSERT_EQ(a.cells.value().size(), b.cells.value().size());
  for (uint32_t i = 0; i < a.cells.value().size(); ++i) {
    const Cell x = a.cells.value()[i], y = b.cells.value()[i];
    EXPECT_TRUE(x.x == y.x && x.z == y.z && x.y == y.y && x.links == y.links);
  }
}

// A big two-storey hall: wide fill fronts (so a second thread gets work) and
// two cells in most columns.
Level twoStoreyHall(float size) {
  Level level;
  test::addFloor(level, 0, 0, size, size, 0);
  test::addBox(level, Aabb{{0, 2.8f, 0},
                           {size, 3.0f, size * 0.5f}});  // upper floor, open above the stairs' foot
  for (int step = 0; step < 15; ++step) {  // stairs up to the upper floor along +z at x 1..3
    const float top = 0.2f * float(step + 1);
    const float z0 = size * 0.5f + 0.35f * float(14 - step);
    test::addBox(level, Aabb{{1, 0, z0}, {3, top, z0 + 0.35f}});
  }
  for (float x = 5; x < size - 2; x += 6)
    test::addBox(level, Aabb{{x, 0, 4}, {x + 1, 2.8f, 8}});
  return level;
}

TEST(FloodFill, AnyThreadCountGivesTheSameCells) {
  FloodFillParams one;
  one.seeds = {{2, 0.05f, 2}};
  Built a = fill(twoStoreyHall(30), one);
  ASSERT_TRUE(a.cells.ok());
  const CellGrid& x = a.cells.value();
  ASSERT_GT(x.size(), 10000u);
  EXPECT_GT(countAt(x, 3.0f), 1000u) << "the upper floor is reached by the stairs";
  for (const int threads : {2, 3, 7}) {
    SCOPED_TRACE(threads);
    FloodFillParams many = one;
    many.threads = threads;
    Built b = fill(twoStoreyHall(30), many);
    ASSERT_TRUE(b.cells.ok());
    const CellGrid& y = b.cells.value();
    ASSERT_EQ(x.size(), y.size());
    for (uint32_t i = 0; i < x.size(); ++i) {
      const Cell p = x[i], q = y[i];
      ASSERT_TRUE(p.x == q.x && p.z == q.z && p.y == q.y && p.links == q.links &&
                  p.material == q.material)
          << "cell " << i;
    }
    ASSERT_EQ(x.falls().size(), y.falls().size());
    for (size_t f = 0; f < x.falls().size(); ++f) {
      const FallLink &p = x.falls()[f], &q = y.falls()[f];
      EXPECT_TRUE(p.from == q.from && p.to == q.to && p.direction == q.direction &&
                  p.columns == q.columns)
          << "fall " << f;
    }
  }
}

TEST(FloodFill, CellsTakeAtMostSixteenBytesEach) {
  // About 200,000 cells on two storeys: the per-cell storage, the column tiles
  // and the unused tails of the storage blocks all count.
  FloodFillParams params;
  params.seeds = {{2, 0.05f, 2}};
  Built built = fill(twoStoreyHall(100), params);
  ASSERT_TRUE(built.cells.ok());
  const CellGrid& cells = built.cells.value();
  ASSERT_GT(cells.size(), 150000u);
  EXPECT_LE(double(cells.fillMemoryBytes()) / double(cells.size()), 16.0);
}

// --- ground under the footprint ---------------------------------------------

size_t countAbove(const CellGrid& cells, float y) {
  size_t n = 0;
  for (uint32_t i = 0; i < cells.size(); ++i)
    n += cells.height(i) > y;
  return n;
}

TEST(FloodFillSupport, NoCellOnAThinWallTopButOnAThickOne) {
  // Walls 1.2 m high on a floor [0, 6]^2 (the grid's origin), seeds on every
  // surface, the wall tops' included. A wall 0.2 thick cannot hold the 0.6 m
  // footprint. On a wall 2 m thick (x 2..4, z 1..5) the footprint fits with
  // its centre 0.3 from the edges (to the 3 cm reach): centres 0.15 + 0.3 k
  // in [2.27, 3.73] x [1.27, 4.73], 4 x 12 = 48 cells, for the disc as for
  // the square on a rectangle's top. The floor holds 18 x 18 centres (0.45
  // .. 5.55) less the 2 x 16 whose footprints overlap the thin wall: 292.
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    FloodFillParams params;
    params.unit.shape = shape;
    Level thin;
    test::addFloor(thin, 0, 0, 6, 6, 0);
    test::addBox(thin, Aabb{{2.9f, 0, 1}, {3.1f, 1.2f, 5}});
    Built thinWall = fill(std::move(thin), params);
    ASSERT_TRUE(thinWall.cells.ok()) << thinWall.cells.error();
    EXPECT_EQ(countAbove(thinWall.cells.value(), 0.1f), 0u);
    EXPECT_EQ(countAt(thinWall.cells.value(), 0.0f), 292u);
    Level thick;
    test::addFloor(thick, 0, 0, 6, 6, 0);
    test::addBox(thick, Aabb{{2, 0, 1}, {4, 1.2f, 5}});
    Built thickWall = fill(std::move(thick), params);
    ASSERT_TRUE(thickWall.cells.ok()) << thickWall.cells.error();
    EXPECT_EQ(countAt(thickWall.cells.value(), 1.2f), 48u);
    EXPECT_EQ(countAbove(thickWall.cells.value(), 0.1f), 48u);
  }
}

TEST(FloodFillSupport, NoCellOnABeamNarrowerThanTheUnit) {
  // Platforms x 0..3 and 6..9 (z 0..3) with a gap between, bridged by a beam
  // at z 1.35..1.65 (0.3 wide) or 1.05..1.95 (0.9). Centres lie at
  // 0.15 + 0.3 k. The 0.6 m footprint needs the platform under it to within
  // the reach: centres up to 2.73 or from 6.27. On the narrow beam it never
  // fits, so a seed on the first platform never reaches the second; on the
  // wide one it fits at z 1.35 and 1.65 and walks across: past the platforms'
  // cells, centres 2.85 .. 6.15 stand on the beam, 12 in each row.
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    for (const float width : {0.3f, 0.9f}) {
      SCOPED_TRACE(::testing::Message() << toString(shape) << ", beam " << width);
      Level level;
      test::addFloor(level, 0, 0, 3, 3, 0);
      test::addFloor(level, 6, 0, 9, 3, 0);
      test::addBox(level, Aabb{{3, -0.2f, 1.5f - width / 2}, {6, 0, 1.5f + width / 2}});
      FloodFillParams params;
      params.unit.shape = shape;
      params.seeds = {{1.5f, 0.05f, 1.5f}};
      Built built = fill(std::move(level), params);
      ASSERT_TRUE(built.cells.ok()) << built.cells.error();
      const CellGrid& cells = built.cells.value();
      size_t onBeam = 0, across = 0;
      for (uint32_t i = 0; i < cells.size(); ++i) {
        const glm::vec3 c = cells.center(i);
        onBeam += c.x > 2.73f && c.x < 6.27f;
        across += c.x > 6.27f;
      }
      if (width < 0.6f) {
        EXPECT_EQ(onBeam, 0u);
        EXPECT_EQ(across, 0u);
      } else {
        EXPECT_EQ(onBeam, 2u * 12u);
        EXPECT_GT(across, 0u);
      }
    }
  }
}

TEST(FloodFillSupport, AStepJustBelowTheStepHeightIsTwoWayJustAboveAFall) {
  // A block [0, 4]^2 on a floor, 0.40 or 0.50 high (the step is 0.45), seeds
  // everywhere. Columns are centred at -2.85 + 0.3 k.
  // 0.40: the unit rests on the block wherever its footprint overlaps the
  // block's top, centres -0.15 .. 4.05 (15 columns), and stands there even
  // hanging part over the floor, 0.4 below (less than a step between samples). It
  // steps between those and the floor cells round them both ways: 15 links a
  // side, 60 each way.
  // 0.50: on top only where the whole footprint is (centres 0.45 .. 3.45, 11
  // columns); off the 44 side cells the unit falls 3 columns (LedgeDropIsOneWay)
  // and no step goes up.
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    FloodFillParams params;
    params.unit.shape = shape;
    for (const float height : {0.4f, 0.5f}) {
      SCOPED_TRACE(height);
      Level level;
      test::addFloor(level, -3, -3, 7, 7, 0);
      test::addBox(level, Aabb{{0, 0, 0}, {4, height, 4}});
      Built built = fill(std::move(level), params);
      ASSERT_TRUE(built.cells.ok()) << built.cells.error();
      const CellGrid& cells = built.cells.value();
      if (height < 0.45f) {
        EXPECT_EQ(countAt(cells, height), 15u * 15u);
        EXPECT_EQ(linksFromTo(cells, height, 0.0f), 60u);
        EXPECT_EQ(linksFromTo(cells, 0.0f, height), 60u);
        EXPECT_TRUE(cells.falls().empty());
      } else {
        EXPECT_EQ(countAt(cells, height), 11u * 11u);
        EXPECT_EQ(linksFromTo(cells, height, 0.0f), 0u);
        EXPECT_EQ(linksFromTo(cells, 0.0f, height), 0u);
        EXPECT_EQ(fallsFromTo(cells, height, 0.0f), 44u);
        EXPECT_EQ(cells.falls().size(), 44u) << "no fall from the floor";
      }
    }
  }
}

TEST(FloodFillSupport, NoStepWhereHalfwayTheUnitRestsTwoRisersAboveItsCentre) {
  // Two risers of 0.4 (the step is 0.45) with a tread between them, from a
  // floor at x < 0 to one at 0.8 from x = tread on; columns are centred at
  // -2.9 + 0.3 k. The column at -0.2 rests on the tread (0.4) over the floor,
  // the one at 0.1 on the upper floor (0.8) over the tread: each a riser above
  // its centre's ground. Halfway, at -0.05, the footprint (half 0.3) reaches
  // the upper floor when the tread is 0.2 deep, with its centre still over the
  // floor: 0.8 above it, so there is no step between them and the seed on
  // the floor never reaches the top. With a tread 0.3 deep it reaches only the
  // tread there, and the unit climbs.
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    FloodFillParams params;
    params.unit.shape = shape;
    params.seeds = {{-2.0f, 0.05f, 1.5f}};
    for (const float tread : {0.2f, 0.3f}) {
      SCOPED_TRACE(tread);
      Level level;
      test::addFloor(level, -3.05f, 0, 0, 3, 0);
      test::addFloor(level, 0, 0, tread, 3, 0.4f);
      test::addFloor(level, tread, 0, 3, 3, 0.8f);
      Built built = fill(std::move(level), params);
      ASSERT_TRUE(built.cells.ok()) << built.cells.error();
      const CellGrid& cells = built.cells.value();
      EXPECT_GT(countAt(cells, 0.4f), 0u);
      if (tread < 0.3f) {
        EXPECT_EQ(countAt(cells, 0.8f), 0u);
      } else {
        EXPECT_GT(countAt(cells, 0.8f), 0u);
        EXPECT_GT(linksFromTo(cells, 0.4f, 0.8f), 0u);
        EXPECT_EQ(linksFromTo(cells, 0.8f, 0.4f), linksFromTo(cells, 0.4f, 0.8f));
      }
    }
  }
}

// Generated terrain 6001 turned 31 degrees, on the grid the CLI picks, box
// unit at Detour's settings: its stairs have risers of 0.8 m (the step is
// 0.9) and treads narrower than half the footprint. Every link between cells
// more than 0.3 m apart in height, walked as a path's stretch, keeps ground
// under the unit's centre, as the unit's own swept footprint and raycasts
// say (path_clearance.h), not the ground raster the fill asks. Without the
// fill's check between the cells, 10 such links (5 each way) left the
// centre up to 1.6 m over the ground.
TEST(FloodFillSupport, EveryStepUpTheTurnedTerrainsStairsKeepsGroundUnderTheCentre) {
  FloodFillParams params = test::detourMatchedParams(0.9f);
  params.unit.shape = UnitShape::Box;
  const Result<Level> level =
      levelOnChosenGrid(test::terrainLevel(6001, 31.0f), std::nullopt, params);
  ASSERT_TRUE(level.ok()) << level.error();
  const CollisionWorld world(level.value());
  const Result<CellGrid> filled = floodFill(level.value(), world, params);
  ASSERT_TRUE(filled.ok()) << filled.error();
  const CellGrid& cells = filled.value();
  size_t steep = 0, overNoGround = 0;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    for (int d = 0; d < kDirectionCount; ++d) {
      const uint32_t next = cells.neighbor(i, Direction(d));
      if (next == kNoCell || std::abs(cells.height(next) - cells.height(i)) <= 0.3f) continue;
      ++steep;
      const glm::vec3 corners[] = {cells.center(i), cells.center(next)};
      const std::vector<StretchClearance> stretch = pathClearance(world, params.unit, corners);
      if (!stretch.empty() && stretch[0].overNoGround > 0.0f) {
        ++overNoGround;
        ADD_FAILURE() << "from (" << corners[0].x << ", " << corners[0].y << ", " << corners[0].z
                      << ") to (" << corners[1].x << ", " << corners[1].y << ", " << corners[1].z
                      << "): " << stretch[0].overNoGround << " m over no ground";
      }
    }
  }
  EXPECT_GT(steep, 100u);
  EXPECT_EQ(overNoGround, 0u);
}

TEST(FloodFillSupport, LedgeOverhangWidensABlockTop) {
  // LedgeDropIsOneWay's block [0, 4]^2, 2 m high, columns centred at
  // -2.85 + 0.3 k. The footprint less the overhang (half 0.3 - overhang)
  // must lie on the block to the 3 cm reach:
  //   overhang 0:    centres in [0.27, 3.73]: 0.45 .. 3.45, 11 x 11 = 121;
  //   overhang 0.1:  centres in [0.17, 3.83]: 0.45 .. 3.75, 12 x 12 = 144;
  //   overhang 0.15: centres in [0.12, 3.88]: 0.15 .. 3.75, 13 x 13 = 169.
  // With 0.15 the edge cells hang 0.15 over; the next column's footprint
  // (3.75 .. 4.35) still hangs over the edge, the one after clears it: falls
  // of 2 columns from the 4 x 13 side cells.
  const std::pair<float, size_t> cases[] = {{0.0f, 121u}, {0.1f, 144u}, {0.15f, 169u}};
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    for (const auto& [overhang, expected] : cases) {
      SCOPED_TRACE(::testing::Message() << toString(shape) << ", overhang " << overhang);
      Level level;
      test::addFloor(level, -3, -3, 7, 7, 0);
      test::addBox(level, Aabb{{0, 0, 0}, {4, 2, 4}});
      FloodFillParams params;
      params.unit.shape = shape;
      params.unit.ledgeOverhang = overhang;
      params.seeds = {{2, 2.05f, 2}};
      Built built = fill(std::move(level), params);
      ASSERT_TRUE(built.cells.ok()) << built.cells.error();
      const CellGrid& cells = built.cells.value();
      EXPECT_EQ(countAt(cells, 2.0f), expected);
      if (overhang == 0.15f) {
        EXPECT_EQ(fallsFromTo(cells, 2.0f, 0.0f), 4u * 13u);
        for (const FallLink& fall : cells.falls())
          EXPECT_EQ(fall.columns, 2u);
      }
    }
  }
}

// Closest point of the segment [a, b] to p.
glm::vec2 closestOnSegment(glm::vec2 p, glm::vec2 a, glm::vec2 b) {
  const glm::vec2 ab = b - a;
  const float t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
  return a + t * ab;
}

// The level's triangles facing up (by winding), bucketed by 1 m squares of
// the ground plane: each in every square its bounds, grown by `reach`, touch.
class UpFacingTriangles {
 public:
  UpFacingTriangles(const Level& level, float reach) : m_level(level), m_reach(reach) {
    for (uint32_t t = 0; t < level.triangles.size(); ++t) {
      const glm::vec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
      if (!(glm::cross(b - a, c - a).y > 0.0f)) continue;
      const glm::vec3 low = glm::min(a, glm::min(b, c)) - reach;
      const glm::vec3 high = glm::max(a, glm::max(b, c)) + reach;
      for (int x = int(std::floor(low.x)); x <= int(std::floor(high.x)); ++x) {
        for (int z = int(std::floor(low.z)); z <= int(std::floor(high.z)); ++z)
          m_buckets[{x, z}].push_back(t);
      }
    }
  }

  // The heights of the triangles within the reach of the ground-plane point
  // p: where the vertical line through p meets the triangle, or, just
  // outside it, at its point nearest p.
  std::vector<float> heightsAt(glm::vec2 p) const {
    std::vector<float> heights;
    const auto bucket = m_buckets.find({int(std::floor(p.x)), int(std::floor(p.y))});
    if (bucket == m_buckets.end()) return heights;
    for (const uint32_t t : bucket->second) {
      const glm::vec3 a = m_level.corner(t, 0), b = m_level.corner(t, 1), c = m_level.corner(t, 2);
      const glm::vec2 a2 = groundOf(a), b2 = groundOf(b), c2 = groundOf(c);
      // Inside: on the same side of each edge as the opposite corner.
      const auto sameSide = [&](glm::vec2 u, glm::vec2 v, glm::vec2 opposite) {
        return cross2(v - u, opposite - u) * cross2(v - u, p - u) >= 0.0f;
      };
      glm::vec2 at = p;
      if (!(sameSide(a2, b2, c2) && sameSide(b2, c2, a2) && sameSide(c2, a2, b2))) {
        for (const glm::vec2 q : {closestOnSegment(p, a2, b2), closestOnSegment(p, b2, c2),
                                  closestOnSegment(p, c2, a2)}) {
          if (at == p || glm::distance(q, p) < glm::distance(at, p)) at = q;
        }
        if (glm::distance(at, p) > m_reach) continue;
      }
      // The plane n . (x - a) = 0 at (at.x, at.y).
      const glm::vec3 n = glm::cross(b - a, c - a);
      heights.push_back(a.y - (n.x * (at.x - a.x) + n.z * (at.y - a.z)) / n.y);
    }
    return heights;
  }

 private:
  const Level& m_level;
  float m_reach;
  std::map<std::pair<int, int>, std::vector<uint32_t>> m_buckets;
};

// Every cell of a real level has ground under its centre: some triangle facing
// up, within the ground raster's reach, no higher than the unit rests (plus
// the 2 cm its body clears the ground by). The unit rests on the highest
// ground under its footprint, so its centre may stand lower: by a stair's rise
// (0.2 m on the showcase's stairs), by up to 0.6 m on the dungeon's steepest
// walkable slopes (corner to centre, diagonally). Two steps (0.9 m) bound
// that here: a cell over a hole or over a floor far below has none.
TEST(FloodFillSupport, EveryCellOfTheBundledLevelsHasGroundUnderItsCentre) {
  std::vector<std::string> paths = {test::assetFile("showcase.obj"), test::assetFile("funnel.obj")};
  if (!test::sharedFile("meshes/dungeon.obj").empty())
    paths.push_back(test::sharedFile("meshes/dungeon.obj"));
  for (const std::string& path : paths) {
    Result<Level> level = loadLevel(path);
    ASSERT_TRUE(level.ok()) << level.error();
    const CollisionWorld world(level.value());
    for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
      SCOPED_TRACE(::testing::Message() << path << ", " << toString(shape));
      FloodFillParams params = defaultFillParams(level.value());
      params.unit.shape = shape;
      const Result<CellGrid> filled = floodFill(level.value(), world, params);
      ASSERT_TRUE(filled.ok()) << filled.error();
      const CellGrid& cells = filled.value();
      ASSERT_GT(cells.size(), 1000u);
      const UpFacingTriangles ground(level.value(), std::min(0.03f, cells.cellSize() / 4));
      const float lowest = 2.0f * params.unit.stepHeight;
      size_t bare = 0;
      for (uint32_t i = 0; i < cells.size(); ++i) {
        const glm::vec3 c = cells.center(i);
        const std::vector<float> heights = ground.heightsAt(groundOf(c));
        const bool grounded = std::any_of(heights.begin(), heights.end(), [&](float h) {
          return h <= c.y + 0.021f && h >= c.y - lowest;
        });
        if (!grounded && ++bare <= 5) {
          ADD_FAILURE() << "no ground under cell " << i << " at " << c.x << ", " << c.y << ", "
                        << c.z;
        }
      }
      EXPECT_EQ(bare, 0u);
    }
  }
}

// Room A (x 0..5) and room B (x 5.4..10) split by a solid wall, plus a 3 m
// platform in room B (z 6..10) with no way up.
Level roomsAndPlatform() {
  Level level;
  test::addFloor(level, 0, 0, 10, 10, 0);
  test::addBox(level, Aabb{{5.0f, 0, -0.5f}, {5.4f, 3.5f, 10.5f}});
  test::addBox(level, Aabb{{5.4f, 0, 6}, {10, 3, 10}});
  return level;
}

DeviceSpec device(const std::string& id, DeviceKind kind, Aabb entry, Aabb exit) {
  DeviceSpec spec;
  spec.id = id;
  spec.kind = kind;
  spec.entry = entry;
  spec.exit = exit;
  return spec;
}

float maxX(const CellGrid& cells, float y) {
  float m = -1e9f;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    if (std::abs(cells.height(i) - y) < 1e-3f) m = std::max(m, cells.center(i).x);
  }
  return m;
}

TEST(FloodFillDevices, EachKindIsTheOnlyWayAcross) {
  const Aabb inRoomA{{3.5f, -0.5f, 2}, {4.7f, 0.5f, 3.2f}};
  const Aabb inRoomB{{6, -0.5f, 2}, {7.2f, 0.5f, 3.2f}};
  const Aabb onPlatform{{7, 2.5f, 7}, {8.2f, 3.5f, 8.2f}};
  FloodFillParams params;
  params.seeds = {{1, 0.05f, 1}};

  Built none = fill(roomsAndPlatform(), params);
  ASSERT_TRUE(none.cells.ok());
  EXPECT_LT(maxX(none.cells.value(), 0.0f), 5.0f) << "without devices room B is out of reach";

  params.devices = {device("door", DeviceKind::Door, inRoomA, inRoomB)};
  Built door = fill(roomsAndPlatform(), params);
  ASSERT_TRUE(door.cells.ok());
  EXPECT_GT(maxX(door.cells.value(), 0.0f), 9.0f) << "the door leads into room B";
  EXPECT_EQ(countAt(door.cells.value(), 3.0f), 0u) << "but not onto the platform";

  for (const DeviceKind kind : {DeviceKind::Elevator, DeviceKind::Ladder}) {
    params.devices.push_back(device(toString(kind), kind, inRoomB, onPlatform));
    Built up = fill(roomsAndPlatform(), params);
    ASSERT_TRUE(up.cells.ok());
    EXPECT_GT(countAt(up.cells.value(), 3.0f), 100u) << toString(kind) << " reaches the platform";
    params.devices.pop_back();
  }
}

TEST(FloodFillDevices, OneWayDeviceDoesNotLeadBack) {
  DeviceSpec door = device("door", DeviceKind::Door, Aabb{{3.5f, -0.5f, 2}, {4.7f, 0.5f, 3.2f}},
                           Aabb{{6, -0.5f, 2}, {7.2f, 0.5f, 3.2f}});
  FloodFillParams params;
  params.seeds = {{9, 0.05f, 1}};  // in room B
  params.devices = {door};
  Built twoWay = fill(roomsAndPlatform(), params);
  ASSERT_TRUE(twoWay.cells.ok());
  door.twoWay = false;
  params.devices = {door};
  Built oneWay = fill(roomsAndPlatform(), params);
  ASSERT_TRUE(oneWay.cells.ok());
  auto minX = [](const CellGrid& cells) {
    float m = 1e9f;
    for (uint32_t i = 0; i < cells.size(); ++i)
      m = std::min(m, cells.center(i).x);
    return m;
  };
  EXPECT_LT(minX(twoWay.cells.value()), 1.0f) << "back through a two-way door";
  EXPECT_GT(minX(oneWay.cells.value()), 5.0f) << "a one-way door only goes from its entry";
}

TEST(FloodFillDevices, BlockedExitIsAWarning) {
  FloodFillParams params;
  params.seeds = {{1, 0.05f, 1}};
  // The exit zone is inside the dividing wall.
  params.devices = {device("stuck", DeviceKind::Door, Aabb{{3.5f, -0.5f, 2}, {4.7f, 0.5f, 3.2f}},
                           Aabb{{5.05f, -0.5f, 2}, {5.35f, 0.5f, 3.2f}})};
  Level level = roomsAndPlatform();
  test::finish(level);
  CollisionWorld world(level);
  std::vector<std::string> warnings;
  Result<CellGrid> cells = floodFill(level, world, params, nullptr, &warnings);
  ASSERT_TRUE(cells.ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("'stuck'"), std::string::npos) << warnings[0];
}

TEST(FloodFillSurfaces, UnitsKeepOffSurfacesTheirKindMayNotUse) {
  // A road strip between two sidewalks; vehicles may not stand on sidewalks.
  Level level;
  test::addFloor(level, 0, 0, 4, 10, 0, "sidewalk");
  test::addFloor(level, 4, 0, 10, 10, 0, "road");
  test::addFloor(level, 10, 0, 14, 10, 0, "sidewalk");
  test::finish(level);
  UnitProfile car;
  car.name = "car";
  car.kind = UnitKind::Vehicle;
  car.width = 1.6f;
  car.length = 3.6f;
  car.stepHeight = 0.2f;
  FloodFillParams params;
  params.unit = car;
  params.walkableMaterials.resize(level.materials.size());
  for (size_t m = 0; m < level.materials.size(); ++m)
    params.walkableMaterials[m] = level.materials[m] != "sidewalk";
  Built built = fill(level, params);
  ASSERT_TRUE(built.cells.ok()) << built.cells.error();
  const CellGrid& cells = built.cells.value();
  ASSERT_GT(cells.size(), 0u);
  EXPECT_NEAR(cells.cellSize(), car.footprint() * 0.5f, 1e-5f);
  for (uint32_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(level.materials[cells[i].material], "road");
    // The car's footprint rests on road under its centre; the centre stays on the road.
    EXPECT_GT(cells.center(i).x, 4.0f - car.footprint() * 0.5f);
    EXPECT_LT(cells.center(i).x, 10.0f + car.footprint() * 0.5f);
  }
}

// Cells too wide for the unit leave the ground between their centres
// untested: the build says so and names the cell size to use. A square
// needs cells narrower than its tested footprint; a disc, narrower than
// that over the square root of two.
TEST(BuildWarnings, CellsTooWideForTheUnitAreNamed) {
  Level level;
  test::addFloor(level, 0, 0, 6, 6, 0);
  test::finish(level);
  const CollisionWorld world(level);
  const auto tooWide = [&](UnitShape shape, float cellSize) {
    FloodFillParams params;
    params.unit.shape = shape;
    params.unit.width = 0.6f;
    params.cellSize = cellSize;
    const Result<NavBuild> build = buildNavigation(level, world, params);
    EXPECT_TRUE(build) << build.error();
    if (!build) return false;
    const std::vector<std::string>& warnings = build.value().stats.warnings;
    return std::any_of(warnings.begin(), warnings.end(), [](const std::string& warning) {
      return warning.find("too wide") != std::string::npos &&
             warning.find("--cell 0.300") != std::string::npos;
    });
  };
  EXPECT_FALSE(tooWide(UnitShape::Box, 0.3f));
  EXPECT_FALSE(tooWide(UnitShape::Box, 0.55f));
  EXPECT_TRUE(tooWide(UnitShape::Box, 0.6f));
  EXPECT_FALSE(tooWide(UnitShape::Round, 0.4f));
  EXPECT_TRUE(tooWide(UnitShape::Round, 0.45f));
}

// Levels are read as floats: past 262,144 m they step by 31 mm, past
// 524,288 m by 63 mm. A level that far out is built with a warning once the
// step exceeds a tenth of a cell, naming how far out it lies.
TEST(BuildWarnings, ALevelWhoseVerticesAreCoarseIsNamed) {
  const auto coarseWarning = [](float x, float cellSize) -> std::string {
    Level level;
    test::addFloor(level, x, 0, x + 6, 6, 0);
    test::finish(level);
    Result<Level> onGrid = levelOnGrid(level, 0.0f);
    EXPECT_TRUE(onGrid) << onGrid.error();
    if (!onGrid) return "";
    const CollisionWorld world(onGrid.value());
    FloodFillParams params;
    params.cellSize = cellSize;
    const Result<NavBuild> build = buildNavigation(onGrid.value(), world, params);
    EXPECT_TRUE(build) << build.error();
    if (!build) return "";
    for (const std::string& warning : build.value().stats.warnings) {
      if (warning.find("from the origin") != std::string::npos) return warning;
    }
    return "";
  };
  EXPECT_EQ(coarseWarning(0.0f, 0.3f), "");
  EXPECT_EQ(coarseWarning(200000.0f, 0.3f), "");
  const std::string far = coarseWarning(300000.0f, 0.3f);
  EXPECT_NE(far.find("up to 300006 m"), std::string::npos) << far;
  EXPECT_NE(far.find("step by 31.2 mm"), std::string::npos) << far;
  // Coarser cells tolerate a coarser step.
  EXPECT_EQ(coarseWarning(300000.0f, 0.5f), "");
  EXPECT_NE(coarseWarning(600000.0f, 0.5f), "");
}

}  // namespace
}  // namespace nav
