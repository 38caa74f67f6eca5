#include "nav/strong_components.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "nav/nav_graph.h"
#include "nav/sector_groups.h"

namespace nav {

namespace {

constexpr uint32_t kUnset = 0xffffffffu;

// Edges by source, compressed: the targets of node n are targets[first[n], first[n + 1]).
struct Adjacency {
  std::vector<uint32_t> first, targets;

  Adjacency(uint32_t nodes, const std::vector<std::pair<uint32_t, uint32_t>>& edges)
      : first(nodes + 1, 0), targets(edges.size()) {
    for (const auto& [from, to] : edges)
      ++first[from + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<uint32_t> next(first.begin(), first.end() - 1);
    for (const auto& [from, to] : edges)
      targets[next[from]++] = to;
  }
};

// Depth first from `root` over `adjacency`, skipping nodes `visit` refuses
// (it marks the ones it accepts); `finished` gets each node once all it
// leads to is done. Iterative, so no level is too deep.
template <class Visit, class Finished>
void depthFirst(const Adjacency& adjacency, uint32_t root, Visit visit, Finished finished,
                std::vector<std::pair<uint32_t, uint32_t>>& stack) {
  if (!visit(root)) return;
  stack.assign(1, {root, adjacency.first[root]});
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next == adjacency.first[node + 1]) {
      finished(node);
      stack.pop_back();
      continue;
    }
    const uint32_t target = adjacency.targets[next++];
    if (visit(target)) stack.push_back({target, adjacency.first[target]});
  }
}

}  // namespace

// Kosaraju's two passes: depth first over the portals, then over them
// reversed in the order the first pass finished, latest first. Each second
// pass search gathers one component, and they come in topological order.
StrongComponents::StrongComponents(const NavGraph& graph) {
  const uint32_t sectorCount = uint32_t(graph.sectors.size());
  std::vector<std::pair<uint32_t, uint32_t>> edges, reversed;
  edges.reserve(graph.portals.size());
  reversed.reserve(graph.portals.size());
  for (const Portal& portal : graph.portals) {
    if (portal.fromSector >= sectorCount || portal.toSector >= sectorCount) continue;
    edges.push_back({portal.fromSector, portal.toSector});
    reversed.push_back({portal.toSector, portal.fromSector});
  }
  const Adjacency forward(sectorCount, edges), backward(sectorCount, reversed);

  std::vector<std::pair<uint32_t, uint32_t>> stack;
  std::vector<uint8_t> visited(sectorCount, 0);
  std::vector<uint32_t> finishOrder;
  finishOrder.reserve(sectorCount);
  const auto firstVisit = [&](uint32_t s) { return !std::exchange(visited[s], uint8_t(1)); };
  for (uint32_t s = 0; s < sectorCount; ++s)
    depthFirst(
        forward, s, firstVisit, [&](uint32_t f) { finishOrder.push_back(f); }, stack);

  std::vector<uint32_t> componentOf(sectorCount, kUnset);
  uint32_t components = 0;
  for (auto it = finishOrder.rbegin(); it != finishOrder.rend(); ++it) {
    if (componentOf[*it] != kUnset) continue;
    const auto unassigned = [&](uint32_t s) {
      if (componentOf[s] != kUnset) return false;
      componentOf[s] = components;
      return true;
    };
    depthFirst(
        backward, *it, unassigned, [](uint32_t) {}, stack);
    ++components;
  }

  m_groups = SectorGroups(std::move(componentOf), components);

  std::vector<std::pair<uint32_t, uint32_t>> links;
  for (const auto& [from, to] : edges) {
    if (of(from) != of(to)) links.push_back({of(from), of(to)});
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  const Adjacency dag(components, links);
  m_firstSuccessor = dag.first;
  m_successors = dag.targets;
}

size_t StrongComponents::memoryBytes() const {
  return m_groups.memoryBytes() +
         (m_successors.capacity() + m_firstSuccessor.capacity()) * sizeof(uint32_t);
}

}  // namespace nav
