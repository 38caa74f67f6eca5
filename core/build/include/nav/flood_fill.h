#pragma once
// Flood fill: a box-shaped (or round) unit explores the level from seed points,
// one cell at a time in four directions, with real collision checks, standing
// only where ground supports its footprint, and falling off ledges one-way.
#include <optional>
#include <string>
#include <vector>

#include "nav/build_control.h"
#include "nav/cells.h"
#include "nav/collision.h"
#include "nav/footprint_support.h"
#include "nav/ground_raster.h"
#include "nav/level_settings.h"
#include "nav/result.h"
#include "nav/unit_profile.h"

namespace nav {

/// Most threads a fill uses.
constexpr int kMaxFillThreads = 64;
/// Threads a build uses unless told otherwise: every core of the machine (the
/// cells are the same for any count), at most kMaxFillThreads.
int machineFillThreads();

struct FloodFillParams {
  UnitProfile unit;
  /// Grid spacing. [metres, > 0]; 0 means half the unit's footprint.
  float cellSize = 0.0f;
  /// Points to start from; empty means a seed on every walkable upward-facing surface.
  std::vector<glm::vec3> seeds;
  /// The fill is refused when the level's estimate is larger, and stops with
  /// an error past this many cells. [>= 1]
  size_t maxCells = 20'000'000;
  /// Threads testing steps. The cells are identical whatever the count.
  /// [1 .. kMaxFillThreads]
  int threads = 1;
  /// Teleports: a cell fully inside an entry zone spawns one at the exit zone's centre.
  std::vector<DeviceSpec> devices;
  /// Per material (Level::materials): false where the unit may not stand (a
  /// surface its kind is not allowed on). Empty: every material is walkable.
  std::vector<bool> walkableMaterials;
};

/// The cell size a build uses for these parameters.
float effectiveCellSize(const FloodFillParams& params);

/// About how many cells a fill finds: the ground-plane area of the walkable
/// upward-facing triangles over the area of a cell. An upper bound for seeded
/// fills, which reach only part of the level.
uint64_t estimateCells(const Level& level, const FloodFillParams& params);

/// Per triangle of the level: may the unit stand on it (params.walkableMaterials
/// of its material). Empty when every material is walkable.
std::vector<bool> walkableTrianglesFor(const Level& level, const FloodFillParams& params);

/// What is wrong with the parameters for this level, checked before any work:
/// the unit, the cell size, the limits, and whether the level's estimated
/// cells (estimateCells) fit under maxCells. The message names the parameter.
std::optional<std::string> fillParamsError(const Level& level, const FloodFillParams& params);

/// The ground raster a fill with these parameters reads (ground_raster.h):
/// squares a cell wide, on the cells' grid.
Result<GroundRaster> buildGroundRaster(const Level& level, const FloodFillParams& params,
                                       BuildControl* control = nullptr);

/// Runs the fill. Fails with a message naming the parameter when parameters are
/// out of range, the cell limit is hit, or the build is cancelled. Problems that
/// do not stop the fill (a device whose exit has no room for the unit) are
/// appended to `warnings` when given. `ground` is buildGroundRaster's for the
/// same level and parameters; without it the fill builds its own.
Result<CellGrid> floodFill(const Level& level, const CollisionWorld& world,
                           const FloodFillParams& params, BuildControl* control = nullptr,
                           std::vector<std::string>* warnings = nullptr,
                           const GroundRaster* ground = nullptr);

}  // namespace nav
