#pragma once
// Moving AI grid benchmarks (Sturtevant 2012, movingai.com/benchmarks): a .map
// file becomes a level (a floor with a box on every blocked tile) and a .scen
// file lists start/goal pairs with their optimal 8-connected grid lengths.
//
// Tile (x, y) covers [x, x + 1] x [y, y + 1] in the world's X and Z (1 m
// tiles, y -> Z); scenario points stand at tile centres (x + 0.5, 0, y + 0.5).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nav/file_extension.h"
#include "nav/level.h"
#include "nav/result.h"

namespace nav {

/// A grid map as read from a .map file.
struct GridMap {
  /// Path the map was loaded from (used in messages).
  std::string source;
  /// Tiles along x (world X). [1, GridMapLimits::maxSide]
  int32_t width = 0;
  /// Tiles along y (world Z). [1, GridMapLimits::maxSide]
  int32_t height = 0;
  /// Row-major (y * width + x), 1 where a walker cannot enter the tile.
  std::vector<uint8_t> blocked;

  /// Tiles outside the map count as blocked.
  bool isBlocked(int32_t x, int32_t y) const {
    return x < 0 || y < 0 || x >= width || y >= height ||
           blocked[size_t(y) * size_t(width) + size_t(x)] != 0;
  }
};

struct GridMapLimits {
  /// Files larger than this are refused before reading. [bytes]
  uint64_t maxFileBytes = 64ull << 20;
  /// Largest width or height of a map. [tiles]
  int32_t maxSide = 4096;
  /// A .scen file with more scenarios than this is refused.
  size_t maxScenarios = 1'000'000;
};

/// Parses .map text: "type octile", "height H", "width W" (either order),
/// "map", then H rows of W characters. Passable: '.', 'G', 'S' (swamp);
/// blocked: '@', 'O' (out of bounds), 'T' (trees), 'W' (water: a walker
/// cannot wade). Errors name `name` and the line ("name:line: ...").
Result<GridMap> parseGridMap(std::string_view text, std::string_view name,
                             const GridMapLimits& limits = {});
Result<GridMap> loadGridMap(const std::string& path, const GridMapLimits& limits = {});
/// True when the path ends in .map (any case): a Moving AI grid map.
inline bool isGridMapPath(const std::string& path) {
  return hasExtension(path, ".map");
}

/// How a grid map becomes a level.
struct GridLevelOptions {
  /// Cell size of the build. A tile centre must be a cell centre (the grid
  /// starts at the map's corner), so 1 / cellSize must be an odd whole number:
  /// 1, 1/3, 1/5, ... Smaller cells give portals closer to the tile edges
  /// (they span cell centres), hence shorter paths, for more cells. [metres]
  float cellSize = 1.0f / 3.0f;
  /// Height of the box on each blocked tile; above the unit. [metres, > unitHeight]
  float blockHeight = 2.0f;
  /// A map whose runs of tiles make more triangles than this is refused
  /// before any is made (a checkerboard 4096 tiles a side makes 100 M), as
  /// LoadLimits::maxTriangles refuses a level file.
  uint64_t maxTriangles = 20'000'000;
};

/// The unit a grid level is built for: point-sized (0.02 m wide, 1 m tall, no
/// step), so it passes between blocked tiles that share an edge but never
/// through a gap where two touch only at a corner (it steps N/E/S/W only).
UnitProfile gridUnit();

/// The level of a grid map: a floor strip (y = 0) for every run of passable
/// tiles in a row and a closed box for every run of blocked tiles, spanning
/// exactly [0, width] x [0, height] in X and Z. Its settings hold gridUnit(),
/// the cell size, and one seed per 4-connected region of passable tiles (so
/// the fill never starts on a box's top). Fails when the cell size does not
/// put tile centres on cell centres or the block is not above the unit.
Result<Level> gridMapLevel(const GridMap& map, const GridLevelOptions& options = {});

/// World point of a tile's centre on the floor: (x + 0.5, 0, y + 0.5).
inline glm::vec3 gridTileCenter(int32_t x, int32_t y) {
  return {float(x) + 0.5f, 0.0f, float(y) + 0.5f};
}

/// One line of a .scen file.
struct GridScenario {
  /// Line in the .scen file (1-based), for messages.
  uint32_t line = 0;
  int32_t bucket = 0;
  /// The map's name as written (usually a path relative to the benchmark set).
  std::string map;
  /// Size of the map the scenario was made for. [tiles]
  int32_t mapWidth = 0, mapHeight = 0;
  /// Tile coordinates (x, y).
  glm::ivec2 start{0}, goal{0};
  /// Optimal 8-connected length (diagonal sqrt 2, no corner cutting). [tiles = metres]
  double optimalLength = 0.0;
};

/// Parses .scen text: "version 1" (or 1.0), then per scenario nine fields
/// separated by tabs or spaces: bucket, map, map width, map height, start x,
/// start y, goal x, goal y, optimal length. Blank lines are skipped. Errors name
/// `name` and the line.
Result<std::vector<GridScenario>> parseGridScenarios(std::string_view text, std::string_view name,
                                                     const GridMapLimits& limits = {});
Result<std::vector<GridScenario>> loadGridScenarios(const std::string& path,
                                                    const GridMapLimits& limits = {});

/// Checks a scenario against the map it runs on: the map's size as the
/// scenario states it, start and goal inside the map on passable tiles.
/// Returns "" when it fits, else a message naming `scenName` and the line.
std::string checkGridScenario(const GridMap& map, const GridScenario& scenario,
                              std::string_view scenName);

}  // namespace nav
