#pragma once
// The whole generation pipeline: level -> flood fill -> compression -> NavGraph.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "nav/build_control.h"
#include "nav/cells.h"
#include "nav/collision.h"
#include "nav/compress.h"
#include "nav/flood_fill.h"
#include "nav/level.h"
#include "nav/nav_graph.h"

namespace nav {

struct BuildStats {
  size_t cells = 0;
  size_t sectors = 0;
  size_t portals = 0;
  /// Portal ends moved out by widenPortals.
  size_t widenedPortalEnds = 0;
  /// Portal ends a path may move further out (NavGraph::reach), each counted once.
  size_t reachingPortalEnds = 0;
  /// Bytes of the finished graph.
  size_t graphBytes = 0;
  /// Bytes the cells took at the end of the fill (their peak; freed after compression).
  size_t cellBytes = 0;
  double floodFillMs = 0.0;
  /// Compression, portal widening included.
  double compressMs = 0.0;
  double totalMs = 0.0;
  /// Problems that did not stop the build (a device exit with no room for the unit).
  std::vector<std::string> warnings;
};

struct NavBuild {
  NavGraph graph;
  /// The cells and their sectors, kept only when asked (for drawing and inspection).
  std::optional<CellGrid> cells;
  CellSectors cellSectors;
  /// With the cells, for a unit with a ledge overhang: per cell, whether its
  /// footprint hangs over a ledge (ground would not support it whole).
  std::vector<bool> overhangingCells;
  BuildStats stats;
};

struct BuildOptions {
  bool keepCells = false;
  /// Widen walk portals where the unit fits, or on a grid map's level span
  /// its sectors' shared edges (portal_widening.h); off only to compare.
  bool widenPortals = true;
};

/// Fill parameters for a level and its first unit profile (or the default human).
FloodFillParams defaultFillParams(const Level& level);
/// Fill parameters for a level and a unit: the sidecar's cell size, seeds and
/// devices, and the materials whose surfaces allow the unit's kind.
FloodFillParams fillParamsFor(const Level& level, const UnitProfile& unit);
/// Compression parameters for a level built with `params`: its surfaces, devices and waypaths.
CompressParams compressParamsFor(const Level& level, const FloodFillParams& params);

Result<NavBuild> buildNavigation(const Level& level, const CollisionWorld& world,
                                 const FloodFillParams& params, const BuildOptions& options = {},
                                 BuildControl* control = nullptr);

}  // namespace nav
