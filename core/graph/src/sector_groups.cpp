#include "nav/sector_groups.h"

#include <numeric>

namespace nav {

void groupSectors(const std::vector<uint32_t>& groupOf, uint32_t groups,
                  std::vector<uint32_t>& first, std::vector<uint32_t>& sectors) {
  first.assign(groups + 1, 0);
  for (const uint32_t group : groupOf)
    ++first[group + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  sectors.resize(groupOf.size());
  std::vector<uint32_t> next(first.begin(), first.end() - 1);
  for (uint32_t s = 0; s < groupOf.size(); ++s)
    sectors[next[groupOf[s]]++] = s;
}

}  // namespace nav
