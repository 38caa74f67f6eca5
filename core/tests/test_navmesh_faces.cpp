// A level read as a navigation mesh: faces kept whole when convex and cut
// into convex pieces when not, corners welded, neighbours across shared
// edges, and each kind of defect reported where it is. Small meshes are
// checked against answers worked out by hand; generated terrain (also turned)
// against independent sums over its triangles.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "nav/navmesh_faces.h"
#include "nav/terrain_generator.h"

namespace {

using namespace nav;

Level levelOf(const std::string& obj) {
  Result<Level> level = parseObj(obj, "test.obj");
  EXPECT_TRUE(level) << (level ? "" : level.error());
  return level ? std::move(level).value() : Level{};
}

// Newell's normal of a polygon: independent of how it was cut.
glm::dvec3 newellNormal(const NavMeshFaces& mesh, const NavMeshPolygon& polygon) {
  glm::dvec3 normal(0.0);
  for (size_t k = 0; k < polygon.corners.size(); ++k) {
    const glm::dvec3 p = mesh.corners[polygon.corners[k]];
    const glm::dvec3 q = mesh.corners[polygon.corners[(k + 1) % polygon.corners.size()]];
    normal +=
        glm::dvec3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y));
  }
  return normal;
}

// Area in the ground plane, and whether every turn seen from above is to the
// left (counter-clockwise about +y, as x cross z points down: turns are
// measured with z cross x).
double groundArea(const NavMeshFaces& mesh, const NavMeshPolygon& polygon) {
  return 0.5 * newellNormal(mesh, polygon).y;
}

bool convexSeenFromAbove(const NavMeshFaces& mesh, const NavMeshPolygon& polygon) {
  const size_t n = polygon.corners.size();
  for (size_t k = 0; k < n; ++k) {
    const glm::dvec3 a = mesh.corners[polygon.corners[k]];
    const glm::dvec3 b = mesh.corners[polygon.corners[(k + 1) % n]];
    const glm::dvec3 c = mesh.corners[polygon.corners[(k + 2) % n]];
    // y of (b - a) x (c - b): positive for a left turn seen from above.
    const double turn = (b.z - a.z) * (c.x - b.x) - (b.x - a.x) * (c.z - b.z);
    if (turn < -1e-9) return false;
  }
  return true;
}

size_t countIssues(const NavMeshFaces& mesh, NavMeshIssueKind kind) {
  size_t count = 0;
  for (const NavMeshIssue& issue : mesh.issues)
    count += issue.kind == kind ? 1 : 0;
  return count;
}

TEST(NavMeshFaces, AConvexFaceIsOnePolygon) {
  // A 2 x 2 m square, wound counter-clockwise seen from above (normal +y).
  const NavMeshFaces mesh =
      readNavMeshFaces(levelOf("v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nf 1 4 3 2\n"));
  ASSERT_EQ(mesh.polygons.size(), 1u);
  const NavMeshPolygon& square = mesh.polygons[0];
  EXPECT_EQ(square.corners.size(), 4u);
  EXPECT_NEAR(groundArea(mesh, square), 4.0, 1e-9);
  EXPECT_TRUE(convexSeenFromAbove(mesh, square));
  EXPECT_EQ(mesh.sharedEdges, 0u);
  EXPECT_EQ(mesh.wallEdges, 4u);
  EXPECT_TRUE(mesh.issues.empty());
}

TEST(NavMeshFaces, CornersWithinTheToleranceAreWeldedIntoNeighbours) {
  // Two squares side by side, each with its own vertices; the shared edge's
  // copies are 0.4 mm apart.
  const std::string obj =
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3 2\n"
      "v 1.0004 0 0\nv 2 0 0\nv 2 0 1\nv 1.0004 0 1\nf 5 8 7 6\n";
  const NavMeshFaces welded = readNavMeshFaces(levelOf(obj));
  EXPECT_EQ(welded.corners.size(), 6u);
  ASSERT_EQ(welded.polygons.size(), 2u);
  EXPECT_EQ(welded.sharedEdges, 1u);
  EXPECT_EQ(welded.wallEdges, 6u);
  for (uint32_t p = 0; p < 2; ++p) {
    const std::vector<uint32_t>& neighbours = welded.polygons[p].neighbours;
    EXPECT_EQ(std::count(neighbours.begin(), neighbours.end(), 1 - p), 1) << p;
  }
  NavMeshFacesParams tight;
  tight.weldTolerance = 0.0001f;
  const NavMeshFaces apart = readNavMeshFaces(levelOf(obj), tight);
  EXPECT_EQ(apart.corners.size(), 8u);
  EXPECT_EQ(apart.sharedEdges, 0u);
}

