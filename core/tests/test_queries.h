#pragma once
// Queries the search tests share: random pairs of cell centres on a built
// level, every surface at one cost a metre, and readable failure messages.
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "nav/nav_build.h"
#include "nav/search.h"

namespace nav::test {

struct QueryPair {
  glm::vec3 start, goal;
};

/// Seeded pairs of cell centres (5 cm above the ground) of a build that kept its cells.
inline std::vector<QueryPair> randomPairs(const NavBuild& build, size_t count, uint32_t seed) {
  const CellGrid& cells = *build.cells;
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  std::vector<QueryPair> pairs;
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 start = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
    const glm::vec3 goal = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
    pairs.push_back({start, goal});
  }
  return pairs;
}

/// Every surface of the graph at one cost a metre (the showcase's road and
/// lava cost more than its floors by default).
inline SearchOptions uniformCosts(const NavGraph& graph) {
  SearchOptions options;
  for (const SurfaceSpec& surface : graph.surfaces)
    options.filter.surfaceCosts[surface.name] = 1.0f;
  return options;
}

inline std::string describe(const Corridor& corridor) {
  std::ostringstream text;
  text << "sectors";
  for (uint32_t s : corridor.sectors)
    text << ' ' << s;
  text << " portals";
  for (uint32_t p : corridor.portals)
    text << ' ' << p;
  return text.str();
}

inline std::string describe(const QueryPair& pair) {
  std::ostringstream text;
  text << '(' << pair.start.x << ", " << pair.start.y << ", " << pair.start.z << ") -> ("
       << pair.goal.x << ", " << pair.goal.y << ", " << pair.goal.z << ')';
  return text.str();
}

}  // namespace nav::test
