#pragma once
// Portal widening. A walk portal ends at the cell centres nearest its ends,
// where the flood fill saw the unit stand; the half cell beyond, up to the
// sectors' edges, was never tested. Around an obstacle's corner that half cell
// is ground a path gives away: it turns at the last cell centre instead of
// where the unit would touch the corner. Widening moves each end out as far as
// the unit is proven to fit for every path. An end that cannot move for every
// path gets a reach (PortalEndReach): how far out it may move for a path
// whose stretches leave in the directions proven clear (corner_reach.h).
#include <cstddef>
#include <optional>
#include <vector>

#include "nav/build_control.h"
#include "nav/collision.h"
#include "nav/ground_raster.h"
#include "nav/nav_graph.h"
#include "nav/portal_ends.h"

namespace nav {

/// Moves the ends of two-way walk portals outward along the portal, by up to
/// half a cell (never past either sector's edge), where the unit provably fits:
/// it stands at the new end, on ground as high as the portal's that it may
/// stand on, and what it
/// sweeps from there to every point a path through either sector can turn at
/// (the ends of the sectors' other portals, the corners of their cell centres)
/// touches nothing: a stadium for a round unit, a hexagon for a box. Then every
/// stretch of a path from a widened end through either sector is clear (the
/// argument is in the .cpp). It needs every point of a sector within the
/// footprint of a cell centre (cells no wider than a box unit, or than a round
/// unit's radius times the square root of two); else nothing moves. Returns the
/// number of ends moved.
/// Then each end that did not move a full half cell gets its reach in
/// graph.reach: the furthest of the same widths where the unit stands, with
/// what it sweeps to its portal's other end touching nothing, and per sector
/// the range of directions whose sweeps, from there for a fixed length (see
/// reachLength in the .cpp), touch nothing.
/// `walkableTriangles`: where the unit may stand, as the fill saw it
/// (walkableTrianglesFor; empty: everywhere); `ground`: the fill's ground
/// raster, so that a moved end stands on ground as cells do (none: for a
/// graph made by hand, anywhere it rests clear). For graphs compressCells built.
/// The reaches are worked out on `threads` threads, with the same result for
/// any number. Empty when `control` asks to cancel.
std::optional<size_t> widenPortals(NavGraph& graph, const CollisionWorld& world,
                                   const std::vector<bool>& walkableTriangles = {},
                                   const GroundRaster* ground = nullptr, int threads = 1,
                                   const BuildControl* control = nullptr);

/// For a graph whose sectors' boxes are free for its unit (a grid map's
/// level for its point-sized unit, LevelSettings::freeTiles): every walk
/// portal's ends move out along its line to where either sector's box ends,
/// so that paths turn at the walls' own corners.
void spanSharedEdges(NavGraph& graph);

}  // namespace nav
