#include "nav/navmesh_graph.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>

#include "format_number.h"
#include "nav/geometry.h"
#include "nav/level_settings.h"

namespace nav {
namespace {

// The plane y = a*x + b*z + c through the polygon, from its Newell normal; a
// level one at its mean height for a polygon standing on edge.
glm::vec3 polygonPlane(const std::vector<glm::vec3>& corners) {
  glm::dvec3 normal(0.0), mean(0.0);
  for (size_t k = 0; k < corners.size(); ++k) {
    const glm::dvec3 a(corners[k]), b(corners[(k + 1) % corners.size()]);
    normal += glm::dvec3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x),
                         (a.x - b.x) * (a.y + b.y));
    mean += a / double(corners.size());
  }
  if (std::abs(normal.y) <= 1e-9 * glm::length(normal) || !(glm::length(normal) > 0.0))
    return {0.0f, 0.0f, float(mean.y)};
  const double a = -normal.x / normal.y, b = -normal.z / normal.y;
  return {float(a), float(b), float(mean.y - a * mean.x - b * mean.z)};
}

// The axis direction nearest a ground-plane walk.
Direction nearestAxis(const glm::vec2& walk) {
  if (std::abs(walk.x) >= std::abs(walk.y)) return walk.x >= 0.0f ? Direction::PlusX : Direction::MinusX;
  return walk.y >= 0.0f ? Direction::PlusZ : Direction::MinusZ;
}

Result<NavMeshBuild> buildOrFail(const Level& level, const NavMeshGraphParams& params,
                                 BuildControl* control) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const auto cancelled = [&] { return control && control->cancelRequested.load(); };
  const auto stopped = [&] {
    return Result<NavMeshBuild>::failure(level.source + ": navigation mesh build cancelled");
  };
  if (control) control->stage = BuildStage::Compress;

  NavMeshFaces faces =
      readNavMeshFaces(level, params.faces, control ? &control->cancelRequested : nullptr);
  if (cancelled()) return stopped();
  NavMeshBuild build;
  build.issues = std::move(faces.issues);
  NavGraph& graph = build.graph;
  graph.unit = params.unit;
  graph.surfaces = surfaceTable(level.settings);
  const std::vector<uint16_t> surfaceOf =
      materialSurfaceIndices(level.settings, level.materials, graph.surfaces);

  // Polygon i becomes sector sectorOf[i], or none on a closed surface.
  std::vector<uint32_t> sectorOf(faces.polygons.size(), kNoSector);
  std::vector<uint32_t> polygonOf;
  for (uint32_t i = 0; i < faces.polygons.size(); ++i) {
    if (i % 4096 == 0 && cancelled()) return stopped();
    const NavMeshPolygon& polygon = faces.polygons[i];
    const uint16_t surface = polygon.material < surfaceOf.size() ? surfaceOf[polygon.material] : 0;
    if (!graph.surfaces[surface].allows(params.unit.kind)) {
      ++build.closedPolygons;
      continue;
    }
    std::vector<glm::vec3> corners;
    for (uint32_t c : polygon.corners)
      corners.push_back(faces.corners[c]);
    Sector sector{};
    sector.bounds = Aabb{};
    for (const glm::vec3& corner : corners)
      sector.bounds.grow(corner);
    sector.heightPlane = polygonPlane(corners);
    sector.firstHeight = kNoHeights;
    sector.surface = surface;
    sector.kind = SectorKind::Ground;
    sector.waypath = kNoWaypath;
    sector.firstCorner = uint32_t(graph.polygonCorners.size());
    sector.cornerCount = uint32_t(corners.size());
    graph.polygonCorners.insert(graph.polygonCorners.end(), corners.begin(), corners.end());
    sectorOf[i] = uint32_t(graph.sectors.size());
    polygonOf.push_back(i);
    graph.sectors.push_back(sector);
    graph.bounds.grow(sector.bounds);
  }
  if (graph.sectors.empty()) {
    return Result<NavMeshBuild>::failure(
        level.source + ": no walkable face to read as a navigation mesh" +
        (faces.polygons.empty() ? "" : " (every face is on a surface the unit may not walk)"));
  }
  if (cancelled()) return stopped();

  // One portal per polygon edge with a neighbour, in polygon order (so
  // already grouped by source); its reverse is the neighbour's edge back.
  std::vector<uint32_t> firstPortalOf(faces.polygons.size() + 1, 0);
  for (uint32_t i = 0; i < faces.polygons.size(); ++i) {
    if (i % 4096 == 0 && cancelled()) return stopped();
    firstPortalOf[i + 1] = firstPortalOf[i];
    const NavMeshPolygon& polygon = faces.polygons[i];
    if (sectorOf[i] == kNoSector) continue;
    const glm::vec3 centre = graph.centroid(graph.sectors[sectorOf[i]]);
    const size_t n = polygon.corners.size();
    for (size_t k = 0; k < n; ++k) {
      const uint32_t other = polygon.neighbours[k];
      if (other == kNoNeighbour || sectorOf[other] == kNoSector) continue;
      const glm::vec3 a = faces.corners[polygon.corners[k]];
      const glm::vec3 b = faces.corners[polygon.corners[(k + 1) % n]];
      const glm::vec2 walk = 0.5f * (groundOf(a) + groundOf(b)) - groundOf(centre);
      // Walking out of the polygon through its edge, the left end is the one
      // with cross2(walk, end - middle) < 0 (geometry.h).
      const bool aIsLeft = cross2(walk, groundOf(a) - groundOf(b)) < 0.0f;
      Portal portal{};
      portal.fromSector = sectorOf[i];
      portal.toSector = sectorOf[other];
      portal.left = aIsLeft ? a : b;
      portal.right = aIsLeft ? b : a;
      portal.direction = nearestAxis(walk);
      portal.kind = PortalKind::Walk;
      portal.link = 0;
      portal.reverse = kNoPortal;
      graph.portals.push_back(portal);
      ++firstPortalOf[i + 1];
    }
  }
  // Reverses: the neighbour's portal over the same two corners.
  for (uint32_t i = 0; i < faces.polygons.size(); ++i) {
    for (uint32_t p = firstPortalOf[i]; p < firstPortalOf[i + 1]; ++p) {
      Portal& portal = graph.portals[p];
      if (portal.reverse != kNoPortal) continue;
      const uint32_t other = polygonOf[portal.toSector];
      for (uint32_t q = firstPortalOf[other]; q < firstPortalOf[other + 1]; ++q) {
        const Portal& back = graph.portals[q];
        if (back.toSector == portal.fromSector && back.reverse == kNoPortal &&
            samePoint(back.left, portal.right) && samePoint(back.right, portal.left)) {
          portal.reverse = q;
          graph.portals[q].reverse = p;
          // The nearest axis of each side's walk may not be opposite; a pair's must.
          graph.portals[q].direction = opposite(portal.direction);
          break;
        }
      }
    }
  }
  sortPortalsBySource(graph);
  if (cancelled()) return stopped();
  graph.gridFrame = level.gridFrame;
  finishGraphIndexes(graph);
  build.totalMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (control) control->stage = BuildStage::Done;
  return Result<NavMeshBuild>::success(std::move(build));
}

}  // namespace

