#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <queue>
#include <random>

#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/grid_map.h"
#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"

namespace nav {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;

std::string mapText(const std::vector<std::string>& rows) {
  std::string text = "type octile\nheight " + std::to_string(rows.size()) + "\nwidth " +
                     std::to_string(rows.empty() ? 0 : rows[0].size()) + "\nmap\n";
  for (const std::string& row : rows)
    text += row + "\n";
  return text;
}

GridMap parseRows(const std::vector<std::string>& rows) {
  Result<GridMap> map = parseGridMap(mapText(rows), "test.map");
  EXPECT_TRUE(map.ok()) << map.error();
  return map.ok() ? std::move(map).value() : GridMap{};
}

/// A grid map built into navigation, ready for queries between tiles.
struct GridNav {
  GridMap map;
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;

  /// Path between tile centres: found or not, and its funnel length.
  std::optional<double> pathLength(glm::ivec2 start, glm::ivec2 goal,
                                   const SearchOptions& options = {}) const {
    const PathResult path = findPath(build.graph, gridTileCenter(start.x, start.y),
                                     gridTileCenter(goal.x, goal.y), options);
    if (path.status != PathStatus::Found) return std::nullopt;
    return stringPull(funnelPortals(build.graph, path.corridor)).length;
  }
};

std::unique_ptr<GridNav> buildGrid(GridMap map, const GridLevelOptions& options = {},
                                   bool keepCells = false) {
  auto nav = std::make_unique<GridNav>();
  nav->map = std::move(map);
  Result<Level> level = gridMapLevel(nav->map, options);
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return nullptr;
  nav->level = std::move(level).value();
  nav->world = std::make_unique<CollisionWorld>(nav->level);
  BuildOptions buildOptions;
  buildOptions.keepCells = keepCells;
  Result<NavBuild> build =
      buildNavigation(nav->level, *nav->world, defaultFillParams(nav->level), buildOptions);
  EXPECT_TRUE(build.ok()) << build.error();
  if (!build) return nullptr;
  nav->build = std::move(build).value();
  return nav;
}

// ---------------------------------------------------------------------------
// .map parsing
// ---------------------------------------------------------------------------

TEST(GridMap, ParsesTilesRowByRow) {
  const Result<GridMap> map =
      parseGridMap("type octile\r\nwidth 4\r\nheight 3\r\nmap\r\n.@GS\r\nOTW.\r\n....", "m.map");
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(map.value().source, "m.map");
  EXPECT_EQ(map.value().width, 4);
  EXPECT_EQ(map.value().height, 3);
  const std::vector<uint8_t> expected = {0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0};
  EXPECT_EQ(map.value().blocked, expected);
  EXPECT_FALSE(map.value().isBlocked(0, 0));
  EXPECT_TRUE(map.value().isBlocked(1, 0));
  EXPECT_TRUE(map.value().isBlocked(2, 1));   // water
  EXPECT_FALSE(map.value().isBlocked(3, 0));  // swamp
  EXPECT_TRUE(map.value().isBlocked(-1, 0));
  EXPECT_TRUE(map.value().isBlocked(0, 3));
}

TEST(GridMap, TrailingBlankLinesAreAllowed) {
  const Result<GridMap> map = parseGridMap(mapText({"..", ".."}) + "\n  \n", "m.map");
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(map.value().height, 2);
}

struct ErrorCase {
  std::string text;
  std::string expected;  // the message must contain this
};

TEST(GridMap, ErrorsNameTheFileAndLine) {
  const std::string header = "type octile\nheight 2\nwidth 3\nmap\n";
  const std::vector<ErrorCase> cases = {
      {"", "m.map:1: missing 'map' line"},
      {"type octile\nheight 2\nwidth 3\n", "m.map:4: missing 'map' line"},
      {"type tiles\nheight 2\nwidth 3\nmap\n...\n...\n", "m.map:1: expected 'type octile'"},
      {"type octile\ntype octile\n", "m.map:2: 'type' given twice"},
      {"type octile\nheight two\n", "m.map:2: expected 'height N'"},
      {"type octile\nheight 2 3\n", "m.map:2: expected 'height N'"},
      {"type octile\nheight 0\n", "m.map:2: height 0 is out of range (1 to 4096"},
      {"type octile\nheight 2\nwidth 5000\n", "m.map:3: width 5000 is out of range"},
      {"type octile\nheight 2\nheight 2\n", "m.map:3: 'height' given twice"},
      {"type octile\nheight 2\ncolour red\n", "m.map:3: unknown header line 'colour'"},
      {"type octile\n\nheight 2\n", "m.map:2: blank line in the header"},
      {"height 2\nwidth 3\nmap\n", "m.map:3: 'map' before 'type octile'"},
      {"type octile\nwidth 3\nmap\n", "m.map:3: 'map' before 'height H'"},
      {"type octile\nheight 2\nmap\n", "m.map:3: 'map' before 'width W'"},
      {"type octile\nheight 2\nwidth 3\nmap now\n", "m.map:4: 'map' takes no value"},
      {header + "...\n", "m.map:6: expected row 1 of 2 (height), found the end of the file"},
      {header + "..\n...\n", "m.map:5: row 0 has 2 tiles, expected 3 (width)"},
      {header + "...\n....\n", "m.map:6: row 1 has 4 tiles, expected 3"},
      {header + "...\n.X.\n", "m.map:6: column 2: 'X' is not a tile"},
      {header + "...\n.\t.\n", "m.map:6: column 2: 0x09 is not a tile"},
      {header + "...\n...\n...\n", "m.map:7: more rows than the height (2)"},
  };
  for (const ErrorCase& c : cases) {
    const Result<GridMap> map = parseGridMap(c.text, "m.map");
    ASSERT_FALSE(map.ok()) << "accepted:\n" << c.text;
    EXPECT_NE(map.error().find(c.expected), std::string::npos)
        << "message: " << map.error() << "\nexpected: " << c.expected;
  }
}

TEST(GridMap, LimitsRefuseLargeInput) {
  GridMapLimits limits;
  limits.maxSide = 8;
  const Result<GridMap> wide =
      parseGridMap("type octile\nheight 2\nwidth 9\nmap\n", "m.map", limits);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.error().find("m.map:3: width 9 is out of range (1 to 8"), std::string::npos)
      << wide.error();
  limits.maxFileBytes = 10;
  const Result<GridMap> big = parseGridMap(mapText({"..", ".."}), "m.map", limits);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().find("over the limit of 10 bytes"), std::string::npos) << big.error();
}

