#include "nav/query_filter.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace nav {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

}  // namespace

void FilterCosts::prepare(const NavGraph& graph, const QueryFilter& filter) {
  m_graph = &graph;
  if (!(filter == m_filter)) {
    m_filter = filter;
    m_surfaceCostsMade = false;
  }
  const UnitKind kind = m_filter.unitKind.value_or(graph.unit.kind);
  if (!m_surfaceCostsMade || kind != m_costedKind || graph.surfaces != m_costedSurfaces) {
    m_cheapestSurface = 1.0f;
    m_closesSurface = false;
    m_surfaceCost.resize(graph.surfaces.size());
    for (size_t i = 0; i < graph.surfaces.size(); ++i) {
      const SurfaceSpec& surface = graph.surfaces[i];
      const auto override = m_filter.surfaceCosts.find(surface.name);
      float cost = override != m_filter.surfaceCosts.end() ? override->second : surface.cost;
      const bool excluded =
          std::find(m_filter.excludedSurfaces.begin(), m_filter.excludedSurfaces.end(),
                    surface.name) != m_filter.excludedSurfaces.end();
      if (excluded || !surface.allows(kind) || !(cost > 0.0f)) cost = kInfinity;
      m_surfaceCost[i] = cost;
      m_cheapestSurface = std::min(m_cheapestSurface, cost);
      m_closesSurface = m_closesSurface || cost == kInfinity;
    }
    m_costedSurfaces = graph.surfaces;
    m_costedKind = kind;
    m_surfaceCostsMade = true;
  }
  m_cheapest = m_cheapestSurface;
  m_waypathClosed.resize(graph.waypaths.size());
  m_waypathLength.resize(graph.waypaths.size());
  m_anyWaypathOpen = false;
  for (size_t w = 0; w < graph.waypaths.size(); ++w) {
    const WaypathSpec& waypath = graph.waypaths[w];
    m_waypathClosed[w] = waypath.unitKind && *waypath.unitKind != kind;
    m_anyWaypathOpen = m_anyWaypathOpen || !m_waypathClosed[w];
    std::vector<float>& along = m_waypathLength[w];
    along.clear();
    // Never ridden: a city's car lanes cost a person's query nothing.
    if (m_waypathClosed[w]) continue;
    along.push_back(0.0f);
    for (size_t k = 1; k < waypath.points.size(); ++k)
      along.push_back(along.back() + glm::distance(waypath.points[k - 1], waypath.points[k]));
  }
  m_cheapestGround = m_cheapest;
  // Only a waypath the unit may ride makes a metre cheaper: a level whose
  // waypaths are all for vehicles leaves a person's heuristic whole.
  if (m_anyWaypathOpen) m_cheapest = std::min(m_cheapest, m_filter.waypathBias);
}

bool FilterCosts::opens(const DeviceSpec& device) const {
  return !device.locked ||
         std::find(m_filter.keys.begin(), m_filter.keys.end(), device.key) != m_filter.keys.end();
}

float FilterCosts::deviceCost(const Portal& portal) const {
  const NavGraph& graph = *m_graph;
  const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
  if (!opens(device)) return kInfinity;
  const float flight = glm::distance(graph.entryPoint(portal), graph.exitPoint(portal));
  return std::max(flight, device.travelTime * m_filter.unitSpeed) +
         device.waitTime * m_filter.unitSpeed;
}

float FilterCosts::jumpCost(const JumpPortal& jump) const {
  const float flight =
      glm::distance(m_graph->entryPoint(jump.portal), m_graph->exitPoint(jump.portal));
  return std::max(flight, jump.spec.airTime * m_filter.unitSpeed);
}

float FilterCosts::cheapestIn(const RegionContents& contents) const {
  constexpr uint64_t kHighSurfaces = uint64_t(1) << 63;
  float cheapest = contents.surfaces & kHighSurfaces ? m_cheapestGround : kInfinity;
  for (uint64_t bits = contents.surfaces & ~kHighSurfaces; bits != 0; bits &= bits - 1)
    cheapest = std::min(cheapest, surfaceCost(uint16_t(std::countr_zero(bits))));
  if (contents.waypaths && m_anyWaypathOpen) cheapest = std::min(cheapest, m_filter.waypathBias);
  if (contents.devices) cheapest = std::min(cheapest, 1.0f);
  return cheapest;
}

}  // namespace nav
