// A navigation mesh read as a graph (navmesh_graph.h), checked against
// answers that do not come from the library: portals between small meshes
// worked out by hand; on random meshes (a jittered grid on a height field,
// holes cut, turned about Y) locating points against a brute force over the
// level's triangles, the centroid A* against a Dijkstra over the same cost
// model, and exact paths against the shortest path of a visibility graph over
// the mesh's boundary corners; the funnel over triangle strips against
// corners worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "nav/funnel.h"
#include "nav/locate.h"
#include "nav/navmesh_graph.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "nav/vehicle_curve.h"

namespace nav {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr uint32_t kNoTriangle = 0xffffffffu;

Level levelOf(const std::string& obj) {
  Result<Level> level = parseObj(obj, "test.obj");
  EXPECT_TRUE(level) << (level ? "" : level.error());
  return level ? std::move(level).value() : Level{};
}

NavMeshBuild buildOf(const Level& level, const NavMeshGraphParams& params = {}) {
  Result<NavMeshBuild> build = buildNavMeshGraph(level, params);
  EXPECT_TRUE(build) << (build ? "" : build.error());
  return build ? std::move(build).value() : NavMeshBuild{};
}

std::string describe(const glm::vec3& p) {
  std::ostringstream out;
  out.precision(9);
  out << "(" << p.x << ", " << p.y << ", " << p.z << ")";
  return out.str();
}

// The one sector with a corner at p.
uint32_t sectorWithCorner(const NavGraph& graph, const glm::vec3& p) {
  uint32_t found = kNoSector;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const std::span<const glm::vec3> corners = graph.cornersOf(graph.sectors[s]);
    if (std::find(corners.begin(), corners.end(), p) == corners.end()) continue;
    EXPECT_EQ(found, kNoSector) << "two sectors have a corner at " << describe(p);
    found = s;
  }
  return found;
}

// The walk portal from one sector into another, or kNoPortal.
uint32_t portalBetween(const NavGraph& graph, uint32_t from, uint32_t to) {
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.fromSector == from && portal.toSector == to && portal.kind == PortalKind::Walk)
      return p;
  }
  return kNoPortal;
}

size_t countIssues(const NavMeshBuild& build, NavMeshIssueKind kind) {
  return size_t(std::count_if(build.issues.begin(), build.issues.end(),
                              [kind](const NavMeshIssue& issue) { return issue.kind == kind; }));
}

// Triangle A = (0,0,0) (0,0,1) (1,0,0) and B = (1,0,0) (0,0,1) (1,0,1), both
// counter-clockwise seen from above, sharing the edge from (1,0,0) to (0,0,1);
// B's copies of the shared corners are moved `apart` along x.
std::string twoTriangles(float apart) {
  std::ostringstream obj;
  obj << "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n"
      << "v " << 1.0f + apart << " 0 0\nv " << apart << " 0 1\nv 1 0 1\nf 4 5 6\n";
  return obj.str();
}

TEST(NavMeshGraph, TwoTrianglesSharingAnEdgeAreJoinedByAPairOfPortals) {
  const NavMeshBuild build = buildOf(levelOf(twoTriangles(0.0f)));
  const NavGraph& graph = build.graph;
  EXPECT_TRUE(build.issues.empty());
  ASSERT_EQ(graph.sectors.size(), 2u);
  ASSERT_EQ(graph.portals.size(), 2u);
  const uint32_t a = sectorWithCorner(graph, {0, 0, 0});
  const uint32_t b = sectorWithCorner(graph, {1, 0, 1});
  ASSERT_NE(a, kNoSector);
  ASSERT_NE(b, kNoSector);
  for (const Sector& sector : graph.sectors) {
    EXPECT_TRUE(sector.polygonal());
    EXPECT_EQ(sector.cornerCount, 3u);
    EXPECT_EQ(sector.portalCount, 1u);
  }
  const uint32_t ab = portalBetween(graph, a, b), ba = portalBetween(graph, b, a);
  ASSERT_NE(ab, kNoPortal);
  ASSERT_NE(ba, kNoPortal);
  EXPECT_EQ(graph.portals[ab].reverse, ba);
  EXPECT_EQ(graph.portals[ba].reverse, ab);
  EXPECT_EQ(graph.sectors[a].firstPortal, ab);
  EXPECT_EQ(graph.sectors[b].firstPortal, ba);
  // From A's centroid (1/3, 1/3) into B's (2/3, 2/3) the walk heads +x+z;
  // left of +x is -z and left of +z is +x, so (1,0,0) is on the left.
  EXPECT_EQ(graph.portals[ab].left, glm::vec3(1, 0, 0));
  EXPECT_EQ(graph.portals[ab].right, glm::vec3(0, 0, 1));
  EXPECT_EQ(graph.portals[ba].left, glm::vec3(0, 0, 1));
  EXPECT_EQ(graph.portals[ba].right, glm::vec3(1, 0, 0));
}

TEST(NavMeshGraph, CornersConnectWithinTheWeldToleranceOnly) {
  // The default tolerance is 1 mm: 0.4 mm apart is one corner, 4 mm is two.
  const NavMeshBuild welded = buildOf(levelOf(twoTriangles(0.0004f)));
  ASSERT_EQ(welded.graph.sectors.size(), 2u);
  ASSERT_EQ(welded.graph.portals.size(), 2u);
  // Welded onto the corners first read, A's.
  const uint32_t a = sectorWithCorner(welded.graph, {0, 0, 0});
  const uint32_t b = sectorWithCorner(welded.graph, {1, 0, 1});
  const uint32_t ab = portalBetween(welded.graph, a, b);
  ASSERT_NE(ab, kNoPortal);
  EXPECT_EQ(welded.graph.portals[ab].left, glm::vec3(1, 0, 0));
  EXPECT_EQ(welded.graph.portals[ab].right, glm::vec3(0, 0, 1));

  const NavMeshBuild apart = buildOf(levelOf(twoTriangles(0.004f)));
  EXPECT_EQ(apart.graph.sectors.size(), 2u);
  EXPECT_TRUE(apart.graph.portals.empty());
}

