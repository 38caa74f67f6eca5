#pragma once
// Finding the sector a point stands in.
#include "nav/nav_graph.h"

namespace nav {

struct Location {
  uint32_t sector = kNoSector;
  /// The point moved onto the sector's ground.
  glm::vec3 point{0.0f};
};

/// The sector whose rectangle contains the point and whose ground is at most one
/// step above it and at most one unit height below it; the nearest ground wins.
/// Returns sector == kNoSector when no sector holds the point.
Location locateSector(const NavGraph& graph, const glm::vec3& point);

}  // namespace nav
