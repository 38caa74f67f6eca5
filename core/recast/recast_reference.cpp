#include "recast_reference.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace nav::recast {
namespace {

using Heightfield = std::unique_ptr<rcHeightfield, RecastFree<rcHeightfield, rcFreeHeightField>>;
using CompactHeightfield =
    std::unique_ptr<rcCompactHeightfield,
                    RecastFree<rcCompactHeightfield, rcFreeCompactHeightfield>>;
using ContourSet = std::unique_ptr<rcContourSet, RecastFree<rcContourSet, rcFreeContourSet>>;

constexpr float kCellHeight = 0.2f;

}  // namespace

TriangleSoup::TriangleSoup(const Level& level) {
  for (const glm::vec3& v : level.vertices)
    vertices.insert(vertices.end(), {v.x, v.y, v.z});
  for (const LevelTriangle& t : level.triangles)
    triangles.insert(triangles.end(), {int(t.vertex[0]), int(t.vertex[1]), int(t.vertex[2])});
}

rcConfig matchedConfig(const UnitProfile& unit, float radius, float cellSize) {
  rcConfig config{};
  config.cs = cellSize;
  config.ch = kCellHeight;
  config.walkableSlopeAngle = unit.maxSlopeDegrees;
  config.walkableHeight = int(std::ceil(unit.height / config.ch));
  config.walkableClimb = int(std::floor(unit.stepHeight / config.ch));
  config.walkableRadius = int(std::ceil(radius / config.cs));
  config.maxEdgeLen = int(12.0f / config.cs);
  config.maxSimplificationError = 1.3f;
  config.minRegionArea = 8 * 8;
  config.mergeRegionArea = 20 * 20;
  config.maxVertsPerPoly = 6;
  config.detailSampleDist = 6.0f * config.cs;
  config.detailSampleMaxError = 1.0f * config.ch;
  return config;
}

std::optional<NavMesh> buildNavMesh(const TriangleSoup& soup, rcConfig config, std::string& error) {
  rcContext context(false);
  const auto failed = [&](const char* stage) {
    error = std::string("Recast: ") + stage + " failed";
    return std::nullopt;
  };
  rcCalcBounds(soup.vertices.data(), soup.vertexCount(), config.bmin, config.bmax);
  rcCalcGridSize(config.bmin, config.bmax, config.cs, &config.width, &config.height);
  // Recast rasterises into a heightfield of no columns (a level narrower than
  // half a cell) past its end, and allocates and clears every column of a
  // huge one before it looks at a triangle.
  constexpr long long kMaxColumns = 100'000'000;
  if (config.width < 1 || config.height < 1 ||
      (long long)config.width * config.height > kMaxColumns) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "Recast: the level is %d x %d columns of %g m; Recast builds from 1 x 1 to "
                  "%lld columns",
                  config.width, config.height, double(config.cs), kMaxColumns);
    error = text;
    return std::nullopt;
  }

  Heightfield solid(rcAllocHeightfield());
  if (!solid || !rcCreateHeightfield(&context, *solid, config.width, config.height, config.bmin,
                                     config.bmax, config.cs, config.ch)) {
    return failed("rcCreateHeightfield");
  }
  std::vector<unsigned char> areas(size_t(soup.triangleCount()), 0);
  rcMarkWalkableTriangles(&context, config.walkableSlopeAngle, soup.vertices.data(),
                          soup.vertexCount(), soup.triangles.data(), soup.triangleCount(),
                          areas.data());
  if (!rcRasterizeTriangles(&context, soup.vertices.data(), soup.vertexCount(),
                            soup.triangles.data(), areas.data(), soup.triangleCount(), *solid,
                            config.walkableClimb)) {
    return failed("rcRasterizeTriangles");
  }
  rcFilterLowHangingWalkableObstacles(&context, config.walkableClimb, *solid);
  rcFilterLedgeSpans(&context, config.walkableHeight, config.walkableClimb, *solid);
  rcFilterWalkableLowHeightSpans(&context, config.walkableHeight, *solid);

  CompactHeightfield compact(rcAllocCompactHeightfield());
  if (!compact || !rcBuildCompactHeightfield(&context, config.walkableHeight, config.walkableClimb,
                                             *solid, *compact)) {
    return failed("rcBuildCompactHeightfield");
  }
  solid.reset();
  if (!rcErodeWalkableArea(&context, config.walkableRadius, *compact)) {
    return failed("rcErodeWalkableArea");
  }
  if (!rcBuildDistanceField(&context, *compact)) return failed("rcBuildDistanceField");
  if (!rcBuildRegions(&context, *compact, 0, config.minRegionArea, config.mergeRegionArea)) {
    return failed("rcBuildRegions");
  }
  ContourSet contours(rcAllocContourSet());
  if (!contours || !rcBuildContours(&context, *compact, config.maxSimplificationError,
                                    config.maxEdgeLen, *contours)) {
    return failed("rcBuildContours");
  }
  NavMesh mesh{PolyMesh(rcAllocPolyMesh()), PolyMeshDetail(rcAllocPolyMeshDetail())};
  if (!mesh.polyMesh ||
      !rcBuildPolyMesh(&context, *contours, config.maxVertsPerPoly, *mesh.polyMesh)) {
    return failed("rcBuildPolyMesh");
  }
  if (!mesh.detailMesh ||
      !rcBuildPolyMeshDetail(&context, *mesh.polyMesh, *compact, config.detailSampleDist,
                             config.detailSampleMaxError, *mesh.detailMesh)) {
    return failed("rcBuildPolyMeshDetail");
  }
  return mesh;
}

double groundArea(const rcPolyMesh& mesh) {
  double cells = 0.0;
  for (int p = 0; p < mesh.npolys; ++p) {
    const unsigned short* poly = &mesh.polys[size_t(p) * 2 * size_t(mesh.nvp)];
    int count = 0;
    while (count < mesh.nvp && poly[count] != RC_MESH_NULL_IDX)
      ++count;
    double twice = 0.0;
    for (int i = 0; i < count; ++i) {
      const unsigned short* a = &mesh.verts[size_t(poly[i]) * 3];
      const unsigned short* b = &mesh.verts[size_t(poly[(i + 1) % count]) * 3];
      twice += double(a[0]) * b[2] - double(b[0]) * a[2];
    }
    cells += std::abs(twice) / 2.0;
  }
  return cells * double(mesh.cs) * double(mesh.cs);
}

std::string polyMeshObj(const rcPolyMesh& mesh) {
  std::ostringstream obj;
  obj.precision(9);
  obj << "# Recast polygon mesh: " << mesh.nverts << " vertices, " << mesh.npolys << " polygons\n";
  for (int v = 0; v < mesh.nverts; ++v) {
    const unsigned short* p = &mesh.verts[v * 3];
    obj << "v " << mesh.bmin[0] + float(p[0]) * mesh.cs << " "
        << mesh.bmin[1] + float(p[1]) * mesh.ch << " " << mesh.bmin[2] + float(p[2]) * mesh.cs
        << "\n";
  }
  for (int p = 0; p < mesh.npolys; ++p) {
    const unsigned short* corners = &mesh.polys[p * 2 * mesh.nvp];
    obj << "f";
    for (int k = 0; k < mesh.nvp && corners[k] != RC_MESH_NULL_IDX; ++k)
      obj << " " << corners[k] + 1;
    obj << "\n";
  }
  return obj.str();
}

}  // namespace nav::recast
