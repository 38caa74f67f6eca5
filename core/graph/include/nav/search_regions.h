#pragma once
// Search regions: a coarser graph over the sectors, for the A* to search
// before it walks the sectors. Box sectors cut a curved or diagonal wall into a
// staircase of thin rectangles; a path across such a staircase crosses one
// sector per step, and the A* expands them all. Here neighbouring ground
// sectors of one surface merge while their union stays nearly convex in the
// ground plane (its convex hull holds at most half a cell's depth more on
// average along the hull), as Recast would make them one polygon. Between two
// regions, two-way walk portals whose ends meet and that never face each other
// (the steps of a staircase) merge into one region portal: the segment from the first one's left
// end to the last one's right end. Every other portal stays a region portal of its own. Derived
// from the graph like the islands; never stored.
#include <cstdint>
#include <span>
#include <vector>

#include "nav/geometry.h"
#include "nav/sector_groups.h"

namespace nav {

struct NavGraph;

constexpr uint32_t kNoRegionPortal = 0xffffffffu;

/// A way out of a region: one graph portal, or two-way walk portals in a row
/// between the same two regions, merged.
struct RegionPortal {
  /// The merged ends, as seen walking out of the region (the first member's
  /// left, the last member's right).
  glm::vec3 left, right;
  uint32_t fromRegion, toRegion;
  /// The graph portals merged into it, from its left end to its right end:
  /// SearchRegions::members.
  uint32_t firstMember, memberCount;
};

class SearchRegions {
 public:
  /// No regions: searches walk the sectors.
  SearchRegions() = default;
  explicit SearchRegions(const NavGraph& graph);

  bool empty() const { return m_groups.empty(); }
  uint32_t count() const { return m_groups.count(); }
  /// The region of a sector. [0, count())
  uint32_t of(uint32_t sector) const { return m_groups.of(sector); }
  std::span<const uint32_t> sectors(uint32_t region) const { return m_groups.sectors(region); }
  /// Every region portal, grouped by the region it leaves.
  std::span<const RegionPortal> portals() const { return m_portals; }
  /// The region portals leaving a region: indices portalsOut(r) into portals().
  uint32_t firstPortalOut(uint32_t region) const { return m_firstPortal[region]; }
  uint32_t endPortalOut(uint32_t region) const { return m_firstPortal[region + 1]; }
  /// The graph portals a region portal merges, left to right.
  std::span<const uint32_t> members(const RegionPortal& portal) const {
    return {m_members.data() + portal.firstMember, portal.memberCount};
  }
  /// The region portal going back over the same portals, or kNoRegionPortal.
  uint32_t reverse(uint32_t regionPortal) const { return m_reverse[regionPortal]; }
  /// The surfaces ground sectors use, each once, in increasing order: what a
  /// query's costs need to agree on for a cost a metre to hold everywhere.
  std::span<const uint16_t> groundSurfaces() const { return m_groundSurfaces; }
  size_t memoryBytes() const;

 private:
  SectorGroups m_groups;
  std::vector<RegionPortal> m_portals;
  std::vector<uint32_t> m_firstPortal;
  std::vector<uint32_t> m_members;
  std::vector<uint32_t> m_reverse;
  std::vector<uint16_t> m_groundSurfaces;
};

}  // namespace nav
