#include "nav/islands.h"

#include <numeric>

#include "nav/nav_graph.h"
#include "nav/sector_groups.h"

namespace nav {

namespace {

// Union-find with path halving; the smaller root wins, so numbering is deterministic.
uint32_t root(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

Islands::Islands(const NavGraph& graph) {
  const uint32_t sectorCount = uint32_t(graph.sectors.size());
  std::vector<uint32_t> parent(sectorCount);
  std::iota(parent.begin(), parent.end(), 0u);
  for (const Portal& portal : graph.portals) {
    if (portal.fromSector >= sectorCount || portal.toSector >= sectorCount) continue;
    const uint32_t a = root(parent, portal.fromSector), b = root(parent, portal.toSector);
    if (a < b) parent[b] = a;
    if (b < a) parent[a] = b;
  }
  // Islands numbered in order of their lowest sector.
  std::vector<uint32_t> islandOf(sectorCount, 0);
  std::vector<uint32_t> number(sectorCount, 0xffffffffu);
  uint32_t islands = 0;
  for (uint32_t s = 0; s < sectorCount; ++s) {
    const uint32_t r = root(parent, s);
    if (number[r] == 0xffffffffu) number[r] = islands++;
    islandOf[s] = number[r];
  }
  m_groups = SectorGroups(std::move(islandOf), islands);
}

std::vector<float> islandAreas(const NavGraph& graph) {
  std::vector<float> areas(graph.islands.count(), 0.0f);
  if (graph.islands.empty()) return areas;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind == SectorKind::Ground) areas[graph.islands.of(s)] += graph.groundArea(sector);
  }
  return areas;
}

}  // namespace nav
