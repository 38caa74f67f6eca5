#pragma once
// Portal widening. A walk portal ends at the cell centres nearest its ends,
// where the flood fill saw the unit stand; the half cell beyond, up to the
// sectors' edges, was never tested. Around an obstacle's corner that half cell
// is ground a path gives away: it turns at the last cell centre instead of
// where the unit would touch the corner. Widening moves each end out as far as
// the unit is proven to fit for every path. An end that cannot move for every
// path gets a reach (PortalEndReach): how far out it may move for a path
// whose stretches leave in the directions proven clear (corner_reach.h).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "nav/build_control.h"
#include "nav/collision.h"
#include "nav/ground_raster.h"
#include "nav/nav_graph.h"

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

/// True when every point of a sector's box lies within the footprint of one of
/// its cell centres: cells no wider than a box unit, or than a round unit's
/// radius times the square root of two. Then the box holds no geometry the
/// unit's body meets, which widening's proof and the funnel's gates
/// (funnelLegs in funnel.h) rest on.
bool cellsCoverSectors(const UnitProfile& unit, float cellSize);

/// An end further than this from the cell centres' lines along its portal
/// was moved there by widening, which moves ends by a third of half a cell or
/// more. [metres]
constexpr float kWidenedSlack = 1e-3f;

namespace detail {

// Where a walk portal's end lies among the cell centres' lines along the
// portal (z for a crossing along x, else x): cell centres at whole numbers.
inline float cellsAlongPortal(const NavGraph& graph, const Portal& portal, bool left) {
  const int lateral = kDirectionDx[int(portal.direction)] != 0 ? 1 : 0;
  const float at = groundOf(left ? portal.left : portal.right)[lateral];
  return (at - graph.origin[lateral]) / graph.cellSize - 0.5f;
}

// How far that is from the nearest whole number (no library call: the funnel
// asks for every portal it crosses).
inline float offWhole(float cells) {
  const float nearest = float(int64_t(cells + (cells < 0.0f ? -0.5f : 0.5f)));
  return std::abs(cells - nearest);
}

}  // namespace detail

/// True when this end of a walk portal sits off the cell centres' lines along
/// the portal: widening moved it there (compressCells ends portals at cell
/// centres), so a path may turn there whichever way it goes on through either sector.
inline bool portalEndWidened(const NavGraph& graph, const Portal& portal, bool left) {
  if (portal.kind != PortalKind::Walk || !(graph.cellSize > 0.0f)) return false;
  return detail::offWhole(detail::cellsAlongPortal(graph, portal, left)) * graph.cellSize >
         kWidenedSlack;
}

/// Where this end of a walk portal was before widening: on the portal's line,
/// at the cell centres' line nearest it towards the portal's other end (the
/// end itself when not widened), at the end's height (widening moves an end
/// only onto ground within a few centimetres of the portal's).
inline glm::vec3 unwidenedPortalEnd(const NavGraph& graph, const Portal& portal, bool left) {
  const glm::vec3& end = left ? portal.left : portal.right;
  if (portal.kind != PortalKind::Walk || !(graph.cellSize > 0.0f)) return end;
  const float cells = detail::cellsAlongPortal(graph, portal, left);
  if (!(detail::offWhole(cells) * graph.cellSize > kWidenedSlack)) return end;
  // Widening moved the end out, away from the other: back by less than a cell.
  const int lateral = kDirectionDx[int(portal.direction)] != 0 ? 1 : 0;
  const bool outIsUp = outwardAlong(portal, left)[lateral] > 0.0f;
  const float centre = outIsUp ? std::floor(cells) : std::ceil(cells);
  glm::vec2 at = groundOf(end);
  at[lateral] = graph.origin[lateral] + (centre + 0.5f) * graph.cellSize;
  return {at.x, end.y, at.y};
}

}  // namespace nav