TEST(NavMeshGraph, NoPortalCrossesATJunction) {
  // A 2 x 2 square, and on its +x side two 1 x 1 squares meeting at (2, 0, 1),
  // inside the big square's edge.
  const NavMeshBuild build =
      buildOf(levelOf("v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nf 1 4 3 2\n"
                      "v 2 0 0\nv 3 0 0\nv 3 0 1\nv 2 0 1\nf 5 8 7 6\n"
                      "v 2 0 1\nv 3 0 1\nv 3 0 2\nv 2 0 2\nf 9 12 11 10\n"));
  const NavGraph& graph = build.graph;
  ASSERT_EQ(graph.sectors.size(), 3u);
  ASSERT_EQ(countIssues(build, NavMeshIssueKind::TJunction), 1u);
  const uint32_t big = sectorWithCorner(graph, {0, 0, 0});
  const uint32_t low = sectorWithCorner(graph, {3, 0, 0});
  const uint32_t high = sectorWithCorner(graph, {3, 0, 2});
  ASSERT_NE(big, kNoSector);
  EXPECT_EQ(graph.sectors[big].portalCount, 0u);
  // Only the small squares meet, across their shared edge.
  ASSERT_EQ(graph.portals.size(), 2u);
  const uint32_t up = portalBetween(graph, low, high);
  ASSERT_NE(up, kNoPortal);
  EXPECT_NE(portalBetween(graph, high, low), kNoPortal);
  // Walking +z out of the low square, left is +x.
  EXPECT_EQ(graph.portals[up].left, glm::vec3(3, 0, 1));
  EXPECT_EQ(graph.portals[up].right, glm::vec3(2, 0, 1));
}

TEST(NavMeshGraph, NoPortalCrossesAnEdgeOfThreeFaces) {
  // Three triangles on the edge (0,0,0)-(1,0,0), and a fourth that shares
  // the edge (0,0,0)-(0.5,0,1) with the first one only.
  const NavMeshBuild build =
      buildOf(levelOf("v 0 0 0\nv 1 0 0\nv 0.5 0 1\nv 0.5 0 -1\nv 0.5 0.2 -0.5\nv -0.5 0 1\n"
                      "f 1 3 2\nf 2 4 1\nf 1 2 5\nf 1 6 3\n"));
  const NavGraph& graph = build.graph;
  ASSERT_EQ(graph.sectors.size(), 4u);
  EXPECT_EQ(countIssues(build, NavMeshIssueKind::NonManifoldEdge), 1u);
  const uint32_t fourth = sectorWithCorner(graph, {-0.5f, 0, 1});
  ASSERT_EQ(graph.portals.size(), 2u);
  for (const Portal& portal : graph.portals) {
    const uint32_t other = portal.fromSector == fourth ? portal.toSector : portal.fromSector;
    EXPECT_TRUE(portal.fromSector == fourth || portal.toSector == fourth);
    // At the other end, the first triangle: corners at (1, 0, 0) and (0.5, 0, 1).
    const std::span<const glm::vec3> corners = graph.cornersOf(graph.sectors[other]);
    EXPECT_NE(std::find(corners.begin(), corners.end(), glm::vec3(1, 0, 0)), corners.end());
    EXPECT_NE(std::find(corners.begin(), corners.end(), glm::vec3(0.5f, 0, 1)), corners.end());
    const bool leftFirst = portal.left == glm::vec3(0, 0, 0);
    EXPECT_EQ(leftFirst ? portal.right : portal.left, glm::vec3(0.5f, 0, 1));
    EXPECT_EQ(leftFirst ? portal.left : portal.right, glm::vec3(0, 0, 0));
  }
}

TEST(NavMeshGraph, FacesOnASurfaceTheUnitMayNotWalkAreLeftOut) {
  // Every built-in surface admits the default human; a sidewalk admits no
  // vehicle, so a vehicle's graph leaves B out.
  const std::string obj = "v 0 0 0\nv 0 0 1\nv 1 0 0\nv 1 0 1\nf 1 2 3\nusemtl sidewalk\nf 3 2 4\n";
  const Level level = levelOf(obj);
  const NavMeshBuild human = buildOf(level);
  EXPECT_EQ(human.closedPolygons, 0u);
  EXPECT_EQ(human.graph.sectors.size(), 2u);
  EXPECT_EQ(human.graph.portals.size(), 2u);

  NavMeshGraphParams params;
  params.unit.kind = UnitKind::Vehicle;
  const NavMeshBuild vehicle = buildOf(level, params);
  EXPECT_EQ(vehicle.closedPolygons, 1u);
  ASSERT_EQ(vehicle.graph.sectors.size(), 1u);
  EXPECT_NE(sectorWithCorner(vehicle.graph, {0, 0, 0}), kNoSector);
  EXPECT_TRUE(vehicle.graph.portals.empty());

  EXPECT_FALSE(buildNavMeshGraph(levelOf("usemtl sidewalk\nv 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n"),
                                 params));
}

// ---- Random meshes, and brute-force answers over their triangles ----

glm::dvec2 groundOf(const glm::dvec3& p) {
  return {p.x, p.z};
}

double cross(const glm::dvec2& a, const glm::dvec2& b) {
  return a.x * b.y - a.y * b.x;
}

glm::dvec2 nearestOnSegment(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& p) {
  const glm::dvec2 ab = b - a;
  const double t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
  return a + t * ab;
}

std::array<glm::dvec2, 3> groundCorners(const Level& level, uint32_t t) {
  return {groundOf(glm::dvec3(level.corner(t, 0))), groundOf(glm::dvec3(level.corner(t, 1))),
          groundOf(glm::dvec3(level.corner(t, 2)))};
}

// How far inside triangle t the ground point lies: its least distance to the
// lines of the triangle's edges, below zero outside.
double insideMargin(const Level& level, uint32_t t, const glm::dvec2& p) {
  const std::array<glm::dvec2, 3> c = groundCorners(level, t);
  const double inward = cross(c[1] - c[0], c[2] - c[0]) < 0.0 ? -1.0 : 1.0;
  double margin = kInfinity;
  for (int k = 0; k < 3; ++k) {
    const glm::dvec2 &a = c[size_t(k)], &b = c[size_t((k + 1) % 3)];
    margin = std::min(margin, inward * cross(b - a, p - a) / glm::length(b - a));
  }
  return margin;
}

// Height of triangle t's plane over the ground point, by barycentric weights.
double planeHeight(const Level& level, uint32_t t, const glm::dvec2& p) {
  const std::array<glm::dvec2, 3> c = groundCorners(level, t);
  const double area = cross(c[1] - c[0], c[2] - c[0]);
  const double wb = cross(p - c[0], c[2] - c[0]) / area;
  const double wc = cross(c[1] - c[0], p - c[0]) / area;
  return (1.0 - wb - wc) * level.corner(t, 0).y + wb * level.corner(t, 1).y +
         wc * level.corner(t, 2).y;
}

// The point of triangle t nearest p in the ground plane.
glm::dvec2 nearestOnTriangle(const Level& level, uint32_t t, const glm::dvec2& p) {
  if (insideMargin(level, t, p) >= 0.0) return p;
  const std::array<glm::dvec2, 3> c = groundCorners(level, t);
  glm::dvec2 best = c[0];
  for (int k = 0; k < 3; ++k) {
    const glm::dvec2 on = nearestOnSegment(c[size_t(k)], c[size_t((k + 1) % 3)], p);
    if (glm::distance(on, p) < glm::distance(best, p)) best = on;
  }
  return best;
}

