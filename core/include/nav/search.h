#pragma once
// A* over sectors and portals. A search node is a portal (the sector it enters,
// entered at the portal's midpoint, or for a device at its exit point); the start and goal points are located in
// their sectors first.
#include <cstdint>
#include <string>
#include <vector>

#include "nav/locate.h"
#include "nav/nav_graph.h"

namespace nav {

struct SearchOptions {
  /// Heuristic = straight-line distance times this. [0..1 keeps paths optimal]
  float heuristicScale = 0.999f;
  /// The search gives up after expanding this many nodes.
  uint32_t maxExpansions = 1'000'000;
  /// Keys the unit holds: a locked device whose key is not here is closed.
  std::vector<std::string> keys;
};

enum class PathStatus { Found, StartOffMesh, GoalOffMesh, Unreachable, TooManyExpansions };
const char* toString(PathStatus status);

/// The sectors and portals a path goes through, start to goal.
struct Corridor {
  glm::vec3 start{0.0f};
  glm::vec3 goal{0.0f};
  /// sectors.size() == portals.size() + 1.
  std::vector<uint32_t> sectors;
  std::vector<uint32_t> portals;
};

/// One step of the search, for the debugger. The goal point is not a traced
/// node: the search ends when it would be closed (PathResult::cost).
struct SearchEvent {
  enum class Kind : uint8_t { Open, Reopen, Close };
  Kind kind;
  /// Portal index, or kNoPortal for the start point.
  uint32_t portal;
  float costSoFar;
  float estimatedTotal;
};

struct SearchTrace {
  /// Appended to by each traced query, in the order they happened.
  std::vector<SearchEvent> events;
};

struct PathResult {
  PathStatus status = PathStatus::Unreachable;
  Corridor corridor;
  /// Cost of the path through portal midpoints. [metres]
  float cost = 0.0f;
  uint32_t expansions = 0;
};

/// Locates start and goal (locateSector) and searches from the start's sector to
/// the goal's; the corridor's start and goal are the located points. Optimal
/// (through portal midpoints) for heuristicScale <= 1. Deterministic. Records
/// events only when trace is non-null. Unless Found, the corridor has no sectors.
PathResult findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                    const SearchOptions& options = {}, SearchTrace* trace = nullptr);


}  // namespace nav