/// A fresh folder under the system temp directory, removed with its contents.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    m_path =
        std::filesystem::temp_directory_path() /
        ("navscope_test_grid_map_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = m_path / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  std::filesystem::path m_path;
};

TEST(GridMap, FilesAreNamedInMessages) {
  TempDir dir;
  const std::string good = dir.write("good.map", mapText({".@", ".."}));
  const Result<GridMap> map = loadGridMap(good);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(map.value().source, good);
  const std::string bad = dir.write("bad.map", mapText({".@", ".?"}));
  const Result<GridMap> refused = loadGridMap(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rfind(bad + ":6: column 2: '?'", 0), 0u) << refused.error();
  const Result<GridMap> missing = loadGridMap(dir.write("x", "") + ".none");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("file not found"), std::string::npos) << missing.error();

  const std::string scen = dir.write("bad.scen", "version 1\n0\tm.map\t2\t2\t0\t0\t1\n");
  const Result<std::vector<GridScenario>> scenarios = loadGridScenarios(scen);
  ASSERT_FALSE(scenarios.ok());
  EXPECT_EQ(scenarios.error().rfind(scen + ":2: expected 9 fields", 0), 0u) << scenarios.error();
}

// ---------------------------------------------------------------------------
// .scen parsing
// ---------------------------------------------------------------------------

