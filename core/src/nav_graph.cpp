#include "nav/nav_graph.h"

#include <algorithm>

namespace nav {

float Sector::heightAt(float x, float z) const {
  const float y = heightPlane.x * x + heightPlane.y * z + heightPlane.z;
  return std::clamp(y, bounds.min.y, bounds.max.y);
}

size_t NavGraph::memoryBytes() const {
  size_t bytes = sectors.capacity() * sizeof(Sector) + portals.capacity() * sizeof(Portal) +
                 deviceLinks.capacity() * sizeof(DeviceLink) +
                 reach.capacity() * sizeof(PortalEndReach) + islands.memoryBytes() +
                 regions.memoryBytes();
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

}  // namespace nav
