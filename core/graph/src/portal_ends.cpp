#include "nav/portal_ends.h"

#include <algorithm>
#include <cmath>

namespace nav {

bool cellsCoverSectors(const UnitProfile& unit, float cellSize) {
  // Every point of a sector's box must lie in the footprint of a cell centre:
  // within half a cell along both axes, for a square; half the diagonal, for a disc.
  const float reach = cellSize * 0.5f * (unit.shape == UnitShape::Round ? std::sqrt(2.0f) : 1.0f);
  return cellSize > 0.0f && reach < testedHalfFootprint(unit);
}

namespace {

glm::vec2 gateGround(const NavGraph& graph, const Portal& portal, bool left, bool entering) {
  return groundOf(unwidenedPortalEnd(graph, portal, left)) +
         walkDirection(portal) * (0.5f * graph.cellSize * (entering ? 1.0f : -1.0f));
}

float gateHeight(const NavGraph& graph, const Portal& portal, const glm::vec2& at, bool entering) {
  return graph.heightAt(graph.sectors[entering ? portal.toSector : portal.fromSector], at.x, at.y);
}

// How far the stretch from `from` in unit `direction` runs, up to `length`,
// before it meets the box [low, high] (0 when it starts inside), or
// `length` when it never does.
float runBeforeMeeting(const glm::vec2& from, const glm::vec2& direction, float length,
                       const glm::vec2& low, const glm::vec2& high) {
  float enter = 0.0f, leave = length;
  for (int axis = 0; axis < 2; ++axis) {
    if (direction[axis] == 0.0f) {
      if (from[axis] < low[axis] || from[axis] > high[axis]) return length;
      continue;
    }
    const float t0 = (low[axis] - from[axis]) / direction[axis];
    const float t1 = (high[axis] - from[axis]) / direction[axis];
    enter = std::max(enter, std::min(t0, t1));
    leave = std::min(leave, std::max(t0, t1));
  }
  return enter <= leave ? enter : length;
}

// How far the stretch from `from` in unit `direction`, `length` long, runs in
// the box [low, high] it starts in.
float runInside(const glm::vec2& from, const glm::vec2& direction, float length,
                const glm::vec2& low, const glm::vec2& high) {
  for (int axis = 0; axis < 2; ++axis) {
    if (direction[axis] > 0.0f)
      length = std::min(length, (high[axis] - from[axis]) / direction[axis]);
    if (direction[axis] < 0.0f)
      length = std::min(length, (low[axis] - from[axis]) / direction[axis]);
  }
  return length;
}

}  // namespace

int reachLeavesInto(const NavGraph& graph, const Portal& portal, const PortalEndReach& reach,
                    bool left, const glm::vec2& other) {
  // A stretch shorter than this leaves in no direction. [metres]
  constexpr float kSamePlace = 1e-4f;
  // A stretch this close to running along the portal's line leaves into neither sector.
  constexpr float kAlongTheLine = 1e-6f;
  const glm::vec2 from = groundOf(reach.point);
  glm::vec2 direction = other - from;
  const float length = glm::length(direction);
  if (!(length > kSamePlace)) return -1;
  direction /= length;
  const float into = glm::dot(direction, walkDirection(portal));
  if (std::abs(into) <= kAlongTheLine) return -1;
  const int side = into > 0.0f ? 1 : 0;
  const float out = glm::dot(direction, outwardAlong(portal, left));
  if (!(reach.outwardMin[side] <= out && out <= reach.outwardMax[side])) return -1;
  const Aabb& box = graph.sectors[side == 1 ? portal.toSector : portal.fromSector].bounds;
  const glm::vec2 low = groundOf(box.min), high = groundOf(box.max);
  const glm::vec2 halfCell(0.5f * graph.cellSize);
  const float inBox = runInside(from, direction, length, low, high);
  return runBeforeMeeting(from, direction, inBox, low + halfCell, high - halfCell) <= reach.length
             ? side
             : -1;
}

glm::vec3 computedGatePoint(const NavGraph& graph, const Portal& portal, bool left, bool entering) {
  const glm::vec2 at = gateGround(graph, portal, left, entering);
  return {at.x, gateHeight(graph, portal, at, entering), at.y};
}

std::vector<std::array<glm::vec3, 4>> gatePointsOf(const NavGraph& graph) {
  std::vector<std::array<glm::vec3, 4>> points(graph.portals.size());
  for (size_t p = 0; p < graph.portals.size(); ++p) {
    points[p].fill(glm::vec3(0.0f));
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Walk) continue;
    for (const bool entering : {false, true}) {
      for (const bool left : {true, false})
        points[p][detail::gateSlot(left, entering)] =
            computedGatePoint(graph, portal, left, entering);
    }
  }
  return points;
}

}  // namespace nav