TEST(GridScen, ParsesScenarioLines) {
  const std::string text =
      "version 1\r\n"
      "0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\r\n"
      "\r\n"
      "3 arena.map 49 49 1 13 4 12 3.41421\n"
      "15\tmaps/dao/arena.map\t49\t49\t1\t7\t47\t46\t62.1543";
  const Result<std::vector<GridScenario>> parsed = parseGridScenarios(text, "a.scen");
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const std::vector<GridScenario>& s = parsed.value();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].line, 2u);
  EXPECT_EQ(s[0].bucket, 0);
  EXPECT_EQ(s[0].map, "maps/dao/arena.map");
  EXPECT_EQ(s[0].mapWidth, 49);
  EXPECT_EQ(s[0].mapHeight, 49);
  EXPECT_EQ(s[0].start, glm::ivec2(1, 11));
  EXPECT_EQ(s[0].goal, glm::ivec2(1, 12));
  EXPECT_EQ(s[0].optimalLength, 1.0);
  EXPECT_EQ(s[1].line, 4u);
  EXPECT_EQ(s[1].bucket, 3);
  EXPECT_EQ(s[1].map, "arena.map");
  EXPECT_EQ(s[1].start, glm::ivec2(1, 13));
  EXPECT_EQ(s[1].goal, glm::ivec2(4, 12));
  EXPECT_DOUBLE_EQ(s[1].optimalLength, 3.41421);
  EXPECT_EQ(s[2].line, 5u);
  EXPECT_DOUBLE_EQ(s[2].optimalLength, 62.1543);

  const Result<std::vector<GridScenario>> empty = parseGridScenarios("version 1.0\n", "e.scen");
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_TRUE(empty.value().empty());
}

TEST(GridScen, ErrorsNameTheFileAndLine) {
  const std::string v = "version 1\n";
  const std::vector<ErrorCase> cases = {
      {"", "s.scen:1: empty file (expected 'version 1')"},
      {"\n\n", "s.scen:1: empty file"},
      {"0\tm.map\t4\t4\t0\t0\t1\t1\t1.41421\n", "s.scen:1: expected 'version 1' first"},
      {"version 2\n", "s.scen:1: expected 'version 1' first"},
      {"version\n", "s.scen:1: expected 'version 1' first"},
      {v + "0 m.map 4 4 0 0 1 1\n",
       "s.scen:2: expected 9 fields (bucket, map, map width, map "
       "height, start x, start y, goal x, goal y, optimal length), "
       "found 8"},
      {v + "\n0 m.map 4 4 0 0 1 1 1.4 extra\n", "s.scen:3: expected 9 fields"},
      {v + "a m.map 4 4 0 0 1 1 1.4\n", "s.scen:2: bucket 'a' is not a whole number"},
      {v + "-1 m.map 4 4 0 0 1 1 1.4\n", "s.scen:2: bucket -1 is out of range"},
      {v + "0 m.map 0 4 0 0 1 1 1.4\n", "s.scen:2: map width 0 is out of range (1 to 4096)"},
      {v + "0 m.map 4 4.5 0 0 1 1 1.4\n", "s.scen:2: map height '4.5' is not a whole number"},
      {v + "0 m.map 4 4 x 0 1 1 1.4\n", "s.scen:2: start x 'x' is not a whole number"},
      {v + "0 m.map 4 4 0 -2 1 1 1.4\n", "s.scen:2: start y -2 is out of range"},
      {v + "0 m.map 4 4 4 0 1 1 1.4\n", "s.scen:2: start (4, 0) is outside the 4 x 4 map"},
      {v + "0 m.map 4 4 0 0 1 9 1.4\n", "s.scen:2: goal (1, 9) is outside the 4 x 4 map"},
      {v + "0 m.map 4 4 0 0 1 1 long\n", "s.scen:2: optimal length 'long' is not a finite"},
      {v + "0 m.map 4 4 0 0 1 1 -1\n", "s.scen:2: optimal length '-1' is not a finite"},
      {v + "0 m.map 4 4 0 0 1 1 nan\n", "s.scen:2: optimal length 'nan' is not a finite"},
      {v + "0 m.map 4 4 0 0 1 1 inf\n", "s.scen:2: optimal length 'inf' is not a finite"},
  };
  for (const ErrorCase& c : cases) {
    const Result<std::vector<GridScenario>> parsed = parseGridScenarios(c.text, "s.scen");
    ASSERT_FALSE(parsed.ok()) << "accepted:\n" << c.text;
    EXPECT_NE(parsed.error().find(c.expected), std::string::npos)
        << "message: " << parsed.error() << "\nexpected: " << c.expected;
  }
}

TEST(GridScen, LimitsRefuseTooManyScenarios) {
  GridMapLimits limits;
  limits.maxScenarios = 2;
  const std::string line = "0 m.map 4 4 0 0 1 1 1.41421\n";
  EXPECT_TRUE(parseGridScenarios("version 1\n" + line + line, "s.scen", limits).ok());
  const Result<std::vector<GridScenario>> parsed =
      parseGridScenarios("version 1\n" + line + line + line, "s.scen", limits);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("s.scen:4: more than 2 scenarios"), std::string::npos)
      << parsed.error();
}

