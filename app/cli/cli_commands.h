#pragma once
// The headless CLI's commands. Each prints JSON to stdout and returns the exit
// code: 0 on success, 2 on bad input or a level that cannot be built (the
// message names the file, line or flag).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "nav/flood_fill.h"
#include "nav/search.h"

namespace nav::cli {

/// --navmesh: the level's faces are a navigation mesh (navmesh_graph.h);
/// `info` describes them, `build` and `query` search them.
struct NavMeshFlags {
  bool navmesh = false;
  std::optional<float> weld, maxSlopeDegrees;
  bool excludeSteep = false;
};

/// Build settings given on the command line; unset fields keep the level's own.
struct BuildFlags {
  std::optional<float> cellSize;
  /// A unit profile of the level's sidecar, by name; the flags below change it.
  std::string unitName;
  /// "human" or "vehicle".
  std::string unitKind;
  /// "box" or "round".
  std::string unitShape;
  std::optional<float> unitWidth, unitLength, unitHeight, stepHeight, maxDrop, maxSlopeDegrees,
      ledgeOverhang;
  std::optional<size_t> maxCells;
  std::optional<int> threads;
  /// Turn the level about the vertical axis through its bounds' centre first
  /// (rotatedAboutY); points given with it are in the turned level. [degrees]
  std::optional<float> rotateY;
  /// --flip-faces: every face turned over as it is read (LevelReading::flipFaces).
  bool flipFaces = false;
  /// --up-axis ("y" or "z") and --unit-scale: how the file's points are read,
  /// in place of the sidecar's upAxis and unitScale (LevelReading).
  std::optional<std::string> upAxis;
  std::optional<float> unitScale;
  /// --grid-angle: degrees from -45 to 45 (GridFrame::degrees), or "auto";
  /// unset: the sidecar's "gridAngle", else auto (chooseGridAngle).
  std::optional<std::string> gridAngle;
  NavMeshFlags navmesh;
};

/// Refuses --rotate-y, --flip-faces, --up-axis and --unit-scale with a .nav file (its graph is
/// built already): the message for stderr, empty when there is nothing to refuse.
std::string refuseRotatedNav(const std::string& path, const BuildFlags& flags);

int runInfo(const std::string& levelPath, const BuildFlags& flags);
/// `cellsPath` (empty: none) gets every cell's centre at the unit's feet, one "x y z" line each.
int runBuild(const std::string& levelPath, const BuildFlags& flags, const std::string& outputPath,
             const std::string& cellsPath);

/// How a path is searched, and the filter it searches with: what `query` and
/// `scen` share (main.cpp registers the options once for both; searchOptions
/// in cli_commands.cpp checks them).
struct SearchFlags {
  /// --search: "centroid", "midpoint", "crossing" or "exact" (nav::toString(PortalPoint)).
  std::string search = "crossing";
  /// --regions: the A* searches the level's search regions first (fewer
  /// expansions on levels of thin sectors; the path may be longer). Off: the
  /// sectors alone, whatever the core's default is.
  bool regions = false;
  /// The filter: keys, surface costs ("lava=5"), excluded surfaces, waypath bias.
  /// (The unit kind is the graph's: --unit-kind builds for it.)
  std::vector<std::string> keys;
  std::vector<std::string> surfaceCosts;
  std::vector<std::string> excludedSurfaces;
  std::optional<float> waypathBias;
  std::optional<float> heuristicScale;
  std::optional<float> turningRadius;
};

/// --repeat runs each query at most this many times.
constexpr int kMaxRepeat = 1'000'000;
/// A --queries file larger than this is refused before it is read. [bytes]
constexpr uint64_t kMaxQueriesFileBytes = 64ull << 20;
/// A --queries file with more queries than this is refused.
constexpr size_t kMaxQueries = 1'000'000;

struct QueryFlags {
  std::optional<glm::vec3> from, to;
  std::string queriesPath;
  /// Each query runs this many times (1 to kMaxRepeat): "us" is the best time,
  /// "median_us" the median.
  int repeat = 1;
  SearchFlags search;
};
/// `levelPath` is a level (.obj), a Moving AI grid map (.map, built as `scen`
/// builds it: only BuildFlags::cellSize applies) or a graph (.nav, no build flags).
int runQuery(const std::string& levelPath, const BuildFlags& flags, const QueryFlags& query);

/// `scen` settings.
struct ScenFlags {
  std::string scenPath;
  /// "": the map the .scen names, beside it.
  std::string mapPath;
  std::optional<size_t> limit;
  std::optional<float> cellSize;
  SearchFlags search;
};
/// Runs a Moving AI .scen file on its grid map: one JSON line per scenario, then a summary.
int runScen(const ScenFlags& flags);

/// `generate city` settings; checked by runGenerateCity.
struct CityFlags {
  int64_t targetCells = 0;
  uint32_t seed = 1;
  std::string outputPath;
};
/// Writes a procedural city (FILE.obj or FILE.glb, by outputPath, and its
/// sidecar FILE.json) and prints what it wrote.
int runGenerateCity(const CityFlags& flags);

/// `generate terrain` settings; checked by runGenerateTerrain.
struct TerrainFlags {
  uint32_t seed = 1;
  /// Side of the square level. [metres]
  double size = 64.0;
  std::string outputPath;
};
/// Writes procedural terrain (FILE.obj or FILE.glb, by outputPath, and its
/// sidecar FILE.json) and prints what it wrote.
int runGenerateTerrain(const TerrainFlags& flags);

/// Parses "X,Y,Z" into a point; the message names the option.
std::optional<glm::vec3> parsePoint(const std::string& text, const std::string& option,
                                    std::string& error);

}  // namespace nav::cli