using Triangle = std::array<uint32_t, 3>;

// True when the kept triangles around corner v fall into groups that share no
// edge through v: they would touch at v alone.
bool pinchedAt(const std::vector<Triangle>& triangles, const std::vector<bool>& kept, uint32_t v) {
  std::vector<Triangle> around;
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    const Triangle& triangle = triangles[t];
    if (kept[t] && std::find(triangle.begin(), triangle.end(), v) != triangle.end())
      around.push_back(triangle);
  }
  if (around.empty()) return false;
  const auto shareAnEdge = [](const Triangle& a, const Triangle& b) {
    int shared = 0;
    for (uint32_t corner : a)
      shared += std::find(b.begin(), b.end(), corner) != b.end() ? 1 : 0;
    return shared == 2;
  };
  std::vector<bool> reached(around.size(), false);
  reached[0] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t a = 0; a < around.size(); ++a) {
      for (size_t b = 0; b < around.size(); ++b) {
        if (reached[a] && !reached[b] && shareAnEdge(around[a], around[b])) {
          reached[b] = grew = true;
        }
      }
    }
  }
  return std::find(reached.begin(), reached.end(), false) != reached.end();
}

// A jittered grid of 12 x 12 squares a metre wide on the height field
// hilliness * (sin 0.9x + cos 0.7z), each square cut along a random diagonal,
// a sixth of the triangles left out as holes, and when `split` the two
// squares either side of the middle column too (two islands), turned by a
// random angle about Y. Holes never leave triangles touching at a corner
// alone: the graph does not join them there, the visibility graph below would.
Level randomMesh(uint32_t seed, float hilliness, bool split = false) {
  constexpr int kSquares = 12;
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> jitter(-0.15f, 0.15f), unit(0.0f, 1.0f);
  const float angle = 6.2831853f * unit(random);
  const float cosine = std::cos(angle), sine = std::sin(angle), middle = 0.5f * kSquares;
  Level level;
  level.source = "random mesh " + std::to_string(seed);
  for (int j = 0; j <= kSquares; ++j) {
    for (int i = 0; i <= kSquares; ++i) {
      const float x = float(i) + jitter(random);
      const float z = float(j) + jitter(random);
      const float y = hilliness * (std::sin(0.9f * x) + std::cos(0.7f * z));
      const float dx = x - middle, dz = z - middle;
      level.vertices.push_back(
          {middle + cosine * dx - sine * dz, y, middle + sine * dx + cosine * dz});
    }
  }
  const auto at = [](int i, int j) { return uint32_t(j * (kSquares + 1) + i); };
  std::vector<Triangle> triangles;
  for (int j = 0; j < kSquares; ++j) {
    for (int i = 0; i < kSquares; ++i) {
      const uint32_t a = at(i, j), b = at(i + 1, j), c = at(i, j + 1), d = at(i + 1, j + 1);
      // Counter-clockwise seen from above, on either diagonal.
      if (random() & 1u) {
        triangles.push_back({a, c, d});
        triangles.push_back({a, d, b});
      } else {
        triangles.push_back({a, c, b});
        triangles.push_back({b, c, d});
      }
    }
  }
  std::vector<bool> kept(triangles.size(), true);
  for (uint32_t t = 0; split && t < triangles.size(); ++t) {
    const Triangle& triangle = triangles[t];
    kept[t] = std::none_of(triangle.begin(), triangle.end(),
                           [](uint32_t v) { return int(v) % (kSquares + 1) == kSquares / 2; });
  }
  std::vector<uint32_t> order(triangles.size());
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), random);
  size_t holes = triangles.size() / 6;
  for (const uint32_t t : order) {
    if (holes == 0) break;
    if (!kept[t]) continue;
    kept[t] = false;
    const Triangle& triangle = triangles[t];
    if (std::any_of(triangle.begin(), triangle.end(),
                    [&](uint32_t v) { return pinchedAt(triangles, kept, v); })) {
      kept[t] = true;
      continue;
    }
    --holes;
  }
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    if (kept[t])
      level.triangles.push_back({{triangles[t][0], triangles[t][1], triangles[t][2]}, 0});
  }
  for (const glm::vec3& vertex : level.vertices)
    level.bounds.grow(vertex);
  return level;
}

// The level triangle each sector was read from, matched by its corners
// (kNoTriangle for a sector that matches none).
std::vector<uint32_t> trianglesOfSectors(const NavGraph& graph, const Level& level) {
  std::map<std::array<float, 3>, uint32_t> vertexAt;
  for (uint32_t v = 0; v < level.vertices.size(); ++v)
    vertexAt[{level.vertices[v].x, level.vertices[v].y, level.vertices[v].z}] = v;
  std::map<Triangle, uint32_t> triangleWith;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    Triangle key{level.triangles[t].vertex[0], level.triangles[t].vertex[1],
                 level.triangles[t].vertex[2]};
    std::sort(key.begin(), key.end());
    triangleWith[key] = t;
  }
  std::vector<uint32_t> triangleOf(graph.sectors.size(), kNoTriangle);
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const std::span<const glm::vec3> corners = graph.cornersOf(graph.sectors[s]);
    if (corners.size() != 3) continue;
    Triangle key{};
    bool known = true;
    for (size_t k = 0; k < 3; ++k) {
      const auto found = vertexAt.find({corners[k].x, corners[k].y, corners[k].z});
      known = known && found != vertexAt.end();
      if (known) key[k] = found->second;
    }
    if (!known) continue;
    std::sort(key.begin(), key.end());
    const auto found = triangleWith.find(key);
    if (found != triangleWith.end()) triangleOf[s] = found->second;
  }
  return triangleOf;
}

// The graph of a random mesh, with each sector's triangle and each triangle's sector.
struct MeshGraph {
  Level level;
  NavMeshBuild build;
  std::vector<uint32_t> triangleOf;
  std::vector<uint32_t> sectorOf;
};

MeshGraph meshGraph(Level level) {
  MeshGraph mesh{std::move(level), {}, {}, {}};
  mesh.build = buildOf(mesh.level);
  mesh.triangleOf = trianglesOfSectors(mesh.build.graph, mesh.level);
  mesh.sectorOf.assign(mesh.level.triangles.size(), kNoSector);
  for (uint32_t s = 0; s < mesh.triangleOf.size(); ++s) {
    EXPECT_NE(mesh.triangleOf[s], kNoTriangle) << mesh.level.source << ": sector " << s;
    if (mesh.triangleOf[s] != kNoTriangle) mesh.sectorOf[mesh.triangleOf[s]] = s;
  }
  EXPECT_EQ(mesh.build.graph.sectors.size(), mesh.level.triangles.size()) << mesh.level.source;
  return mesh;
}

