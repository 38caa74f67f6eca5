#pragma once
// A bounding-volume tree over the ground sectors' boxes in the ground plane
// (rectangles of cells, or a navigation mesh's polygons), for finding the
// sectors near a point without scanning them all, as Detour's BV tree finds a
// tile's polygons. Unlike a uniform grid it keeps its depth where sectors
// crowd: a detailed building on a kilometre of open ground costs a few more
// levels, not a scan of every face in a grid cell.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace nav {

struct NavGraph;

class SectorIndex {
 public:
  SectorIndex() = default;
  /// Indexes the graph's ground sectors.
  explicit SectorIndex(const NavGraph& graph);

  bool empty() const { return m_nodes.empty(); }

  /// Calls visit(sector) once for every ground sector whose box overlaps
  /// [min, max] in the ground plane (x, z), edges included. A box with a NaN
  /// overlaps nothing.
  template <class Visit>
  void forEachNear(glm::vec2 min, glm::vec2 max, Visit&& visit) const {
    // Nodes in depth-first order: a node that misses the box skips its subtree.
    for (uint32_t i = 0; i < m_nodes.size();) {
      const Node& node = m_nodes[i];
      if (!overlaps(node.min, node.max, min, max)) {
        i = node.skip;
        continue;
      }
      for (uint32_t k = node.first; k < node.first + node.count; ++k) {
        const Item& item = m_items[k];
        if (overlaps(item.min, item.max, min, max)) visit(item.sector);
      }
      ++i;
    }
  }

 private:
  struct Item {
    glm::vec2 min, max;
    uint32_t sector;
  };
  struct Node {
    glm::vec2 min, max;
    /// The node after this one's subtree.
    uint32_t skip;
    /// A leaf's sectors: m_items[first, first + count); none for an inner node.
    uint32_t first, count;
  };

  static bool overlaps(glm::vec2 aMin, glm::vec2 aMax, glm::vec2 bMin, glm::vec2 bMax) {
    return aMin.x <= bMax.x && bMin.x <= aMax.x && aMin.y <= bMax.y && bMin.y <= aMax.y;
  }

  /// Appends the subtree over m_items[first, first + count); returns its root.
  uint32_t build(uint32_t first, uint32_t count);

  std::vector<Node> m_nodes;
  /// Sectors in leaf order, with their boxes.
  std::vector<Item> m_items;
};

}  // namespace nav
