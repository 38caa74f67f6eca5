#pragma once
// Compression: cells merged into box sectors, sector edges into portals.
#include "nav/cells.h"
#include "nav/nav_graph.h"

namespace nav {

/// Each cell's sector, indexed like the CellGrid's cells. Kept for inspection and tests.
using CellSectors = std::vector<uint32_t>;

/// Greedily grows maximal rectangles of mutually connected cells with one
/// material, then groups edge cells facing the same neighbour into portals.
NavGraph compressCells(const CellGrid& cells, const UnitProfile& unit,
                       const std::vector<std::string>& materials, CellSectors* cellSectors = nullptr);

}  // namespace nav