// A point well inside triangle t (every barycentric weight at least 1/60), on its plane.
glm::vec3 pointIn(const Level& level, uint32_t t, std::mt19937& random) {
  std::uniform_real_distribution<double> weight(0.05, 1.0);
  const double wa = weight(random), wb = weight(random), wc = weight(random);
  const glm::dvec3 p = (wa * glm::dvec3(level.corner(t, 0)) + wb * glm::dvec3(level.corner(t, 1)) +
                        wc * glm::dvec3(level.corner(t, 2))) /
                       (wa + wb + wc);
  return glm::vec3(p);
}

// Points over the mesh and a metre around it: locateSector gives a sector whose
// triangle holds the point, at that triangle's height there, or none when no
// triangle holds it (either, within 0.1 mm of an edge); findNearestSector
// snaps to the ground of the triangles nearest in 3D within its box, as close
// as a brute force over the triangles, and on flat ground as close on the
// ground as the nearest triangle.
TEST(NavMeshGraph, LocateAgreesWithABruteForceOverTheTriangles) {
  constexpr double kEdge = 1e-4;
  const glm::vec3 extents(1.0f, 2.0f, 1.0f);
  const std::pair<uint32_t, float> meshes[] = {{1, 0.4f}, {2, 0.4f}, {3, 0.0f}};
  for (const auto& [seed, hilliness] : meshes) {
    const MeshGraph mesh = meshGraph(randomMesh(seed, hilliness));
    const Level& level = mesh.level;
    const NavGraph& graph = mesh.build.graph;
    std::mt19937 random(seed + 100);
    std::uniform_real_distribution<float> x(level.bounds.min.x - 1.0f, level.bounds.max.x + 1.0f);
    std::uniform_real_distribution<float> z(level.bounds.min.z - 1.0f, level.bounds.max.z + 1.0f);
    int located = 0, wrongSector = 0, wrongHeight = 0, wrongNearest = 0;
    std::string firstWrong;
    const auto wrong = [&](int& count, const std::string& what) {
      if (count++ == 0 && firstWrong.empty()) firstWrong = level.source + ": " + what;
    };
    for (int n = 0; n < 3000; ++n) {
      const glm::dvec2 p(x(random), z(random));
      std::vector<double> margins(level.triangles.size());
      uint32_t deepest = 0;
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        margins[t] = insideMargin(level, t, p);
        if (margins[t] > margins[deepest]) deepest = t;
      }
      // A little over the ground of the triangle the point is in or nearest.
      const glm::vec3 query(float(p.x), float(planeHeight(level, deepest, p) + 0.1), float(p.y));
      const glm::dvec2 at(query.x, query.z);

      const Location on = locateSector(graph, query);
      const bool inside = margins[deepest] > kEdge;
      if (on.sector == kNoSector) {
        if (inside) wrong(wrongSector, "no sector at " + describe(query));
      } else {
        const uint32_t t = mesh.triangleOf[on.sector];
        if (t == kNoTriangle || (inside ? t != deepest : margins[t] < -kEdge)) {
          wrong(wrongSector, "at " + describe(query) + " sector " + std::to_string(on.sector) +
                                 " whose triangle misses the point");
        } else {
          ++located;
          const double expected = planeHeight(level, t, at);
          if (!(std::abs(on.point.y - expected) <= 1e-3) || on.point.x != query.x ||
              on.point.z != query.z) {
            wrong(wrongHeight, "at " + describe(query) + " located " + describe(on.point) +
                                   ", height expected " + std::to_string(expected));
          }
        }
      }

      // Per triangle, its ground nearest the query, as findNearestSector
      // documents: the least 3D distance among those inside the box, with the
      // box shrunk and grown by 1 mm for rounding at its sides.
      double shrunkBest = kInfinity, grownBest = kInfinity, nearestGround = kInfinity;
      bool nearestInBox = false;
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        const glm::dvec2 q = nearestOnTriangle(level, t, at);
        const glm::dvec3 offset = glm::abs(glm::dvec3(q.x, planeHeight(level, t, q), q.y) -
                                           glm::dvec3(query));
        const double gap = glm::length(offset);
        const glm::dvec3 box(extents);
        if (glm::all(glm::lessThanEqual(offset, box - 1e-3))) shrunkBest = std::min(shrunkBest, gap);
        if (glm::all(glm::lessThanEqual(offset, box + 1e-3))) grownBest = std::min(grownBest, gap);
        const double ground = glm::distance(q, at);
        if (ground < nearestGround) {
          nearestGround = ground;
          nearestInBox = offset.x <= 1.0 - 1e-3 && offset.z <= 1.0 - 1e-3;
        }
      }
      const Location nearest = findNearestSector(graph, query, extents);
      if (nearest.sector == kNoSector) {
        if (shrunkBest < kInfinity) wrong(wrongNearest, "no nearest sector to " + describe(query));
        continue;
      }
      const uint32_t t = mesh.triangleOf[nearest.sector];
      const glm::dvec2 snapped(nearest.point.x, nearest.point.z);
      const double groundGap = glm::distance(snapped, at);
      const bool flatAndNearest = hilliness == 0.0f && nearestInBox;
      if (grownBest == kInfinity || nearest.distance < grownBest - 1e-3 ||
          nearest.distance > shrunkBest + 1e-3 || insideMargin(level, t, snapped) < -kEdge ||
          !(std::abs(nearest.point.y - planeHeight(level, t, snapped)) <= 1e-3) ||
          (flatAndNearest && !(std::abs(groundGap - nearestGround) <= 1e-3))) {
        wrong(wrongNearest, "nearest to " + describe(query) + " is " + describe(nearest.point) +
                                " at " + std::to_string(nearest.distance) +
                                ", brute force: " + std::to_string(grownBest) + " .. " +
                                std::to_string(shrunkBest) +
                                ", on the ground " + std::to_string(nearestGround));
      }
    }
    EXPECT_GT(located, 600) << level.source;
    EXPECT_EQ(wrongSector, 0) << firstWrong;
    EXPECT_EQ(wrongHeight, 0) << firstWrong;
    EXPECT_EQ(wrongNearest, 0) << firstWrong;
  }
}

// ---- The centroid A* against a Dijkstra over the same cost model ----

