// navscope against Recast/Detour at matched settings, on the Recast demo's
// dungeon.obj (../shared) and the bundled levels (assets/showcase.obj,
// assets/funnel.obj):
//   1. build: the median build time of several runs of each, and the walkable
//      area each covers;
//   2. queries: the same seeded random start/goal pairs through navscope
//      (locate + A* + funnel: nav::planPath, whose pullCorridor pulls the
//      string and moves corners out to their portal ends' reach) and
//      through Detour (findNearestPoly + findPath + findStraightPath): median
//      and 90th-percentile microseconds of each, and the ratio of path lengths
//      over the pairs both find.
//
// Matched settings. navscope's unit is round (UnitShape::Round), an upright
// cylinder as Detour's agent is. Every level: cell 0.3 m (or --cell). dungeon: a unit 1.2 m
// wide (Recast agent radius 0.6), 2.0 m tall, climbing 0.9 m, on slopes up to 45 degrees. Bundled
// levels: their human unit, 0.6 m wide (radius 0.3), 1.8 m tall, climbing
// 0.45 m. Detour moves up or down at most the climb, so navscope's drop limit
// is set to the climb; a second dungeon row keeps navscope's default 3.5 m
// drop, which Detour cannot follow. Recast's other values are the RecastDemo
// defaults (Sample_SoloMesh): cell height 0.2 m (so the climb rounds down to a
// multiple of 0.2 m: 0.8 m and 0.4 m), max edge length 12 m, max edge error
// 1.3 cells, min region 8 x 8 cells, merge region 20 x 20 cells, 6 vertices per
// polygon, detail sample distance 6 cells, detail max error 1 cell height,
// watershed regions. Geometry only: the bundled levels' devices (door,
// elevator, ladder) and waypaths are left out (Detour would need off-mesh
// links), and every material is navscope's default surface (cost 1, walkable
// by all), as every Recast polygon has area cost 1.
//
// Build times: navscope = collision tree + flood fill + compression; Recast =
// heightfield through detail mesh; loading the OBJ is in neither. Areas:
// navscope = cells x cellSize^2; Recast = its poly mesh's polygons projected on
// the ground. Both are where the unit's centre can stand (Recast erodes by the
// agent radius), on every walkable surface (dungeon: navscope seeds everywhere;
// the bundled levels use their sidecar's seed).
//
// Query pairs: points from dtNavMeshQuery::findRandomPoint (area-weighted,
// fixed seed), kept only where navscope places the path's end at the same
// ground point (within 1 cm): its walkable space differs from Recast's at the
// edges, and a point it moves onto its own would make the two answer
// different pairs.
// Detour's node pool holds 2048 nodes; findNearestPoly uses half extents
// (2, 4, 2). Each query runs REPS times, interleaved with the other library's;
// a pair's time is the best (shortest) of its repetitions. Path length = length of the
// corner polyline in 3D (navscope: pullCorridor's corners; Detour: the straight
// path). A pair Detour answers with a partial path (goal polygon not reached)
// counts as not found. Clearance, over the pairs both found: each library's
// path swept with its own unit (navscope's box or disc, Detour's disc of the
// agent radius) over the ground navscope's collision world gives, counted per
// stretch between corners, with the depth the deepest reaches into the level.
// The floors count the pairs where navscope's path is more than 5 % longer, in
// 3D and in the ground plane (the corner polyline's 3D length leaves out the
// ground's rise and fall between corners), each also over the pairs whose
// Detour path its agent can follow (touching nothing, never over no ground).
//
// Run: build/core/navscope_bench_recast [RUNS [PAIRS [REPS]]] [--corners] [--exact] [--regions]
//                                       [--box [--bracket]] [--pairs FILE] [--seed N] [--cell S]
//                                       [--only TEXT] [--terrain SEED[:DEGREES]]...
//                                       [--grid-angle DEG|auto]
//                                       [--level FILE[:DEGREES]]...
//                                       [--export-navmesh DIR] [--navmesh]
//   RUNS builds per library (default 5), PAIRS query pairs per level (default
//   2000), REPS repetitions per query (default 10); --corners prints the corner
//   lists of the pairs whose length ratio is furthest from 1; --exact searches
//   with PortalPoint::Exact (the interval search) instead of the default A*;
//   --regions lets the A* search the search regions first (search_regions.h);
//   --box builds navscope's unit as a box (its default shape) instead: Detour's
//   agent then fits inside it, and its corners keep it further from walls,
//   so the floors are not for it; --bracket adds rows where Detour's agent is
//   the circle around the box (radius half its diagonal, which Recast rounds up
//   to whole cells): the box's path lengths lie between the two rows'.
//   --export-navmesh DIR writes each case's Recast polygon mesh to DIR as OBJ
//   (a navigation mesh to read with `navscope-cli query --navmesh`);
//   --navmesh reads each case's Recast polygon mesh as navscope's graph
//   (navmesh_graph.h) instead of flood filling the level, and compares every
//   cost model (centroid, midpoint, crossing, exact) with Detour on that same
//   mesh, same pairs, each query's best of REPS runs for both;
//   --cell S builds both at cell size S (0.05 to 1 m; default 0.3), to see
//   what the cell size costs each library's paths;
//   --seed N draws other query pairs (default 20240601); --only TEXT runs only
//   the cases whose label holds TEXT ("terrain", "dungeon"); --terrain runs
//   these generated terrains (turned DEGREES) instead of the default rows
//   (seeds 1 to 3, and seed 1 turned 17 degrees); --level runs these level
//   files (turned DEGREES) too, with dungeon.obj's Detour-matched unit and
//   seeds everywhere, to compare on levels of one's own; --grid-angle DEG
//   builds navscope on a grid turned DEG (0: the file's axes) instead of the
//   one chooseGridAngle picks (the default, as the CLI's; its time counts in
//   the build's);
//   --pairs FILE writes every pair, one tab-separated line each (level, start,
//   goal, both lengths or "none", corridor sizes, both corner lists as "x y z;..."),
//   to study where they differ (navscope_compare_pairs compares two such files).
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_levels.h"
#include "detour_reference.h"
#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/grid_angle.h"
#include "nav/locate.h"
#include "nav/nav_build.h"
#include "nav/navmesh_graph.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/search.h"
#include "recast_reference.h"

