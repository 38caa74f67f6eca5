#pragma once
// Islands: the sets of sectors that portals of any kind (walk, device,
// waypath), taken either way, join. No path leaves its island (jump portals
// aside), so a search between two islands can be answered before it starts.
#include <cstdint>
#include <span>
#include <vector>

namespace nav {

struct NavGraph;

class Islands {
 public:
  /// No islands: every query searches.
  Islands() = default;
  explicit Islands(const NavGraph& graph);

  bool empty() const { return m_ofSector.empty(); }
  /// The island of a sector; sectors of one island share the number. [0, count())
  uint32_t of(uint32_t sector) const { return m_ofSector[sector]; }
  uint32_t count() const { return uint32_t(m_first.empty() ? 0 : m_first.size() - 1); }
  /// The sectors of an island, in increasing order.
  std::span<const uint32_t> sectors(uint32_t island) const {
    return {m_sectors.data() + m_first[island], m_sectors.data() + m_first[island + 1]};
  }
  size_t memoryBytes() const;

 private:
  std::vector<uint32_t> m_ofSector;
  /// Sectors grouped by island; island i is m_sectors[m_first[i], m_first[i + 1]).
  std::vector<uint32_t> m_sectors;
  std::vector<uint32_t> m_first;
};

/// Each island's walkable area: its ground sectors' (NavGraph::groundArea). [m^2, by island]
std::vector<float> islandAreas(const NavGraph& graph);

}  // namespace nav
