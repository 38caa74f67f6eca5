#include "nav/nav_graph.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "nav/portal_ends.h"

namespace nav {
namespace {

// The point of segment ab nearest p.
glm::vec2 nearestOnSegment(const glm::vec2& a, const glm::vec2& b, const glm::vec2& p) {
  const glm::vec2 ab = b - a;
  const float length2 = glm::dot(ab, ab);
  const float t = length2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / length2, 0.0f, 1.0f) : 0.0f;
  return a + ab * t;
}

// Height of a convex polygon at (x, z): on the triangle of its fan from
// corner 0 that the point lies over, the nearest such one when it lies over
// none (rounding at an edge).
float polygonHeight(std::span<const glm::vec3> corners, float x, float z) {
  const glm::vec2 p(x, z);
  float bestHeight = corners[0].y, bestMiss = std::numeric_limits<float>::infinity();
  for (size_t k = 1; k + 1 < corners.size(); ++k) {
    const glm::vec3 &a = corners[0], &b = corners[k], &c = corners[k + 1];
    const glm::vec2 ab = groundOf(b) - groundOf(a), ac = groundOf(c) - groundOf(a);
    const float area = cross2(ab, ac);
    if (area == 0.0f) continue;
    // Barycentric weights of b and c.
    const glm::vec2 ap = p - groundOf(a);
    const float wb = cross2(ap, ac) / area, wc = cross2(ab, ap) / area;
    const float miss = std::max({-wb, -wc, wb + wc - 1.0f, 0.0f});
    if (miss < bestMiss) {
      bestMiss = miss;
      const float u = std::clamp(wb, 0.0f, 1.0f), v = std::clamp(wc, 0.0f, 1.0f - u);
      bestHeight = a.y + u * (b.y - a.y) + v * (c.y - a.y);
      if (miss == 0.0f) break;
    }
  }
  return bestHeight;
}

}  // namespace

bool NavGraph::contains(const Sector& sector, float x, float z) const {
  if (!sector.polygonal()) {
    return x >= sector.bounds.min.x && x <= sector.bounds.max.x && z >= sector.bounds.min.z &&
           z <= sector.bounds.max.z;
  }
  const std::span<const glm::vec3> corners = cornersOf(sector);
  const glm::vec2 p(x, z);
  // Inside a convex polygon: on the inner side of (or on) every edge.
  for (size_t k = 0; k < corners.size(); ++k) {
    const glm::vec2 a = groundOf(corners[k]), b = groundOf(corners[(k + 1) % corners.size()]);
    if (cross2(b - a, p - a) > 0.0f) return false;
  }
  return true;
}

glm::vec3 NavGraph::nearestPoint(const Sector& sector, float x, float z) const {
  if (!sector.polygonal() || contains(sector, x, z)) {
    const float px = std::clamp(x, sector.bounds.min.x, sector.bounds.max.x);
    const float pz = std::clamp(z, sector.bounds.min.z, sector.bounds.max.z);
    return {px, heightAt(sector, px, pz), pz};
  }
  const std::span<const glm::vec3> corners = cornersOf(sector);
  const glm::vec2 p(x, z);
  glm::vec2 best = groundOf(corners[0]);
  for (size_t k = 0; k < corners.size(); ++k) {
    const glm::vec2 on =
        nearestOnSegment(groundOf(corners[k]), groundOf(corners[(k + 1) % corners.size()]), p);
    if (glm::dot(on - p, on - p) < glm::dot(best - p, best - p)) best = on;
  }
  return {best.x, heightAt(sector, best.x, best.y), best.y};
}

