#pragma once
// Recast's navigation mesh of a level, built the way RecastDemo's solo mesh
// builds it: the reference navscope is measured against (the Detour
// benchmark) and shown beside (the debugger's polygon count). Needs
// librecast (Debian: librecast-dev); built only when it is found.
#include <Recast.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nav/level.h"
#include "nav/unit_profile.h"

namespace nav::recast {

template <class T, void (*Free)(T*)>
struct RecastFree {
  void operator()(T* p) const { Free(p); }
};
using PolyMesh = std::unique_ptr<rcPolyMesh, RecastFree<rcPolyMesh, rcFreePolyMesh>>;
using PolyMeshDetail =
    std::unique_ptr<rcPolyMeshDetail, RecastFree<rcPolyMeshDetail, rcFreePolyMeshDetail>>;

/// The level's triangles in Recast's flat arrays.
struct TriangleSoup {
  std::vector<float> vertices;
  std::vector<int> triangles;

  explicit TriangleSoup(const Level& level);
  int vertexCount() const { return int(vertices.size() / 3); }
  int triangleCount() const { return int(triangles.size() / 3); }
};

/// Recast's settings for an agent of `radius` standing where navscope's unit
/// (height, step, slope) does, on cells of `cellSize`; RecastDemo's defaults
/// for the rest: cell height 0.2 m (the climb rounds down to a multiple of
/// it), max edge length 12 m, max edge error 1.3 cells, min region 8 x 8
/// cells, merge region 20 x 20, 6 vertices per polygon, detail sample distance
/// 6 cells, detail max error 1 cell height.
rcConfig matchedConfig(const UnitProfile& unit, float radius, float cellSize);

/// What a Recast build keeps: the meshes a Detour dtNavMesh is made from.
struct NavMesh {
  PolyMesh polyMesh;
  PolyMeshDetail detailMesh;
};

/// RecastDemo's solo-mesh pipeline, watershed regions; nullopt with `error`
/// naming the failed stage.
std::optional<NavMesh> buildNavMesh(const TriangleSoup& soup, rcConfig config, std::string& error);

/// Sum of the polygons' areas in the ground plane. [square metres]
double groundArea(const rcPolyMesh& mesh);

/// The polygon mesh as Wavefront OBJ text: its vertices in world
/// coordinates, one face per polygon with Recast's winding; what a tool
/// exports for an engine that takes a navigation mesh.
std::string polyMeshObj(const rcPolyMesh& mesh);

}  // namespace nav::recast
