#pragma once
// Invariants of a build, checked cell by cell against the fill's own links.
#include <vector>

#include "nav/nav_build.h"

namespace nav::test {

/// Every cell in one sector, sectors mutually connected inside and on one surface
/// (when surfaceOfMaterial is given), walk portals on shared edges, each cell
/// step across sectors covered by a walk portal of the same way-ness.
void checkInvariants(const NavBuild& build, const std::vector<uint16_t>& surfaceOfMaterial = {});

/// The surface of each of the level's materials, as a build resolves them.
std::vector<uint16_t> surfaceOfMaterial(const Level& level);

/// Cells reachable from `start` over cell links and falls (breadth-first).
std::vector<bool> reachableCells(const CellGrid& cells, uint32_t start);

/// Reachability over sectors and walk portals equals reachability over cells.
void checkSameReachability(const NavBuild& build, uint32_t start);

}  // namespace nav::test
