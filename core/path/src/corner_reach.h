#pragma once
// Corners moved out to widened portal ends and their ends' reach. The funnel
// turns at a gate (funnelLegs: a walk portal's end moved back onto the cells
// either side), where the fill tested the unit. Nearer the obstacle's corner
// it often stands clear too: at the end widening moved out (the hull of that
// end and either sector's cells was swept clear, so a stretch may leave it in
// any direction into either sector), or for the path at hand at the end's
// reach (PortalEndReach, worked out with portal widening; stretches must
// leave in directions proven clear). Each corner there moves out when both
// of its stretches are proven near whichever of their ends moved, are
// shorter, and still pass through every portal between the corners around it
// but the end's own gates; a corner turned at on both gates of one end
// becomes one, and two corners that can only move together (one side of a
// narrow sector) move together. Where the way in or on from the moved corner
// would pass a gate on the wrong side, the path also turns at that gate's end
// (a corner added, as the exact search turns there), when that is shorter in
// the ground plane and in 3D; and where a reach proves no way on to the next
// corner, the path turns on the first gate after it, at the point nearest the
// straight way that the reach sees (reachSees in portal_ends.h).
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
/// widened ends and their ends' reach, in order from the start. Returns the
/// number of corners moved; `moved`, when given, gets the index of each.
size_t reachCorners(const NavGraph& graph, std::span<const FunnelPortal> leg,
                    std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
                    std::span<const uint32_t> cornerPortals,
                    std::vector<uint32_t>* moved = nullptr);
/// The same, where a walk portal's end crossed through its two gates
/// (funnelLegs) is turned at twice, once on each side: the two corners become
/// one at the end's reach, erased from `corners` and `cornerPortals` alike;
/// and where a move adds a turn at a gate's end, inserted in both alike.
size_t reachCorners(const NavGraph& graph, std::span<const FunnelPortal> leg,
                    std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
                    std::vector<uint32_t>& cornerPortals, std::vector<uint32_t>* moved = nullptr);

}  // namespace nav