glm::vec3 NavGraph::centroid(const Sector& sector) const {
  if (!sector.polygonal()) {
    const glm::vec3 centre = sector.bounds.center();
    return {centre.x, heightAt(sector, centre.x, centre.z), centre.z};
  }
  // The area-weighted mean of the fan's triangles' centroids.
  const std::span<const glm::vec3> corners = cornersOf(sector);
  glm::vec2 sum(0.0f);
  float area = 0.0f;
  for (size_t k = 1; k + 1 < corners.size(); ++k) {
    const float a = std::abs(triArea2(corners[0], corners[k], corners[k + 1]));
    sum += a * (groundOf(corners[0]) + groundOf(corners[k]) + groundOf(corners[k + 1])) / 3.0f;
    area += a;
  }
  glm::vec2 middle;
  if (area > 0.0f) {
    middle = sum / area;
  } else {
    middle = glm::vec2(0.0f);
    for (const glm::vec3& corner : corners)
      middle += groundOf(corner) / float(corners.size());
  }
  return {middle.x, heightAt(sector, middle.x, middle.y), middle.y};
}

float NavGraph::groundArea(const Sector& sector) const {
  if (!sector.polygonal()) {
    const glm::ivec2 columns = sector.lastColumn - sector.firstColumn + 1;
    return float(columns.x) * float(columns.y) * cellSize * cellSize;
  }
  const std::span<const glm::vec3> corners = cornersOf(sector);
  float twice = 0.0f;
  for (size_t k = 1; k + 1 < corners.size(); ++k)
    twice += triArea2(corners[0], corners[k], corners[k + 1]);
  return 0.5f * std::abs(twice);
}

glm::vec3 NavGraph::pointAt(const Sector& sector, float a, float b, float c) const {
  glm::vec2 at;
  if (!sector.polygonal()) {
    at = {glm::mix(sector.bounds.min.x, sector.bounds.max.x, a),
          glm::mix(sector.bounds.min.z, sector.bounds.max.z, b)};
  } else {
    // A fan triangle by its share of the area (a), then a point uniform in it (b, c).
    const std::span<const glm::vec3> corners = cornersOf(sector);
    const float target = a * 2.0f * groundArea(sector);
    size_t k = 1;
    for (float swept = 0.0f; k + 2 < corners.size(); ++k) {
      swept += std::abs(triArea2(corners[0], corners[k], corners[k + 1]));
      if (swept > target) break;
    }
    float u = b, v = c;
    if (u + v > 1.0f) {
      u = 1.0f - u;
      v = 1.0f - v;
    }
    const glm::vec2 o = groundOf(corners[0]);
    at = o + u * (groundOf(corners[k]) - o) + v * (groundOf(corners[k + 1]) - o);
  }
  return {at.x, heightAt(sector, at.x, at.y), at.y};
}

float NavGraph::heightAt(const Sector& sector, float x, float z) const {
  if (sector.polygonal()) {
    return std::clamp(polygonHeight(cornersOf(sector), x, z), sector.bounds.min.y,
                      sector.bounds.max.y);
  }
  if (sector.firstHeight == kNoHeights) {
    const glm::vec3& plane = sector.heightPlane;
    return std::clamp(plane.x * x + plane.y * z + plane.z, sector.bounds.min.y,
                      sector.bounds.max.y);
  }
  const int width = sector.lastColumn.x - sector.firstColumn.x + 1;
  const int depth = sector.lastColumn.y - sector.firstColumn.y + 1;
  // Place among the cell centres, 0 at the first, clamped to the rectangle.
  const float u = std::clamp((x - origin.x) / cellSize - 0.5f - float(sector.firstColumn.x), 0.0f,
                             float(width - 1));
  const float v = std::clamp((z - origin.y) / cellSize - 0.5f - float(sector.firstColumn.y), 0.0f,
                             float(depth - 1));
  const int i = std::min(int(u), std::max(0, width - 2));
  const int j = std::min(int(v), std::max(0, depth - 2));
  const float fu = u - float(i), fv = v - float(j);
  const auto height = [&](int a, int b) {
    const size_t k = sector.firstHeight + size_t(std::min(b, depth - 1)) * size_t(width) +
                     size_t(std::min(a, width - 1));
    return sector.heightBase + sector.heightStep * float(cellHeights[k]);
  };
  const float near = height(i, j) + fu * (height(i + 1, j) - height(i, j));
  const float far = height(i, j + 1) + fu * (height(i + 1, j + 1) - height(i, j + 1));
  return std::clamp(near + fv * (far - near), sector.bounds.min.y, sector.bounds.max.y);
}

