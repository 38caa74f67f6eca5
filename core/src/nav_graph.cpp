#include "nav/nav_graph.h"

#include <algorithm>
#include <numeric>

namespace nav {

float NavGraph::heightAt(const Sector& sector, float x, float z) const {
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
      cellHeights.capacity() * sizeof(uint16_t) + islands.memoryBytes() + regions.memoryBytes();
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
