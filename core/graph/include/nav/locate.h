#pragma once
// Finding the sector a point stands in, or the nearest one around it.
#include "nav/nav_graph.h"

namespace nav {

struct Location {
  uint32_t sector = kNoSector;
  /// The point moved onto the sector's ground.
  glm::vec3 point{0.0f};
  /// From the query point to `point`. [metres]
  float distance = 0.0f;
};

/// The ground sector whose rectangle (or polygon) contains the point and whose ground is at
/// most one step above it and at most one unit height below it; the nearest
/// ground wins. Returns sector == kNoSector when no sector holds the point.
/// Uses graph.index when built, else scans every sector.
Location locateSector(const NavGraph& graph, const glm::vec3& point);

/// The closest point of any ground sector within the box point +- halfExtents
/// (as Detour's findNearestPoly), snapped onto that sector's ground; sector ==
/// kNoSector when no sector reaches into the box.
Location findNearestSector(const NavGraph& graph, const glm::vec3& point,
                           const glm::vec3& halfExtents);

/// The sector the point stands in (locateSector), or failing that the nearest
/// one within the half extents (findNearestSector): where a search, a jump or
/// an agent puts a point it was given.
Location placeOnGraph(const NavGraph& graph, const glm::vec3& point, const glm::vec3& halfExtents);

/// The point of the sector's cell centres' rectangle nearest `to` on the
/// ground, at the sector's height. The half cell past a sector's last cell
/// centres, up to its edge, is ground the fill never tested the unit on.
glm::vec3 onCellsNearest(const NavGraph& graph, const Sector& sector, const glm::vec3& to);

/// Where a path stands at a point it was given (a query's start or goal, a
/// jump's takeoff or landing): placeOnGraph's point, moved onto its sector's
/// cell centres (onCellsNearest) when the graph's paths cross portals through
/// gates (funnel.h, cellsCoverSectors): the unit was tested there.
Location placeForPath(const NavGraph& graph, const glm::vec3& point, const glm::vec3& halfExtents);

}  // namespace nav