size_t NavGraph::memoryBytes() const {
  size_t bytes =
      sectors.capacity() * sizeof(Sector) + portals.capacity() * sizeof(Portal) +
      deviceLinks.capacity() * sizeof(DeviceLink) + reach.capacity() * sizeof(PortalEndReach) +
      cellHeights.capacity() * sizeof(uint16_t) + polygonCorners.capacity() * sizeof(glm::vec3) +
      islands.memoryBytes() + components.memoryBytes() + regions.memoryBytes() +
      soleWayOut.capacity() * sizeof(uint32_t) + deadEnds.memoryBytes() +
      gatePoints.capacity() * sizeof(gatePoints[0]) + turnsPastGates.capacity() +
      waysBackAtAPoint.capacity();
  for (const SurfaceSpec& surface : surfaces)
    bytes += sizeof(SurfaceSpec) + surface.name.capacity();
  for (const DeviceSpec& device : devices) {
    bytes += sizeof(DeviceSpec) + device.id.capacity() + device.key.capacity() +
             device.action.capacity();
  }
  for (const WaypathSpec& waypath : waypaths) {
    bytes +=
        sizeof(WaypathSpec) + waypath.id.capacity() + waypath.points.capacity() * sizeof(glm::vec3);
  }
  return bytes;
}

void finishGraphIndexes(NavGraph& graph) {
  graph.index = SectorIndex(graph);
  graph.islands = Islands(graph);
  graph.components = StrongComponents(graph);
  graph.deadEnds = DeadEndRegions(graph);
  graph.gatePoints = gatePointsOf(graph);
  graph.turnsPastGates = turnsPastGatesOf(graph);
  graph.waysBackAtAPoint = waysBackAtAPointOf(graph);
  const bool polygons = std::any_of(graph.sectors.begin(), graph.sectors.end(),
                                    [](const Sector& sector) { return sector.polygonal(); });
  // Regions group rectangles of cells; a navigation mesh's polygons are its own.
  graph.regions = polygons ? SearchRegions() : SearchRegions(graph);
  graph.soleWayOut.assign(graph.sectors.size(), kNoWayOut);
  for (const Portal& portal : graph.portals) {
    if (portal.fromSector >= graph.sectors.size()) continue;
    uint32_t& way = graph.soleWayOut[portal.fromSector];
    const bool same =
        portal.kind == PortalKind::Walk && (way == kNoWayOut || way == portal.toSector);
    way = same ? portal.toSector : kNoSector;
  }
}

void sortPortalsBySource(NavGraph& graph) {
  std::vector<uint32_t> order(graph.portals.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return graph.portals[a].fromSector < graph.portals[b].fromSector;
  });
  std::vector<uint32_t> newIndex(order.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    newIndex[order[i]] = i;
  std::vector<Portal> sorted;
  sorted.reserve(order.size());
  for (uint32_t old : order) {
    Portal portal = graph.portals[old];
    if (portal.reverse != kNoPortal) portal.reverse = newIndex[portal.reverse];
    sorted.push_back(portal);
  }
  graph.portals = std::move(sorted);
  for (Sector& sector : graph.sectors)
    sector.portalCount = 0;
  for (const Portal& portal : graph.portals)
    ++graph.sectors[portal.fromSector].portalCount;
  // Each sector's range starts where the previous one's ends, empty ones included.
  uint32_t next = 0;
  for (Sector& sector : graph.sectors) {
    sector.firstPortal = next;
    next += sector.portalCount;
  }
}

}  // namespace nav