TEST(GridScen, ScenariosAreCheckedAgainstTheirMap) {
  const GridMap map = parseRows({"..@", "...", "@.."});
  const Result<std::vector<GridScenario>> parsed = parseGridScenarios(
      "version 1\n"
      "0 m.map 3 3 0 0 2 2 2.82843\n"
      "0 m.map 4 3 0 0 2 2 2.82843\n"
      "0 m.map 3 3 0 2 2 2 2\n"
      "0 m.map 3 3 0 0 2 0 2\n",
      "s.scen");
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const std::vector<GridScenario>& s = parsed.value();
  EXPECT_EQ(checkGridScenario(map, s[0], "s.scen"), "");
  EXPECT_EQ(checkGridScenario(map, s[1], "s.scen"),
            "s.scen:3: made for a 4 x 3 map, but test.map is 3 x 3");
  EXPECT_EQ(checkGridScenario(map, s[2], "s.scen"),
            "s.scen:4: start (0, 2) is a blocked tile of test.map");
  EXPECT_EQ(checkGridScenario(map, s[3], "s.scen"),
            "s.scen:5: goal (2, 0) is a blocked tile of test.map");
}

// ---------------------------------------------------------------------------
// The level
// ---------------------------------------------------------------------------

TEST(GridLevel, RunsBecomeFloorStripsAndBoxes) {
  const GridMap map = parseRows({".@@.", "....", "@..@"});
  const Result<Level> level = gridMapLevel(map);
  ASSERT_TRUE(level.ok()) << level.error();
  const Level& l = level.value();
  // Floor runs: 2 + 1 + 1 (2 triangles each); blocked runs: 1 + 0 + 2 (12 each).
  EXPECT_EQ(l.triangles.size(), 4u * 2u + 3u * 12u);
  EXPECT_EQ(l.bounds.min, glm::vec3(0.0f, 0.0f, 0.0f));
  EXPECT_EQ(l.bounds.max, glm::vec3(4.0f, 2.0f, 3.0f));
  // Every upward face is either the floor (y = 0) or a box top (y = 2); their
  // ground-plane areas are the passable and blocked tile counts.
  double floorArea = 0.0, topArea = 0.0;
  for (uint32_t t = 0; t < l.triangles.size(); ++t) {
    const glm::dvec3 a = l.corner(t, 0), b = l.corner(t, 1), c = l.corner(t, 2);
    const double up = 0.5 * glm::cross(b - a, c - a).y;
    if (up <= 0.0) continue;
    (a.y == 0.0 ? floorArea : topArea) += up;
  }
  EXPECT_DOUBLE_EQ(floorArea, 8.0);
  EXPECT_DOUBLE_EQ(topArea, 4.0);
  // One 4-connected region: one seed, above its first tile's centre.
  ASSERT_EQ(l.settings.seeds.size(), 1u);
  EXPECT_EQ(l.settings.seeds[0].x, 0.5f);
  EXPECT_EQ(l.settings.seeds[0].z, 0.5f);
  ASSERT_EQ(l.settings.units.size(), 1u);
  EXPECT_EQ(l.settings.units[0].width, gridUnit().width);
  EXPECT_FLOAT_EQ(*l.settings.cellSize, 1.0f / 3.0f);
}

// A checkerboard 2,048 tiles a side is a legal map whose every tile is a run
// of its own: 29 M triangles, refused before any is made (a 4,096 one took
// 16 GB and three minutes to be refused by the fill).
TEST(GridLevel, AMapTooBrokenUpIsRefusedBeforeItsTrianglesAreMade) {
  GridMap map;
  map.source = "checker.map";
  map.width = map.height = 2048;
  map.blocked.resize(size_t(map.width) * size_t(map.height));
  for (int32_t y = 0; y < map.height; ++y) {
    for (int32_t x = 0; x < map.width; ++x)
      map.blocked[size_t(y) * size_t(map.width) + size_t(x)] = uint8_t((x + y) % 2);
  }
  const Result<Level> level = gridMapLevel(map);
  ASSERT_FALSE(level);
  // 2,097,152 boxes of 12 triangles and as many floor strips of 2.
  EXPECT_EQ(level.error(),
            "checker.map: its runs of blocked and passable tiles make 29360128 triangles, more "
            "than 20000000 (GridLevelOptions::maxTriangles)");
  GridLevelOptions options;
  options.maxTriangles = 29'360'128;
  map.width = map.height = 64;
  map.blocked.resize(64 * 64);
  EXPECT_TRUE(gridMapLevel(map, options));
}

