// Sector and portal invariants, checked cell by cell against the fill's own links.
#include <gtest/gtest.h>

#include "nav/nav_build.h"
#include "test_invariants.h"
#include "test_levels.h"

namespace nav {
namespace {

using test::checkInvariants;
using test::checkSameReachability;

struct Built {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;
};

Built buildLevel(Level level, FloodFillParams params = {}) {
  test::finish(level);
  Built built{std::move(level), nullptr, {}};
  built.world = std::make_unique<CollisionWorld>(built.level);
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> build = buildNavigation(built.level, *built.world, params, options);
  EXPECT_TRUE(build.ok()) << build.error();
  if (build.ok()) built.build = std::move(build).value();
  return built;
}

Level ledgeAndBridge() {
  Level level;
  test::addFloor(level, -4, -4, 12, 12, 0, "floor");
  test::addBox(level, Aabb{{0, 0, 0}, {3, 1.5f, 3}}, "ledge");           // one-way drop
  test::addBox(level, Aabb{{6, 2.8f, -4.5f}, {8, 3.0f, 12.5f}}, "bridge");  // a column with two cells
  test::addBox(level, Aabb{{-2, 0, 6}, {4, 2.5f, 6.4f}}, "wall");
  test::addFloor(level, 9, 9, 11, 11, 0.001f, "road");  // another material on the floor
  return level;
}

TEST(Compress, FlatFloorIsOneSector) {
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  Built built = buildLevel(std::move(level));
  EXPECT_EQ(built.build.graph.sectors.size(), 1u);
  EXPECT_EQ(built.build.graph.portals.size(), 0u);
  checkInvariants(built.build);
}

TEST(Compress, InvariantsOnLedgeAndBridge) {
  Built built = buildLevel(ledgeAndBridge());
  checkInvariants(built.build);
  size_t oneWay = 0;
  for (const Portal& p : built.build.graph.portals) oneWay += p.oneWay();
  EXPECT_GT(oneWay, 0u) << "the ledge drop gives one-way portals";
  for (uint32_t start : {0u, uint32_t(built.build.cells->size() / 2)})
    checkSameReachability(built.build, start);
}

TEST(Compress, InvariantsAtOtherCellSizes) {
  for (float cellSize : {0.2f, 0.45f, 0.6f}) {
    FloodFillParams params;
    params.cellSize = cellSize;
    Built built = buildLevel(ledgeAndBridge(), params);
    SCOPED_TRACE(cellSize);
    checkInvariants(built.build);
    checkSameReachability(built.build, 0);
  }
}

TEST(Compress, BundledLevels) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    Result<Level> level = loadLevel(test::assetFile(name));
    ASSERT_TRUE(level.ok()) << level.error();
    CollisionWorld world(level.value());
    BuildOptions options;
    options.keepCells = true;
    Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()), options);
    ASSERT_TRUE(build.ok()) << build.error();
    SCOPED_TRACE(name);
    checkInvariants(build.value());
    checkSameReachability(build.value(), 0);
  }
}

// FNV-1a over every field of the graph that a build produces.
uint64_t hashGraph(const NavGraph& graph) {
  uint64_t hash = 1469598103934665603ull;
  auto add = [&hash](const void* data, size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  };
  for (const Sector& s : graph.sectors) {
    add(&s.bounds, sizeof(s.bounds));
    add(&s.firstColumn, sizeof(s.firstColumn));
    add(&s.lastColumn, sizeof(s.lastColumn));
    add(&s.heightPlane, sizeof(s.heightPlane));
    add(&s.material, sizeof(s.material));
    add(&s.firstPortal, sizeof(s.firstPortal));
    add(&s.portalCount, sizeof(s.portalCount));
  }
  for (const Portal& p : graph.portals) {
    add(&p.fromSector, sizeof(p.fromSector));
    add(&p.toSector, sizeof(p.toSector));
    add(&p.left, sizeof(p.left));
    add(&p.right, sizeof(p.right));
    add(&p.direction, sizeof(p.direction));
    add(&p.reverse, sizeof(p.reverse));
  }
  return hash;
}

TEST(Compress, BundledLevelsBuildIdentically) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    SCOPED_TRACE(name);
    uint64_t hashes[2];
    for (uint64_t& hash : hashes) {
      // A fresh load and collision world each time: nothing carries over.
      Result<Level> level = loadLevel(test::assetFile(name));
      ASSERT_TRUE(level.ok()) << level.error();
      CollisionWorld world(level.value());
      Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()));
      ASSERT_TRUE(build.ok()) << build.error();
      hash = hashGraph(build.value().graph);
    }
    EXPECT_EQ(hashes[0], hashes[1]);
  }
}

}  // namespace
}  // namespace nav
