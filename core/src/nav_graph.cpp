#include "nav/nav_graph.h"

#include <algorithm>

namespace nav {

float Sector::heightAt(float x, float z) const {
  const float y = heightPlane.x * x + heightPlane.y * z + heightPlane.z;
  return std::clamp(y, bounds.min.y, bounds.max.y);
}

size_t NavGraph::memoryBytes() const {
  size_t bytes = sectors.capacity() * sizeof(Sector) + portals.capacity() * sizeof(Portal);
  for (const std::string& name : materials) bytes += sizeof(std::string) + name.capacity();
  return bytes;
}

}  // namespace nav