TEST(GridLevel, OneSeedPerRegionAndCellsOnlyOnTheFloor) {
  // Three regions: the left column, the top right block, and the lone tile in
  // the bottom right corner.
  std::unique_ptr<GridNav> nav = buildGrid(parseRows({".@..", ".@..", ".@@@", ".@@."}), {}, true);
  ASSERT_TRUE(nav);
  EXPECT_EQ(nav->level.settings.seeds.size(), 3u);
  ASSERT_TRUE(nav->build.cells.has_value());
  const CellGrid& cells = *nav->build.cells;
  // 9 cells per passable tile, none on a box top.
  EXPECT_EQ(cells.size(), 9u * 9u);
  for (uint32_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i].y, 0.0f);
    const glm::vec3 c = cells.center(i);
    EXPECT_FALSE(nav->map.isBlocked(int32_t(std::floor(c.x)), int32_t(std::floor(c.z))));
  }
}

TEST(GridLevel, TileCentresAreCellCentres) {
  const GridMap map = parseRows({"...", "..."});
  for (float cellSize : {1.0f, 1.0f / 3.0f, 0.2f, 1.0f / 7.0f}) {
    GridLevelOptions options;
    options.cellSize = cellSize;
    const Result<Level> level = gridMapLevel(map, options);
    ASSERT_TRUE(level.ok()) << cellSize << ": " << level.error();
    const float size = *level.value().settings.cellSize;
    for (int32_t x = 0; x < 3; ++x) {
      // Origin 0: the column's centre is (column + 0.5) * size.
      const glm::vec3 centre = gridTileCenter(x, 1);
      const float column = std::floor(centre.x / size);
      EXPECT_NEAR((column + 0.5f) * size, centre.x, 1e-5f) << cellSize;
    }
  }
  for (float cellSize : {0.5f, 0.25f, 2.0f, 0.3f, 0.0f, -1.0f, std::nanf("")}) {
    GridLevelOptions options;
    options.cellSize = cellSize;
    const Result<Level> level = gridMapLevel(map, options);
    ASSERT_FALSE(level.ok()) << cellSize;
    EXPECT_NE(level.error().find("test.map: cellSize = "), std::string::npos) << level.error();
    EXPECT_NE(level.error().find("odd whole number"), std::string::npos) << level.error();
  }
  // Printed as given (std::to_string printed 0.300000).
  GridLevelOptions near;
  near.cellSize = 0.3f;
  EXPECT_NE(gridMapLevel(map, near).error().find("cellSize = 0.3 does not"), std::string::npos);
  GridLevelOptions low;
  low.blockHeight = 1.0f;
  const Result<Level> level = gridMapLevel(map, low);
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.error().find("blockHeight = 1"), std::string::npos) << level.error();
  const Result<Level> blocked = gridMapLevel(parseRows({"@@", "TW"}));
  ASSERT_FALSE(blocked.ok());
  EXPECT_NE(blocked.error().find("no passable tile"), std::string::npos) << blocked.error();
}

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

TEST(GridPath, NoSqueezingBetweenCornerTouchingBlocks) {
  std::unique_ptr<GridNav> pinch = buildGrid(parseRows({"@.", ".@"}));
  ASSERT_TRUE(pinch);
  EXPECT_FALSE(pinch->pathLength({1, 0}, {0, 1}).has_value());
  EXPECT_FALSE(pinch->pathLength({0, 1}, {1, 0}).has_value());
  EXPECT_TRUE(pinch->pathLength({1, 0}, {1, 0}).has_value());

  // The gap between (1, 1) and (0, 2) would be a diagonal of sqrt 2; the way
  // round the block at (1, 1) by its three corners is sqrt 2 + 2.
  std::unique_ptr<GridNav> detour = buildGrid(parseRows({"...", ".@.", "@.."}));
  ASSERT_TRUE(detour);
  const std::optional<double> length = detour->pathLength({0, 1}, {1, 2});
  ASSERT_TRUE(length.has_value());
  EXPECT_GE(*length, kSqrt2 + 2.0 - 1e-4);
  // The 8-connected length: no corner cutting, six straight steps.
  EXPECT_LE(*length, 6.0);
  // The same holds at every cell size.
  for (float cellSize : {1.0f, 0.2f}) {
    GridLevelOptions options;
    options.cellSize = cellSize;
    EXPECT_FALSE(
        buildGrid(parseRows({"@.", ".@"}), options)->pathLength({1, 0}, {0, 1}).has_value());
    const std::optional<double> around =
        buildGrid(parseRows({"...", ".@.", "@.."}), options)->pathLength({0, 1}, {1, 2});
    ASSERT_TRUE(around.has_value());
    EXPECT_GE(*around, kSqrt2 + 2.0 - 1e-4) << cellSize;
  }
}

