// Why the sweeps are enough for what widening adds. A path leaves a widened
// end E through one of the two sectors, towards a point on another of that
// sector's portals or a start or goal among its cell centres, so its stretch
// in the sector lies in a triangle of E and two turn points: that portal's
// ends, or two corners of the cell centres. The triangle's edges are clear:
// the two from E are swept here, and the third is a portal (covered by the
// cells' steps across it) or runs among the cell centres. The unit's footprint
// (a disc or a square) centred in the triangle reaches outside it only within
// a footprint of an edge, which is clear. Inside it, the triangle lies in the
// sector's box, whose every point is within half a cell along both axes of a
// cell centre; while that lies inside the centre's footprint, which holds no
// geometry, the box holds none either. Hence the cell size limit below.
#include "nav/portal_widening.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "nav/flood_fill.h"

namespace nav {
namespace {

// As the flood fill: the unit's footprint shrunk by a millimetre so that
// geometry exactly on its rim does not count, and its body starting a little
// above its ground.
constexpr float kFootprintShrink = 1e-3f;
constexpr float kGroundClearance = 0.02f;
// A widened end stands on ground no further than this from the portal's height. [metres]
constexpr float kGroundTolerance = 0.05f;
// How far from a sector's fitted plane its ground is looked for. [metres]
constexpr float kPlaneReach = 0.5f;
// A height not looked up yet.
constexpr float kUnknown = std::numeric_limits<float>::infinity();
// Widths tried for each end, longest first, as fractions of half a cell.
constexpr float kFractions[] = {1.0f, 2.0f / 3.0f, 1.0f / 3.0f};

float halfFootprint(const UnitProfile& unit) {
  return unit.footprint() * 0.5f - kFootprintShrink;
}

float groundAt(const Sector& sector, float x, float z) {
  return sector.heightPlane.x * x + sector.heightPlane.y * z + sector.heightPlane.z;
}

class Widener {
 public:
  Widener(NavGraph& graph, const CollisionWorld& world, const std::vector<bool>& walkableTriangles)
      : m_graph(graph),
        m_world(world),
        m_walkableTriangles(walkableTriangles),
        m_halfFootprint(halfFootprint(graph.unit)),
        m_halfCell(graph.cellSize * 0.5f),
        m_pieceRise(std::clamp(graph.unit.stepHeight * 0.5f, 0.01f, 0.1f)),
        m_portalsAt(graph.sectors.size()),
        m_endGround(graph.portals.size() * 2, kUnknown),
        m_cornerGround(graph.sectors.size(), {kUnknown, kUnknown, kUnknown, kUnknown}) {
    for (uint32_t p = 0; p < graph.portals.size(); ++p) {
      const Portal& portal = graph.portals[p];
      m_portalsAt[portal.fromSector].push_back(p);
      if (portal.oneWay() || portal.kind != PortalKind::Walk)
        m_portalsAt[portal.toSector].push_back(p);
    }
  }

  size_t run() {
    size_t moved = 0;
    for (uint32_t p = 0; p < m_graph.portals.size(); ++p) {
      const Portal& portal = m_graph.portals[p];
      if (portal.kind != PortalKind::Walk || portal.oneWay() || portal.reverse < p) continue;
      moved += widenEnd(p, true);
      moved += widenEnd(p, false);
    }
    return moved;
  }

 private:
  // Moves one end of portal p (its left end, or its right) and the same end of
  // its reverse, if the unit fits there. True when it moved.
  bool widenEnd(uint32_t p, bool left) {
    Portal& portal = m_graph.portals[p];
    const glm::vec3 end = left ? portal.left : portal.right;
    // Walking in direction w, the walker's left is (w.z, -w.x) on the ground (cross2 < 0).
    const glm::vec2 walk{float(kDirectionDx[int(portal.direction)]),
                         float(kDirectionDz[int(portal.direction)])};
    const glm::vec2 outward = left ? glm::vec2(walk.y, -walk.x) : glm::vec2(-walk.y, walk.x);
    // Along the portal, both sectors' boxes overlap this far: a full half cell
    // lands on the edge exactly, not a rounding beyond it.
    const int lateral = walk.x != 0.0f ? 1 : 0;
    const Aabb& from = m_graph.sectors[portal.fromSector].bounds;
    const Aabb& to = m_graph.sectors[portal.toSector].bounds;
    const float low = std::max(groundOf(from.min)[lateral], groundOf(to.min)[lateral]);
    const float high = std::min(groundOf(from.max)[lateral], groundOf(to.max)[lateral]);
    for (const float fraction : kFractions) {
      glm::vec2 at = groundOf(end) + outward * (fraction * m_halfCell);
      at[lateral] = std::clamp(at[lateral], low, high);
      if (!fits(p, left, glm::vec3(at.x, end.y, at.y))) continue;
      Portal& back = m_graph.portals[portal.reverse];
      // The reverse sees the same edge from the other side: its right end is this left end.
      glm::vec3& mirror = left ? back.right : back.left;
      (left ? portal.left : portal.right) = glm::vec3(at.x, end.y, at.y);
      mirror = glm::vec3(at.x, mirror.y, at.y);
      m_endGround[endIndex(p, left)] = kUnknown;
      m_endGround[endIndex(portal.reverse, !left)] = kUnknown;
      return true;
    }
    return false;
  }

