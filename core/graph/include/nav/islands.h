#pragma once
// Islands: the sets of sectors that portals of any kind (walk, device,
// waypath), taken either way, join. No path leaves its island (jump portals
// aside), so a search between two islands can be answered before it starts.
#include <cstdint>
#include <span>
#include <vector>

#include "nav/sector_groups.h"

namespace nav {

struct NavGraph;

class Islands {
 public:
  /// No islands: every query searches.
  Islands() = default;
  explicit Islands(const NavGraph& graph);

  bool empty() const { return m_groups.empty(); }
  /// The island of a sector; sectors of one island share the number. [0, count())
  uint32_t of(uint32_t sector) const { return m_groups.of(sector); }
  uint32_t count() const { return m_groups.count(); }
  /// The sectors of an island, in increasing order.
  std::span<const uint32_t> sectors(uint32_t island) const { return m_groups.sectors(island); }
  size_t memoryBytes() const { return m_groups.memoryBytes(); }

 private:
  SectorGroups m_groups;
};

/// Each island's walkable area: its ground sectors' (NavGraph::groundArea). [m^2, by island]
std::vector<float> islandAreas(const NavGraph& graph);

}  // namespace nav