TEST(GridPath, StraightLineAcrossAnOpenMap) {
  std::unique_ptr<GridNav> nav = buildGrid(parseRows({"......", "......", "......", "......"}));
  ASSERT_TRUE(nav);
  const std::optional<double> length = nav->pathLength({0, 0}, {5, 3});
  ASSERT_TRUE(length.has_value());
  // Any angle: the straight line; 8-connected: three diagonals and two straight steps.
  EXPECT_NEAR(*length, std::hypot(5.0, 3.0), 1e-4);
  EXPECT_LT(*length, 3.0 * kSqrt2 + 2.0);
}

TEST(GridPath, AroundOneBlockByHand) {
  // From the left of the centre block to its right. The sectors (grown along +X,
  // then +Z) are the two rows below the block (z 0..2), the block's left (x 0..2,
  // z 2..5), its right (x 3..5, z 2..5) and above it (x 2..3, z 3..5). A grid
  // map's tiles are free, so portals span the sectors' whole shared edges: on
  // z = 2 from x = 0 to 2, and from 3 to 5. Through their midpoints below is
  // cheaper (4.41 against 5.24), so the corridor is left -> below -> right,
  // and the path turns at the block's corners (2, 2) and (3, 2): the any-angle
  // optimum, shorter than the 8-connected path (2 sqrt 2 + 2).
  std::unique_ptr<GridNav> nav =
      buildGrid(parseRows({".....", ".....", "..@..", ".....", "....."}));
  ASSERT_TRUE(nav);
  SearchOptions midpoints;
  midpoints.portalPoint = PortalPoint::Midpoint;
  const std::optional<double> length = nav->pathLength({0, 2}, {4, 2}, midpoints);
  ASSERT_TRUE(length.has_value());
  EXPECT_NEAR(*length, 2.0 * std::hypot(1.5, 0.5) + 1.0, 1e-4);
  EXPECT_LT(*length, 2.0 * kSqrt2 + 2.0);
}

// Brute force: the shortest any-angle path for a point among blocked tiles,
// through a visibility graph of the blocks' convex corners. A segment may run
// along a block's side and touch its corners, but not enter a block, run
// between two blocks, or pass through a point where two blocks touch diagonally.
class AnyAngle {
 public:
  explicit AnyAngle(const GridMap& map) : m_map(map) {
    for (int32_t y = 0; y <= map.height; ++y) {
      for (int32_t x = 0; x <= map.width; ++x) {
        const int blocked =
            blockedAt(x - 1, y - 1) + blockedAt(x, y - 1) + blockedAt(x - 1, y) + blockedAt(x, y);
        if (blocked == 1) m_corners.push_back({double(x), double(y)});
      }
    }
  }

  /// Length of the shortest path, or infinity when there is none.
  double shortest(glm::dvec2 start, glm::dvec2 goal) const {
    std::vector<glm::dvec2> nodes = m_corners;
    nodes.push_back(start);
    nodes.push_back(goal);
    const size_t n = nodes.size();
    std::vector<double> dist(n, INFINITY);
    std::vector<bool> done(n, false);
    dist[n - 2] = 0.0;
    for (;;) {  // Dijkstra, quadratic: a few dozen nodes
      size_t u = n;
      for (size_t i = 0; i < n; ++i) {
        if (!done[i] && std::isfinite(dist[i]) && (u == n || dist[i] < dist[u])) u = i;
      }
      if (u == n) return INFINITY;
      if (u == n - 1) return dist[u];
      done[u] = true;
      for (size_t v = 0; v < n; ++v) {
        if (done[v] || !visible(nodes[u], nodes[v])) continue;
        dist[v] = std::min(dist[v], dist[u] + glm::distance(nodes[u], nodes[v]));
      }
    }
  }

