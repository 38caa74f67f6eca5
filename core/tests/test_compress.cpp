// Sector and portal invariants, checked cell by cell against the fill's own links.
#include <gtest/gtest.h>

#include <set>

#include "nav/nav_build.h"
#include "nav/search.h"
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
  checkInvariants(built.build, test::surfaceOfMaterial(built.level));
}

TEST(Compress, InvariantsOnLedgeAndBridge) {
  Built built = buildLevel(ledgeAndBridge());
  checkInvariants(built.build, test::surfaceOfMaterial(built.level));
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
    checkInvariants(built.build, test::surfaceOfMaterial(built.level));
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
    checkInvariants(build.value(), test::surfaceOfMaterial(level.value()));
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
    add(&s.surface, sizeof(s.surface));
    add(&s.kind, sizeof(s.kind));
    add(&s.waypath, sizeof(s.waypath));
    add(&s.firstPortal, sizeof(s.firstPortal));
    add(&s.portalCount, sizeof(s.portalCount));
  }
  for (const Portal& p : graph.portals) {
    add(&p.fromSector, sizeof(p.fromSector));
    add(&p.toSector, sizeof(p.toSector));
    add(&p.left, sizeof(p.left));
    add(&p.right, sizeof(p.right));
    add(&p.direction, sizeof(p.direction));
    add(&p.kind, sizeof(p.kind));
    add(&p.link, sizeof(p.link));
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

// Two rooms split by a solid wall; a door (locked when asked) is the only way through,
// and a one-way elevator lifts onto a platform in room B, too high to jump down from.
Level roomsWithDevices(bool locked) {
  Level level;
  test::addFloor(level, 0, 0, 10, 10, 0, "floor");
  test::addBox(level, Aabb{{5.0f, 0, -0.5f}, {5.4f, 6.0f, 10.5f}}, "wall");
  test::addBox(level, Aabb{{5.4f, 0, 6}, {10, 4, 10}}, "platform");
  DeviceSpec door;
  door.id = "gate";
  door.entry = Aabb{{3.5f, -0.5f, 2}, {4.7f, 0.5f, 3.2f}};
  door.exit = Aabb{{6, -0.5f, 2}, {7.2f, 0.5f, 3.2f}};
  door.locked = locked;
  door.key = locked ? "red" : "";
  DeviceSpec lift;
  lift.id = "lift";
  lift.kind = DeviceKind::Elevator;
  lift.twoWay = false;
  lift.entry = Aabb{{8, -0.5f, 2}, {9.2f, 0.5f, 3.2f}};
  lift.exit = Aabb{{8, 3.5f, 8}, {9.2f, 4.5f, 9.2f}};
  level.settings.devices = {door, lift};
  level.settings.seeds = {{1, 0.05f, 1}};
  return level;
}

Built buildWithSettings(Level level) {
  test::finish(level);
  FloodFillParams params = fillParamsFor(level, UnitProfile{});
  return buildLevel(std::move(level), params);
}

TEST(CompressDevices, DevicePortalsJoinTheZonesSectors) {
  Built built = buildWithSettings(roomsWithDevices(false));
  const NavGraph& graph = built.build.graph;
  checkInvariants(built.build, test::surfaceOfMaterial(built.level));
  size_t doorPortals = 0, liftPortals = 0;
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Device) continue;
    const DeviceLink& link = graph.deviceLinks[portal.link];
    const DeviceSpec& device = graph.devices[link.device];
    const Aabb& in = link.reverse ? device.exit : device.entry;
    const Aabb& out = link.reverse ? device.entry : device.exit;
    // Used inside its going-in zone, from a sector that overlaps it; lets out in its coming-out zone.
    EXPECT_TRUE(in.contains(link.entryPoint)) << device.id;
    EXPECT_TRUE(out.contains(link.exitPoint)) << device.id;
    EXPECT_TRUE(graph.sectors[portal.fromSector].bounds.overlaps(in));
    EXPECT_TRUE(graph.sectors[portal.toSector].containsColumnPoint(link.exitPoint.x, link.exitPoint.z));
    if (device.id == "gate") {
      ++doorPortals;
      ASSERT_NE(portal.reverse, kNoPortal) << "a two-way door pairs its portals";
      EXPECT_EQ(graph.portals[portal.reverse].reverse, p);
    } else {
      ++liftPortals;
      EXPECT_TRUE(portal.oneWay());
      EXPECT_FALSE(link.reverse);
    }
  }
  EXPECT_GE(doorPortals, 2u);
  EXPECT_GE(liftPortals, 1u);
}

