#pragma once
// Measures of a found path that the search tests compare against, worked out
// from the corridor by the funnel, not by the search under test.
#include <algorithm>
#include <cmath>
#include <vector>

#include "nav/funnel.h"
#include "nav/search.h"

namespace nav::test {

/// Lengths agree within this fraction of the length (floats over tens of metres).
inline double tolerance(double length) {
  return 1e-3 * std::max(1.0, length);
}

inline double groundDistance(const glm::vec3& a, const glm::vec3& b) {
  const double dx = double(b.x) - double(a.x), dz = double(b.z) - double(a.z);
  return std::sqrt(dx * dx + dz * dz);
}

inline double groundLength(const std::vector<glm::vec3>& points) {
  double length = 0.0;
  for (size_t i = 1; i < points.size(); ++i)
    length += groundDistance(points[i - 1], points[i]);
  return length;
}

/// What the corridor's devices cost, as SearchOptions documents it: wait and
/// travel time at unitSpeed, never less than the distance from entry to exit.
inline double deviceCosts(const NavGraph& graph, const Corridor& corridor,
                          const SearchOptions& options) {
  double cost = 0.0;
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    const Portal& portal = corridor.portal(graph, i);
    if (portal.kind != PortalKind::Device) continue;
    const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
    const float distance = glm::distance(graph.entryPoint(portal), graph.exitPoint(portal));
    cost += std::max(distance, device.travelTime * options.filter.unitSpeed) +
            device.waitTime * options.filter.unitSpeed;
  }
  return cost;
}

/// What the query's costs make of a sector's metre (the search's rule: the
/// filter's override, else the surface's own cost).
inline double metreIn(const NavGraph& graph, const SearchOptions& options, const Sector& sector) {
  if (sector.surface >= graph.surfaces.size()) return 1.0;
  const SurfaceSpec& surface = graph.surfaces[sector.surface];
  const auto override = options.filter.surfaceCosts.find(surface.name);
  return override != options.filter.surfaceCosts.end() ? override->second : surface.cost;
}

/// The cost of walking the polyline through the corridor's sectors under the
/// query's surface costs, measured independently of any search: its ground
/// length (a drop off a ledge costs nothing more) sampled every 2 cm, each
/// sample costed at the metre of the corridor sector under it (the one
/// nearest in height where floors overlap).
inline double walkCost(const NavGraph& graph, const Corridor& corridor,
                       const std::vector<glm::vec3>& corners, const SearchOptions& options) {
  double cost = 0.0;
  for (size_t i = 1; i < corners.size(); ++i) {
    const glm::vec3 a = corners[i - 1], b = corners[i];
    const double length = groundDistance(a, b);
    const int steps = std::max(1, int(std::ceil(length / 0.02)));
    for (int k = 0; k < steps; ++k) {
      const glm::vec3 p = glm::mix(a, b, (float(k) + 0.5f) / float(steps));
      double metre = 0.0, nearest = 1e30;
      for (uint32_t s : corridor.sectors) {
        const Sector& sector = graph.sectors[s];
        const float slack = 1e-3f;
        if (p.x < sector.bounds.min.x - slack || p.x > sector.bounds.max.x + slack ||
            p.z < sector.bounds.min.z - slack || p.z > sector.bounds.max.z + slack) {
          continue;
        }
        const double apart = std::abs(graph.heightAt(sector, p.x, p.z) - p.y);
        if (apart < nearest) {
          nearest = apart;
          metre = metreIn(graph, options, sector);
        }
      }
      cost += metre * length / steps;
    }
  }
  return cost;
}

/// Walked ground length of the path pulled through gates (before corners move
/// out to their reach) plus the devices' costs: what a search that walks in
/// the ground plane at one cost a metre minimises.
inline double groundCost(const NavGraph& graph, const Corridor& corridor,
                         const SearchOptions& options) {
  const std::vector<std::vector<FunnelPortal>> legs =
      funnelLegs(graph, corridor, FunnelInput::Gates);
  double cost = 0.0;
  // Walked legs alternate with device, jump and waypath legs.
  for (size_t l = 0; l < legs.size(); l += 2)
    cost += groundLength(stringPull(legs[l]).corners);
  return cost + deviceCosts(graph, corridor, options);
}

}  // namespace nav::test
