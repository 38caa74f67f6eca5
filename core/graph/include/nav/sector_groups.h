#pragma once
// Sectors listed group by group (islands, strong components, search
// regions): one array of sector numbers and one of where each group starts.
#include <cstdint>
#include <vector>

namespace nav {

/// Given each sector's group (groupOf, every one below `groups`): `first`
/// gets groups + 1 offsets and `sectors` the sector numbers, group g's in
/// increasing order at sectors[first[g], first[g + 1]).
void groupSectors(const std::vector<uint32_t>& groupOf, uint32_t groups,
                  std::vector<uint32_t>& first, std::vector<uint32_t>& sectors);

}  // namespace nav