  bool fits(uint32_t p, bool left, const glm::vec3& at) const {
    const UnitProfile& unit = m_graph.unit;
    const StandResult stand = tryStand(m_world, unit, groundOf(at), at.y - unit.stepHeight,
                                       at.y + unit.stepHeight, m_walkableTriangles);
    if (!stand.ok || std::abs(stand.y - at.y) > kGroundTolerance) return false;
    const glm::vec3 ground(at.x, stand.y, at.z);
    const Portal& portal = m_graph.portals[p];
    if (!sweepIsClear(ground, endOnGround(p, !left))) return false;
    for (const uint32_t sector : {portal.fromSector, portal.toSector}) {
      bool clear = true;
      forEachTurnPoint(sector, p, [&](const glm::vec3& point) {
        clear = clear && sweepOutsideCellsIsClear(ground, point, sector);
      });
      if (!clear) return false;
    }
    return true;
  }

  // Where a sweep crosses the rectangle of a sector's cell centres, every
  // footprint on it lies among the cells' own (cells are at most a footprint
  // apart), which hold no geometry: only the rest needs sweeping, a short
  // stretch at each end for the long ways across big sectors.
  bool sweepOutsideCellsIsClear(const glm::vec3& from, const glm::vec3& to, uint32_t s) const {
    const Aabb& bounds = m_graph.sectors[s].bounds;
    const glm::vec2 low = groundOf(bounds.min) + m_halfCell,
                    high = groundOf(bounds.max) - m_halfCell;
    const glm::vec2 start = groundOf(from), along = groundOf(to) - start;
    // The part of the segment inside the rectangle: [enter, leave] (slab clipping).
    float enter = 0.0f, leave = 1.0f;
    for (int axis = 0; axis < 2 && enter <= leave; ++axis) {
      if (along[axis] == 0.0f) {
        if (start[axis] < low[axis] || start[axis] > high[axis]) leave = -1.0f;
        continue;
      }
      const float t0 = (low[axis] - start[axis]) / along[axis];
      const float t1 = (high[axis] - start[axis]) / along[axis];
      enter = std::max(enter, std::min(t0, t1));
      leave = std::min(leave, std::max(t0, t1));
    }
    if (!(enter < leave)) return sweepIsClear(from, to);
    return (enter <= 0.0f || sweepIsClear(from, glm::mix(from, to, enter))) &&
           (leave >= 1.0f || sweepIsClear(glm::mix(from, to, leave), to));
  }

  static size_t endIndex(uint32_t portal, bool left) { return size_t(portal) * 2 + (left ? 0 : 1); }

  // Where the unit rests at ground point p, as the fill would have it (the
  // highest ground under its footprint), near height y; y itself if it cannot stand.
  float supportAt(glm::vec2 p, float y) const {
    const UnitProfile& unit = m_graph.unit;
    const StandResult stand =
        tryStand(m_world, unit, p, y - unit.stepHeight, y + unit.stepHeight, m_walkableTriangles);
    return stand.ok ? stand.y : y;
  }

  // A portal's end at the unit's resting height (remembered: each is asked often).
  glm::vec3 endOnGround(uint32_t portal, bool left) const {
    const Portal& at = m_graph.portals[portal];
    const glm::vec3& end = left ? at.left : at.right;
    float& ground = m_endGround[endIndex(portal, left)];
    if (ground == kUnknown) ground = supportAt(groundOf(end), end.y);
    return {end.x, ground, end.z};
  }

