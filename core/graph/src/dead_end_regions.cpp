#include "nav/dead_end_regions.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "nav/nav_graph.h"

namespace nav {

namespace {

// The sectors each sector shares a portal with, either way, in adjacency arrays.
struct Neighbours {
  std::vector<uint32_t> first, sector;

  explicit Neighbours(const NavGraph& graph) {
    const uint32_t count = uint32_t(graph.sectors.size());
    first.assign(count + 1, 0);
    const auto joins = [&](const Portal& portal) {
      return portal.fromSector < count && portal.toSector < count &&
             portal.fromSector != portal.toSector;
    };
    for (const Portal& portal : graph.portals) {
      if (!joins(portal)) continue;
      ++first[portal.fromSector + 1];
      ++first[portal.toSector + 1];
    }
    std::partial_sum(first.begin(), first.end(), first.begin());
    sector.resize(first.back());
    std::vector<uint32_t> next(first.begin(), first.end() - 1);
    for (const Portal& portal : graph.portals) {
      if (!joins(portal)) continue;
      sector[next[portal.fromSector]++] = portal.toSector;
      sector[next[portal.toSector]++] = portal.fromSector;
    }
  }
};

RegionContents contentsOf(const NavGraph& graph, uint32_t s) {
  RegionContents contents;
  const Sector& sector = graph.sectors[s];
  if (sector.kind == SectorKind::Waypath) {
    contents.waypaths = true;
  } else {
    contents.surfaces = uint64_t(1) << std::min<uint32_t>(sector.surface, 63);
  }
  for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
    if (p < graph.portals.size() && graph.portals[p].kind == PortalKind::Device)
      contents.devices = true;
  }
  return contents;
}

void add(RegionContents& into, const RegionContents& more) {
  into.surfaces |= more.surfaces;
  into.waypaths = into.waypaths || more.waypaths;
  into.devices = into.devices || more.devices;
}

}  // namespace

DeadEndRegions::DeadEndRegions(const NavGraph& graph) {
  constexpr uint32_t kUnseen = 0xffffffffu;
  const uint32_t count = uint32_t(graph.sectors.size());
  const Neighbours neighbours(graph);
  m_order.assign(count, kUnseen);
  m_size.assign(count, 1);
  m_hangsOff.assign(count, kNoSector);
  m_contents.resize(count);
  m_bounds.resize(count);
  // Per sector, the earliest sector in the order that its subtree reaches by
  // one portal (itself, its parent, or a sector above: then it is no region).
  std::vector<uint32_t> low(count), parent(count, kNoSector);
  // The depth-first path: each sector and the next neighbour it will look at.
  std::vector<std::pair<uint32_t, uint32_t>> path;
  std::vector<uint32_t> preorder;
  preorder.reserve(count);
  m_islandRoot.assign(count, kNoSector);
  uint32_t visited = 0;
  for (uint32_t root = 0; root < count; ++root) {
    if (m_order[root] != kUnseen) continue;
    m_order[root] = low[root] = visited++;
    preorder.push_back(root);
    path.push_back({root, neighbours.first[root]});
    while (!path.empty()) {
      auto& [s, next] = path.back();
      if (next < neighbours.first[s + 1]) {
        const uint32_t n = neighbours.sector[next++];
        if (m_order[n] == kUnseen) {
          parent[n] = s;
          m_order[n] = low[n] = visited++;
          preorder.push_back(n);
          path.push_back({n, neighbours.first[n]});
        } else {
          low[s] = std::min(low[s], m_order[n]);
        }
        continue;
      }
      const uint32_t done = s;
      path.pop_back();
      add(m_contents[done], contentsOf(graph, done));
      m_bounds[done].grow(graph.sectors[done].bounds);
      const uint32_t up = parent[done];
      if (up == kNoSector) continue;
      if (low[done] >= m_order[up]) m_hangsOff[done] = up;
      low[up] = std::min(low[up], low[done]);
      m_size[up] += m_size[done];
      add(m_contents[up], m_contents[done]);
      m_bounds[up].grow(m_bounds[done]);
    }
  }
  m_innermost.assign(count, kNoSector);
  for (const uint32_t s : preorder) {
    const uint32_t up = parent[s];
    m_islandRoot[s] = up == kNoSector ? s : m_islandRoot[up];
    m_innermost[s] = m_hangsOff[s] != kNoSector ? s : up == kNoSector ? kNoSector : m_innermost[up];
  }
  markPortalsIntoRegions(graph, parent);
}

uint32_t DeadEndRegions::smallestHolding(uint32_t a, uint32_t b) const {
  if (a >= m_innermost.size() || b >= m_innermost.size()) return kNoSector;
  uint32_t head = m_innermost[a];
  while (head != kNoSector && !holds(head, b))
    head = m_innermost[m_hangsOff[head]];
  return head;
}

// A portal from a sector into its subtree enters the region of the child
// whose subtree holds the portal's target, if that child heads one: the
// child itself, or a sector below it that a second portal reaches.
void DeadEndRegions::markPortalsIntoRegions(const NavGraph& graph,
                                            const std::vector<uint32_t>& parent) {
  const uint32_t count = uint32_t(graph.sectors.size());
  // Each sector's children, in the depth-first order (so are their subtrees).
  std::vector<uint32_t> first(count + 1, 0), children(count);
  for (uint32_t s = 0; s < count; ++s) {
    if (parent[s] != kNoSector) ++first[parent[s] + 1];
  }
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<uint32_t> next(first.begin(), first.end() - 1);
  for (uint32_t s = 0; s < count; ++s) {
    if (parent[s] != kNoSector) children[next[parent[s]]++] = s;
  }
  for (uint32_t s = 0; s < count; ++s) {
    std::sort(children.begin() + first[s], children.begin() + first[s + 1],
              [&](uint32_t a, uint32_t b) { return m_order[a] < m_order[b]; });
  }
  m_entered.assign(graph.portals.size(), kNoSector);
  for (size_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    const uint32_t from = portal.fromSector, to = portal.toSector;
    if (from >= count || to >= count || from == to || !holds(from, to)) continue;
    // The last child that comes before the target in the order holds it.
    const auto after = std::upper_bound(
        children.begin() + first[from], children.begin() + first[from + 1], to,
        [&](uint32_t target, uint32_t child) { return m_order[target] < m_order[child]; });
    const uint32_t child = *(after - 1);
    if (m_hangsOff[child] == from) m_entered[p] = child;
  }
}

size_t DeadEndRegions::memoryBytes() const {
  return (m_order.capacity() + m_size.capacity() + m_hangsOff.capacity() + m_innermost.capacity() +
          m_islandRoot.capacity() + m_entered.capacity()) *
             sizeof(uint32_t) +
         m_contents.capacity() * sizeof(RegionContents) + m_bounds.capacity() * sizeof(Aabb);
}

}  // namespace nav