TEST(NavMeshFaces, CornersBeyondAnyGridWeldOnlyWhenEqual) {
  // Squares 5e7 m out, welded within 1e-9 m: past 2^50 weld cells, where the
  // welder keys an axis by the float itself. Each corner welds with its own
  // copies and the square beside it shares an edge, never one 1 km away.
  std::string obj;
  constexpr int kSquares = 2000;
  for (int i = 0; i < kSquares; ++i) {
    const std::string z0 = std::to_string(i * 1000), z1 = std::to_string((i + 1) * 1000);
    obj += "v 5e7 0 " + z0 + "\nv 5e7 0 " + z1 + "\nv 6e7 0 " + z1 + "\nv 6e7 0 " + z0 + "\n";
    obj += "f -4 -3 -2 -1\n";
  }
  NavMeshFacesParams fine;
  fine.weldTolerance = 1e-9f;
  const NavMeshFaces mesh = readNavMeshFaces(levelOf(obj), fine);
  EXPECT_EQ(mesh.polygons.size(), size_t(kSquares));
  EXPECT_EQ(mesh.corners.size(), size_t(2 * (kSquares + 1)));
  EXPECT_EQ(mesh.sharedEdges, size_t(kSquares - 1));
}

TEST(NavMeshFaces, ANonConvexFaceIsCutIntoConvexNeighbours) {
  // An L of three unit squares, one face.
  const NavMeshFaces mesh = readNavMeshFaces(
      levelOf("v 0 0 0\nv 2 0 0\nv 2 0 1\nv 1 0 1\nv 1 0 2\nv 0 0 2\nf 1 6 5 4 3 2\n"));
  ASSERT_GE(mesh.polygons.size(), 2u);
  EXPECT_LE(mesh.polygons.size(), 3u);
  double area = 0.0;
  for (const NavMeshPolygon& piece : mesh.polygons) {
    EXPECT_TRUE(convexSeenFromAbove(mesh, piece));
    EXPECT_EQ(piece.face, 0u);
    area += groundArea(mesh, piece);
  }
  EXPECT_NEAR(area, 3.0, 1e-9);
  EXPECT_EQ(mesh.sharedEdges, mesh.polygons.size() - 1) << "the pieces join in a chain";
  EXPECT_TRUE(mesh.issues.empty());
}

TEST(NavMeshFaces, ACornerInsideAnotherPolygonsEdgeIsATJunction) {
  // A 2 x 2 square, and on its +x side two 1 x 1 squares meeting at (2, 0, 1).
  const NavMeshFaces mesh =
      readNavMeshFaces(levelOf("v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nf 1 4 3 2\n"
                               "v 2 0 0\nv 3 0 0\nv 3 0 1\nv 2 0 1\nf 5 8 7 6\n"
                               "v 2 0 1\nv 3 0 1\nv 3 0 2\nv 2 0 2\nf 9 12 11 10\n"));
  ASSERT_EQ(mesh.polygons.size(), 3u);
  ASSERT_EQ(countIssues(mesh, NavMeshIssueKind::TJunction), 1u);
  EXPECT_EQ(mesh.issues[0].at, glm::vec3(2, 0, 1));
  // The two small squares meet each other; the big one meets neither.
  EXPECT_EQ(mesh.sharedEdges, 1u);
  for (uint32_t neighbour : mesh.polygons[0].neighbours)
    EXPECT_EQ(neighbour, kNoNeighbour);
}

TEST(NavMeshFaces, AnEdgeOfThreePolygonsOrOfTwoFoldedIsReportedAndWalled) {
  const NavMeshFaces mesh =
      readNavMeshFaces(levelOf("v 0 0 0\nv 1 0 0\nv 0.5 0 1\nv 0.5 0 -1\nv 0.5 0.2 -0.5\n"
                               "f 1 3 2\nf 2 4 1\nf 1 2 5\n"));
  ASSERT_EQ(countIssues(mesh, NavMeshIssueKind::NonManifoldEdge), 1u);
  EXPECT_EQ(mesh.issues[0].at, glm::vec3(0.5f, 0, 0));
  EXPECT_EQ(mesh.sharedEdges, 0u);
  EXPECT_EQ(mesh.wallEdges, 9u);

  // Two triangles on the same side of their edge, both facing up: folded over
  // each other, not neighbours.
  const NavMeshFaces folded =
      readNavMeshFaces(levelOf("v 0 0 0\nv 0 0 1\nv 1 0 0\nv 0.5 0 0.3\nf 1 2 3\nf 1 2 4\n"));
  ASSERT_EQ(countIssues(folded, NavMeshIssueKind::NonManifoldEdge), 1u);
  EXPECT_EQ(folded.issues[0].at, glm::vec3(0, 0, 0.5f));
  EXPECT_EQ(folded.sharedEdges, 0u);
}

