#include "nav/sector_index.h"

#include <algorithm>
#include <limits>

#include "nav/nav_graph.h"

namespace nav {
namespace {

// Sectors a leaf holds at most: a few box tests cost less than another level.
constexpr uint32_t kLeafSize = 4;

}  // namespace

SectorIndex::SectorIndex(const NavGraph& graph) {
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind != SectorKind::Ground) continue;
    m_items.push_back({{sector.bounds.min.x, sector.bounds.min.z},
                       {sector.bounds.max.x, sector.bounds.max.z},
                       s});
  }
  if (m_items.empty()) return;
  m_nodes.reserve(2 * m_items.size() / kLeafSize + 1);
  build(0, uint32_t(m_items.size()));
}

// Halves the sectors at the median of their centres along the axis on which
// the centres spread widest: a balanced tree whatever the sectors' sizes.
uint32_t SectorIndex::build(uint32_t first, uint32_t count) {
  const uint32_t index = uint32_t(m_nodes.size());
  m_nodes.emplace_back();
  constexpr float kHuge = std::numeric_limits<float>::max();
  Node node{glm::vec2(kHuge), glm::vec2(-kHuge), 0, first, 0};
  glm::vec2 centreLow(kHuge), centreHigh(-kHuge);
  for (uint32_t k = first; k < first + count; ++k) {
    const Item& item = m_items[k];
    node.min = glm::min(node.min, item.min);
    node.max = glm::max(node.max, item.max);
    const glm::vec2 centre = 0.5f * (item.min + item.max);
    centreLow = glm::min(centreLow, centre);
    centreHigh = glm::max(centreHigh, centre);
  }
  if (count <= kLeafSize) {
    node.count = count;
  } else {
    const int axis = centreHigh.x - centreLow.x >= centreHigh.y - centreLow.y ? 0 : 1;
    const auto centre = [&](const Item& item) { return item.min[axis] + item.max[axis]; };
    const uint32_t half = count / 2;
    const auto begin = m_items.begin() + first;
    std::nth_element(begin, begin + half, begin + count, [&](const Item& a, const Item& b) {
      return centre(a) < centre(b) || (centre(a) == centre(b) && a.sector < b.sector);
    });
    build(first, half);
    build(first + half, count - half);
  }
  node.skip = uint32_t(m_nodes.size());
  m_nodes[index] = node;
  return index;
}

}  // namespace nav
