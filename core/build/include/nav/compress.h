#pragma once
// Compression: cells merged into box sectors, sector edges into portals, and
// devices and waypaths turned into portals and sectors of their own.
#include <string>
#include <vector>

#include "nav/build_control.h"
#include "nav/cells.h"
#include "nav/level_settings.h"
#include "nav/nav_graph.h"

namespace nav {

/// Each cell's sector, indexed like the CellGrid's cells. Kept for inspection and tests.
using CellSectors = std::vector<uint32_t>;

struct CompressParams {
  UnitProfile unit;
  /// Surface of each material (indices into `surfaces`); empty: every material is surface 0.
  std::vector<uint16_t> surfaceOfMaterial;
  /// Surfaces; empty: the built-in table.
  std::vector<SurfaceSpec> surfaces;
  std::vector<DeviceSpec> devices;
  std::vector<WaypathSpec> waypaths;
  /// Longest side of a sector: longer rectangles are cut into even pieces, so
  /// that a sector's portals (and widening them) stay bounded on any level. [cells, >= 1]
  int32_t maxSectorSide = 256;
  /// Threads that find which cells join (the same graph for any number). [1 .. 64]
  int threads = 1;
};

/// Covers the cells with rectangles of mutually connected cells on one surface:
/// as few as the joins allow, and never more than greedy growth gives. Then
/// groups edge cells facing the same neighbour into portals, adds a device
/// portal from every sector a device's zone covers to the sector of its exit,
/// and a dummy sector per waypath joined to the sectors at its points. Waypath
/// points on no sector are reported in `warnings`. Progress goes to `control`;
/// when it asks to cancel, an unfinished graph is returned early (the caller
/// checks the flag and drops it).
NavGraph compressCells(const CellGrid& cells, const CompressParams& params,
                       CellSectors* cellSectors = nullptr,
                       std::vector<std::string>* warnings = nullptr,
                       BuildControl* control = nullptr);

}  // namespace nav
