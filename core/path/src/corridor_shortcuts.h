#pragma once
// Shortcuts and ways round through a corridor the A* over portals found. Its
// nodes keep one arrival a portal, at the point where the string pulled so
// far crosses it towards the goal; where the way must turn away from the
// goal, an arrival through narrow sectors at a wall's corner can beat the one
// that went straight across, and the corridor detours through sectors the way
// need not enter (up to 6 % longer on dungeon.obj). Where a corridor sector
// has a walk portal straight into a later corridor sector and the path turns
// inside the sectors between, the corridor without them is pulled too, and
// kept when its path is shorter: a repair that never lengthens.
// The arrival that won may also have kept the corridor out of sectors the
// way should cross: down a ramp of parallel strips the path runs down one
// strip and turns at its foot (3 % longer on dungeon.obj). Where the path
// turns round a corner with a sector beside the corridor on the inside of
// the turn, a way through one or two such sectors into the corridor is
// tried the same way, after the shortcuts. A kept pull moves the corners,
// which may open shortcuts the searched corridor hid: both are looked for
// again until a round keeps nothing.
#include <cstdint>
#include <vector>

#include "nav/corridor.h"
#include "nav/funnel.h"
#include "nav/nav_graph.h"

namespace nav {

/// Takes the shortcuts and ways round above when the corridor walks ground of
/// one surface through walk portals only (they then save length and cost
/// alike; a way round keeps to that surface), pulling each changed corridor
/// as pullCorridor does. When it keeps one, `corridor` and `funnel` hold the
/// shorter way and `leftOut` the searched corridor's sectors it no longer
/// enters; otherwise `leftOut` is empty.
void takeShortcuts(const NavGraph& graph, Corridor& corridor, FunnelResult& funnel,
                   bool recordSteps, std::vector<uint32_t>& leftOut);

}  // namespace nav
