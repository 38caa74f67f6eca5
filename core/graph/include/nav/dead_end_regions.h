#pragma once
// Dead-end regions: sets of sectors that portals of any kind (walk, device,
// waypath), taken either way, join to the rest of their island through one
// sector only, the sector the region hangs off. A way that enters a region
// leaves it back into that sector, so where the sector is convex it is never
// shorter than the straight line across the sector, nor cheaper where a metre
// there costs no more than anything in the region. A search need never enter
// a region that holds neither its start nor its goal.
//
// Found by one depth-first search per island (articulation points, Hopcroft
// and Tarjan 1973): a sector whose subtree no portal leaves except into its
// parent heads a region, the subtree, hanging off that parent.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nav/geometry.h"

namespace nav {

struct NavGraph;

/// What a region holds that sets the cheapest metre in it.
struct RegionContents {
  /// Bit i: a ground sector on surface i (i < 63); bit 63: on surface 63 or above.
  uint64_t surfaces = 0;
  bool waypaths = false;
  /// A device portal leaves a sector of the region (a device costs at least a metre a metre).
  bool devices = false;
};

class DeadEndRegions {
 public:
  /// No regions: nothing is pruned.
  DeadEndRegions() = default;
  explicit DeadEndRegions(const NavGraph& graph);

  /// The sector that `sector` heads a region hanging off, else kNoSector (also
  /// in a graph made by hand).
  uint32_t hangsOff(uint32_t sector) const {
    return sector < m_hangsOff.size() ? m_hangsOff[sector] : kNone;
  }
  /// The region that crossing the portal enters from the sector it hangs off
  /// (its head), else kNoSector.
  uint32_t regionEntered(uint32_t portal) const {
    return portal < m_entered.size() ? m_entered[portal] : kNone;
  }
  /// True when `sector` lies in the region `head` heads.
  bool holds(uint32_t head, uint32_t sector) const {
    return sector < m_order.size() && m_order[sector] - m_order[head] < m_size[head];
  }
  /// True when `sector` lies neither in the region `head` heads nor in the sector it hangs off.
  bool beyond(uint32_t head, uint32_t sector) const {
    return !holds(head, sector) && sector != m_hangsOff[head];
  }
  /// The smallest region holding both sectors (its head), else kNoSector.
  uint32_t smallestHolding(uint32_t a, uint32_t b) const;
  /// What the region headed by `head` holds.
  const RegionContents& contents(uint32_t head) const { return m_contents[head]; }
  /// The box around the sectors of the region headed by `head`.
  const Aabb& bounds(uint32_t head) const { return m_bounds[head]; }
  /// What the island of `sector` holds (a sector of a region).
  const RegionContents& islandContents(uint32_t sector) const {
    return m_contents[m_islandRoot[sector]];
  }
  size_t memoryBytes() const;

 private:
  /// kNoSector (nav_graph.h includes this header).
  static constexpr uint32_t kNone = 0xffffffffu;

  void markPortalsIntoRegions(const NavGraph& graph, const std::vector<uint32_t>& parent);

  /// Per sector: its place in the depth-first order, the sectors in its subtree
  /// (itself included; they follow it in that order), what they hold (the
  /// whole island's, for its first sector) and their box.
  std::vector<uint32_t> m_order, m_size;
  std::vector<uint32_t> m_hangsOff;
  /// Per sector: the smallest region holding it (its head, maybe itself; else
  /// kNoSector), and the first sector of its island in the order.
  std::vector<uint32_t> m_innermost, m_islandRoot;
  /// Per portal, regionEntered.
  std::vector<uint32_t> m_entered;
  std::vector<RegionContents> m_contents;
  std::vector<Aabb> m_bounds;
};

}  // namespace nav