namespace {

/// Both libraries' cell size (--cell S). [metres]
float g_cellSize = 0.3f;

/// One comparison: a level and the unit both libraries build for.
struct Case {
  std::string label;
  std::string path;
  /// Width of navscope's unit: the cylinder's diameter, or the box's side. [metres]
  float unitWidth;
  float unitHeight;
  /// Step up (both) and, for Detour, step down. [metres]
  float climb;
  /// navscope's drop limit. [metres]
  float maxDrop;
  float slopeDegrees;
  /// Seeds and materials from the level's sidecar (else: seeds everywhere, every material).
  bool useSidecar;
  /// Detour's agent radius: half the unit's width (the same cylinder, or the
  /// circle inside the box, as the issue matches them), or for a bracket row
  /// half the box's diagonal (the circle around it). [metres]
  float detourRadius;
  /// A bracket row: not held to the floors.
  bool bracket = false;
  /// Non-zero: the level is the terrain generator's of this seed (path unused).
  uint32_t terrainSeed = 0;
  /// The level turned about the vertical axis by this much. [degrees]
  float rotateDegrees = 0.0f;
};

// ---------------------------------------------------------------------------
// Recast
// ---------------------------------------------------------------------------

using nav::recast::TriangleSoup;
using RecastNavMesh = nav::recast::NavMesh;
using nav::recast::DetourMesh;
using nav::recast::DetourPath;

rcConfig recastConfig(const Case& c) {
  nav::UnitProfile unit;
  unit.height = c.unitHeight;
  unit.stepHeight = c.climb;
  unit.maxSlopeDegrees = c.slopeDegrees;
  return nav::recast::matchedConfig(unit, c.detourRadius, g_cellSize);
}

// Detour's findRandomPoint takes a plain function: a fixed-seed LCG in [0, 1).
uint64_t g_randomState = 0;

float randomUnit() {
  g_randomState = g_randomState * 6364136223846793005ull + 1442695040888963407ull;
  return float(g_randomState >> 40) / float(1u << 24);
}

// ---------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------

/// What one library answered for one pair.
struct Answer {
  bool found = false;
  float length = 0.0f;
  /// navscope: corridor sectors; Detour: corridor polygons.
  size_t corridor = 0;
  /// navscope: nodes A* expanded; Detour: nodes its A* touched (opened or closed).
  size_t searchNodes = 0;
  std::vector<glm::vec3> corners;
};

/// The navscope search mode, from --exact (default: findPath's own, Crossing).
nav::SearchOptions g_searchOptions;

/// The search options for one graph: Detour's default filter costs every area
/// alike, and so does navscope here (its own defaults make the showcase's road
/// and lava dearer, and its paths go round them where Detour's cross).
nav::SearchOptions matchedOptions(const nav::NavGraph& graph) {
  nav::SearchOptions options = g_searchOptions;
  for (const nav::SurfaceSpec& surface : graph.surfaces)
    options.filter.surfaceCosts[surface.name] = 1.0f;
  return options;
}

/// navscope's pipeline (search and funnel); keepCorners copies the corners out
/// (not timed). The answer is kept between queries, as Detour's query object
/// and buffers are.
Answer navscopeQuery(const nav::NavGraph& graph, const nav::SearchOptions& options,
                     const glm::vec3& start, const glm::vec3& goal, bool keepCorners = false) {
  static nav::PathAnswer path;
  Answer answer;
  nav::planPath(graph, start, goal, options, {}, path);
  if (path.search.status != nav::PathStatus::Found) return answer;
  answer.found = true;
  answer.length = path.funnel.length;
  answer.corridor = path.search.corridor.sectors.size();
  answer.searchNodes = path.search.expansions;
  if (keepCorners) answer.corners = path.funnel.corners;
  return answer;
}

/// Detour's usual three calls, the straight path's corners and length included
/// (as navscope's answer holds its corners); keepCorners copies them out.
Answer detourQuery(const DetourMesh& detour, const glm::vec3& start, const glm::vec3& goal,
                   bool& outOfNodes, bool keepCorners = false) {
  static DetourPath path;
  Answer answer;
  detour.findPath(start, goal, path);
  outOfNodes = outOfNodes || path.outOfNodes;
  if (!path.found) return answer;
  answer.found = true;
  answer.length = path.length;
  answer.corridor = path.polygons;
  answer.searchNodes = path.searchNodes;
  if (keepCorners) answer.corners = path.corners;
  return answer;
}

double microsecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Nearest-rank percentile of unsorted values (p in (0, 1]).
double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t rank = size_t(std::ceil(p * double(values.size())));
  return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

double median(std::vector<double> values) {
  return percentile(std::move(values), 0.5);
}

struct Pair {
  glm::vec3 start, goal;
  Answer navscope, detour;
  /// Best (shortest) of the repetitions. [microseconds]
  double navscopeUs = 0.0, detourUs = 0.0, locateUs = 0.0;
};

struct QueryReport {
  /// Points drawn on Detour's mesh, and those navscope starts or ends a path at.
  size_t drawn = 0, inPlace = 0;
  std::vector<Pair> pairs;
  bool outOfNodes = false;
};

// Pairs are drawn on Detour's mesh, in the level file's coordinates; navscope's
// graph may be on a turned grid (GridFrame): its queries take the points turned
// onto it, and its corners are turned back.
QueryReport runQueries(const nav::NavGraph& graph, const DetourMesh& detour, uint64_t seed,
                       int pairCount, int repetitions) {
  const nav::GridFrame& frame = graph.gridFrame;
  QueryReport report;
  const dtNavMeshQuery& query = detour.query();
  const dtQueryFilter& filter = detour.filter();
  g_randomState = seed;
  // Both libraries answer the same pair only where both start from the point
  // drawn: a point navscope would place elsewhere on the ground (off its
  // walkable space, which differs from Recast's at its edges) is dropped, at
  // most 40 points drawn per pair wanted. Heights may differ: each stands on
  // its own ground.
  constexpr float kInPlace = 0.01f;  // [metres]
  const glm::vec3 snapExtents = g_searchOptions.snapExtents;
  const auto drawPoint = [&](glm::vec3& point) {
    dtPolyRef ref = 0;
    ++report.drawn;
    if (dtStatusFailed(query.findRandomPoint(&filter, randomUnit, &ref, &point.x))) return false;
    const glm::vec3 onGrid = frame.toGrid(point);
    const nav::Location placed = nav::placeForPath(graph, onGrid, snapExtents);
    const bool kept = placed.sector != nav::kNoSector &&
                      glm::distance(nav::groundOf(placed.point), nav::groundOf(onGrid)) <= kInPlace;
    report.inPlace += kept;
    return kept;
  };
  while (int(report.pairs.size()) < pairCount && report.drawn < size_t(pairCount) * 40) {
    Pair pair;
    if (!drawPoint(pair.start) || !drawPoint(pair.goal)) continue;
    report.pairs.push_back(pair);
  }

  const size_t reps = size_t(repetitions);
  std::vector<double> navscopeTimes(reps), detourTimes(reps), locateTimes(reps);
  size_t sink = 0;
  const nav::SearchOptions options = matchedOptions(graph);
  for (Pair& pair : report.pairs) {
    const glm::vec3 gridStart = frame.toGrid(pair.start), gridGoal = frame.toGrid(pair.goal);
    pair.navscope =
        navscopeQuery(graph, options, gridStart, gridGoal, true);  // warms the caches too
    for (glm::vec3& corner : pair.navscope.corners)
      corner = frame.toFile(corner);
    pair.detour = detourQuery(detour, pair.start, pair.goal, report.outOfNodes, true);
    for (int r = 0; r < repetitions; ++r) {
      // Alternate which library goes first, so neither always runs on caches the other cooled.
      for (int turn = 0; turn < 2; ++turn) {
        if ((turn == 0) == (r % 2 == 0)) {
          const auto start = std::chrono::steady_clock::now();
          sink += navscopeQuery(graph, options, gridStart, gridGoal).corridor;
          navscopeTimes[size_t(r)] = microsecondsSince(start);
        } else {
          const auto start = std::chrono::steady_clock::now();
          bool outOfNodes = false;
          sink += detourQuery(detour, pair.start, pair.goal, outOfNodes).corridor;
          detourTimes[size_t(r)] = microsecondsSince(start);
        }
      }
      const auto start = std::chrono::steady_clock::now();
      sink += nav::locateSector(graph, gridStart).sector;
      sink += nav::locateSector(graph, gridGoal).sector;
      locateTimes[size_t(r)] = microsecondsSince(start);
    }
    pair.navscopeUs = *std::min_element(navscopeTimes.begin(), navscopeTimes.end());
    pair.detourUs = *std::min_element(detourTimes.begin(), detourTimes.end());
    pair.locateUs = *std::min_element(locateTimes.begin(), locateTimes.end());
  }
  if (sink == 42) std::printf(" ");  // keeps the timed work observable
  return report;
}

// ---------------------------------------------------------------------------
// Clearance: does a unit following a path touch the level?
// ---------------------------------------------------------------------------

/// Adds a path's clearance (path_clearance.h) to a library's running total;
/// true when the path touches nothing and never crosses no ground.
bool addClearance(const nav::CollisionWorld& world, const nav::UnitProfile& unit,
                  const std::vector<glm::vec3>& corners, nav::ClearanceSummary& total) {
  const nav::ClearanceSummary path =
      nav::summarizeClearance(nav::pathClearance(world, unit, corners));
  total.stretches += path.stretches;
  total.touching += path.touching;
  total.overNoGround += path.overNoGround;
  total.lengthOverNoGround += path.lengthOverNoGround;
  if (path.deepest > total.deepest) {
    total.deepest = path.deepest;
    total.deepestAt = path.deepestAt;
  }
  return path.touching == 0 && path.overNoGround == 0;
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

/// Ground-plane area of the upward-facing triangles flat enough to stand on:
/// what both would cover with no erosion at edges and no overhang. [square metres]
double walkableTriangleArea(const nav::Level& level, float slopeDegrees) {
  const float minNormalY = std::cos(glm::radians(slopeDegrees));
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
  return median(times);
}

nav::UnitShape g_shape = nav::UnitShape::Round;

nav::FloodFillParams navscopeParams(const nav::Level& level, const Case& c) {
  nav::UnitProfile unit;
  unit.shape = g_shape;
  unit.width = c.unitWidth;
  unit.height = c.unitHeight;
  unit.stepHeight = c.climb;
  unit.maxSlopeDegrees = c.slopeDegrees;
  unit.maxDrop = c.maxDrop;
  nav::FloodFillParams params;
  if (c.useSidecar) params = nav::fillParamsFor(level, unit);
  params.unit = unit;
  params.cellSize = g_cellSize;
  return params;
}

void printCorners(const char* who, const Answer& answer) {
  std::printf("      %-8s", who);
  for (const glm::vec3& p : answer.corners)
    std::printf(" (%.2f %.2f %.2f)", p.x, p.y, p.z);
  std::printf("\n");
}

/// One row of the summary table.
struct Summary {
  std::string label;
  bool bracket = false;
  size_t pairs = 0, both = 0, navscopeOnly = 0, detourOnly = 0, neither = 0;
  double navscopeMedian = 0, navscopeP90 = 0, detourMedian = 0, detourP90 = 0;
  double lengthSumRatio = 0, lengthMedianRatio = 0;
  /// Total length in the ground plane, navscope over Detour: heights each
  /// library's own ground gives (Detour's detail mesh is within a cell height) left out.
  double groundSumRatio = 0;
  /// Pairs both found where navscope's path is more than 5 % longer, and
  /// those of them where Detour's path is one its agent can follow: it touches
  /// nothing and never crosses no ground (the rest compare with a path no unit walks).
  size_t longerByFivePercent = 0, longerThanAClearPath = 0;
  /// The same in the ground plane: a corner polyline's 3D length leaves out
  /// the ground's rise and fall between corners, so a path with a corner on
  /// a hill or a bridge counts its climb and one without does not.
  size_t longerOnTheGround = 0, longerOnTheGroundThanAClearPath = 0;
  /// Total length, navscope over Detour, in 3D and in the ground plane, over
  /// the pairs where Detour's agent can follow Detour's path: a path that
  /// cuts a corner its agent cannot pass is shorter than any a unit walks.
  size_t clearPairs = 0;
  double clearLengthSumRatio = 0, clearGroundSumRatio = 0;
};

/// Whether navscope's path is more than 5 % longer than Detour's, in 3D or in the ground plane.
bool moreThanFivePercentLonger(const Pair& p, bool onTheGround) {
  const double n = onTheGround ? nav::groundPolylineLength(p.navscope.corners) : p.navscope.length;
  const double d = onTheGround ? nav::groundPolylineLength(p.detour.corners) : p.detour.length;
  return d > 0.0 && n > 1.05 * d;
}

// --grid-angle DEG: navscope builds on this grid; unset (auto) on the one chooseGridAngle picks.
std::optional<float> g_gridAngle;

// The query pairs' seed (--seed N).
uint64_t g_seed = 20240601;

// --pairs FILE: every pair, one tab-separated line each; "none" where a library found no path.
FILE* g_pairsOut = nullptr;

// --only TEXT: only the cases whose label holds TEXT.
std::string g_only;

// --export-navmesh DIR: each case's Recast polygon mesh written there as OBJ.
std::string g_navMeshFolder;

// --navmesh: the cost models on Recast's own polygon mesh (compareCostModels).
bool g_navMeshModels = false;

// Recast's polygon mesh read as a navigation mesh and searched with each cost
// model, against Detour on the same mesh and the same pairs.
void compareCostModels(const Case& c, const RecastNavMesh& recast, const DetourMesh& detour,
                       const nav::UnitProfile& unit, int pairCount, int repetitions,
                       bool showCorners) {
  nav::Result<nav::Level> level =
      nav::parseObj(nav::recast::polyMeshObj(*recast.polyMesh), c.label + " (Recast's mesh)");
  if (!level) {
    std::fprintf(stderr, "%s\n", level.error().c_str());
    return;
  }
  nav::NavMeshGraphParams params;
  params.unit = unit;
  nav::Result<nav::NavMeshBuild> mesh = nav::buildNavMeshGraph(level.value(), params);
  if (!mesh) {
    std::fprintf(stderr, "%s\n", mesh.error().c_str());
    return;
  }
  const nav::NavGraph& graph = mesh.value().graph;
  std::printf(
      "== %s, Recast's polygon mesh as navscope's graph: %d polygons -> %zu sectors, "
      "%zu portals, %zu mesh issues, read in %.2f ms\n",
      c.label.c_str(), recast.polyMesh->npolys, graph.sectors.size(), graph.portals.size(),
      mesh.value().issues.size(), mesh.value().totalMs);
  std::printf("  %-9s %5s | %7s %7s | %7s %7s | %6s %6s | %8s %8s | %6s %6s | %s\n", "model",
              "both", "nav med", "nav p90", "det med", "det p90", "med x", "p90 x", "len 3D",
              "len grnd", ">1%", ">5%", "worst pair (navscope / Detour, ground)");
  const nav::PortalPoint chosen = g_searchOptions.portalPoint;
  for (const nav::PortalPoint model : nav::kPortalPoints) {
    g_searchOptions.portalPoint = model;
    const QueryReport report = runQueries(graph, detour, g_seed, pairCount, repetitions);
    std::vector<double> navUs, detUs;
    double nav3d = 0, det3d = 0, navGround = 0, detGround = 0;
    size_t both = 0, over1 = 0, over5 = 0;
    const Pair* worst = nullptr;
    float worstRatio = 0.0f;
    for (const Pair& p : report.pairs) {
      navUs.push_back(p.navscopeUs);
      detUs.push_back(p.detourUs);
      if (!p.navscope.found || !p.detour.found) continue;
      ++both;
      nav3d += p.navscope.length;
      det3d += p.detour.length;
      const double n = nav::groundPolylineLength(p.navscope.corners),
                   d = nav::groundPolylineLength(p.detour.corners);
      navGround += n;
      detGround += d;
      const float ratio = d > 0.0f ? n / d : 1.0f;
      over1 += ratio > 1.01f;
      over5 += ratio > 1.05f;
      if (ratio > worstRatio) {
        worstRatio = ratio;
        worst = &p;
      }
    }
    std::printf("  %-9s %5zu | %7.2f %7.2f | %7.2f %7.2f | %6.2f %6.2f | %8.4f %8.4f | %6zu %6zu |",
                nav::toString(model), both, median(navUs), percentile(navUs, 0.9), median(detUs),
                percentile(detUs, 0.9), median(navUs) / median(detUs),
                percentile(navUs, 0.9) / percentile(detUs, 0.9), det3d > 0 ? nav3d / det3d : 0.0,
                detGround > 0 ? navGround / detGround : 0.0, over1, over5);
    if (worst) {
      std::printf(" %.3f (%.1f %.1f %.1f) -> (%.1f %.1f %.1f)", worstRatio, worst->start.x,
                  worst->start.y, worst->start.z, worst->goal.x, worst->goal.y, worst->goal.z);
    }
    std::printf("\n");
    if (worst && showCorners) {
      printCorners("navscope", worst->navscope);
      printCorners("Detour", worst->detour);
    }
  }
  g_searchOptions.portalPoint = chosen;
  std::printf(
      "  (len: navscope/Detour total over pairs both found; >1%%, >5%%: pairs that much "
      "longer on the ground)\n\n");
}

void writePairs(const std::string& label, const QueryReport& report) {
  if (!g_pairsOut) return;
  const auto length = [](const Answer& a) {
    return a.found ? std::to_string(a.length) : std::string("none");
  };
  const auto corners = [](const Answer& a) {
    std::string text;
    char point[64];
    for (const glm::vec3& c : a.corners) {
      std::snprintf(point, sizeof point, "%s%.3f %.3f %.3f", text.empty() ? "" : ";", c.x, c.y,
                    c.z);
      text += point;
    }
    return text;
  };
  for (const Pair& p : report.pairs) {
    std::fprintf(g_pairsOut, "%s\t%.3f %.3f %.3f\t%.3f %.3f %.3f\t%s\t%s\t%zu\t%zu\t%s\t%s\n",
                 label.c_str(), p.start.x, p.start.y, p.start.z, p.goal.x, p.goal.y, p.goal.z,
                 length(p.navscope).c_str(), length(p.detour).c_str(), p.navscope.corridor,
                 p.detour.corridor, corners(p.navscope).c_str(), corners(p.detour).c_str());
  }
}

// The case's level: loaded, or generated, and turned when asked.
nav::Result<nav::Level> levelOf(const Case& c) {
  return nav::bench::benchLevel(c.label, c.path, c.terrainSeed, c.rotateDegrees);
}

std::optional<Summary> runCase(const Case& c, int runs, int pairCount, int repetitions,
                               bool showCorners) {
  if (c.terrainSeed == 0 && !std::filesystem::exists(c.path)) {
    std::printf("%s is absent: skipped\n\n", c.path.c_str());
    return std::nullopt;
  }
  nav::Result<nav::Level> loaded = levelOf(c);
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().c_str());
    return std::nullopt;
  }
  nav::Level level = std::move(loaded).value();
  // Geometry only: Detour has no off-mesh links or area costs here, so navscope goes
  // without devices and waypaths, and every material is the default surface (cost 1).
  level.settings.devices.clear();
  level.settings.waypaths.clear();
  level.settings.surfaces.clear();
  for (const std::string& material : level.materials)
    level.settings.materialSurfaces[material] = "default";
  const nav::FloodFillParams params = navscopeParams(level, c);

