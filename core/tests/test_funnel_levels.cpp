// The funnel on real builds: 10,000 random queries per bundled level. Every
// walked stretch of the path (with heights following the portals) stays inside
// the corridor's sectors, and no leg is longer than the polyline through its
// portals' midpoints.
#include <gtest/gtest.h>

#include <random>

#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "test_levels.h"

namespace nav {
namespace {

// True when the point lies in one of the sectors' rectangles (on the ground, or
// the air a fall crosses), no more than a step under its ground and no higher
// above it than a drop (the unit falls off ledges).
bool insideSectors(const NavGraph& graph, const std::vector<uint32_t>& sectors,
                   const glm::vec3& p) {
  constexpr float kEdge = 1e-3f;
  for (uint32_t s : sectors) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind != SectorKind::Ground && sector.kind != SectorKind::Fall) continue;
    const Aabb& b = sector.bounds;
    if (p.x < b.min.x - kEdge || p.x > b.max.x + kEdge || p.z < b.min.z - kEdge ||
        p.z > b.max.z + kEdge)
      continue;
    const float ground = graph.heightAt(sector, p.x, p.z);
    if (p.y >= ground - graph.unit.stepHeight - kEdge &&
        p.y <= ground + graph.unit.maxDrop + graph.unit.stepHeight + kEdge)
      return true;
  }
  return false;
}

void checkLevel(const std::string& name) {
  SCOPED_TRACE(name);
  Result<Level> level = loadLevel(test::assetFile(name));
  ASSERT_TRUE(level.ok()) << level.error();
  const CollisionWorld world(level.value());
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> built =
      buildNavigation(level.value(), world, defaultFillParams(level.value()), options);
  ASSERT_TRUE(built.ok()) << built.error();
  const NavGraph& graph = built.value().graph;
  const CellGrid& cells = *built.value().cells;

  std::mt19937 random(11);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  size_t found = 0, legsChecked = 0;
  for (int q = 0; q < 10000; ++q) {
    const glm::vec3 start = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
    const glm::vec3 goal = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
    const PathResult path = findPath(graph, start, goal);
    if (path.status != PathStatus::Found) continue;
    ++found;
    const std::vector<std::vector<FunnelPortal>> legs = funnelLegs(graph, path.corridor);
    // Walked legs alternate with device and waypath legs (which leave the ground).
    for (size_t l = 0; l < legs.size(); l += 2) {
      const FunnelResult pulled = stringPull(legs[l]);
      std::vector<glm::vec3> midpoints;
      for (const FunnelPortal& portal : legs[l])
        midpoints.push_back((portal.left + portal.right) * 0.5f);
      ASSERT_LE(pulled.length, polylineLength(midpoints) + 1e-3f) << "query " << q;
      // Heights follow the portals between corners (a straight corner-to-corner
      // line would float over flat ground before a staircase).
      const std::vector<glm::vec3> walked = followPortalHeights(pulled, legs[l]);
      for (size_t i = 0; i + 1 < walked.size(); ++i) {
        const glm::vec3 a = walked[i], b = walked[i + 1];
        const int samples = 1 + int(glm::distance(a, b) / 0.1f);
        for (int k = 0; k <= samples; ++k) {
          const glm::vec3 p = glm::mix(a, b, float(k) / float(samples));
          ASSERT_TRUE(insideSectors(graph, path.corridor.sectors, p))
              << "query " << q << " leaves its corridor at " << p.x << " " << p.y << " " << p.z;
        }
      }
      ++legsChecked;
    }
  }
  EXPECT_GT(found, 5000u);
  EXPECT_GE(legsChecked, found);
}

TEST(FunnelLevels, ShowcaseQueriesStayInTheirCorridors) {
  checkLevel("showcase.obj");
}
TEST(FunnelLevels, FunnelLevelQueriesStayInTheirCorridors) {
  checkLevel("funnel.obj");
}

}  // namespace
}  // namespace nav
