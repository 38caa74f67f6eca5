#include "nav/sector_groups.h"

#include <numeric>
#include <utility>

namespace nav {

SectorGroups::SectorGroups(std::vector<uint32_t> groupOf, uint32_t groups)
    : m_ofSector(std::move(groupOf)) {
  m_first.assign(groups + 1, 0);
  for (const uint32_t group : m_ofSector)
    ++m_first[group + 1];
  std::partial_sum(m_first.begin(), m_first.end(), m_first.begin());
  m_sectors.resize(m_ofSector.size());
  std::vector<uint32_t> next(m_first.begin(), m_first.end() - 1);
  for (uint32_t s = 0; s < m_ofSector.size(); ++s)
    m_sectors[next[m_ofSector[s]]++] = s;
}

size_t SectorGroups::memoryBytes() const {
  return (m_ofSector.capacity() + m_sectors.capacity() + m_first.capacity()) * sizeof(uint32_t);
}

}  // namespace nav