TEST(CompressDevices, PathsGoThroughDevicesAndLockedDoorsNeedTheirKey) {
  const glm::vec3 roomA{1, 0.05f, 5}, roomB{8, 0.05f, 4}, platform{8, 4.05f, 8.5f};
  Built open = buildWithSettings(roomsWithDevices(false));
  const PathResult toB = findPath(open.build.graph, roomA, roomB);
  ASSERT_EQ(toB.status, PathStatus::Found);
  auto usesDevice = [](const NavGraph& graph, const PathResult& path, const std::string& id) {
    for (uint32_t p : path.corridor.portals) {
      const Portal& portal = graph.portals[p];
      if (portal.kind == PortalKind::Device &&
          graph.devices[graph.deviceLinks[portal.link].device].id == id)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(usesDevice(open.build.graph, toB, "gate"));
  const PathResult up = findPath(open.build.graph, roomA, platform);
  ASSERT_EQ(up.status, PathStatus::Found);
  EXPECT_TRUE(usesDevice(open.build.graph, up, "gate"));
  EXPECT_TRUE(usesDevice(open.build.graph, up, "lift"));
  EXPECT_EQ(findPath(open.build.graph, platform, roomA).status, PathStatus::Partial)
      << "the lift only goes up";

  Built locked = buildWithSettings(roomsWithDevices(true));
  const PathResult noKey = findPath(locked.build.graph, roomA, roomB);
  EXPECT_EQ(noKey.status, PathStatus::Partial);
  EXPECT_EQ(noKey.reason, "door 'gate' is locked and needs key 'red'");
  EXPECT_FALSE(usesDevice(locked.build.graph, noKey, "gate"));
  SearchOptions withKey;
  withKey.keys = {"blue", "red"};
  const PathResult keyed = findPath(locked.build.graph, roomA, roomB, withKey);
  ASSERT_EQ(keyed.status, PathStatus::Found);
  EXPECT_TRUE(usesDevice(locked.build.graph, keyed, "gate"));
  SearchOptions wrongKey;
  wrongKey.keys = {"blue"};
  EXPECT_EQ(findPath(locked.build.graph, roomA, roomB, wrongKey).status, PathStatus::Partial);
}

TEST(CompressSurfaces, SectorsNeverMixSurfaces) {
  // Road and sidewalk strips side by side on one flat floor: without surfaces
  // one sector would cover both.
  Level level;
  test::addFloor(level, 0, 0, 4, 10, 0, "sidewalk");
  test::addFloor(level, 4, 0, 10, 10, 0, "road");
  test::addFloor(level, 10, 0, 14, 10, 0, "lava");
  Built built = buildLevel(level);
  checkInvariants(built.build, test::surfaceOfMaterial(built.level));
  std::set<std::string> names;
  for (const Sector& s : built.build.graph.sectors) names.insert(built.build.graph.surfaces[s.surface].name);
  EXPECT_EQ(names, (std::set<std::string>{"sidewalk", "road", "lava"}));
}

TEST(CompressWaypaths, DummySectorJoinedAtItsPoints) {
  Level level;
  test::addFloor(level, 0, 0, 20, 6, 0, "road");
  test::addBox(level, Aabb{{6, 0, 2}, {8, 2, 4}}, "wall");
  WaypathSpec lane;
  lane.id = "lane";
  lane.points = {{1, 0, 1}, {10, 0, 1}, {19, 0, 1}, {30, 0, 1}};  // the last is off the level
  lane.oneWay = true;
  lane.unitKind = UnitKind::Vehicle;
  level.settings.waypaths = {lane};
  test::finish(level);
  CollisionWorld world(level);
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> build = buildNavigation(level, world, fillParamsFor(level, UnitProfile{}), options);
  ASSERT_TRUE(build.ok()) << build.error();
  const NavGraph& graph = build.value().graph;
  uint32_t waypathSector = kNoSector;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    if (graph.sectors[s].kind == SectorKind::Waypath) waypathSector = s;
  }
  ASSERT_NE(waypathSector, kNoSector);
  EXPECT_EQ(graph.sectors[waypathSector].waypath, 0u);
  size_t on = 0, off = 0;
  for (const Portal& portal : graph.portals) {
    if (portal.kind != PortalKind::Waypath) continue;
    ASSERT_NE(portal.reverse, kNoPortal);
    EXPECT_LT(portal.link, 3u) << "only the three points on the level are joined";
    const glm::vec3 point = lane.points[portal.link];
    EXPECT_NEAR(portal.left.x, point.x, 1e-4f);
    if (portal.toSector == waypathSector) ++on;
    if (portal.fromSector == waypathSector) ++off;
  }
  EXPECT_EQ(on, 3u);
  EXPECT_EQ(off, 3u);
  ASSERT_EQ(build.value().stats.warnings.size(), 1u);
  EXPECT_NE(build.value().stats.warnings[0].find("point 3"), std::string::npos);
  checkInvariants(build.value(), test::surfaceOfMaterial(level));
}

}  // namespace
}  // namespace nav
