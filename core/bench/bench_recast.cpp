// navscope against Recast on the Recast demo's dungeon.obj (../shared) at
// matched settings: the median build time of several runs of each, their
// ratio, and the walkable area each covers.
//
// Matched settings: cell 0.3 m; a unit 1.2 m wide (Recast agent radius 0.6),
// 2.0 m tall, climbing 0.9 m, on slopes up to 45 degrees. navscope also drops
// at most 3.5 m; Recast has no drop limit. Recast's other values are the
// RecastDemo defaults (Sample_SoloMesh): cell height 0.2 m, max edge length
// 12 m, max edge error 1.3 cells, min region 8 x 8 cells, merge region 20 x 20
// cells, 6 vertices per polygon, detail sample distance 6 cells, detail max
// error 1 cell height, watershed regions.
//
// Times: navscope = collision tree + flood fill + compression; Recast =
// heightfield through detail mesh; loading the OBJ is in neither. Areas:
// navscope = cells x cellSize^2; Recast = its poly mesh's polygons projected on
// the ground. Both are where the unit's centre can stand (Recast erodes by the
// agent radius), on every walkable surface (navscope seeds everywhere).
//
// Run: build/core/navscope_bench_recast [RUNS]   (default 5)
#include <Recast.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nav/nav_build.h"

namespace {

constexpr float kCellSize = 0.3f;
constexpr float kUnitWidth = 1.2f, kUnitHeight = 2.0f, kClimb = 0.9f, kSlope = 45.0f;
constexpr float kMaxDrop = 3.5f;

// ---------------------------------------------------------------------------
// Recast
// ---------------------------------------------------------------------------

template <class T, void (*Free)(T*)>
struct RecastFree {
  void operator()(T* p) const { Free(p); }
};
using Heightfield = std::unique_ptr<rcHeightfield, RecastFree<rcHeightfield, rcFreeHeightField>>;
using CompactHeightfield =
    std::unique_ptr<rcCompactHeightfield,
                    RecastFree<rcCompactHeightfield, rcFreeCompactHeightfield>>;
using ContourSet = std::unique_ptr<rcContourSet, RecastFree<rcContourSet, rcFreeContourSet>>;
using PolyMesh = std::unique_ptr<rcPolyMesh, RecastFree<rcPolyMesh, rcFreePolyMesh>>;
using PolyMeshDetail =
    std::unique_ptr<rcPolyMeshDetail, RecastFree<rcPolyMeshDetail, rcFreePolyMeshDetail>>;

/// The level's triangles in Recast's flat arrays.
struct TriangleSoup {
  std::vector<float> vertices;
  std::vector<int> triangles;