  bool visible(glm::dvec2 a, glm::dvec2 b) const {
    const glm::dvec2 d = b - a;
    // Split the segment where it crosses grid lines; test each piece's middle.
    std::vector<double> cuts = {0.0, 1.0};
    for (int axis = 0; axis < 2; ++axis) {
      if (d[axis] == 0.0) continue;
      const double lo = std::min(a[axis], b[axis]), hi = std::max(a[axis], b[axis]);
      for (double k = std::ceil(lo); k <= hi; k += 1.0) {
        const double t = (k - a[axis]) / d[axis];
        if (t > 0.0 && t < 1.0) cuts.push_back(t);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      // A grid vertex inside the segment must not be a pinch: whichever way a
      // line goes through it, it goes from one free tile's side to the other's.
      const glm::dvec2 p = a + d * cuts[i + 1];
      const glm::dvec2 vertex = glm::round(p);
      if (i + 2 < cuts.size() && glm::distance(p, vertex) < 1e-9) {
        const int32_t x = int32_t(vertex.x), y = int32_t(vertex.y);
        if ((blockedAt(x - 1, y - 1) && blockedAt(x, y) && !blockedAt(x, y - 1) &&
             !blockedAt(x - 1, y)) ||
            (blockedAt(x, y - 1) && blockedAt(x - 1, y) && !blockedAt(x - 1, y - 1) &&
             !blockedAt(x, y)))
          return false;
      }
      if (cuts[i + 1] - cuts[i] < 1e-12) continue;
      const glm::dvec2 m = a + d * ((cuts[i] + cuts[i + 1]) * 0.5);
      const bool onX = m.x == std::floor(m.x), onZ = m.y == std::floor(m.y);
      const int32_t x = int32_t(std::floor(m.x)), y = int32_t(std::floor(m.y));
      // Along a grid line, one free side is enough; inside a tile, it must be free.
      if (onX && blockedAt(x - 1, y) && blockedAt(x, y)) return false;
      if (onZ && blockedAt(x, y - 1) && blockedAt(x, y)) return false;
      if (!onX && !onZ && blockedAt(x, y)) return false;
    }
    return true;
  }

 private:
  bool blockedAt(int32_t x, int32_t y) const { return m_map.isBlocked(x, y); }

  const GridMap& m_map;
  std::vector<glm::dvec2> m_corners;
};

bool connected4(const GridMap& map, glm::ivec2 start, glm::ivec2 goal) {
  std::vector<bool> seen(size_t(map.width * map.height), false);
  std::queue<glm::ivec2> open;
  open.push(start);
  seen[size_t(start.y * map.width + start.x)] = true;
  while (!open.empty()) {
    const glm::ivec2 p = open.front();
    open.pop();
    if (p == goal) return true;
    for (const glm::ivec2 step :
         {glm::ivec2(1, 0), glm::ivec2(-1, 0), glm::ivec2(0, 1), glm::ivec2(0, -1)}) {
      const glm::ivec2 q = p + step;
      if (map.isBlocked(q.x, q.y) || seen[size_t(q.y * map.width + q.x)]) continue;
      seen[size_t(q.y * map.width + q.x)] = true;
      open.push(q);
    }
  }
  return false;
}

TEST(GridPath, RandomMapsAgainstBruteForce) {
  std::mt19937 rng(12345);
  int compared = 0;
  for (int round = 0; round < 30; ++round) {
    std::vector<std::string> rows(7, std::string(8, '.'));
    for (std::string& row : rows) {
      for (char& c : row)
        c = std::uniform_real_distribution<double>(0.0, 1.0)(rng) < 0.3 ? '@' : '.';
    }
    rows[0][0] = '.';
    const GridMap map = parseRows(rows);
    std::unique_ptr<GridNav> nav = buildGrid(map);
    ASSERT_TRUE(nav);
    const AnyAngle anyAngle(map);
    std::vector<glm::ivec2> open;
    for (int32_t y = 0; y < map.height; ++y) {
      for (int32_t x = 0; x < map.width; ++x) {
        if (!map.isBlocked(x, y)) open.push_back({x, y});
      }
    }
    for (int pair = 0; pair < 12; ++pair) {
      const glm::ivec2 start = open[rng() % open.size()], goal = open[rng() % open.size()];
      const std::optional<double> length = nav->pathLength(start, goal);
      // Found exactly when the tiles are 4-connected (no corner squeezing).
      ASSERT_EQ(length.has_value(), connected4(map, start, goal))
          << "round " << round << " from (" << start.x << ", " << start.y << ") to (" << goal.x
          << ", " << goal.y << ")";
      if (!length) continue;
      const double best = anyAngle.shortest(glm::dvec2(start) + 0.5, glm::dvec2(goal) + 0.5);
      ASSERT_TRUE(std::isfinite(best));
      // Never through a block nor between two that touch at a corner.
      EXPECT_GE(*length, best - 1e-4) << "round " << round << " from (" << start.x << ", "
                                      << start.y << ") to (" << goal.x << ", " << goal.y << ")";
      ++compared;
    }
  }
  EXPECT_GT(compared, 200);
}

TEST(GridPath, BruteForceKnowsTheRules) {
  // The oracle itself, on the hand-made cases: no squeeze, sides and corners may be touched.
  const GridMap detour = parseRows({"...", ".@.", "@.."});
  EXPECT_NEAR(AnyAngle(detour).shortest({0.5, 1.5}, {1.5, 2.5}), kSqrt2 + 2.0, 1e-9);
  EXPECT_FALSE(AnyAngle(detour).visible({1.0, 0.5}, {1.0, 2.5}));  // along x = 1 through the pinch
  EXPECT_TRUE(AnyAngle(detour).visible({1.0, 0.5}, {1.0, 1.5}));   // along the block's side
  const GridMap pinch = parseRows({"@.", ".@"});
  EXPECT_FALSE(std::isfinite(AnyAngle(pinch).shortest({1.5, 0.5}, {0.5, 1.5})));
  const GridMap block = parseRows({".....", ".....", "..@..", ".....", "....."});
  EXPECT_NEAR(AnyAngle(block).shortest({0.5, 2.5}, {4.5, 2.5}), 2.0 * std::hypot(1.5, 0.5) + 1.0,
              1e-9);
}

// The shared Moving AI benchmark: every scenario of arena.map.scen.
TEST(GridPath, ArenaScenariosAreNeverLongerThanOctile) {
  const std::string mapPath = test::sharedFile("movingai/arena.map");
  const std::string scenPath = test::sharedFile("movingai/arena.map.scen");
  if (mapPath.empty() || scenPath.empty()) GTEST_SKIP() << "../shared/movingai is absent";
  Result<GridMap> map = loadGridMap(mapPath);
  ASSERT_TRUE(map.ok()) << map.error();
  const Result<std::vector<GridScenario>> scenarios = loadGridScenarios(scenPath);
  ASSERT_TRUE(scenarios.ok()) << scenarios.error();
  ASSERT_GE(scenarios.value().size(), 50u);
  std::unique_ptr<GridNav> nav = buildGrid(std::move(map).value());
  ASSERT_TRUE(nav);
  double ratioSum = 0.0;
  const size_t count = scenarios.value().size();
  for (size_t i = 0; i < count; ++i) {
    const GridScenario& s = scenarios.value()[i];
    EXPECT_EQ(checkGridScenario(nav->map, s, scenPath), "");
    const std::optional<double> length = nav->pathLength(s.start, s.goal);
    ASSERT_TRUE(length.has_value()) << "scenario " << i << " (line " << s.line << ")";
    // The .scen rounds to 5 decimals; float paths add a little more.
    EXPECT_LE(*length, s.optimalLength * (1.0 + 1e-5) + 1e-4)
        << "scenario " << i << " (line " << s.line << ")";
    EXPECT_GE(*length, glm::distance(glm::dvec2(s.start), glm::dvec2(s.goal)) - 1e-4);
    ratioSum += *length / s.optimalLength;
  }
  // Any-angle paths through the default crossing-point search: clearly shorter on average.
  EXPECT_LT(ratioSum / double(count), 0.97);
}

TEST(GridMapPath, TheExtensionInAnyCase) {
  EXPECT_TRUE(isGridMapPath("maps/arena.map"));
  EXPECT_TRUE(isGridMapPath("ARENA.MAP"));
  EXPECT_FALSE(isGridMapPath("arena.map.scen"));
  EXPECT_FALSE(isGridMapPath("map"));
  EXPECT_TRUE(isNavFilePath("level.Nav"));
  EXPECT_FALSE(isNavFilePath("level.nav.obj"));
}

}  // namespace
}  // namespace nav
