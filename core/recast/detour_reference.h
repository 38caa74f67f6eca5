#pragma once
// Detour's navigation mesh (one tile) over a Recast build, and its usual query
// (findNearestPoly + findPath + findStraightPath): the answer navscope's paths
// are compared with, in the Detour benchmark and the debugger's Compare view.
// Needs librecast (Debian: librecast-dev).
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "recast_reference.h"

namespace nav::recast {

/// One Detour query's answer. Kept between queries, as Detour's own buffers are.
struct DetourPath {
  /// The goal's polygon was reached (a partial path is not found).
  bool found = false;
  /// findPath ran out of its node pool.
  bool outOfNodes = false;
  /// The straight path's corners, start to goal.
  std::vector<glm::vec3> corners;
  /// Polygons in the corridor.
  size_t polygons = 0;
  /// Nodes the search touched (opened or closed).
  size_t searchNodes = 0;
  /// Along the corners, in 3D. [metres]
  float length = 0.0f;
};

class DetourMesh {
 public:
  /// Detour's mesh of a Recast build made with `config`, for an agent of
  /// `agentHeight` and `agentRadius`; every polygon walkable (flag 1), every
  /// area cost 1 (Detour's default filter). nullopt with `error` naming the call.
  static std::optional<DetourMesh> create(NavMesh& recast, const rcConfig& config,
                                          float agentHeight, float agentRadius,
                                          std::string& error);

  /// The polygons nearest `start` and `goal` within half extents (2, 4, 2) m,
  /// the A* between them and the string pulled along it into `path`. The
  /// query object keeps its search's state: one thread at a time.
  void findPath(const glm::vec3& start, const glm::vec3& goal, DetourPath& path) const;

  const dtNavMeshQuery& query() const { return *m_query; }
  const dtQueryFilter& filter() const { return m_filter; }
  int polygonCount() const;
  /// Every polygon's edges as pairs of end points (shared edges twice).
  std::vector<glm::vec3> polygonEdges() const;

 private:
  template <class T, void (*Free)(T*)>
  using Owned = std::unique_ptr<T, RecastFree<T, Free>>;

  Owned<dtNavMesh, dtFreeNavMesh> m_mesh;
  Owned<dtNavMeshQuery, dtFreeNavMeshQuery> m_query;
  dtQueryFilter m_filter;
};

}  // namespace nav::recast