  explicit TriangleSoup(const nav::Level& level) {
    for (const glm::vec3& v : level.vertices)
      vertices.insert(vertices.end(), {v.x, v.y, v.z});
    for (const nav::LevelTriangle& t : level.triangles) {
      triangles.insert(triangles.end(), {int(t.vertex[0]), int(t.vertex[1]), int(t.vertex[2])});
    }
  }
  int vertexCount() const { return int(vertices.size() / 3); }
  int triangleCount() const { return int(triangles.size() / 3); }
};

rcConfig recastConfig() {
  rcConfig config{};
  config.cs = kCellSize;
  config.ch = 0.2f;
  config.walkableSlopeAngle = kSlope;
  config.walkableHeight = int(std::ceil(kUnitHeight / config.ch));
  config.walkableClimb = int(std::floor(kClimb / config.ch));
  config.walkableRadius = int(std::ceil(kUnitWidth / 2 / config.cs));
  config.maxEdgeLen = int(12.0f / config.cs);
  config.maxSimplificationError = 1.3f;
  config.minRegionArea = 8 * 8;
  config.mergeRegionArea = 20 * 20;
  config.maxVertsPerPoly = 6;
  config.detailSampleDist = 6.0f * config.cs;
  config.detailSampleMaxError = 1.0f * config.ch;
  return config;
}

/// What a Recast build keeps: the meshes a Detour dtNavMesh is made from.
struct RecastNavMesh {
  PolyMesh polyMesh;
  PolyMeshDetail detailMesh;
};

/// The RecastDemo solo-mesh pipeline; nullopt with `error` naming the failed stage.
std::optional<RecastNavMesh> buildRecast(const TriangleSoup& soup, rcConfig config,
                                         std::string& error) {
  rcContext context(false);
  const auto failed = [&](const char* stage) {
    error = std::string("Recast: ") + stage + " failed";
    return std::nullopt;
  };
  rcCalcBounds(soup.vertices.data(), soup.vertexCount(), config.bmin, config.bmax);
  rcCalcGridSize(config.bmin, config.bmax, config.cs, &config.width, &config.height);

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
  RecastNavMesh mesh{PolyMesh(rcAllocPolyMesh()), PolyMeshDetail(rcAllocPolyMeshDetail())};
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

/// Sum of the polygons' areas in the ground plane. [square metres]
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

// ---------------------------------------------------------------------------
// Timing and report
// ---------------------------------------------------------------------------

/// Ground-plane area of the upward-facing triangles flat enough to stand on:
/// what both would cover with no erosion at edges and no overhang. [square metres]
double walkableTriangleArea(const nav::Level& level) {
  const float minNormalY = std::cos(glm::radians(kSlope));
  double area = 0.0;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const glm::vec3 a = level.corner(t, 0);
    const glm::vec3 normal = glm::cross(level.corner(t, 1) - a, level.corner(t, 2) - a);
    const float length = glm::length(normal);
    if (length > 0.0f && normal.y / length > minNormalY) area += normal.y / 2.0;
  }
  return area;
}

template <class Build>
double medianMilliseconds(int runs, Build&& build) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    build();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

nav::FloodFillParams navscopeParams() {
  nav::FloodFillParams params;
  params.cellSize = kCellSize;
  params.unit.width = kUnitWidth;
  params.unit.height = kUnitHeight;
  params.unit.stepHeight = kClimb;
  params.unit.maxSlopeDegrees = kSlope;
  params.unit.maxDrop = kMaxDrop;
  return params;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const std::string path = NAVSCOPE_SHARED_DIR "/meshes/dungeon.obj";
  if (!std::filesystem::exists(path)) {
    std::printf("%s is absent (../shared is optional): nothing to compare\n", path.c_str());
    return 0;
  }
  const nav::Result<nav::Level> loaded = nav::loadLevel(path);
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().c_str());
    return 1;
  }
  const nav::Level& level = loaded.value();
  const nav::FloodFillParams params = navscopeParams();

  std::optional<nav::NavBuild> navscope;
  std::string error;
  const double navscopeMs = medianMilliseconds(runs, [&] {
    const nav::CollisionWorld world(level);
    nav::Result<nav::NavBuild> build = nav::buildNavigation(level, world, params);
    if (build) {
      navscope = std::move(build).value();
    } else {
      error = build.error();
    }
  });
  if (!navscope) {
    std::fprintf(stderr, "navscope: %s\n", error.c_str());
    return 1;
  }

  const TriangleSoup soup(level);
  std::optional<RecastNavMesh> recast;
  const double recastMs =
      medianMilliseconds(runs, [&] { recast = buildRecast(soup, recastConfig(), error); });
  if (!recast) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }

  const nav::BuildStats& stats = navscope->stats;
  const double navscopeArea = double(stats.cells) * kCellSize * kCellSize;
  const double recastArea = groundArea(*recast->polyMesh);
  std::printf(
      "dungeon.obj: %zu triangles; cell %.1f m, unit %.1f x %.1f m, climb %.1f m, "
      "slope %.0f deg; median of %d runs\n",
      level.triangles.size(), kCellSize, kUnitWidth, kUnitHeight, kClimb, kSlope, runs);
  std::printf("%-16s %12s %14s  %s\n", "", "build ms", "walkable m2", "output");
  std::printf(
      "%-16s %12.1f %14.1f  %zu cells, %zu sectors, %zu portals (fill %.1f ms, "
      "compress %.1f ms)\n",
      "navscope", navscopeMs, navscopeArea, stats.cells, stats.sectors, stats.portals,
      stats.floodFillMs, stats.compressMs);
  std::printf("%-16s %12.1f %14.1f  %d polygons, %d detail triangles\n", "Recast", recastMs,
              recastArea, recast->polyMesh->npolys, recast->detailMesh->ntris);
  std::printf("%-16s %12.2f %14.3f\n", "navscope/Recast", navscopeMs / recastMs,
              navscopeArea / recastArea);
  std::printf("%-16s %12s %14.1f  upward triangles flat enough to stand on, for reference\n",
              "level", "", walkableTriangleArea(level));
  return 0;
}