// The cheapest way from start to goal as PortalPoint::Centroid costs it: nodes
// at the start, at every sector's centroid and at the goal; a step into a
// neighbouring sector goes to its centroid and costs the 3D distance times the
// cost a metre of the sector left (from the start, the start's sector); the
// goal is reached from the start or the centroid of its own sector, at its
// sector's cost a metre. Infinity when no way leads there.
double centroidDijkstra(const std::vector<glm::dvec3>& centroids,
                        const std::vector<std::vector<uint32_t>>& neighbours,
                        const std::vector<double>& metre, const glm::dvec3& start,
                        uint32_t startSector, const glm::dvec3& goal, uint32_t goalSector) {
  const size_t n = centroids.size();
  // Node s < n stands at sector s's centroid; node n at the start.
  std::vector<double> cost(n + 1, kInfinity);
  std::vector<bool> done(n + 1, false);
  cost[n] = 0.0;
  while (true) {
    size_t next = n + 1;
    for (size_t node = 0; node <= n; ++node) {
      if (!done[node] && cost[node] < kInfinity && (next > n || cost[node] < cost[next]))
        next = node;
    }
    if (next > n) break;
    done[next] = true;
    const uint32_t sector = next == n ? startSector : uint32_t(next);
    const glm::dvec3& at = next == n ? start : centroids[next];
    for (const uint32_t to : neighbours[sector]) {
      cost[to] = std::min(cost[to], cost[next] + glm::distance(at, centroids[to]) * metre[sector]);
    }
  }
  double best = cost[goalSector] + glm::distance(centroids[goalSector], goal) * metre[goalSector];
  if (startSector == goalSector) best = std::min(best, glm::distance(start, goal) * metre[goalSector]);
  return best;
}

// planPath's centroid search over random pairs of the mesh against
// centroidDijkstra, each triangle's material costing `metreOfMaterial` a
// metre. Returns how many pairs no way joins.
int expectCentroidCostsOfDijkstra(const MeshGraph& mesh, const std::vector<double>& metreOfMaterial,
                                   const SearchOptions& options, bool sameSectorPairs,
                                   uint32_t seed) {
  const NavGraph& graph = mesh.build.graph;
  std::vector<double> metre(graph.sectors.size());
  std::vector<glm::dvec3> centroids(graph.sectors.size());
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    metre[s] = metreOfMaterial[mesh.level.triangles[mesh.triangleOf[s]].material];
    centroids[s] = glm::dvec3(graph.centroid(graph.sectors[s]));
  }
  std::vector<std::vector<uint32_t>> neighbours(graph.sectors.size());
  for (const Portal& portal : graph.portals) {
    if (portal.kind == PortalKind::Walk) neighbours[portal.fromSector].push_back(portal.toSector);
  }
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> anyTriangle(0, uint32_t(mesh.level.triangles.size() - 1));
  PathAnswer answer;
  int found = 0, unreachable = 0, wrong = 0;
  std::string firstWrong;
  for (int n = 0; n < 250; ++n) {
    const uint32_t from = anyTriangle(random), to = anyTriangle(random);
    const glm::vec3 start = pointIn(mesh.level, from, random), goal = pointIn(mesh.level, to, random);
    if (!sameSectorPairs && from == to) continue;
    const double expected = centroidDijkstra(centroids, neighbours, metre, start,
                                             mesh.sectorOf[from], goal, mesh.sectorOf[to]);
    planPath(graph, start, goal, options, {}, answer);
    const PathStatus status = answer.search.status;
    const bool right = expected < kInfinity
                           ? status == PathStatus::Found &&
                                 std::abs(answer.search.cost - expected) <=
                                     1e-4 * std::max(1.0, expected)
                           : status == PathStatus::Unreachable;
    found += status == PathStatus::Found ? 1 : 0;
    unreachable += expected == kInfinity ? 1 : 0;
    if (!right && wrong++ == 0) {
      std::ostringstream out;
      out.precision(9);
      out << mesh.level.source << ": from " << describe(start) << " to " << describe(goal)
          << " the Dijkstra costs " << expected << ", the search " << toString(status) << " at "
          << answer.search.cost;
      firstWrong = out.str();
    }
  }
  EXPECT_GT(found, 100) << mesh.level.source;
  EXPECT_EQ(wrong, 0) << firstWrong;
  return unreachable;
}

SearchOptions centroidOptions() {
  SearchOptions options;
  options.portalPoint = PortalPoint::Centroid;
  options.heuristicScale = 1.0f;
  // A goal on another island is Unreachable, as the Dijkstra finds it.
  options.allowPartial = false;
  return options;
}

TEST(NavMeshGraph, CentroidSearchCostsWhatADijkstraOverCentroidsCosts) {
  int unreachable = 0;
  for (const uint32_t seed : {11u, 12u, 13u}) {
    SCOPED_TRACE(seed);
    // The last one in two islands.
    const MeshGraph mesh = meshGraph(randomMesh(seed, 0.4f, seed == 13u));
    unreachable += expectCentroidCostsOfDijkstra(mesh, {1.0}, centroidOptions(), true, seed);
  }
  EXPECT_GT(unreachable, 0);
}

TEST(NavMeshGraph, CentroidSearchChargesTheCostOfTheSectorLeft) {
  Level level = randomMesh(21, 0.4f);
  // Named like built-in surfaces: default 1, grass 1.2, water 3 a metre, and
  // lava made 0.6 by the filter (cheaper than walking: the heuristic must shrink).
  level.materials = {"", "grass", "water", "lava"};
  std::mt19937 random(21);
  for (LevelTriangle& triangle : level.triangles)
    triangle.material = uint16_t(random() % 4);
  SearchOptions options = centroidOptions();
  options.filter.surfaceCosts = {{"lava", 0.6f}};
  // A start and goal in one sector are joined straight, with no search.
  expectCentroidCostsOfDijkstra(meshGraph(std::move(level)), {1.0, 1.2, 3.0, 0.6}, options, false,
                                22);
}

// ---- The funnel over triangle strips ----

FunnelPortal pointPortal(const glm::vec3& p) {
  return {p, p};
}

void expectCorners(const FunnelResult& result, const std::vector<glm::vec3>& expected) {
  ASSERT_EQ(result.corners.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(result.corners[i].x, expected[i].x, 1e-5) << "corner " << i;
    EXPECT_NEAR(result.corners[i].y, expected[i].y, 1e-5) << "corner " << i;
    EXPECT_NEAR(result.corners[i].z, expected[i].z, 1e-5) << "corner " << i;
  }
}

