#pragma once
// Detour beside navscope (the Compare toggle): Recast's navigation mesh for the
// same level and unit at matched settings (core/recast), and for a start and
// goal both libraries' answers (locate + search + funnel in navscope;
// findNearestPoly + findPath + findStraightPath in Detour), each query timed
// as its best of a few runs, the same way for both. Built without librecast,
// build() says how to get it.
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "nav/flood_fill.h"
#include "nav/level.h"
#include "nav/nav_graph.h"
#include "nav/search.h"

namespace nav::app {

/// One library's answer to one query.
struct ComparedPath {
  bool found = false;
  /// Along the corners, in 3D. [metres]
  float length = 0.0f;
  std::vector<glm::vec3> corners;
  /// The query's best of DetourComparison::kRuns. [microseconds]
  double microseconds = 0.0;
};

class DetourComparison {
 public:
  /// Each query is timed as its best of this many runs.
  static constexpr int kRuns = 5;

  /// Recast's mesh for `level` and the unit of `params` (Detour's agent radius
  /// half the unit's footprint); nullptr with `error` when Recast fails or the
  /// program was built without librecast.
  static std::shared_ptr<const DetourComparison> build(const Level& level,
                                                       const FloodFillParams& params,
                                                       std::string& error);
  ~DetourComparison();

  size_t polygonCount() const;
  /// The polygons' edges as pairs of end points.
  const std::vector<glm::vec3>& polygonEdges() const;
  /// Detour's answer from `start` to `goal`. Detour's query object keeps state
  /// between calls: call from one thread at a time (the main thread).
  ComparedPath detourPath(const glm::vec3& start, const glm::vec3& goal) const;
  /// navscope's answer on `graph` with `options`, timed as Detour's is.
  static ComparedPath navscopePath(const NavGraph& graph, const SearchOptions& options,
                                   const glm::vec3& start, const glm::vec3& goal);

 private:
  struct Reference;
  explicit DetourComparison(std::unique_ptr<Reference> reference);

  std::unique_ptr<Reference> m_reference;
};

}  // namespace nav::app
