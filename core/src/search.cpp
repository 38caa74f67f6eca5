#include "nav/search.h"

#include <limits>

#include "nav/path_solver.h"

namespace nav {

const char* toString(PathStatus status) {
  switch (status) {
    case PathStatus::Found:
      return "found";
    case PathStatus::Partial:
      return "partial";
    case PathStatus::StartOffMesh:
      return "start off mesh";
    case PathStatus::GoalOffMesh:
      return "goal off mesh";
    case PathStatus::Unreachable:
      return "unreachable";
    case PathStatus::TooManyExpansions:
      return "too many expansions";
  }
  return "unknown";
}

const char* toString(PortalPoint portalPoint) {
  switch (portalPoint) {
    case PortalPoint::Midpoint:
      return "midpoint";
    case PortalPoint::Crossing:
      return "crossing";
    case PortalPoint::Exact:
      return "exact";
  }
  return "unknown";
}

std::optional<PortalPoint> portalPointNamed(std::string_view name) {
  for (PortalPoint point : kPortalPoints) {
    if (name == toString(point)) return point;
  }
  return std::nullopt;
}

PathResult findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                    const SearchOptions& options, SearchTrace* trace) {
  PathResult result;
  findPath(graph, start, goal, options, result, trace);
  return result;
}

void findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
              const SearchOptions& options, PathResult& result, SearchTrace* trace) {
  // One solver per thread, reused: a query then touches only the nodes it
  // reaches instead of allocating and clearing one per portal.
  thread_local PathSolver solver;
  solver.init(graph, start, goal, options, trace);
  while (solver.update(std::numeric_limits<uint32_t>::max()) == SolveStatus::InProgress) {
  }
  solver.finalize(result);
}

}  // namespace nav