TEST(NavMeshGraph, FunnelTurnsAtTheInnerCornerOfAStrip) {
  // Triangles along z in [0, 2] from x = 2 to 6 (diagonals included), then up
  // x in [4, 6]: walking +x left is -z, walking +z left is +x. The straight
  // line from (1, 1) to (5, 5) leaves the strip, so the path turns at (4, 2).
  const std::vector<FunnelPortal> strip{pointPortal({1, 0, 1}),
                                        {{2, 0, 0}, {2, 0, 2}},
                                        {{4, 0, 0}, {2, 0, 2}},
                                        {{4, 0, 0}, {4, 0, 2}},
                                        {{6, 0, 0}, {4, 0, 2}},
                                        {{6, 0, 2}, {4, 0, 2}},
                                        {{6, 0, 2}, {4, 0, 4}},
                                        {{6, 0, 4}, {4, 0, 4}},
                                        pointPortal({5, 0, 5})};
  const FunnelResult result = stringPull(strip);
  expectCorners(result, {{1, 0, 1}, {4, 0, 2}, {5, 0, 5}});
  EXPECT_NEAR(result.length, 2.0 * std::sqrt(10.0), 1e-5);
}

TEST(NavMeshGraph, FunnelAddsNoCornerForCollinearPortals) {
  // A sliver between two portals on the line x = 2: crossed straight, and
  // turned round once at the narrower one's end.
  const std::vector<FunnelPortal> straight{pointPortal({0, 0, 1}),
                                           {{2, 0, 0}, {2, 0, 2}},
                                           {{2, 0, 0.5f}, {2, 0, 1.5f}},
                                           {{3, 0, 0}, {3, 0, 2}},
                                           pointPortal({4, 0, 1})};
  expectCorners(stringPull(straight), {{0, 0, 1}, {4, 0, 1}});

  std::vector<FunnelPortal> bent = straight;
  bent.front() = pointPortal({0, 0, 0.2f});
  bent.back() = pointPortal({4, 0, 0.2f});
  const FunnelResult result = stringPull(bent);
  expectCorners(result, {{0, 0, 0.2f}, {2, 0, 0.5f}, {4, 0, 0.2f}});
  EXPECT_NEAR(result.length, 2.0 * std::sqrt(4.0 + 0.09), 1e-5);
}

// A grid of squares cut along their diagonals, as a modelling tool makes
// one: a path along a diagonal passes exactly through vertices, portal ends
// on its line. Through plain portals that is one straight stretch.
std::string diagonalGrid(int squares) {
  std::string obj;
  for (int j = 0; j <= squares; ++j) {
    for (int i = 0; i <= squares; ++i)
      obj +=
          "v " + std::to_string(0.1f * float(i)) + " 0 " + std::to_string(0.1f * float(j)) + "\n";
  }
  const auto at = [&](int i, int j) { return std::to_string(j * (squares + 1) + i + 1); };
  for (int j = 0; j < squares; ++j) {
    for (int i = 0; i < squares; ++i) {
      obj += "f " + at(i, j) + " " + at(i, j + 1) + " " + at(i + 1, j + 1) + "\n";
      obj += "f " + at(i, j) + " " + at(i + 1, j + 1) + " " + at(i + 1, j) + "\n";
    }
  }
  return obj;
}

TEST(NavMeshGraph, APathAlongAGridsDiagonalHasNoCornersOnIt) {
  const NavMeshBuild mesh = buildOf(levelOf(diagonalGrid(30)));
  PathAnswer answer;
  planPath(mesh.graph, {0.25f, 0.0f, 0.25f}, {2.75f, 0.0f, 2.75f}, {}, {}, answer);
  ASSERT_EQ(answer.search.status, PathStatus::Found) << answer.search.reason;
  expectCorners(answer.funnel, {{0.25f, 0, 0.25f}, {2.75f, 0, 2.75f}});
  // Across the diagonals, too.
  planPath(mesh.graph, {0.25f, 0.0f, 2.75f}, {2.75f, 0.0f, 0.25f}, {}, {}, answer);
  ASSERT_EQ(answer.search.status, PathStatus::Found) << answer.search.reason;
  expectCorners(answer.funnel, {{0.25f, 0, 2.75f}, {2.75f, 0, 0.25f}});
}

// Through plain portals, a portal end on the path's line further out than
// the other side's makes no corner; the strict funnel turns there. The path
// is the same and as long: on the grid and on jittered meshes with holes,
// random pairs of their vertices. (A path through a portal's end exactly,
// the rest of the portal to one side, still turns there.)
TEST(NavMeshGraph, PlainPortalsMakeFewerCornersOnTheSamePath) {
  std::vector<Level> levels{levelOf(diagonalGrid(20)), randomMesh(5, 0.0f), randomMesh(6, 0.4f)};
  for (const Level& level : levels) {
    SCOPED_TRACE(level.source);
    const NavMeshBuild mesh = buildOf(level);
    std::mt19937 random(17);
    std::uniform_int_distribution<size_t> vertex(0, level.vertices.size() - 1);
    size_t paths = 0, strictCorners = 0, corners = 0;
    for (int i = 0; i < 300; ++i) {
      const PathResult path =
          findPath(mesh.graph, level.vertices[vertex(random)], level.vertices[vertex(random)]);
      if (path.status != PathStatus::Found) continue;
      const std::vector<FunnelPortal> portals = funnelPortals(mesh.graph, path.corridor);
      const FunnelResult plain = stringPull(portals);
      const FunnelResult strict = stringPull(portals, false, FunnelInput::Gates);
      ++paths;
      strictCorners += strict.corners.size();
      corners += plain.corners.size();
      EXPECT_NEAR(plain.length, strict.length, 1e-4f * strict.length + 1e-5f);
      EXPECT_LE(plain.corners.size(), strict.corners.size());
      // Every corner of the plain path is one of the strict path's.
      for (const glm::vec3& corner : plain.corners) {
        EXPECT_TRUE(
            std::any_of(strict.corners.begin(), strict.corners.end(),
                        [&](const glm::vec3& c) { return glm::distance(c, corner) < 1e-5f; }))
            << describe(corner);
      }
    }
    EXPECT_GT(paths, 200u);
    if (level.source == "test.obj") {
      EXPECT_LT(corners, strictCorners) << "the strict funnel turns on the diagonals";
    }
  }
}

TEST(NavMeshGraph, FunnelGoesThroughAZeroLengthPortal) {
  // Two triangles meeting at a corner alone, at (3, 0, 1.8): off the line
  // from start to goal, the path turns there.
  const std::vector<FunnelPortal> pinched{pointPortal({0, 0, 1}),
                                          {{2, 0, 0}, {2, 0, 2}},
                                          pointPortal({3, 0, 1.8f}),
                                          {{4, 0, 0}, {4, 0, 2}},
                                          pointPortal({6, 0, 1})};
  const FunnelResult result = stringPull(pinched);
  expectCorners(result, {{0, 0, 1}, {3, 0, 1.8f}, {6, 0, 1}});
  EXPECT_NEAR(result.length, 2.0 * std::sqrt(9.0 + 0.64), 1e-5);

  // On the line, the path runs straight through it.
  std::vector<FunnelPortal> inLine = pinched;
  inLine[2] = pointPortal({3, 0, 1});
  const FunnelResult straight = stringPull(inLine);
  EXPECT_NEAR(straight.length, 6.0, 1e-5);
  for (const glm::vec3& corner : straight.corners)
    EXPECT_NEAR(corner.z, 1.0, 1e-6);
}

