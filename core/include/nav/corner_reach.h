#pragma once
// Corners moved out to their portal ends' reach. The funnel turns at a walk
// portal's end, which sits where every path may turn clear; for the path at
// hand the unit can often turn up to half a cell further out, nearer the
// obstacle's corner (PortalEndReach, worked out with portal widening). Each
// corner there moves out when both of its stretches leave that point in
// directions proven clear, and still pass through every portal between the
// corners around it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "nav/funnel.h"
#include "nav/nav_graph.h"

namespace nav {

/// Moves the corners stringPull found through `leg` (corner k turns at leg
/// portal cornerPortals[k]; leg portal i is graph portal legPortals[i], or
/// kNoPortal for a start, a goal or a point made up between two portals) out to
/// their ends' reach, in order from the start. Returns the number of corners
/// moved; `moved`, when given, gets the index of each.
size_t reachCorners(const NavGraph& graph, std::span<const FunnelPortal> leg,
                    std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
                    std::span<const uint32_t> cornerPortals,
                    std::vector<uint32_t>* moved = nullptr);

}  // namespace nav
