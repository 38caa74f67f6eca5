#include "nav/locate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nav/portal_ends.h"

namespace nav {
namespace {

// Calls visit(sector) for the ground sectors that may overlap the ground-plane box.
template <class Visit>
void forEachCandidate(const NavGraph& graph, glm::vec2 min, glm::vec2 max, Visit&& visit) {
  if (!graph.index.empty()) {
    graph.index.forEachNear(min, max, visit);
    return;
  }
  for (uint32_t i = 0; i < graph.sectors.size(); ++i) {
    if (graph.sectors[i].kind == SectorKind::Ground) visit(i);
  }
}

// Strictly better, or as good from a lower sector index: the answer does not
// depend on the order sectors are visited in.
bool better(float gap, uint32_t sector, const Location& best, float bestGap) {
  return gap < bestGap || (gap == bestGap && sector < best.sector);
}

}  // namespace

Location locateSector(const NavGraph& graph, const glm::vec3& point) {
  Location best;
  float bestGap = std::numeric_limits<float>::infinity();
  const glm::vec2 ground(point.x, point.z);
  forEachCandidate(graph, ground, ground, [&](uint32_t i) {
    const Sector& sector = graph.sectors[i];
    if (!graph.contains(sector, point.x, point.z)) return;
    const float height = graph.heightAt(sector, point.x, point.z);
    // A point up to one step below the ground still stands on it (the unit steps
    // up), and so does one anywhere inside the unit's box above it.
    if (height > point.y + graph.unit.stepHeight || height < point.y - graph.unit.height) return;
    const float gap = std::abs(point.y - height);
    if (better(gap, i, best, bestGap)) {
      bestGap = gap;
      best = {i, {point.x, height, point.z}, gap};
    }
  });
  return best;
}

Location findNearestSector(const NavGraph& graph, const glm::vec3& point,
                           const glm::vec3& halfExtents) {
  Location best;
  float bestGap = std::numeric_limits<float>::infinity();
  const glm::vec2 ground(point.x, point.z), reach(halfExtents.x, halfExtents.z);
  forEachCandidate(graph, ground - reach, ground + reach, [&](uint32_t i) {
    const glm::vec3 snapped = graph.nearestPoint(graph.sectors[i], point.x, point.z);
    const glm::vec3 offset = glm::abs(snapped - point);
    if (offset.x > halfExtents.x || offset.y > halfExtents.y || offset.z > halfExtents.z) return;
    const float gap = glm::distance(snapped, point);
    if (better(gap, i, best, bestGap)) {
      bestGap = gap;
      best = {i, snapped, gap};
    }
  });
  return best;
}

Location placeOnGraph(const NavGraph& graph, const glm::vec3& point, const glm::vec3& halfExtents) {
  // A point that is not finite (a centroid overflowed, a NaN from a caller) is on no sector.
  if (!isFinite(point) || !isFinite(halfExtents)) return {};
  const Location on = locateSector(graph, point);
  return on.sector != kNoSector ? on : findNearestSector(graph, point, halfExtents);
}

glm::vec3 onCellsNearest(const NavGraph& graph, const Sector& sector, const glm::vec3& to) {
  const float half = 0.5f * graph.cellSize;
  const auto along = [&](float value, float low, float high) {
    const float inLow = std::min(low + half, 0.5f * (low + high));
    const float inHigh = std::max(high - half, inLow);
    return std::clamp(value, inLow, inHigh);
  };
  const float x = along(to.x, sector.bounds.min.x, sector.bounds.max.x);
  const float z = along(to.z, sector.bounds.min.z, sector.bounds.max.z);
  return {x, graph.heightAt(sector, x, z), z};
}

Location placeForPath(const NavGraph& graph, const glm::vec3& point,
                      const glm::vec3& halfExtents) {
  Location located = placeOnGraph(graph, point, halfExtents);
  if (located.sector == kNoSector || !cellsCoverSectors(graph.unit, graph.cellSize))
    return located;
  located.point = onCellsNearest(graph, graph.sectors[located.sector], located.point);
  located.distance = glm::distance(point, located.point);
  return located;
}

}  // namespace nav
