#pragma once
// Shortcuts through a corridor the A* over portals found. Its nodes keep one
// arrival a portal, at the point where the string pulled so far crosses it
// towards the goal; where the way must turn away from the goal, an arrival
// through narrow sectors at a wall's corner can beat the one that went
// straight across, and the corridor detours through sectors the way need not
// enter (up to 6 % longer on dungeon.obj). Where a corridor sector has a walk
// portal straight into a later corridor sector and the path turns inside the
// sectors between, the corridor without them is pulled too, and kept when its
// path is shorter: a repair that never lengthens.
#include <cstdint>
#include <vector>

#include "nav/corridor.h"
#include "nav/funnel.h"
#include "nav/nav_graph.h"

namespace nav {

/// Takes the shortcuts above when the corridor walks ground of one surface
/// through walk portals only (a shortcut then saves length and cost alike),
/// pulling the shortened corridor as pullCorridor does. When it keeps them,
/// `corridor` and `funnel` hold the shorter way and `leftOut` the sectors
/// left out; otherwise `leftOut` is empty.
void takeShortcuts(const NavGraph& graph, Corridor& corridor, FunnelResult& funnel,
                   bool recordSteps, std::vector<uint32_t>& leftOut);

}  // namespace nav