TEST(NavMeshGraph, FunnelTurnsAtTheLastPortalForAGoalBeyondIt) {
  // The goal, a zero-width last portal, lies past the right (+z) end of the
  // last edge: the path turns there on its way out.
  const std::vector<FunnelPortal> strip{pointPortal({0, 0, 1}),
                                        {{2, 0, 0}, {2, 0, 2}},
                                        {{4, 0, 0}, {4, 0, 2}},
                                        pointPortal({5, 0, 5})};
  const FunnelResult result = stringPull(strip);
  expectCorners(result, {{0, 0, 1}, {4, 0, 2}, {5, 0, 5}});
  EXPECT_EQ(result.cornerPortals.back(), 3u);
}

// Unit squares [0,3] x [0,1] and [2,3] x [1,3], two triangles each, on the
// plane y = 0.1x + 0.05z.
std::string lShapedStrip() {
  return "v 0 0 0\nv 1 0.1 0\nv 2 0.2 0\nv 3 0.3 0\n"
         "v 0 0.05 1\nv 1 0.15 1\nv 2 0.25 1\nv 3 0.35 1\n"
         "v 2 0.3 2\nv 3 0.4 2\nv 2 0.35 3\nv 3 0.45 3\n"
         "f 1 5 6\nf 1 6 2\nf 2 6 7\nf 2 7 3\nf 3 7 8\nf 3 8 4\n"
         "f 7 9 10\nf 7 10 8\nf 9 11 12\nf 9 12 10\n";
}

TEST(NavMeshGraph, PathsRoundAnLShapedStripTurnAtItsInnerCorner) {
  // From (0.5, 0.25) the straight line to (2.25, 2.75)
  // leaves the L at x = 2, so every search's path turns at (2, 1), the one
  // corner inside the turn; the strip leaves one corridor, of 8 triangles.
  const Level level = levelOf(lShapedStrip());
  const NavMeshBuild build = buildOf(level);
  ASSERT_EQ(build.graph.sectors.size(), 10u);
  EXPECT_EQ(build.graph.portals.size(), 18u);
  const std::vector<glm::vec3> corners{
      {0.5f, 0.0625f, 0.25f}, {2, 0.25f, 1}, {2.25f, 0.3625f, 2.75f}};
  for (const PortalPoint portalPoint : kPortalPoints) {
    SCOPED_TRACE(toString(portalPoint));
    SearchOptions options;
    options.portalPoint = portalPoint;
    PathAnswer answer;
    planPath(build.graph, {0.5f, 0.1f, 0.25f}, {2.25f, 0.4f, 2.75f}, options, {}, answer);
    ASSERT_EQ(answer.search.status, PathStatus::Found);
    EXPECT_EQ(answer.search.corridor.sectors.size(), 8u);
    expectCorners(answer.funnel, corners);
    EXPECT_NEAR(answer.funnel.length,
                glm::distance(corners[0], corners[1]) + glm::distance(corners[1], corners[2]),
                1e-5);
  }
}

// A build asked to stop stops, at once when asked before it starts, and says so.
TEST(NavMeshGraph, ACancelledBuildFailsSayingSo) {
  const Level level = levelOf(twoTriangles(0.0f));
  BuildControl control;
  control.cancelRequested = true;
  const Result<NavMeshBuild> build = buildNavMeshGraph(level, {}, &control);
  ASSERT_FALSE(build);
  EXPECT_NE(build.error().find("cancelled"), std::string::npos) << build.error();
  control.cancelRequested = false;
  EXPECT_TRUE(buildNavMeshGraph(level, {}, &control));
}

// A vehicle on the same L: the pipeline's curve runs through the start, the
// inner corner and the goal, its pieces joined end to end, every arc of the
// turning radius.
TEST(NavMeshGraph, AVehicleCurveOnAStripPassesTheCornersOnArcsOfItsRadius) {
  const Level level = levelOf(lShapedStrip());
  const NavMeshBuild build = buildOf(level);
  constexpr float kRadius = 0.5f;
  SearchOptions options;
  options.turningRadius = kRadius;
  PathStages stages;
  stages.vehicleCurve = true;
  PathAnswer answer;
  planPath(build.graph, {0.5f, 0.1f, 0.25f}, {2.25f, 0.4f, 2.75f}, options, stages, answer);
  ASSERT_EQ(answer.search.status, PathStatus::Found) << answer.search.reason;
  ASSERT_EQ(answer.funnel.corners.size(), 3u);
  ASSERT_FALSE(answer.vehicle.empty());
  const std::vector<CurvePiece>& curve = answer.vehicle;
  EXPECT_LT(glm::distance(curve.front().start, glm::vec2(0.5f, 0.25f)), 1e-4f);
  EXPECT_LT(glm::distance(curve.back().end, glm::vec2(2.25f, 2.75f)), 1e-4f);
  bool throughTheCorner = false;
  for (size_t i = 0; i < curve.size(); ++i) {
    if (curve[i].kind == CurvePiece::Arc) {
      EXPECT_NEAR(curve[i].radius, kRadius, 1e-5f);
    }
    if (i > 0) {
      EXPECT_LT(glm::distance(curve[i - 1].end, curve[i].start), 1e-4f) << i;
    }
    throughTheCorner |= glm::distance(curve[i].end, glm::vec2(2.0f, 1.0f)) < 1e-4f;
  }
  EXPECT_TRUE(throughTheCorner);
}

// ---- Exact paths against a visibility graph ----

// The union of a flat mesh's triangles as a polygonal domain: its walls
// (edges of one triangle only) and their corners, and the shortest ground
// path between two points inside it over the visibility graph of the corners.
class VisibilityGraph {
 public:
  explicit VisibilityGraph(const Level& level) : m_level(level) {
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (const LevelTriangle& triangle : level.triangles) {
      for (int k = 0; k < 3; ++k) {
        const uint32_t a = triangle.vertex[k], b = triangle.vertex[(k + 1) % 3];
        ++uses[{std::min(a, b), std::max(a, b)}];
      }
    }
    std::vector<bool> onWall(level.vertices.size(), false);
    for (const auto& [edge, count] : uses) {
      if (count != 1) continue;
      m_walls.push_back({ground(edge.first), ground(edge.second)});
      onWall[edge.first] = onWall[edge.second] = true;
    }
    for (uint32_t v = 0; v < level.vertices.size(); ++v) {
      if (onWall[v]) m_corners.push_back(ground(v));
    }
    m_between.assign(m_corners.size(), std::vector<double>(m_corners.size(), kInfinity));
    for (size_t i = 0; i < m_corners.size(); ++i) {
      for (size_t j = i + 1; j < m_corners.size(); ++j) {
        if (visible(m_corners[i], m_corners[j]))
          m_between[i][j] = m_between[j][i] = glm::distance(m_corners[i], m_corners[j]);
      }
    }
  }

