#pragma once
// Strongly connected components: the sets of sectors that reach each other
// through portals taken the way they lead (walk, device, waypath). A one-way
// portal (off a ledge, down a one-way device) joins two components, and a
// path can never come back over it. The components, numbered in topological
// order, form a DAG: a portal between two leads to the higher number. So a
// search can tell before it starts that its goal is out of reach.
#include <cstdint>
#include <span>
#include <vector>

#include "nav/sector_groups.h"

namespace nav {

struct NavGraph;

class StrongComponents {
 public:
  /// None: every search runs.
  StrongComponents() = default;
  explicit StrongComponents(const NavGraph& graph);

  bool empty() const { return m_groups.empty(); }
  uint32_t count() const { return m_groups.count(); }
  /// The component of a sector. [0, count())
  uint32_t of(uint32_t sector) const { return m_groups.of(sector); }
  /// The sectors of a component, in increasing order.
  std::span<const uint32_t> sectors(uint32_t component) const {
    return m_groups.sectors(component);
  }
  /// The components a portal leads into from this one, each once, all
  /// numbered higher.
  std::span<const uint32_t> successors(uint32_t component) const {
    return {m_successors.data() + m_firstSuccessor[component],
            m_successors.data() + m_firstSuccessor[component + 1]};
  }
  size_t memoryBytes() const;

 private:
  SectorGroups m_groups;
  std::vector<uint32_t> m_successors;
  std::vector<uint32_t> m_firstSuccessor;
};

}  // namespace nav
