#include "detour_reference.h"

#include <DetourNavMeshBuilder.h>
#include <DetourNode.h>

#include <algorithm>
#include <cstring>

namespace nav::recast {
namespace {

/// Corridor and straight-path capacity, and the query's node pool.
constexpr int kMaxPolys = 2048;
constexpr float kHalfExtents[3] = {2.0f, 4.0f, 2.0f};

}  // namespace

std::optional<DetourMesh> DetourMesh::create(NavMesh& recast, const rcConfig& config,
                                             float agentHeight, float agentRadius,
                                             std::string& error) {
  rcPolyMesh& poly = *recast.polyMesh;
  const rcPolyMeshDetail& detail = *recast.detailMesh;
  for (int p = 0; p < poly.npolys; ++p)
    poly.flags[p] = 1;

  dtNavMeshCreateParams params;
  std::memset(&params, 0, sizeof(params));
  params.verts = poly.verts;
  params.vertCount = poly.nverts;
  params.polys = poly.polys;
  params.polyAreas = poly.areas;
  params.polyFlags = poly.flags;
  params.polyCount = poly.npolys;
  params.nvp = poly.nvp;
  params.detailMeshes = detail.meshes;
  params.detailVerts = detail.verts;
  params.detailVertsCount = detail.nverts;
  params.detailTris = detail.tris;
  params.detailTriCount = detail.ntris;
  params.walkableHeight = agentHeight;
  params.walkableRadius = agentRadius;
  params.walkableClimb = float(config.walkableClimb) * config.ch;
  std::copy(poly.bmin, poly.bmin + 3, params.bmin);
  std::copy(poly.bmax, poly.bmax + 3, params.bmax);
  params.cs = config.cs;
  params.ch = config.ch;
  params.buildBvTree = true;

  unsigned char* data = nullptr;
  int dataSize = 0;
  if (!dtCreateNavMeshData(&params, &data, &dataSize)) {
    error = "Detour: dtCreateNavMeshData failed";
    return std::nullopt;
  }
  DetourMesh detour;
  detour.m_mesh.reset(dtAllocNavMesh());
  if (!detour.m_mesh || dtStatusFailed(detour.m_mesh->init(data, dataSize, DT_TILE_FREE_DATA))) {
    dtFree(data);
    error = "Detour: dtNavMesh::init failed";
    return std::nullopt;
  }
  detour.m_query.reset(dtAllocNavMeshQuery());
  if (!detour.m_query || dtStatusFailed(detour.m_query->init(detour.m_mesh.get(), kMaxPolys))) {
    error = "Detour: dtNavMeshQuery::init failed";
    return std::nullopt;
  }
  return detour;
}

void DetourMesh::findPath(const glm::vec3& start, const glm::vec3& goal, DetourPath& path) const {
  path.found = path.outOfNodes = false;
  path.corners.clear();
  path.polygons = path.searchNodes = 0;
  path.length = 0.0f;
  dtPolyRef startRef = 0, goalRef = 0;
  float startPoint[3], goalPoint[3];
  m_query->findNearestPoly(&start.x, kHalfExtents, &m_filter, &startRef, startPoint);
  m_query->findNearestPoly(&goal.x, kHalfExtents, &m_filter, &goalRef, goalPoint);
  if (!startRef || !goalRef) return;
  dtPolyRef polys[kMaxPolys];
  int polyCount = 0;
  const dtStatus status = m_query->findPath(startRef, goalRef, startPoint, goalPoint, &m_filter,
                                            polys, &polyCount, kMaxPolys);
  path.outOfNodes = dtStatusDetail(status, DT_OUT_OF_NODES);
  path.searchNodes = size_t(m_query->getNodePool()->getNodeCount());
  if (dtStatusFailed(status) || polyCount == 0 || polys[polyCount - 1] != goalRef) return;
  float straight[kMaxPolys * 3];
  int cornerCount = 0;
  m_query->findStraightPath(startPoint, goalPoint, polys, polyCount, straight, nullptr, nullptr,
                            &cornerCount, kMaxPolys);
  if (cornerCount == 0) return;
  for (int i = 0; i < cornerCount; ++i) {
    path.corners.push_back({straight[3 * i], straight[3 * i + 1], straight[3 * i + 2]});
    if (i > 0) path.length += glm::distance(path.corners[size_t(i) - 1], path.corners[size_t(i)]);
  }
  path.found = true;
  path.polygons = size_t(polyCount);
}

int DetourMesh::polygonCount() const {
  const dtMeshTile* tile = static_cast<const dtNavMesh&>(*m_mesh).getTile(0);
  return tile != nullptr && tile->header != nullptr ? tile->header->polyCount : 0;
}

std::vector<glm::vec3> DetourMesh::polygonEdges() const {
  std::vector<glm::vec3> edges;
  const dtMeshTile* tile = static_cast<const dtNavMesh&>(*m_mesh).getTile(0);
  if (tile == nullptr || tile->header == nullptr) return edges;
  for (int p = 0; p < tile->header->polyCount; ++p) {
    const dtPoly& poly = tile->polys[p];
    if (poly.getType() != DT_POLYTYPE_GROUND) continue;
    for (int k = 0; k < poly.vertCount; ++k) {
      const float* a = &tile->verts[3 * poly.verts[k]];
      const float* b = &tile->verts[3 * poly.verts[(k + 1) % poly.vertCount]];
      edges.push_back({a[0], a[1], a[2]});
      edges.push_back({b[0], b[1], b[2]});
    }
  }
  return edges;
}

}  // namespace nav::recast
