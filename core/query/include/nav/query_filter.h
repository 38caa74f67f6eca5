#pragma once
// The query filter: what a path may use and what each part of the way costs
// (keys held, surface costs and exclusions, the unit's kind, the waypath bias,
// the unit's speed for devices). Every search method costs the way through
// the same FilterCosts, worked out once per query from the filter and the graph.
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nav/jump_portals.h"
#include "nav/nav_graph.h"

namespace nav {

struct QueryFilter {
  /// Keys the unit holds: a locked device whose key is not here is closed.
  std::vector<std::string> keys;
  /// Cost per metre walked on a surface, by surface name; others keep the graph's cost. [> 0]
  std::map<std::string, float> surfaceCosts;
  /// Surfaces the path may not enter.
  std::vector<std::string> excludedSurfaces;
  /// Kind of the unit asking, for waypaths and surfaces kept to one kind;
  /// unset: the kind the graph was built for.
  std::optional<UnitKind> unitKind;
  /// Cost per metre along a waypath. [> 0]
  float waypathBias = 0.75f;
  /// Turns device times into distance: cost = wait and travel time x speed. [m/s, > 0]
  float unitSpeed = 1.4f;

  bool operator==(const QueryFilter&) const = default;
};

/// A filter applied to a graph. Reused from query to query, it keeps its
/// arrays, and remakes the surface costs only when the filter, the unit kind
/// or the graph's surface table changed (looking surfaces up by name is a
/// tenth of a short query).
class FilterCosts {
 public:
  void prepare(const NavGraph& graph, const QueryFilter& filter);

  /// The cost of a walked metre in the sector: its surface's, or the waypath
  /// bias on a waypath; infinity where the query may not go.
  float sectorCost(const Sector& sector) const {
    if (sector.kind == SectorKind::Waypath) {
      return m_waypathClosed[sector.waypath] ? std::numeric_limits<float>::infinity()
                                             : m_filter.waypathBias;
    }
    return surfaceCost(sector.surface);
  }
  /// Some surface is closed to the query (its metre costs infinity). When
  /// none is, a walk portal (which never leads onto a waypath) needs no look
  /// at the sector it leads into to know the query may enter it.
  bool closesSurface() const { return m_closesSurface; }
  /// The cost of a walked metre on a surface (a graph without a surface table walks at 1).
  float surfaceCost(uint16_t surface) const {
    return surface < m_surfaceCost.size() ? m_surfaceCost[surface] : 1.0f;
  }
  /// The cost of a device portal from its entry to its exit, or infinity when it is locked to the
  /// query.
  float deviceCost(const Portal& portal) const;
  /// The cost of a jump from takeoff to landing.
  float jumpCost(const JumpPortal& jump) const;
  /// True when the unit may use the device: it is not locked, or the unit holds its key.
  bool opens(const DeviceSpec& device) const;

  /// A waypath the query's unit may ride.
  bool anyWaypathOpen() const { return m_anyWaypathOpen; }
  /// Distance along waypath w from its first point to each of its points;
  /// empty for a waypath the unit may not ride.
  const std::vector<float>& waypathLength(uint32_t w) const { return m_waypathLength[w]; }
  /// The cheapest metre anywhere, waypaths included: scales the heuristic so it stays a lower
  /// bound.
  float cheapest() const { return m_cheapest; }
  /// The same without waypaths (devices cost at least 1 a metre).
  float cheapestGround() const { return m_cheapestGround; }
  /// The cheapest metre in a dead-end region (dead_end_regions.h).
  float cheapestIn(const RegionContents& contents) const;

 private:
  const NavGraph* m_graph = nullptr;
  QueryFilter m_filter;
  std::vector<float> m_surfaceCost;
  /// What m_surfaceCost was made from, with m_filter.
  std::vector<SurfaceSpec> m_costedSurfaces;
  UnitKind m_costedKind = UnitKind::Human;
  bool m_surfaceCostsMade = false;
  float m_cheapestSurface = 1.0f;
  bool m_closesSurface = false;
  std::vector<bool> m_waypathClosed;
  bool m_anyWaypathOpen = false;
  std::vector<std::vector<float>> m_waypathLength;
  float m_cheapest = 1.0f;
  float m_cheapestGround = 1.0f;
};

}  // namespace nav
