#include "nav/locate.h"

#include <cmath>
#include <limits>

namespace nav {

// Linear scan: a spatial index replaces it once graphs get large.
Location locateSector(const NavGraph& graph, const glm::vec3& point) {
  Location best;
  float bestGap = std::numeric_limits<float>::infinity();
  for (uint32_t i = 0; i < graph.sectors.size(); ++i) {
    const Sector& sector = graph.sectors[i];
    if (sector.kind != SectorKind::Ground || !sector.containsColumnPoint(point.x, point.z)) continue;
    const float ground = sector.heightAt(point.x, point.z);
    // A point up to one step below the ground still stands on it (the unit steps
    // up), and so does one anywhere inside the unit's box above it.
    if (ground > point.y + graph.unit.stepHeight || ground < point.y - graph.unit.height) continue;
    const float gap = std::abs(point.y - ground);
    // Strictly nearer only, so ties keep the lower sector index.
    if (gap < bestGap) {
      bestGap = gap;
      best.sector = i;
      best.point = {point.x, ground, point.z};
    }
  }
  return best;
}

}  // namespace nav
