#pragma once
// Where a walk portal's ends sit among the cell centres. compressCells ends a
// portal at the cell centres nearest its ends; widening (portal_widening.h)
// may move an end out by up to half a cell where the unit provably fits. The
// funnel, locate and corner reach ask which ends moved and where they were.
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "nav/nav_graph.h"
#include "nav/unit_profile.h"

namespace nav {

/// True when every point of a sector's box lies within the footprint of one of
/// its cell centres: cells no wider than a box unit, or than a round unit's
/// radius times the square root of two. Then the box holds no geometry the
/// unit's body meets, which widening's proof and the funnel's gates
/// (funnelLegs in funnel.h) rest on.
bool cellsCoverSectors(const UnitProfile& unit, float cellSize);
/// The cells cellsCoverSectors takes must be narrower than this. [metres]
float widestCoveringCell(const UnitProfile& unit);

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
// asks for every portal it crosses). Every float from 2^23 on is whole, and
// converting one past 2^63 would be undefined; a NaN gives 0 too.
inline float offWhole(float cells) {
  if (!(std::abs(cells) < 8388608.0f)) return 0.0f;
  const float nearest = float(int64_t(cells + (cells < 0.0f ? -0.5f : 0.5f)));
  return std::abs(cells - nearest);
}

// Where gatePointsOf puts each of a portal's four gate points.
inline int gateSlot(bool left, bool entering) {
  return (entering ? 2 : 0) + (left ? 0 : 1);
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

/// True when walk portal `second` goes straight back over the line walk
/// portal `first` crossed, between cell rectangles: the path then only
/// touches the sector between, along that line (funnelLegs in funnel.h).
bool backOverTheSameEdge(const NavGraph& graph, const Portal& first, const Portal& second);

/// Where `p` lies along a walk portal's edge line: the coordinate that varies along it.
inline float coordinateAlongTheEdge(const Portal& portal, const glm::vec3& p) {
  return kDirectionDx[int(portal.direction)] != 0 ? p.z : p.x;
}

/// Where walk portal `in` and walk portal `out`, on one edge line, overlap
/// along it: the least and the greatest coordinate (the one that varies
/// along the line) both hold; low > high where a gap lies between them.
std::pair<float, float> overlapAlongTheEdge(const Portal& in, const Portal& out);

/// The point of a portal at coordinate `t` along its edge line (clamped to
/// the portal), heights interpolated.
glm::vec3 pointAlongTheEdge(const Portal& portal, float t);

/// True when walk portal `out`, out of the sector walk portal `in` enters,
/// goes straight back over `in`'s line (backOverTheSameEdge) into a sector
/// other than the one `in` leaves, the two meeting at one point of that line:
/// the funnel pulls such a corridor through that point (funnel.cpp).
bool wayBackAtAPoint(const NavGraph& graph, const Portal& in, const Portal& out);

/// wayBackAtAPoint from walk portal `portal` to any portal of the sector it enters, worked out.
bool computedHasWayBackAtAPoint(const NavGraph& graph, uint32_t portal);

/// For NavGraph::waysBackAtAPoint: computedHasWayBackAtAPoint of every portal.
std::vector<uint8_t> waysBackAtAPointOf(const NavGraph& graph);

/// computedHasWayBackAtAPoint, read from NavGraph::waysBackAtAPoint when the graph has them.
inline bool hasWayBackAtAPoint(const NavGraph& graph, uint32_t portal) {
  if (portal < graph.waysBackAtAPoint.size()) return graph.waysBackAtAPoint[portal] != 0;
  return computedHasWayBackAtAPoint(graph, portal);
}

/// Into which of walk portal `portal`'s sectors a stretch from `reach`, the
/// reach of its left or right end (NavGraph::reach), towards `other` leaves
/// in a direction that reach proves clear: 0 (the from sector) or 1 (the to
/// sector); -1 when it leaves in none (a direction outside that side's
/// range, one along the portal's line, no length at all) or runs further
/// than the reach's length before it meets that sector's cell centres.
int reachLeavesInto(const NavGraph& graph, const Portal& portal, const PortalEndReach& reach,
                    bool left, const glm::vec2& other);

/// What a turn at the reach of walk portal `portal`'s left or right end
/// (NavGraph::reach) sees of the segment [from, to] on the cells of the
/// sector the portal enters: the part whose points a stretch from the
/// reach's point leaves towards into that sector as the reach proves
/// (reachLeavesInto, which both ends of the part pass).
SegmentPart reachSees(const NavGraph& graph, uint32_t portal, bool left, const glm::vec2& from,
                      const glm::vec2& to);

/// A turn past a walk portal's gates (funnel.h): at its left or right end,
/// where widening moved that end out, or at that end's reach.
struct GateTurn {
  uint32_t portal = 0;
  bool left = false;
  bool atReach = false;
};

/// Where the turn stands on the ground.
glm::vec2 gateTurnAt(const NavGraph& graph, const GateTurn& turn);

/// True when a stretch from the turn towards `other` leaves it the way the
/// turn's proof has it clear near the turn: from a reach, into either sector
/// (reachLeavesInto); from a widened end, whose hull with either sector's
/// cells widening swept, into either sector, not along the portal's line.
bool leavesTurnClear(const NavGraph& graph, const GateTurn& turn, const glm::vec2& other);

/// True when the turn's proof alone answers for the whole stretch to
/// `other`: a reach that the stretch leaves clear, no longer than its length.
bool turnCoversStretch(const NavGraph& graph, const GateTurn& turn, const glm::vec2& other);

/// True when the stretch between two turns is proven clear: near each end by
/// that end's proof, unless the other end's proof covers all of it. Corner
/// reach (corner_reach.h) moves corners by this rule, and the exact search
/// turns by it.
bool clearBetweenTurns(const NavGraph& graph, const GateTurn& a, const GateTurn& b);

/// Bits of turnsPastGates: the turns past its gates the exact search may
/// make at a walk portal, and the ends of its leaving gate a reach is
/// entered from.
namespace turn_bits {
/// At its left or right end, moved out by widening.
inline constexpr uint8_t kLeftEnd = 1, kRightEnd = 2;
/// At the reach of its left or right end: one that proves some way on into
/// the sector the portal enters, or whose stretches to a reach of the next
/// portal, or of one a sector further on, that reach alone answers for
/// (turnCoversStretch).
inline constexpr uint8_t kLeftReach = 4, kRightReach = 8;
/// The reach of the left or right end proves the way in straight from the
/// leaving gate's left or right end.
inline uint8_t gateEntersReach(bool reachLeft, bool gateLeft) {
  return uint8_t(16u << ((reachLeft ? 0 : 2) + (gateLeft ? 0 : 1)));
}
}  // namespace turn_bits

/// turn_bits of walk portal `portal` (0 for other portals).
uint8_t computedTurnsPastGates(const NavGraph& graph, uint32_t portal);

/// For NavGraph::turnsPastGates: computedTurnsPastGates of every portal.
std::vector<uint8_t> turnsPastGatesOf(const NavGraph& graph);

/// turn_bits of walk portal `portal`, read from NavGraph::turnsPastGates when
/// the graph has them.
inline uint8_t turnsPastGates(const NavGraph& graph, uint32_t portal) {
  if (portal < graph.turnsPastGates.size()) return graph.turnsPastGates[portal];
  return computedTurnsPastGates(graph, portal);
}

/// gatePoint worked out, for a graph without NavGraph::gatePoints.
glm::vec3 computedGatePoint(const NavGraph& graph, const Portal& portal, bool left, bool entering);

/// The gate point half a cell from an end of walk portal `portal` (where it
/// was before widening) into the sector the path leaves or enters: the cell
/// centre next to the end on that side, on that sector's ground, as its cells
/// are. The funnel's gates (funnel.h) pass through these. Read from
/// NavGraph::gatePoints when the graph has them.
inline glm::vec3 gatePoint(const NavGraph& graph, uint32_t portal, bool left, bool entering) {
  if (portal < graph.gatePoints.size())
    return graph.gatePoints[portal][detail::gateSlot(left, entering)];
  return computedGatePoint(graph, graph.portals[portal], left, entering);
}

/// For NavGraph::gatePoints: per portal, gatePoint for (left, leaving),
/// (right, leaving), (left, entering), (right, entering); 0 off walk portals.
std::vector<std::array<glm::vec3, 4>> gatePointsOf(const NavGraph& graph);

}  // namespace nav