  // The points a path through the sector can turn at, but for portal p's (and
  // its reverse's) own ends: the corners of its cell centres and the ends of
  // its other portals.
  template <class Visit>
  void forEachTurnPoint(uint32_t s, uint32_t p, Visit&& visit) const {
    const Sector& sector = m_graph.sectors[s];
    const glm::vec2 low = groundOf(sector.bounds.min) + m_halfCell;
    const glm::vec2 high = groundOf(sector.bounds.max) - m_halfCell;
    const std::array<glm::vec2, 4> corners = {low, high, glm::vec2(low.x, high.y),
                                              glm::vec2(high.x, low.y)};
    for (size_t c = 0; c < corners.size(); ++c) {
      // The fitted plane can be off the ground by its tolerance: the cell's own ground, near it.
      float& ground = m_cornerGround[s][c];
      if (ground == kUnknown) {
        const float plane = groundAt(sector, corners[c].x, corners[c].y);
        const StandResult stand = tryStand(m_world, m_graph.unit, corners[c], plane - kPlaneReach,
                                           plane + kPlaneReach, m_walkableTriangles);
        ground = stand.ok ? stand.y : plane;
      }
      visit(glm::vec3(corners[c].x, ground, corners[c].y));
    }
    const uint32_t reverse = m_graph.portals[p].reverse;
    for (const uint32_t q : m_portalsAt[s]) {
      const Portal& portal = m_graph.portals[q];
      if (portal.kind != PortalKind::Walk) {
        const glm::vec3 point =
            portal.fromSector == s ? m_graph.entryPoint(portal) : m_graph.exitPoint(portal);
        visit(glm::vec3(point.x, supportAt(groundOf(point), point.y), point.z));
        continue;
      }
      if (q == p || q == reverse) continue;
      visit(endOnGround(q, true));
      visit(endOnGround(q, false));
    }
  }

  // Between two resting heights on a slope, the body's band moves with the
  // ground: swept in pieces (m_pieceRise), each from just above its higher end
  // (on a plane no ground under the sweep is higher) to a body's height above it.
  bool sweepIsClear(const glm::vec3& from, const glm::vec3& to) const {
    const int pieces = std::max(1, int(std::ceil(std::abs(to.y - from.y) / m_pieceRise)));
    for (int i = 0; i < pieces; ++i) {
      if (!pieceIsClear(glm::mix(from, to, float(i) / float(pieces)),
                        glm::mix(from, to, float(i + 1) / float(pieces))))
        return false;
    }
    return true;
  }

  bool pieceIsClear(const glm::vec3& from, const glm::vec3& to) const {
    const float top = std::max(from.y, to.y);
    const float low = top + kGroundClearance, high = top + m_graph.unit.height;
    if (m_graph.unit.shape == UnitShape::Round)
      return !m_world.overlapsStadium({groundOf(from), groundOf(to), m_halfFootprint, low, high});
    return !m_world.overlapsPrism(
        Prism::sweptSquare(groundOf(from), groundOf(to), m_halfFootprint, low, high));
  }

  NavGraph& m_graph;
  const CollisionWorld& m_world;
  const std::vector<bool>& m_walkableTriangles;
  /// The disc's radius, or half the square's side.
  float m_halfFootprint;
  float m_halfCell;
  /// Sweeps between turn points at different heights go in pieces rising at
  /// most this: the lowest part of the body a piece leaves out is a rise the
  /// unit would step onto anyway. [metres]
  float m_pieceRise;
  /// Per sector: its outgoing portals, and the one-way and non-walk portals into it.
  std::vector<std::vector<uint32_t>> m_portalsAt;
  /// Resting heights of portal ends (endIndex) and of sectors' corner cells, found when first
  /// asked.
  mutable std::vector<float> m_endGround;
  mutable std::vector<std::array<float, 4>> m_cornerGround;
};

}  // namespace

size_t widenPortals(NavGraph& graph, const CollisionWorld& world,
                    const std::vector<bool>& walkableTriangles) {
  // Every point of a sector's box must lie in the footprint of a cell centre:
  // within half a cell along both axes, for a square; half the diagonal, for a disc.
  const float reach =
      graph.cellSize * 0.5f * (graph.unit.shape == UnitShape::Round ? std::sqrt(2.0f) : 1.0f);
  if (!(graph.cellSize > 0.0f && reach < halfFootprint(graph.unit))) return 0;
  return Widener(graph, world, walkableTriangles).run();
}

}  // namespace nav
