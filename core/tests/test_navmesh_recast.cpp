// A navigation mesh as a tool exports it: Recast's polygon mesh of a level
// (RecastDemo's settings), written as OBJ and read back as a navigation mesh.
// Recast knows its own polygons and which edges join them, so it is the
// independent answer: every polygon comes back whole, in order, with the
// same neighbours, and nothing is reported but faces wound the other way.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "nav/navmesh_faces.h"
#include "nav/terrain_generator.h"
#include "recast_reference.h"

namespace {

using namespace nav;

struct Case {
  std::string name;
  Level level;
  UnitProfile unit;
};

void expectSameMesh(const Case& c) {
  SCOPED_TRACE(c.name);
  const recast::TriangleSoup soup(c.level);
  std::string error;
  std::optional<recast::NavMesh> built =
      recast::buildNavMesh(soup, recast::matchedConfig(c.unit, 0.5f * c.unit.width, 0.3f), error);
  ASSERT_TRUE(built) << error;
  const rcPolyMesh& recastMesh = *built->polyMesh;
  ASSERT_GT(recastMesh.npolys, 10);

  Result<Level> exported = parseObj(recast::polyMeshObj(recastMesh), c.name + "-navmesh.obj");
  ASSERT_TRUE(exported) << exported.error();
  const NavMeshFaces mesh = readNavMeshFaces(exported.value());

  ASSERT_EQ(mesh.polygons.size(), size_t(recastMesh.npolys));
  size_t recastLinks = 0;
  for (int p = 0; p < recastMesh.npolys; ++p) {
    const unsigned short* poly = &recastMesh.polys[size_t(p) * 2 * size_t(recastMesh.nvp)];
    std::multiset<uint32_t> expected;
    int corners = 0;
    for (int k = 0; k < recastMesh.nvp && poly[k] != RC_MESH_NULL_IDX; ++k) {
      ++corners;
      const unsigned short across = poly[recastMesh.nvp + k];
      // 0x8000 marks an edge on the tile's border: a wall within one tile.
      if (across != RC_MESH_NULL_IDX && (across & 0x8000) == 0) expected.insert(across);
    }
    recastLinks += expected.size();
    const NavMeshPolygon& polygon = mesh.polygons[size_t(p)];
    EXPECT_EQ(polygon.corners.size(), size_t(corners)) << "polygon " << p;
    std::multiset<uint32_t> found;
    for (const uint32_t neighbour : polygon.neighbours) {
      if (neighbour != kNoNeighbour) found.insert(neighbour);
    }
    EXPECT_EQ(found, expected) << "polygon " << p;
  }
  EXPECT_EQ(mesh.sharedEdges * 2, recastLinks);
  for (const NavMeshIssue& issue : mesh.issues)
    EXPECT_EQ(issue.kind, NavMeshIssueKind::FacingDown) << toString(issue.kind);
}

TEST(NavMeshRecast, RecastsPolygonsComeBackWithTheirNeighbours) {
  std::vector<Case> cases;
  Result<Level> showcase = loadLevel(std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj");
  ASSERT_TRUE(showcase) << showcase.error();
  cases.push_back({"showcase", std::move(showcase).value(), UnitProfile{}});

  std::ostringstream obj;
  TerrainParams terrain;
  terrain.seed = 3;
  ASSERT_TRUE(generateTerrain(terrain, obj));
  Result<Level> generated = parseObj(obj.str(), "terrain3.obj");
  ASSERT_TRUE(generated) << generated.error();
  Result<Level> turned = rotatedAboutY(generated.value(), 17.0f);
  ASSERT_TRUE(turned) << turned.error();
  cases.push_back({"terrain 3", std::move(generated).value(), detourMatchedUnit()});
  cases.push_back({"terrain 3 turned 17", std::move(turned).value(), detourMatchedUnit()});

  const std::filesystem::path dungeon =
      std::filesystem::path(NAVSCOPE_SHARED_DIR) / "meshes" / "dungeon.obj";
  if (std::filesystem::exists(dungeon)) {
    Result<Level> level = loadLevel(dungeon.string());
    ASSERT_TRUE(level) << level.error();
    cases.push_back({"dungeon", std::move(level).value(), detourMatchedUnit()});
  }
  for (const Case& c : cases)
    expectSameMesh(c);
}

// A level narrower than half a cell gives Recast a heightfield of no
// columns, which it rasterises into past its end: refused with a message.
TEST(NavMeshRecast, ALevelSmallerThanACellIsRefused) {
  Level tiny;
  tiny.vertices = {{0, 0, 0}, {0, 0, 0.1f}, {0.1f, 0, 0.1f}, {0.1f, 0, 0}};
  tiny.triangles = {{{0, 1, 2}, 0}, {{0, 2, 3}, 0}};
  tiny.bounds = Aabb{{0, 0, 0}, {0.1f, 0, 0.1f}};
  const recast::TriangleSoup soup(tiny);
  UnitProfile unit;
  std::string error;
  EXPECT_FALSE(recast::buildNavMesh(soup, recast::matchedConfig(unit, 0.3f, 0.3f), error));
  EXPECT_NE(error.find("the level is 0 x 0 columns"), std::string::npos) << error;
}

}  // namespace