  // Dijkstra from `from` (node n) over the corners (0 .. n-1) to `to`.
  double shortest(const glm::dvec2& from, const glm::dvec2& to) const {
    if (visible(from, to)) return glm::distance(from, to);
    const size_t n = m_corners.size();
    std::vector<double> cost(n, kInfinity);
    std::vector<bool> done(n, false);
    for (size_t i = 0; i < n; ++i) {
      if (visible(from, m_corners[i])) cost[i] = glm::distance(from, m_corners[i]);
    }
    double best = kInfinity;
    while (true) {
      size_t next = n;
      for (size_t i = 0; i < n; ++i) {
        if (!done[i] && cost[i] < kInfinity && (next == n || cost[i] < cost[next])) next = i;
      }
      if (next == n || cost[next] >= best) break;
      done[next] = true;
      if (visible(m_corners[next], to))
        best = std::min(best, cost[next] + glm::distance(m_corners[next], to));
      for (size_t i = 0; i < n; ++i)
        cost[i] = std::min(cost[i], cost[next] + m_between[next][i]);
    }
    return best;
  }

 private:
  glm::dvec2 ground(uint32_t v) const { return groundOf(glm::dvec3(m_level.vertices[v])); }

  bool inside(const glm::dvec2& p) const {
    for (uint32_t t = 0; t < m_level.triangles.size(); ++t) {
      if (insideMargin(m_level, t, p) >= -1e-7) return true;
    }
    return false;
  }

  // Inside the union all the way: it crosses no wall where neither touches
  // the other's line, and between the wall corners it passes through, it
  // lies inside (it cannot come out there without crossing a wall).
  bool visible(const glm::dvec2& a, const glm::dvec2& b) const {
    constexpr double kOn = 1e-10;
    const auto side = [](const glm::dvec2& p, const glm::dvec2& q, const glm::dvec2& r) {
      const double turn = cross(q - p, r - p);
      return turn > kOn ? 1 : turn < -kOn ? -1 : 0;
    };
    for (const auto& [c, d] : m_walls) {
      if (side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0) return false;
    }
    const glm::dvec2 ab = b - a;
    const double length2 = glm::dot(ab, ab);
    std::vector<double> stops{0.0, 1.0};
    for (const glm::dvec2& corner : m_corners) {
      const double t = glm::dot(corner - a, ab) / length2;
      if (t > 0.0 && t < 1.0 && std::abs(cross(ab, corner - a)) <= kOn) stops.push_back(t);
    }
    std::sort(stops.begin(), stops.end());
    for (size_t k = 1; k < stops.size(); ++k) {
      if (stops[k] - stops[k - 1] > 1e-9 && !inside(a + 0.5 * (stops[k - 1] + stops[k]) * ab))
        return false;
    }
    return true;
  }

  const Level& m_level;
  std::vector<std::pair<glm::dvec2, glm::dvec2>> m_walls;
  std::vector<glm::dvec2> m_corners;
  std::vector<std::vector<double>> m_between;
};

// Which island each triangle is on: triangles sharing an edge are on one.
std::vector<uint32_t> trianglesIslands(const Level& level) {
  std::vector<uint32_t> island(level.triangles.size());
  std::iota(island.begin(), island.end(), 0u);
  const auto find = [&](uint32_t t) {
    while (island[t] != t)
      t = island[t] = island[island[t]];
    return t;
  };
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> firstOn;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = level.triangles[t].vertex[k], b = level.triangles[t].vertex[(k + 1) % 3];
      const auto [at, added] = firstOn.insert({{std::min(a, b), std::max(a, b)}, t});
      if (!added) island[find(t)] = find(at->second);
    }
  }
  for (uint32_t t = 0; t < level.triangles.size(); ++t)
    island[t] = find(t);
  return island;
}

// On flat random meshes with holes, between points of one island, the exact
// search's path is as short as the visibility graph's; the other searches'
// are no shorter.
TEST(NavMeshGraph, ExactPathsAreAsShortAsTheVisibilityGraphs) {
  for (const uint32_t seed : {31u, 32u, 33u}) {
    const MeshGraph mesh = meshGraph(randomMesh(seed, 0.0f, seed == 33u));
    const Level& level = mesh.level;
    const VisibilityGraph visibility(level);
    const std::vector<uint32_t> island = trianglesIslands(level);
    std::mt19937 random(seed);
    std::uniform_int_distribution<uint32_t> anyTriangle(0, uint32_t(level.triangles.size() - 1));
    PathAnswer answer;
    int pairs = 0, wrong = 0;
    std::string firstWrong;
    while (pairs < 150) {
      const uint32_t from = anyTriangle(random), to = anyTriangle(random);
      if (island[from] != island[to]) continue;
      ++pairs;
      const glm::vec3 start = pointIn(level, from, random), goal = pointIn(level, to, random);
      const double shortest = visibility.shortest(groundOf(glm::dvec3(start)),
                                                  groundOf(glm::dvec3(goal)));
      for (const PortalPoint portalPoint : kPortalPoints) {
        SearchOptions options;
        options.portalPoint = portalPoint;
        planPath(mesh.build.graph, start, goal, options, {}, answer);
        const double length = answer.funnel.length;
        const bool right =
            answer.search.status == PathStatus::Found &&
            (portalPoint == PortalPoint::Exact
                 ? answer.search.portalPoint == PortalPoint::Exact &&
                       std::abs(length - shortest) <= 1e-3 * std::max(1.0, shortest)
                 : length >= shortest - 1e-4);
        if (!right && wrong++ == 0) {
          std::ostringstream out;
          out.precision(9);
          out << level.source << ", " << toString(portalPoint) << ": from " << describe(start)
              << " to " << describe(goal) << " the visibility graph's path is " << shortest
              << " long, the search " << toString(answer.search.status) << " with a path of "
              << length;
          firstWrong = out.str();
        }
      }
    }
    EXPECT_EQ(wrong, 0) << firstWrong;
  }
}

}  // namespace
}  // namespace nav
