// Locating points through the sector index, against scans of every sector.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "nav/locate.h"
#include "nav/nav_build.h"
#include "nav/sector_index.h"
#include "test_levels.h"

namespace nav {
namespace {

NavGraph buildAsset(const std::string& path) {
  Result<Level> level = loadLevel(path);
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return {};
  CollisionWorld world(level.value());
  Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()));
  EXPECT_TRUE(build.ok()) << build.error();
  return build ? std::move(build).value().graph : NavGraph{};
}

// Independent nearest-point scan: every ground sector, closest point of its rectangle.
Location nearestByScan(const NavGraph& graph, const glm::vec3& p, const glm::vec3& half) {
  Location best;
  float bestDistance = std::numeric_limits<float>::infinity();
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind != SectorKind::Ground) continue;
    const float x = std::min(std::max(p.x, sector.bounds.min.x), sector.bounds.max.x);
    const float z = std::min(std::max(p.z, sector.bounds.min.z), sector.bounds.max.z);
    const glm::vec3 q(x, graph.heightAt(sector, x, z), z);
    if (std::abs(q.x - p.x) > half.x || std::abs(q.y - p.y) > half.y ||
        std::abs(q.z - p.z) > half.z)
      continue;
    const float d = glm::distance(p, q);
    if (d < bestDistance) {
      bestDistance = d;
      best = {s, q, d};
    }
  }
  return best;
}

TEST(LocateIndex, AgreesWithScanningEverySector) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    SCOPED_TRACE(name);
    const NavGraph indexed = buildAsset(test::assetFile(name));
    ASSERT_FALSE(indexed.index.empty());
    NavGraph scanned = indexed;
    scanned.index = SectorIndex();
    std::mt19937 random(3);
    std::uniform_real_distribution<float> x(indexed.bounds.min.x - 2, indexed.bounds.max.x + 2);
    std::uniform_real_distribution<float> y(indexed.bounds.min.y - 1, indexed.bounds.max.y + 2);
    std::uniform_real_distribution<float> z(indexed.bounds.min.z - 2, indexed.bounds.max.z + 2);
    size_t located = 0, near = 0;
    for (int i = 0; i < 3000; ++i) {
      const glm::vec3 p(x(random), y(random), z(random));
      const Location a = locateSector(indexed, p), b = locateSector(scanned, p);
      ASSERT_EQ(a.sector, b.sector) << p.x << " " << p.y << " " << p.z;
      located += a.sector != kNoSector;
      const glm::vec3 half(1.5f, 2.0f, 1.5f);
      const Location c = findNearestSector(indexed, p, half), d = nearestByScan(indexed, p, half);
      ASSERT_EQ(c.sector == kNoSector, d.sector == kNoSector);
      if (c.sector == kNoSector) continue;
      ++near;
      EXPECT_NEAR(c.distance, d.distance, 1e-4f);
      EXPECT_NEAR(glm::distance(c.point, d.point), 0.0f, 1e-3f);
    }
    EXPECT_GT(located, 100u);
    EXPECT_GT(near, located);
  }
}

// The tree against a scan of every box, on boxes of every size crowded
// unevenly (most in one corner, a few spanning everything, some points),
// and query boxes from points to wider than the whole: each overlapping
// sector visited once, no other.
TEST(SectorIndex, VisitsEveryOverlappingSectorOnce) {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  NavGraph graph;
  for (int i = 0; i < 3000; ++i) {
    Sector sector;
    sector.kind = i % 97 == 0 ? SectorKind::Waypath : SectorKind::Ground;
    const bool corner = i % 10 != 0;
    const float reach = corner ? 10.0f : 1000.0f;
    const glm::vec2 low(reach * unit(random), reach * unit(random));
    const float size = i % 50 == 0 ? 1000.0f : (i % 7 == 0 ? 0.0f : 5.0f * unit(random));
    sector.bounds = Aabb{{low.x, 0.0f, low.y}, {low.x + size, 1.0f, low.y + size * unit(random)}};
    graph.sectors.push_back(sector);
  }
  const SectorIndex index(graph);
  std::vector<int> visits(graph.sectors.size());
  for (int q = 0; q < 2000; ++q) {
    const float reach = q % 3 == 0 ? 12.0f : 1100.0f;
    const glm::vec2 low(reach * unit(random) - 50.0f, reach * unit(random) - 50.0f);
    const float size = q % 5 == 0 ? 0.0f : (q % 101 == 0 ? 3000.0f : 3.0f * unit(random));
    const glm::vec2 high = low + glm::vec2(size, size * unit(random));
    std::fill(visits.begin(), visits.end(), 0);
    index.forEachNear(low, high, [&](uint32_t s) { ++visits[s]; });
    for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
      const Aabb& b = graph.sectors[s].bounds;
      const bool overlaps = graph.sectors[s].kind == SectorKind::Ground && b.min.x <= high.x &&
                            low.x <= b.max.x && b.min.z <= high.y && low.y <= b.max.z;
      ASSERT_EQ(visits[s], overlaps ? 1 : 0) << "sector " << s << ", query " << q;
    }
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  int visited = 0;
  index.forEachNear(glm::vec2(nan), glm::vec2(nan), [&](uint32_t) { ++visited; });
  EXPECT_EQ(visited, 0) << "a NaN box overlaps nothing";
}

TEST(LocateNearest, SnapsOntoTheClosestSectorWithinTheBox) {
  const NavGraph graph = buildAsset(test::assetFile("funnel.obj"));
  // Straight above the floor, higher than a unit: not standing, but near.
  const glm::vec3 above(1.9f, 2.5f, 1.5f);
  EXPECT_EQ(locateSector(graph, above).sector, kNoSector);
  const Location near = findNearestSector(graph, above, {1, 3, 1});
  ASSERT_NE(near.sector, kNoSector);
  EXPECT_NEAR(near.point.y, 0.0f, 0.05f);
  EXPECT_NEAR(near.distance, 2.5f, 0.05f);
  EXPECT_EQ(findNearestSector(graph, above, {1, 1, 1}).sector, kNoSector) << "out of the box";

  // placeOnGraph: the sector under a standing point as it is, else the snap.
  const glm::vec3 standing(1.9f, 0.05f, 1.5f);
  const Location on = placeOnGraph(graph, standing, {1, 3, 1});
  EXPECT_EQ(on.sector, locateSector(graph, standing).sector);
  EXPECT_NE(on.sector, kNoSector);
  const Location snapped = placeOnGraph(graph, above, {1, 3, 1});
  EXPECT_EQ(snapped.sector, near.sector);
  EXPECT_NEAR(snapped.distance, near.distance, 1e-6f);
  EXPECT_EQ(placeOnGraph(graph, above, {1, 1, 1}).sector, kNoSector);
}

TEST(LocateNearest, PointsThatAreNotFiniteAreOnNoSector) {
  const NavGraph graph = buildAsset(test::assetFile("funnel.obj"));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const glm::vec3& point : {glm::vec3(nan, 0, 1.5f), glm::vec3(1.9f, nan, 1.5f),
                                 glm::vec3(inf, 0, 1.5f), glm::vec3(1.9f, 0, -inf)}) {
    EXPECT_EQ(placeOnGraph(graph, point, {1, 3, 1}).sector, kNoSector);
    EXPECT_EQ(placeForPath(graph, point, {1, 3, 1}).sector, kNoSector);
    EXPECT_EQ(locateSector(graph, point).sector, kNoSector);
  }
  EXPECT_EQ(placeOnGraph(graph, {1.9f, 0.05f, 1.5f}, {1, nan, 1}).sector, kNoSector);
}

}  // namespace
}  // namespace nav
