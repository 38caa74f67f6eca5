#include "nav/portal_ends.h"

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

}  // namespace

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