  // The build a user gets: on the grid the level asks for (--grid-angle), the
  // choice timed with it.
  std::optional<nav::NavBuild> navscope;
  std::optional<nav::Level> gridLevel;
  std::string error;
  const double navscopeMs = medianMilliseconds(runs, [&] {
    nav::Result<nav::Level> onGrid = nav::levelOnChosenGrid(level, g_gridAngle, params);
    if (!onGrid) {
      error = onGrid.error();
      return;
    }
    const nav::CollisionWorld world(onGrid.value());
    nav::Result<nav::NavBuild> build =
        nav::buildNavigation(onGrid.value(), world, navscopeParams(onGrid.value(), c));
    if (build) {
      navscope = std::move(build).value();
      gridLevel = std::move(onGrid).value();
    } else {
      error = build.error();
    }
  });
  if (!navscope) {
    std::fprintf(stderr, "navscope: %s\n", error.c_str());
    return std::nullopt;
  }

  const TriangleSoup soup(level);
  const rcConfig config = recastConfig(c);
  std::optional<RecastNavMesh> recast;
  const double recastMs =
      medianMilliseconds(runs, [&] { recast = nav::recast::buildNavMesh(soup, config, error); });
  if (!recast) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return std::nullopt;
  }
  if (!g_navMeshFolder.empty()) {
    std::string name = c.label;
    std::replace_if(
        name.begin(), name.end(), [](char ch) { return !std::isalnum(ch); }, '-');
    const std::filesystem::path file = std::filesystem::path(g_navMeshFolder) / (name + ".obj");
    std::ofstream(file) << nav::recast::polyMeshObj(*recast->polyMesh);
    std::printf("Recast's polygon mesh written to %s\n", file.c_str());
  }
  std::optional<DetourMesh> detour =
      DetourMesh::create(*recast, config, c.unitHeight, c.detourRadius, error);
  if (!detour) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return std::nullopt;
  }
  if (g_navMeshModels) {
    compareCostModels(c, *recast, *detour, params.unit, pairCount, repetitions, showCorners);
    return std::nullopt;
  }

  const nav::BuildStats& stats = navscope->stats;
  const double navscopeArea = double(stats.cells) * g_cellSize * g_cellSize;
  const double recastArea = nav::recast::groundArea(*recast->polyMesh);
  std::printf(
      "== %s: %zu triangles; cell %.2f m, unit %.2f x %.2f m (Detour radius %.2f, Recast erodes "
      "%.2f), climb %.2f m (Recast %.2f), navscope drop %.2f m, slope %.0f deg\n",
      c.label.c_str(), level.triangles.size(), g_cellSize, c.unitWidth, c.unitHeight,
      c.detourRadius, float(config.walkableRadius) * config.cs, c.climb,
      float(config.walkableClimb) * config.ch, c.maxDrop, c.slopeDegrees);
  std::printf("%-16s %12s %14s  %s (median of %d runs)\n", "", "build ms", "walkable m2", "output",
              runs);
  std::printf(
      "%-16s %12.1f %14.1f  %zu cells, %zu sectors, %zu portals (fill %.1f ms, "
      "compress %.1f ms), grid %.2f deg\n",
      "navscope", navscopeMs, navscopeArea, stats.cells, stats.sectors, stats.portals,
      stats.floodFillMs, stats.compressMs, double(gridLevel->gridFrame.degrees));
  std::printf("%-16s %12.1f %14.1f  %d polygons, %d detail triangles\n", "Recast", recastMs,
              recastArea, recast->polyMesh->npolys, recast->detailMesh->ntris);
  std::printf("%-16s %12.2f %14.3f  %.2f sectors a polygon, %.1f sectors per 1,000 cells\n",
              "navscope/Recast", navscopeMs / recastMs, navscopeArea / recastArea,
              double(stats.sectors) / double(std::max(1, recast->polyMesh->npolys)),
              1000.0 * double(stats.sectors) / double(std::max<size_t>(1, stats.cells)));
  std::printf("%-16s %12s %14.1f  upward triangles flat enough to stand on, for reference\n",
              "level", "", walkableTriangleArea(level, c.slopeDegrees));

  const QueryReport report = runQueries(navscope->graph, *detour, g_seed, pairCount, repetitions);
  writePairs(c.label, report);
  Summary s;
  s.label = c.label;
  s.bracket = c.bracket;
  s.pairs = report.pairs.size();
  std::vector<double> navscopeUs, detourUs, locateUs, ratios;
  double navscopeSum = 0, detourSum = 0, navscopeGround = 0, detourGround = 0;
  for (const Pair& p : report.pairs) {
    navscopeUs.push_back(p.navscopeUs);
    detourUs.push_back(p.detourUs);
    locateUs.push_back(p.locateUs);
    if (p.navscope.found && p.detour.found) {
      ++s.both;
      navscopeSum += p.navscope.length;
      detourSum += p.detour.length;
      navscopeGround += nav::groundPolylineLength(p.navscope.corners);
      detourGround += nav::groundPolylineLength(p.detour.corners);
      if (p.detour.length > 0.0f) ratios.push_back(p.navscope.length / p.detour.length);
    } else if (p.navscope.found) {
      ++s.navscopeOnly;
    } else if (p.detour.found) {
      ++s.detourOnly;
    } else {
      ++s.neither;
    }
  }
  s.navscopeMedian = median(navscopeUs);
  s.navscopeP90 = percentile(navscopeUs, 0.9);
  s.detourMedian = median(detourUs);
  s.detourP90 = percentile(detourUs, 0.9);
  s.lengthSumRatio = detourSum > 0 ? navscopeSum / detourSum : 0.0;
  s.lengthMedianRatio = median(ratios);
  s.groundSumRatio = detourGround > 0 ? navscopeGround / detourGround : 0.0;

  std::printf(
      "queries: %zu pairs from %zu points drawn on the Detour mesh (%.1f%% where navscope "
      "places them too), "
      "seed %llu, best of %d repetitions each%s\n",
      s.pairs, report.drawn,
      100.0 * double(report.inPlace) / double(std::max<size_t>(report.drawn, 1)),
      static_cast<unsigned long long>(g_seed), repetitions,
      report.outOfNodes ? "; Detour ran out of nodes on some" : "");
  std::printf("  found: both %zu, only navscope %zu, only Detour %zu, neither %zu\n", s.both,
              s.navscopeOnly, s.detourOnly, s.neither);
  std::printf("  %-10s %10s %10s\n", "us", "median", "p90");
  std::printf("  %-10s %10.2f %10.2f   (of which locate: median %.2f)\n", "navscope",
              s.navscopeMedian, s.navscopeP90, median(locateUs));
  std::printf("  %-10s %10.2f %10.2f\n", "Detour", s.detourMedian, s.detourP90);
  std::printf("  %-10s %10.2f %10.2f\n", "ratio", s.navscopeMedian / s.detourMedian,
              s.navscopeP90 / s.detourP90);
  // Found and not found apart: a search that finds nothing floods the start's whole island.
  for (const bool found : {true, false}) {
    std::vector<double> n, d;
    for (const Pair& p : report.pairs) {
      if ((p.navscope.found && p.detour.found) != found) continue;
      n.push_back(p.navscopeUs);
      d.push_back(p.detourUs);
    }
    if (n.empty()) continue;
    std::printf(
        "  %-18s %5zu pairs: navscope median %.2f p90 %.2f, Detour median %.2f p90 %.2f us\n",
        found ? "found by both" : "not found by both", n.size(), median(n), percentile(n, 0.9),
        median(d), percentile(d, 0.9));
  }

  // Where the time goes: pairs split by Detour corridor size (quartiles).
  std::vector<const Pair*> byCorridor;
  for (const Pair& p : report.pairs) {
    if (p.navscope.found && p.detour.found) byCorridor.push_back(&p);
  }
  std::sort(byCorridor.begin(), byCorridor.end(),
            [](const Pair* a, const Pair* b) { return a->detour.corridor < b->detour.corridor; });
  if (byCorridor.size() >= 4) {
    std::printf("  by Detour corridor size (quartiles of pairs both found):\n");
    for (size_t q = 0; q < 4; ++q) {
      const size_t begin = byCorridor.size() * q / 4, end = byCorridor.size() * (q + 1) / 4;
      std::vector<double> n, d, sectors, expanded, touched;
      for (size_t i = begin; i < end; ++i) {
        n.push_back(byCorridor[i]->navscopeUs);
        d.push_back(byCorridor[i]->detourUs);
        sectors.push_back(double(byCorridor[i]->navscope.corridor));
        expanded.push_back(double(byCorridor[i]->navscope.searchNodes));
        touched.push_back(double(byCorridor[i]->detour.searchNodes));
      }
      std::printf(
          "    polys %4zu-%-4zu (navscope sectors ~%4.0f, expanded ~%5.0f; Detour nodes ~%4.0f): "
          "navscope %7.2f us, Detour %7.2f us, ratio %5.2f\n",
          byCorridor[begin]->detour.corridor, byCorridor[end - 1]->detour.corridor, median(sectors),
          median(expanded), median(touched), median(n), median(d), median(n) / median(d));
    }
  }

  std::printf(
      "  path length navscope/Detour: total %.4f (%.1f m / %.1f m), median per pair %.4f; "
      "in the ground plane, total %.4f\n",
      s.lengthSumRatio, navscopeSum, detourSum, s.lengthMedianRatio, s.groundSumRatio);
  // Per pair both found: whether Detour's agent can follow Detour's path.
  std::vector<char> detourClear(report.pairs.size(), 0);
  {
    // A shorter path is no gain if the unit cannot follow it: both sweep their own agent.
    // navscope's unit is swept on its grid (a box turns with it), Detour's on the file.
    const nav::CollisionWorld world(level), gridWorld(*gridLevel);
    const nav::GridFrame& frame = gridLevel->gridFrame;
    const nav::UnitProfile& unit = params.unit;
    nav::UnitProfile agent = unit;
    agent.shape = nav::UnitShape::Round;
    agent.width = 2.0f * c.detourRadius;
    nav::ClearanceSummary navscopeClearance, detourClearance;
    double clearNavscope = 0, clearDetour = 0, clearNavscopeGround = 0, clearDetourGround = 0;
    for (size_t i = 0; i < report.pairs.size(); ++i) {
      const Pair& p = report.pairs[i];
      if (!p.navscope.found || !p.detour.found) continue;
      std::vector<glm::vec3> gridCorners = p.navscope.corners;
      for (glm::vec3& corner : gridCorners)
        corner = frame.toGrid(corner);
      addClearance(gridWorld, unit, gridCorners, navscopeClearance);
      detourClear[i] = addClearance(world, agent, p.detour.corners, detourClearance);
      s.longerByFivePercent += moreThanFivePercentLonger(p, false);
      s.longerOnTheGround += moreThanFivePercentLonger(p, true);
      if (detourClear[i]) {
        s.longerThanAClearPath += moreThanFivePercentLonger(p, false);
        s.longerOnTheGroundThanAClearPath += moreThanFivePercentLonger(p, true);
        ++s.clearPairs;
        clearNavscope += p.navscope.length;
        clearDetour += p.detour.length;
        clearNavscopeGround += nav::groundPolylineLength(p.navscope.corners);
        clearDetourGround += nav::groundPolylineLength(p.detour.corners);
      }
    }
    s.clearLengthSumRatio = clearDetour > 0 ? clearNavscope / clearDetour : 0.0;
    s.clearGroundSumRatio = clearDetourGround > 0 ? clearNavscopeGround / clearDetourGround : 0.0;
    std::printf(
        "  path length navscope/Detour over the %zu pairs whose Detour path its agent can follow: "
        "total %.4f, in the ground plane %.4f\n",
        s.clearPairs, s.clearLengthSumRatio, s.clearGroundSumRatio);
    for (const auto& [who, clearance] :
         {std::pair{"navscope", navscopeClearance}, std::pair{"Detour", detourClearance}}) {
      std::printf(
          "  stretches touching the level (%s's unit swept along its path): %zu of %zu (%.1f%%), "
          "deepest %.3f m\n",
          who, clearance.touching, clearance.stretches,
          100.0 * double(clearance.touching) / double(std::max<size_t>(clearance.stretches, 1)),
          clearance.deepest);
    }
    // Ground the unit would stand on: a voxel mesh can close a crack narrower than a voxel.
    for (const auto& [who, clearance] :
         {std::pair{"navscope", navscopeClearance}, std::pair{"Detour", detourClearance}}) {
      std::printf(
          "  stretches over no ground (%s's unit: no ground under its centre within its step or "
          "drop): %zu of %zu, %.2f m in all\n",
          who, clearance.overNoGround, clearance.stretches, double(clearance.lengthOverNoGround));
    }
  }
  std::vector<const Pair*> outliers;
  size_t longer = 0, shorter = 0;
  for (const Pair& p : report.pairs) {
    if (!p.navscope.found || !p.detour.found || p.detour.length <= 0.0f) continue;
    const float ratio = p.navscope.length / p.detour.length;
    if (ratio > 1.1f) ++longer;
    if (ratio < 0.9f) ++shorter;
    outliers.push_back(&p);
  }
  std::printf("  navscope more than 10%% longer on %zu pairs, more than 10%% shorter on %zu\n",
              longer, shorter);
  const auto ratioOf = [](const Pair* p) { return p->navscope.length / p->detour.length; };
  std::sort(outliers.begin(), outliers.end(),
            [&](const Pair* a, const Pair* b) { return ratioOf(a) < ratioOf(b); });
  const auto show = [&](const Pair* p) {
    std::printf(
        "    ratio %.3f: (%.2f %.2f %.2f) -> (%.2f %.2f %.2f): navscope %.2f m (%zu sectors, %zu "
        "corners), Detour %.2f m (%zu polys, %zu corners)\n",
        ratioOf(p), p->start.x, p->start.y, p->start.z, p->goal.x, p->goal.y, p->goal.z,
        p->navscope.length, p->navscope.corridor, p->navscope.corners.size(), p->detour.length,
        p->detour.corridor, p->detour.corners.size());
    if (!detourClear[size_t(p - report.pairs.data())])
      std::printf(
          "      Detour's agent cannot follow Detour's path: it touches the level or "
          "crosses no ground\n");
    if (showCorners) {
      printCorners("navscope", p->navscope);
      printCorners("Detour", p->detour);
    }
  };
  if (!outliers.empty()) {
    std::printf("  shortest navscope paths relative to Detour:\n");
    for (size_t i = 0; i < std::min<size_t>(2, outliers.size()); ++i)
      show(outliers[i]);
    std::printf("  longest navscope paths relative to Detour:\n");
    for (size_t i = outliers.size() - std::min<size_t>(2, outliers.size()); i < outliers.size();
         ++i)
      show(outliers[i]);
  }
  std::printf("\n");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> numbers;
  std::vector<nav::bench::TerrainCase> terrains;
  std::vector<Case> ownLevels;
  bool showCorners = false;
  bool bracket = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--corners") == 0) {
      showCorners = true;
    } else if (std::strcmp(argv[i], "--bracket") == 0) {
      bracket = true;
    } else if (std::strcmp(argv[i], "--regions") == 0) {
      g_searchOptions.searchRegions = true;
    } else if (std::strcmp(argv[i], "--box") == 0) {
      g_shape = nav::UnitShape::Box;
    } else if (std::strcmp(argv[i], "--exact") == 0) {
      g_searchOptions.portalPoint = nav::PortalPoint::Exact;
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      g_only = argv[++i];
    } else if (std::strcmp(argv[i], "--grid-angle") == 0 && i + 1 < argc) {
      const nav::Result<std::optional<float>> given = nav::parseGridAngle(argv[++i]);
      if (!given) {
        std::fprintf(stderr, "--grid-angle %s\n", given.error().c_str());
        return 1;
      }
      g_gridAngle = given.value();
    } else if (std::strcmp(argv[i], "--cell") == 0 && i + 1 < argc) {
      const char* text = argv[++i];
      char* end = nullptr;
      const float cell = std::strtof(text, &end);
      if (end == text || *end != '\0' || !(cell >= 0.05f && cell <= 1.0f)) {
        std::fprintf(stderr, "--cell: expected a cell size from 0.05 to 1 m, got %s\n", text);
        return 2;
      }
      g_cellSize = cell;
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      g_seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--terrain") == 0 && i + 1 < argc) {
      const std::optional<nav::bench::TerrainCase> terrain =
          nav::bench::parseTerrainCase(argv[++i]);
      if (!terrain) {
        std::fprintf(stderr, "--terrain: expected SEED or SEED:DEGREES (seed 1 or more), got %s\n",
                     argv[i]);
        return 1;
      }
      terrains.push_back(*terrain);
    } else if (std::strcmp(argv[i], "--level") == 0 && i + 1 < argc) {
      const std::optional<nav::bench::LevelCase> level = nav::bench::parseLevelCase(argv[++i]);
      if (!level) {
        std::fprintf(stderr, "--level: expected FILE or FILE:DEGREES, got %s\n", argv[i]);
        return 1;
      }
      std::string label = std::filesystem::path(level->path).filename().string();
      if (level->degrees != 0.0f) label += ", turned " + nav::bench::formatDegrees(level->degrees);
      ownLevels.push_back({label, level->path, 1.2f, 2.0f, 0.9f, 0.9f, 45.0f, false, 0.6f, false,
                           0u, level->degrees});
    } else if (std::strcmp(argv[i], "--navmesh") == 0) {
      g_navMeshModels = true;
    } else if (std::strcmp(argv[i], "--export-navmesh") == 0 && i + 1 < argc) {
      g_navMeshFolder = argv[++i];
    } else if (std::strcmp(argv[i], "--pairs") == 0 && i + 1 < argc) {
      g_pairsOut = std::fopen(argv[++i], "w");
      if (!g_pairsOut) {
        std::fprintf(stderr, "--pairs: cannot write %s\n", argv[i]);
        return 1;
      }
      std::fprintf(g_pairsOut,
                   "level\tstart\tgoal\tnavscope_m\tdetour_m\tnavscope_sectors\tdetour_polys\t"
                   "navscope_corners\tdetour_corners\n");
    } else {
      numbers.push_back(std::max(1, std::atoi(argv[i])));
    }
  }
  if (bracket && g_shape != nav::UnitShape::Box) {
    std::fprintf(stderr, "--bracket: the rows bracket a box unit's lengths; give --box too\n");
    return 1;
  }
  const int runs = numbers.size() > 0 ? numbers[0] : 5;
  const int pairCount = numbers.size() > 1 ? numbers[1] : 2000;
  const int repetitions = numbers.size() > 2 ? numbers[2] : 10;

  const std::string dungeon = NAVSCOPE_SHARED_DIR "/meshes/dungeon.obj";
  const std::string assets = NAVSCOPE_ASSETS_DIR;
  std::vector<Case> cases = {
      {"dungeon.obj", dungeon, 1.2f, 2.0f, 0.9f, 0.9f, 45.0f, false, 0.6f},
      {"dungeon.obj, drop 3.5", dungeon, 1.2f, 2.0f, 0.9f, 3.5f, 45.0f, false, 0.6f},
      {"showcase.obj", assets + "/showcase.obj", 0.6f, 1.8f, 0.45f, 0.45f, 45.0f, true, 0.3f},
      {"funnel.obj", assets + "/funnel.obj", 0.6f, 1.8f, 0.45f, 0.45f, 45.0f, true, 0.3f},
  };
  // Generated terrains (the generator's Detour-matched unit), one turned 17 degrees.
  if (terrains.empty()) terrains = {{1u}, {2u}, {3u}, {1u, 17.0f}};
  for (const nav::bench::TerrainCase& t : terrains) {
    std::string label = "terrain " + std::to_string(t.seed);
    if (t.degrees != 0.0f) label += ", turned " + nav::bench::formatDegrees(t.degrees);
    cases.push_back(
        {label, "", 1.2f, 2.0f, 0.9f, 0.9f, 45.0f, false, 0.6f, false, t.seed, t.degrees});
  }
  cases.insert(cases.end(), ownLevels.begin(), ownLevels.end());
  if (!g_only.empty()) {
    std::erase_if(cases, [](const Case& c) { return c.label.find(g_only) == std::string::npos; });
  }
  if (bracket) {
    // The box's corners reach half its diagonal from its centre: a Detour agent
    // of that radius holds the box, as the issue's agent (half its side) fits
    // inside it. Their path lengths bracket what the box's own shape allows.
    const float diagonal = std::sqrt(2.0f);
    cases.push_back({"dungeon.obj, r 0.85", dungeon, 1.2f, 2.0f, 0.9f, 0.9f, 45.0f, false,
                     0.6f * diagonal, true});
    cases.push_back({"showcase.obj, r 0.42", assets + "/showcase.obj", 0.6f, 1.8f, 0.45f, 0.45f,
                     45.0f, true, 0.3f * diagonal, true});
  }
  std::vector<Summary> summaries;
  for (const Case& c : cases) {
    if (std::optional<Summary> s = runCase(c, runs, pairCount, repetitions, showCorners))
      summaries.push_back(*s);
  }
  if (g_pairsOut) std::fclose(g_pairsOut);
  if (summaries.empty()) return 0;

  std::printf(
      "Queries, navscope (locate + %s search + funnel) vs Detour (findNearestPoly + findPath + "
      "findStraightPath); times in microseconds per query\n",
      g_searchOptions.portalPoint == nav::PortalPoint::Exact ? "exact interval" : "A*");
  std::printf("%-22s %6s %6s %5s %5s | %8s %8s | %8s %8s | %6s %6s | %8s %8s %8s\n", "level",
              "pairs", "both", "nav", "det", "nav med", "nav p90", "det med", "det p90", "med x",
              "p90 x", "len sum", "len med", "grnd sum");
  for (const Summary& s : summaries) {
    std::printf(
        "%-22s %6zu %6zu %5zu %5zu | %8.2f %8.2f | %8.2f %8.2f | %6.2f %6.2f | %8.4f %8.4f %8.4f\n",
        s.label.c_str(), s.pairs, s.both, s.navscopeOnly, s.detourOnly, s.navscopeMedian,
        s.navscopeP90, s.detourMedian, s.detourP90, s.navscopeMedian / s.detourMedian,
        s.navscopeP90 / s.detourP90, s.lengthSumRatio, s.lengthMedianRatio, s.groundSumRatio);
  }
  std::printf(
      "(nav, det: pairs only that library found; x: navscope/Detour time; len: navscope/Detour "
      "path length in 3D, total and median per pair, over pairs both found; grnd: total in the "
      "ground plane)\n");
  std::printf(
      "Floors (navscope median and p90 time <= Detour's; total length <= Detour's; no pair more "
      "than 5%% longer)%s:\n",
      g_shape == nav::UnitShape::Box
          ? ", set for a unit of Detour's shape; this box holds Detour's agent, so "
            "its length only shows what its corners cost"
          : "");
  for (const Summary& s : summaries) {
    if (s.bracket) {
      std::printf("  %-22s bracket, not a floor: Detour's agent holds the box\n", s.label.c_str());
      continue;
    }
    std::printf(
        "  %-22s time %s, length %s (%s over the paths Detour's agent can follow), pairs more "
        "than 5%% longer: %zu in 3D (%zu than a path Detour's agent can follow), %zu in the "
        "ground plane (%zu)\n",
        s.label.c_str(),
        s.navscopeMedian <= s.detourMedian && s.navscopeP90 <= s.detourP90 ? "met" : "MISSED",
        s.lengthSumRatio <= 1.0 ? "met" : "MISSED", s.clearLengthSumRatio <= 1.0 ? "met" : "MISSED",
        s.longerByFivePercent, s.longerThanAClearPath, s.longerOnTheGround,
        s.longerOnTheGroundThanAClearPath);
  }
  return 0;
}
