#include "nav/sector_index.h"

#include <algorithm>
#include <limits>
#include <numeric>

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
    m_items.push_back(s);
    m_itemMin.emplace_back(sector.bounds.min.x, sector.bounds.min.z);
    m_itemMax.emplace_back(sector.bounds.max.x, sector.bounds.max.z);
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
    node.min = glm::min(node.min, m_itemMin[k]);
    node.max = glm::max(node.max, m_itemMax[k]);
    const glm::vec2 centre = 0.5f * (m_itemMin[k] + m_itemMax[k]);
    centreLow = glm::min(centreLow, centre);
    centreHigh = glm::max(centreHigh, centre);
  }
  if (count <= kLeafSize) {
    node.count = count;
  } else {
    const int axis = centreHigh.x - centreLow.x >= centreHigh.y - centreLow.y ? 0 : 1;
    std::vector<uint32_t> order(count);
    std::iota(order.begin(), order.end(), first);
    const auto centre = [&](uint32_t k) { return m_itemMin[k][axis] + m_itemMax[k][axis]; };
    const uint32_t half = count / 2;
    std::nth_element(order.begin(), order.begin() + half, order.end(), [&](uint32_t a, uint32_t b) {
      return centre(a) < centre(b) || (centre(a) == centre(b) && m_items[a] < m_items[b]);
    });
    std::vector<uint32_t> items(count);
    std::vector<glm::vec2> mins(count), maxs(count);
    for (uint32_t i = 0; i < count; ++i) {
      items[i] = m_items[order[i]];
      mins[i] = m_itemMin[order[i]];
      maxs[i] = m_itemMax[order[i]];
    }
    std::copy(items.begin(), items.end(), m_items.begin() + first);
    std::copy(mins.begin(), mins.end(), m_itemMin.begin() + first);
    std::copy(maxs.begin(), maxs.end(), m_itemMax.begin() + first);
    build(first, half);
    build(first + half, count - half);
  }
  node.skip = uint32_t(m_nodes.size());
  m_nodes[index] = node;
  return index;
}

}  // namespace nav