Result<NavMeshBuild> buildNavMeshGraph(const Level& level, const NavMeshGraphParams& params,
                                       BuildControl* control) {
  try {
    return buildOrFail(level, params, control);
  } catch (const std::bad_alloc&) {
    return Result<NavMeshBuild>::failure(level.source + ": out of memory reading the navigation mesh");
  }
}

NavBuild asNavBuild(NavMeshBuild mesh, size_t listedIssues) {
  NavBuild build;
  build.graph = std::move(mesh.graph);
  build.stats.sectors = build.graph.sectors.size();
  build.stats.portals = build.graph.portals.size();
  build.stats.graphBytes = build.graph.memoryBytes();
  build.stats.totalMs = mesh.totalMs;
  for (size_t i = 0; i < std::min(mesh.issues.size(), listedIssues); ++i) {
    const NavMeshIssue& issue = mesh.issues[i];
    build.stats.warnings.push_back(std::string(toString(issue.kind)) + " at " +
                                   formatPoint(issue.at));
  }
  if (mesh.issues.size() > listedIssues) {
    build.stats.warnings.push_back(std::to_string(mesh.issues.size() - listedIssues) +
                                   " more issues");
  }
  return build;
}

NavMeshGraphParams navMeshParamsFor(const Level& level) {
  NavMeshGraphParams params;
  if (!level.settings.units.empty()) params.unit = level.settings.units.front();
  return params;
}

}  // namespace nav
