#pragma once
// Levels built in code for tests: boxes and quads with hand-known geometry.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nav/collision.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_graph.h"

namespace nav::test {

/// Adds the 12 triangles of a closed box (outward-facing).
void addBox(Level& level, const Aabb& box, const std::string& material = "");
/// Adds an upward-facing horizontal rectangle at height y.
void addFloor(Level& level, float x0, float z0, float x1, float z1, float y,
              const std::string& material = "");
/// Recomputes bounds after adding geometry.
void finish(Level& level);

/// The graph of a level built for the default human (finish() is called);
/// an empty graph, with a test failure, when the build fails.
NavGraph buildGraph(Level level);
/// A level built as the debugger builds it (its first unit profile, or the
/// default human); nullopt, with a test failure, when the build fails.
std::optional<NavBuild> buildLevel(const Level& level, bool keepCells = false);
/// A bundled level (assets/NAME) built that way with its cells kept, once per
/// test program; an empty build, with a test failure, when it cannot be.
const NavBuild& bundledBuild(const std::string& name);
/// A level, its collision world and its build.
struct BuiltLevel {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;
};
/// A bundled level as the Detour comparison builds it: its geometry alone
/// (no devices, waypaths or surface costs) for a round unit 0.6 m across,
/// 1.8 m tall, stepping and dropping 0.45 m, on cells of 0.3 m; an empty
/// build, with a test failure, when it cannot be built.
BuiltLevel builtForARoundUnit(const std::string& asset);
/// Two 10 x 6 floors, x 0..10 and x 14..24 (z 0..6, y 0), seeded on both, with
/// a 4 m chasm between them that no walk crosses.
Level chasmLevel();

/// What randomSoup makes.
struct SoupShape {
  /// Random triangles of many sizes around the origin (within about 11 m).
  int triangles = 300;
  /// Every fifth triangle made flat and the next upright (floors and walls).
  bool flatsAndWalls = false;
  /// Floors of 2 x 1.5 m and wall boxes of 1 x 2 x 0.5 m on a 0.5 m grid.
  int floors = 12;
  int boxes = 4;
};
/// Random triangles plus axis-aligned floors and boxes: the exact ties, shared
/// edges and axis-parallel faces where trees and exact tests slip. finish()ed.
Level randomSoup(uint32_t seed, const SoupShape& shape = {});

/// The settings the comparisons with Recast/Detour use: cells 0.3, a unit
/// 1.2 x 2.0 m stepping 0.9 on slopes up to 45 degrees, dropping up to maxDrop.
FloodFillParams detourMatchedParams(float maxDrop);

/// The sectors a breadth-first flood from `from` reaches over portals taken
/// either way (or only the way they lead, when `forwardsOnly`), never
/// entering `removed` (kNoSector: none).
std::vector<bool> sectorsReached(const NavGraph& graph, uint32_t from, uint32_t removed = kNoSector,
                                 bool forwardsOnly = false);

/// A random forest of 2 to 61 sectors with about `extraPerSector` more
/// portals a sector: one-way, two-way and device portals, waypath sectors
/// and surfaces 0..69; portals sorted by source, no index built.
NavGraph randomSectorGraph(uint32_t seed, float extraPerSector);

/// The Recast demo's dungeon (../shared/meshes/dungeon.obj) at
/// detourMatchedParams(0.9) with its cells kept, built once per test program;
/// null when ../shared is absent.
const NavBuild* dungeonBuild();
/// Generated terrain of this seed (default size) turned about the vertical
/// axis; an empty level, with a test failure, when it cannot be made.
Level terrainLevel(uint32_t seed, float degrees);
/// terrainLevel built at detourMatchedParams(0.9) with its cells kept, once
/// per (seed, turn).
const NavBuild& terrainBuild(uint32_t seed, float degrees);
/// terrainLevel as navscope_check_exact and the CLI build it: on the grid
/// chooseGridAngle picks, at detourMatchedParams(0.9) for a unit of `shape`,
/// on cells of `cellSize` (Detour's 0.3 m unless a case needs another). [m]
Result<NavBuild> terrainOnChosenGrid(uint32_t seed, float degrees, UnitShape shape,
                                     float cellSize = 0.3f);
/// terrainOnChosenGrid for another unit (its slope as Detour's unit's).
Result<NavBuild> terrainOnChosenGrid(uint32_t seed, float degrees, const UnitProfile& unit,
                                     float cellSize);
/// terrainOnChosenGrid's level with its collision world and its build, for
/// tests that sweep the unit along paths.
struct TerrainOnGrid {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;
};
/// Null, with a test failure, when it cannot be built.
std::unique_ptr<TerrainOnGrid> terrainOnChosenGridWithWorld(uint32_t seed, float degrees,
                                                            UnitShape shape, float cellSize = 0.3f);
/// terrainOnChosenGridWithWorld for another unit (its slope as Detour's unit's).
std::unique_ptr<TerrainOnGrid> terrainOnChosenGridWithWorld(uint32_t seed, float degrees,
                                                            const UnitProfile& unit,
                                                            float cellSize);

/// Path of a file in ../shared, or "" when the shared folder is absent.
std::string sharedFile(const std::string& relative);
/// Path of a bundled asset.
std::string assetFile(const std::string& relative);

}  // namespace nav::test