TEST(NavMeshFaces, SteepFacesAreReportedAndLeftOutWhenAsked) {
  // A floor and a wall standing on its edge.
  const std::string obj =
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3 2\n"
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 5 6 7 8\n";
  NavMeshFacesParams params;
  params.maxSlopeDegrees = 45.0f;
  const NavMeshFaces kept = readNavMeshFaces(levelOf(obj), params);
  EXPECT_EQ(kept.polygons.size(), 2u);
  ASSERT_EQ(countIssues(kept, NavMeshIssueKind::SteepFace), 1u);
  EXPECT_EQ(kept.issues[0].at, glm::vec3(0.5f, 0.5f, 0));
  params.excludeSteep = true;
  const NavMeshFaces floorOnly = readNavMeshFaces(levelOf(obj), params);
  ASSERT_EQ(floorOnly.polygons.size(), 1u);
  EXPECT_NEAR(groundArea(floorOnly, floorOnly.polygons[0]), 1.0, 1e-9);
}

TEST(NavMeshFaces, AFaceWoundDownIsTurnedOver) {
  // Clockwise seen from above: its normal points down.
  const NavMeshFaces mesh =
      readNavMeshFaces(levelOf("v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nf 1 2 3 4\n"));
  ASSERT_EQ(mesh.polygons.size(), 1u);
  ASSERT_EQ(countIssues(mesh, NavMeshIssueKind::FacingDown), 1u);
  EXPECT_EQ(mesh.issues[0].at, glm::vec3(1, 0, 1));
  EXPECT_GT(newellNormal(mesh, mesh.polygons[0]).y, 0.0);
}

TEST(NavMeshFaces, AFaceOfManyCornersStaysWhole) {
  // A convex 1,487-gon (the fuzzed face that once kept the seeding busy).
  constexpr int kCorners = 1487;
  std::ostringstream obj;
  for (int k = 0; k < kCorners; ++k) {
    const double angle = -2.0 * M_PI * k / kCorners;
    obj << "v " << 10.0 * std::cos(angle) << " 0 " << 10.0 * std::sin(angle) << "\n";
  }
  obj << "f";
  for (int k = 1; k <= kCorners; ++k)
    obj << " " << k;
  obj << "\n";
  const NavMeshFaces mesh = readNavMeshFaces(levelOf(obj.str()));
  ASSERT_EQ(mesh.polygons.size(), 1u);
  EXPECT_EQ(mesh.polygons[0].corners.size(), size_t(kCorners));
  EXPECT_TRUE(convexSeenFromAbove(mesh, mesh.polygons[0]));
}

// Generated terrain, as generated and turned 17 degrees: every polygon convex
// and counter-clockwise from above; neighbours are mutual and share the edge
// reversed; the polygons cover exactly the ground area of the triangles no
// steeper than the slope, summed here from the level itself.
TEST(NavMeshFaces, TerrainPolygonsCoverItsWalkableTriangles) {
  std::ostringstream obj;
  TerrainParams params;
  params.seed = 2;
  ASSERT_TRUE(generateTerrain(params, obj));
  const Level generated = levelOf(obj.str());
  for (const float degrees : {0.0f, 17.0f}) {
    Result<Level> turned = rotatedAboutY(generated, degrees);
    ASSERT_TRUE(turned);
    const Level& level = turned.value();
    NavMeshFacesParams faces;
    faces.maxSlopeDegrees = 45.0f;
    faces.excludeSteep = true;
    const NavMeshFaces mesh = readNavMeshFaces(level, faces);
    ASSERT_FALSE(mesh.polygons.empty());

    double expected = 0.0;
    const double flatEnough = std::cos(glm::radians(45.0));
    for (uint32_t t = 0; t < level.triangles.size(); ++t) {
      const glm::dvec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
      const glm::dvec3 normal = glm::cross(b - a, c - a);
      if (std::abs(normal.y) >= flatEnough * glm::length(normal))
        expected += 0.5 * std::abs(normal.y);
    }
    double area = 0.0;
    for (uint32_t p = 0; p < mesh.polygons.size(); ++p) {
      const NavMeshPolygon& polygon = mesh.polygons[p];
      EXPECT_TRUE(convexSeenFromAbove(mesh, polygon)) << degrees << " polygon " << p;
      area += groundArea(mesh, polygon);
      const size_t n = polygon.corners.size();
      for (size_t k = 0; k < n; ++k) {
        const uint32_t across = polygon.neighbours[k];
        if (across == kNoNeighbour) continue;
        const NavMeshPolygon& other = mesh.polygons[across];
        const uint32_t a = polygon.corners[k], b = polygon.corners[(k + 1) % n];
        bool mutual = false;
        for (size_t j = 0; j < other.corners.size(); ++j) {
          mutual = mutual || (other.neighbours[j] == p && other.corners[j] == b &&
                              other.corners[(j + 1) % other.corners.size()] == a);
        }
        EXPECT_TRUE(mutual) << degrees << " polygon " << p << " edge " << k;
      }
    }
    EXPECT_NEAR(area, expected, 1e-6 * expected) << degrees;
  }
}

}  // namespace
