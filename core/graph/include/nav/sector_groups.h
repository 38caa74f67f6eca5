#pragma once
// Sectors in groups (islands, strong components, search regions): each
// sector's group, and the sectors listed group by group.
#include <cstdint>
#include <span>
#include <vector>

namespace nav {

class SectorGroups {
 public:
  /// No groups.
  SectorGroups() = default;
  /// From each sector's group, every one below `groups`.
  SectorGroups(std::vector<uint32_t> groupOf, uint32_t groups);

  bool empty() const { return m_ofSector.empty(); }
  uint32_t count() const { return uint32_t(m_first.empty() ? 0 : m_first.size() - 1); }
  /// The group of a sector. [0, count())
  uint32_t of(uint32_t sector) const { return m_ofSector[sector]; }
  /// The sectors of a group, in increasing order.
  std::span<const uint32_t> sectors(uint32_t group) const {
    return {m_sectors.data() + m_first[group], m_sectors.data() + m_first[group + 1]};
  }
  size_t memoryBytes() const;

 private:
  std::vector<uint32_t> m_ofSector;
  /// Group g is m_sectors[m_first[g], m_first[g + 1]).
  std::vector<uint32_t> m_sectors;
  std::vector<uint32_t> m_first;
};

}  // namespace nav
