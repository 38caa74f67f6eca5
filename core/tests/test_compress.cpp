// Sector and portal invariants, checked cell by cell against the fill's own links.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/path_solver.h"
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
  test::addBox(level, Aabb{{0, 0, 0}, {3, 1.5f, 3}}, "ledge");  // one-way drop
  test::addBox(level, Aabb{{6, 2.8f, -4.5f}, {8, 3.0f, 12.5f}},
               "bridge");  // a column with two cells
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
  for (const Portal& p : built.build.graph.portals)
    oneWay += p.oneWay();
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

// Every fall sector sits between exactly two one-way walk portals: one in, off
// a ledge of a ground sector, and one out, into the ground sector it lands in.
// Returns how many there are.
size_t checkFallSectors(const NavGraph& graph) {
  std::vector<std::vector<uint32_t>> into(graph.sectors.size());
  for (uint32_t p = 0; p < graph.portals.size(); ++p)
    into[graph.portals[p].toSector].push_back(p);
  size_t falls = 0;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind != SectorKind::Fall) continue;
    SCOPED_TRACE("fall sector " + std::to_string(s));
    ++falls;
    EXPECT_EQ(sector.portalCount, 1u) << "one portal out";
    EXPECT_EQ(into[s].size(), 1u) << "one portal in";
    if (sector.portalCount != 1 || into[s].size() != 1) continue;
    const Portal& in = graph.portals[into[s][0]];
    const Portal& out = graph.portals[sector.firstPortal];
    for (const Portal* portal : {&in, &out}) {
      EXPECT_EQ(portal->kind, PortalKind::Walk);
      EXPECT_TRUE(portal->oneWay());
    }
    EXPECT_EQ(graph.sectors[in.fromSector].kind, SectorKind::Ground);
    EXPECT_EQ(graph.sectors[out.toSector].kind, SectorKind::Ground);
  }
  return falls;
}

// A corridor 100 m long: the 0.6 m unit stands on cell centres 0.45 .. 99.55
// (columns 1 .. 331 of 0.3 m), 331 columns; sides of at most 256 cells cut
// them into 165 and 166 (the pieces as even as they come: 331 * k / 2). The
// path along it stays straight.
TEST(CompressSides, ALongCorridorIsCutIntoEvenPieces) {
  Level level;
  test::addFloor(level, 0, 0, 100, 3, 0);
  Built built = buildLevel(std::move(level));
  const NavGraph& graph = built.build.graph;
  ASSERT_EQ(graph.sectors.size(), 2u);
  const int32_t first = graph.sectors[0].lastColumn.x - graph.sectors[0].firstColumn.x + 1;
  const int32_t second = graph.sectors[1].lastColumn.x - graph.sectors[1].firstColumn.x + 1;
  EXPECT_EQ(first, 165);
  EXPECT_EQ(second, 166);
  EXPECT_EQ(graph.sectors[1].firstColumn.x, graph.sectors[0].lastColumn.x + 1);
  // Joined both ways across the cut, the whole corridor's width.
  ASSERT_EQ(graph.portals.size(), 2u);
  EXPECT_FALSE(graph.portals[0].oneWay());
  const PathResult path = findPath(graph, {1, 0, 1.5f}, {99, 0, 1.5f});
  ASSERT_EQ(path.status, PathStatus::Found);
  EXPECT_NEAR(pullCorridor(graph, path.corridor).length, 98.0f, 1e-3f);
  // Without the cap, one sector.
  CompressParams uncapped = compressParamsFor(built.level, FloodFillParams{});
  uncapped.maxSectorSide = 1000;
  EXPECT_EQ(compressCells(*built.build.cells, uncapped).sectors.size(), 1u);
}

TEST(CompressFalls, APathOffABlockFallsAndNoneLeadsBackUp) {
  // LedgeDropIsOneWay's block, 2 m high on a floor, seeded on top: the floor
  // is reached only by falling off the block's sides, and nothing leads back.
  Level level;
  test::addFloor(level, -3, -3, 7, 7, 0);
  test::addBox(level, Aabb{{0, 0, 0}, {4, 2, 4}});
  FloodFillParams params;
  params.seeds = {{2, 2.05f, 2}};
  Built built = buildLevel(std::move(level), params);
  const NavGraph& graph = built.build.graph;
  EXPECT_GE(checkFallSectors(graph), 4u) << "at least one off each side";
  for (const Sector& sector : graph.sectors) {
    if (sector.kind != SectorKind::Fall) continue;
    // From the block's top (2 m) down to the floor (0).
    EXPECT_FLOAT_EQ(sector.bounds.max.y, 2.0f);
    EXPECT_FLOAT_EQ(sector.bounds.min.y, 0.0f);
  }
  const glm::vec3 top{2, 2, 2}, floor{6, 0, 6};
  const PathResult down = findPath(graph, top, floor);
  ASSERT_EQ(down.status, PathStatus::Found);
  EXPECT_TRUE(std::any_of(down.corridor.sectors.begin(), down.corridor.sectors.end(),
                          [&](uint32_t s) { return graph.sectors[s].kind == SectorKind::Fall; }))
      << "the way down falls";
  const PathResult up = findPath(graph, floor, top);
  EXPECT_NE(up.status, PathStatus::Found) << toString(up.status);
}

TEST(Compress, BundledLevels) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    Result<Level> level = loadLevel(test::assetFile(name));
    ASSERT_TRUE(level.ok()) << level.error();
    CollisionWorld world(level.value());
    BuildOptions options;
    options.keepCells = true;
    Result<NavBuild> build =
        buildNavigation(level.value(), world, defaultFillParams(level.value()), options);
    ASSERT_TRUE(build.ok()) << build.error();
    SCOPED_TRACE(name);
    checkInvariants(build.value(), test::surfaceOfMaterial(level.value()));
    checkSameReachability(build.value(), 0);
    checkFallSectors(build.value().graph);
  }
}

// FNV-1a over every field of the graph that a build produces.
// FNV-1a of the graph's .nav bytes: everything the graph holds.
uint64_t hashGraph(const NavGraph& graph) {
  uint64_t hash = 1469598103934665603ull;
  for (const uint8_t byte : serializeNavGraph(graph))
    hash = (hash ^ byte) * 1099511628211ull;
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
      Result<NavBuild> build =
          buildNavigation(level.value(), world, defaultFillParams(level.value()));
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
    // Used inside its going-in zone, from a sector that overlaps it; lets out in its coming-out
    // zone.
    EXPECT_TRUE(in.contains(link.entryPoint)) << device.id;
    EXPECT_TRUE(out.contains(link.exitPoint)) << device.id;
    EXPECT_TRUE(graph.sectors[portal.fromSector].bounds.overlaps(in));
    EXPECT_TRUE(
        graph.contains(graph.sectors[portal.toSector], link.exitPoint.x, link.exitPoint.z));
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

// On a grid turned 30 degrees a zone is a turned box, not the box around it
// (which is up to half as large again each way): the unit uses a device only
// from cells inside the zone as the level gives it, and the rooms still join.
TEST(CompressDevices, ATurnedZoneIsUsedOnlyFromInsideIt) {
  Level file = roomsWithDevices(false);
  test::finish(file);
  const Result<Level> turned = levelOnGrid(file, 30.0f);
  ASSERT_TRUE(turned.ok()) << turned.error();
  ASSERT_TRUE(turned.value().settings.devices[0].entryCorners);
  const Built built = buildWithSettings(turned.value());
  const NavGraph& graph = built.build.graph;
  checkInvariants(built.build, test::surfaceOfMaterial(built.level));
  size_t doorPortals = 0, liftPortals = 0;
  for (const Portal& portal : graph.portals) {
    if (portal.kind != PortalKind::Device) continue;
    const DeviceLink& link = graph.deviceLinks[portal.link];
    const DeviceSpec& given = file.settings.devices[link.device];
    const Aabb& in = link.reverse ? given.exit : given.entry;
    const glm::vec3 used = graph.gridFrame.toFile(link.entryPoint);
    EXPECT_TRUE(used.x >= in.min.x && used.x <= in.max.x && used.z >= in.min.z &&
                used.z <= in.max.z)
        << given.id << " used at " << used.x << ", " << used.z;
    (given.id == "gate" ? doorPortals : liftPortals) += 1;
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
  withKey.filter.keys = {"blue", "red"};
  const PathResult keyed = findPath(locked.build.graph, roomA, roomB, withKey);
  ASSERT_EQ(keyed.status, PathStatus::Found);
  EXPECT_TRUE(usesDevice(locked.build.graph, keyed, "gate"));
  SearchOptions wrongKey;
  wrongKey.filter.keys = {"blue"};
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
  for (const Sector& s : built.build.graph.sectors)
    names.insert(built.build.graph.surfaces[s.surface].name);
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
  Result<NavBuild> build =
      buildNavigation(level, world, fillParamsFor(level, UnitProfile{}), options);
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

// A cell placed by hand: column, ground height, material.
struct CellSpot {
  int x, z;
  float y;
  uint16_t material;
};

// Cells linked as the fill links them: a step in direction d lands on the
// highest cell of the next column within [y - drop, y + step]; `blocked`
// (spot index, direction) steps are taken away, as walls and ledges do.
CellGrid linkedCells(const std::vector<CellSpot>& spots, const UnitProfile& unit,
                     const std::set<std::pair<size_t, int>>& blocked = {}) {
  CellGrid cells(0.3f, glm::vec2(0.0f), unit.stepHeight, unit.maxDrop);
  std::map<std::pair<int, int>, std::vector<size_t>> byColumn;
  for (size_t i = 0; i < spots.size(); ++i) {
    cells.add(spots[i].x, spots[i].z, spots[i].y, spots[i].material);
    byColumn[{spots[i].x, spots[i].z}].push_back(i);
  }
  for (size_t i = 0; i < spots.size(); ++i) {
    uint8_t links = 0;
    for (int d = 0; d < kDirectionCount; ++d) {
      const auto next = byColumn.find({spots[i].x + kDirectionDx[d], spots[i].z + kDirectionDz[d]});
      if (next == byColumn.end() || blocked.count({i, d})) continue;
      for (size_t j : next->second) {
        if (spots[j].y >= spots[i].y - unit.maxDrop && spots[j].y <= spots[i].y + unit.stepHeight)
          links |= uint8_t(1u << d);
      }
    }
    cells.setLinks(uint32_t(i), links);
  }
  cells.indexColumns();
  return cells;
}

// Flat cells from text: '#' is a cell, string i is row z = i.
std::vector<CellSpot> flatSpots(const std::vector<std::string>& rows) {
  std::vector<CellSpot> spots;
  for (int z = 0; z < int(rows.size()); ++z) {
    for (int x = 0; x < int(rows[z].size()); ++x) {
      if (rows[z][x] == '#') spots.push_back({x, z, 0.0f, 0});
    }
  }
  return spots;
}

NavBuild compressed(CellGrid cells, const UnitProfile& unit,
                    const std::vector<uint16_t>& surfaceOfMaterial) {
  CompressParams params;
  params.unit = unit;
  params.surfaceOfMaterial = surfaceOfMaterial;
  NavBuild build;
  build.graph = compressCells(cells, params, &build.cellSectors);
  build.cells = std::move(cells);
  return build;
}

// Greedy sectors as compression grew them before it partitioned: from the
// lowest free cell along +X, then row by row along +Z, over cells that step
// to each other on one surface; each cut, as compression cuts its own, into
// pieces no longer than maxSide on a side.
size_t greedySectorCount(const CellGrid& cells, const std::vector<uint16_t>& surfaceOfMaterial,
                         int32_t maxSide) {
  std::vector<bool> taken(cells.size(), false);
  auto surface = [&](uint32_t c) {
    const uint16_t m = cells[c].material;
    return m < surfaceOfMaterial.size() ? surfaceOfMaterial[m] : 0;
  };
  auto joined = [&](uint32_t c, Direction d) {
    const uint32_t n = cells.neighbor(c, d);
    const bool both =
        n != kNoCell && cells.neighbor(n, opposite(d)) == c && surface(n) == surface(c);
    return both ? n : kNoCell;
  };
  auto freeJoined = [&](uint32_t c, Direction d) {
    const uint32_t n = joined(c, d);
    return n != kNoCell && !taken[n] ? n : kNoCell;
  };
  size_t count = 0;
  for (uint32_t first : cells.rowMajorOrder()) {
    if (taken[first]) continue;
    std::vector<uint32_t> rect{first};
    for (uint32_t n = freeJoined(first, Direction::PlusX); n != kNoCell;
         n = freeJoined(rect.back(), Direction::PlusX))
      rect.push_back(n);
    const size_t width = rect.size();
    for (;;) {
      std::vector<uint32_t> grown = rect;
      for (size_t i = rect.size() - width; i < rect.size(); ++i) {
        const uint32_t n = freeJoined(rect[i], Direction::PlusZ);
        if (n == kNoCell ||
            (grown.size() > rect.size() && joined(grown.back(), Direction::PlusX) != n))
          break;
        grown.push_back(n);
      }
      if (grown.size() != rect.size() + width) break;
      rect = std::move(grown);
    }
    for (uint32_t c : rect)
      taken[c] = true;
    const size_t depth = rect.size() / width;
    count += ((width + size_t(maxSide) - 1) / size_t(maxSide)) *
             ((depth + size_t(maxSide) - 1) / size_t(maxSide));
  }
  return count;
}

TEST(CompressPartition, HandMadeLayoutsTakeTheFewestSectors) {
  struct Case {
    const char* name;
    std::vector<std::string> rows;
    size_t fewest;
  };
  const Case cases[] = {
      {"L", {"########", "#.......", "#.......", "#......."}, 2},
      {"U", {"#....#", "#....#", "######"}, 3},
      {"plus", {"..##..", "######", "######", "..##.."}, 3},
      {"ring", {"######", "#....#", "#....#", "######"}, 4},
      {"staircase", {"#....", "##...", "###..", "####.", "#####"}, 5},
      {"comb", {"#########", "#.#.#.#.#"}, 6},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const UnitProfile unit;
    const NavBuild build = compressed(linkedCells(flatSpots(c.rows), unit), unit, {});
    EXPECT_EQ(build.graph.sectors.size(), c.fewest);
    checkInvariants(build);
  }
}

TEST(CompressPartition, ALedgeIsCutStraightOnFromItsEnd) {
  // A 6 x 6 floor with a ledge (one-way steps) from its far edge down to z = 4
  // at x = 3: cut straight on, two sectors; greedy rows run into it late.
  std::vector<CellSpot> spots = flatSpots(std::vector<std::string>(6, "######"));
  std::set<std::pair<size_t, int>> blocked;
  for (size_t i = 0; i < spots.size(); ++i) {
    if (spots[i].x == 3 && spots[i].z >= 4) blocked.insert({i, int(Direction::MinusX)});
  }
  const UnitProfile unit;
  const NavBuild build = compressed(linkedCells(spots, unit, blocked), unit, {});
  checkInvariants(build);
  checkSameReachability(build, 0);
  EXPECT_EQ(build.graph.sectors.size(), 2u);
  EXPECT_EQ(greedySectorCount(*build.cells, {}, CompressParams{}.maxSectorSide), 3u);
}

TEST(CompressPartition, JoinsThatDoNotCloseStillGiveSectors) {
  // With steps as high as the clearance, going +x then +z from (0, 0) lands on
  // the upper cell of column (1, 1), going +z then +x on the lower one: the
  // joins around that grid point do not close. Sectors must still be
  // rectangles of mutually joined cells.
  UnitProfile unit;
  unit.stepHeight = 1.0f;
  unit.maxDrop = 1.0f;
  const std::vector<CellSpot> spots = {
      {0, 0, 0.0f, 0}, {1, 0, 0.9f, 0}, {0, 1, -0.9f, 0}, {1, 1, 1.8f, 0}, {1, 1, 0.0f, 0}};
  CellGrid cells = linkedCells(spots, unit);
  ASSERT_EQ(cells.neighbor(cells.neighbor(0, Direction::PlusX), Direction::PlusZ), 3u);
  ASSERT_EQ(cells.neighbor(cells.neighbor(0, Direction::PlusZ), Direction::PlusX), 4u);
  const NavBuild build = compressed(std::move(cells), unit, {});
  checkInvariants(build);
  checkSameReachability(build, 0);
  EXPECT_LE(build.graph.sectors.size(),
            greedySectorCount(*build.cells, {}, CompressParams{}.maxSectorSide));
}

// A random patchwork on a 40 x 30 grid: blocks of level ground, ramps and
// bumps at random heights, a second floor over part of it, two surfaces, and
// some steps taken away (walls and one-way ledges).
std::vector<CellSpot> randomSpots(std::mt19937& random, std::set<std::pair<size_t, int>>& blocked) {
  std::uniform_real_distribution<float> unit01(0.0f, 1.0f);
  std::vector<CellSpot> spots;
  const int blocksX = 8, blocksZ = 6, blockSize = 5;
  for (int bz = 0; bz < blocksZ; ++bz) {
    for (int bx = 0; bx < blocksX; ++bx) {
      const int kind = int(random() % 4);  // level, ramp along x, ramp along z, bumps
      const float base = 0.3f * float(random() % 3);
      const float slope = 0.05f + 0.1f * unit01(random);
      for (int z = bz * blockSize; z < (bz + 1) * blockSize; ++z) {
        for (int x = bx * blockSize; x < (bx + 1) * blockSize; ++x) {
          if (unit01(random) < 0.04f) continue;  // a hole
          float y = base;
          if (kind == 1) y += slope * float(x - bx * blockSize);
          if (kind == 2) y += slope * float(z - bz * blockSize);
          if (kind == 3) y += 0.35f * unit01(random);
          spots.push_back({x, z, y, uint16_t((x / 7 + z / 9) % 2)});
        }
      }
    }
  }
  for (int z = 8; z < 20; ++z) {
    for (int x = 10; x < 28; ++x)
      spots.push_back({x, z, 3.5f + 0.02f * float(x), 0});
  }
  for (size_t i = 0; i < spots.size(); ++i) {
    for (int d = 0; d < kDirectionCount; ++d) {
      if (unit01(random) < 0.03f) blocked.insert({i, d});
    }
  }
  return spots;
}

TEST(CompressPartition, NeverMoreSectorsThanGreedyOnRandomCells) {
  UnitProfile unit;
  unit.maxDrop = 1.0f;
  size_t fewer = 0;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 random(seed);
    std::set<std::pair<size_t, int>> blocked;
    const std::vector<CellSpot> spots = randomSpots(random, blocked);
    const NavBuild build = compressed(linkedCells(spots, unit, blocked), unit, {0, 1});
    checkInvariants(build, {0, 1});
    checkSameReachability(build, 0);
    const size_t greedy = greedySectorCount(*build.cells, {0, 1}, CompressParams{}.maxSectorSide);
    EXPECT_LE(build.graph.sectors.size(), greedy);
    fewer += build.graph.sectors.size() < greedy;
  }
  EXPECT_GE(fewer, 10u) << "usually clearly fewer";
}

TEST(CompressPartition, SameGraphWhateverOrderTheCellsCameIn) {
  UnitProfile unit;
  unit.maxDrop = 1.0f;
  std::mt19937 random(5);
  std::set<std::pair<size_t, int>> blocked;
  std::vector<CellSpot> spots = randomSpots(random, blocked);
  const NavBuild first = compressed(linkedCells(spots, unit, blocked), unit, {0, 1});
  // The same cells and blocked steps, numbered in another order.
  std::vector<size_t> shuffled(spots.size());
  std::iota(shuffled.begin(), shuffled.end(), size_t(0));
  std::shuffle(shuffled.begin(), shuffled.end(), random);
  std::vector<size_t> newIndex(spots.size());
  std::vector<CellSpot> reordered;
  for (size_t i = 0; i < shuffled.size(); ++i) {
    newIndex[shuffled[i]] = i;
    reordered.push_back(spots[shuffled[i]]);
  }
  std::set<std::pair<size_t, int>> reorderedBlocked;
  for (const auto& [i, d] : blocked)
    reorderedBlocked.insert({newIndex[i], d});
  const NavBuild second = compressed(linkedCells(reordered, unit, reorderedBlocked), unit, {0, 1});
  EXPECT_EQ(hashGraph(first.graph), hashGraph(second.graph));
}

// Cells numbered row by row are joined in one sweep along the rows; cells
// numbered in the fill's order one step at a time (CellGrid::neighbor). Both
// give the same graph: 4 x 4 random patchworks side by side (about 20,000
// cells, so that the threads' chunks of 16,384 cells start inside columns
// and rows), on two threads.
TEST(CompressPartition, CellsNumberedRowByRowJoinAsOneStepAtATime) {
  UnitProfile unit;
  unit.maxDrop = 1.0f;
  std::mt19937 random(11);
  std::vector<CellSpot> spots;
  std::set<std::pair<size_t, int>> blocked;
  for (int patch = 0; patch < 16; ++patch) {
    std::set<std::pair<size_t, int>> patchBlocked;
    const std::vector<CellSpot> patchSpots = randomSpots(random, patchBlocked);
    for (const auto& [i, d] : patchBlocked)
      blocked.insert({spots.size() + i, d});
    for (CellSpot spot : patchSpots) {
      spot.x += 40 * (patch % 4) - 70;
      spot.z += 30 * (patch / 4) - 50;
      spots.push_back(spot);
    }
  }
  ASSERT_GT(spots.size(), 16384u);
  CompressParams params;
  params.unit = unit;
  params.surfaceOfMaterial = {0, 1};
  params.threads = 2;
  CellGrid stepByStep = linkedCells(spots, unit, blocked);
  CellGrid rowByRow = linkedCells(spots, unit, blocked);
  rowByRow.numberRowMajor();
  ASSERT_FALSE(stepByStep.numberedRowMajor());
  const NavGraph swept = compressCells(rowByRow, params);
  const NavGraph stepped = compressCells(stepByStep, params);
  EXPECT_GT(swept.sectors.size(), 1000u);
  EXPECT_EQ(swept.sectors.size(), stepped.sectors.size());
  EXPECT_EQ(swept.portals.size(), stepped.portals.size());
  EXPECT_EQ(hashGraph(swept), hashGraph(stepped));
}

// The fill and the portal ends' reaches run on threads: the .nav bytes
// (reaches included) are the same for any number.
TEST(CompressPartition, AnyThreadCountBuildsTheSameGraph) {
  Result<Level> level = loadLevel(test::assetFile("showcase.obj"));
  ASSERT_TRUE(level.ok()) << level.error();
  CollisionWorld world(level.value());
  std::vector<uint64_t> hashes;
  std::vector<std::vector<uint8_t>> bytes;
  for (const int threads : {1, 2, 5}) {
    FloodFillParams params = defaultFillParams(level.value());
    params.threads = threads;
    Result<NavBuild> build = buildNavigation(level.value(), world, params);
    ASSERT_TRUE(build.ok()) << build.error();
    EXPECT_GT(build.value().stats.reachingPortalEnds, 50u);
    hashes.push_back(hashGraph(build.value().graph));
    bytes.push_back(serializeNavGraph(build.value().graph));
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[0], hashes[2]);
  EXPECT_TRUE(bytes[0] == bytes[1]);
  EXPECT_TRUE(bytes[0] == bytes[2]);
}

// Threads test steps from a column's landing remembered for another cell: the
// landing must be the same float from any cell, or the bytes depend on which
// thread saw the column first. Slopes, stairs and ramps (terrain 1,
// dungeon.obj), box and round units; two-thread builds four times each.
TEST(CompressPartition, ThreadsBuildTheSameBytesOnSlopes) {
  std::vector<std::pair<std::string, Level>> levels;
  levels.emplace_back("terrain 1", test::terrainLevel(1, 0.0f));
  const std::string dungeon = test::sharedFile("meshes/dungeon.obj");
  if (!dungeon.empty()) {
    Result<Level> loaded = loadLevel(dungeon);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    levels.emplace_back("dungeon.obj", std::move(loaded).value());
  }
  for (const auto& [name, level] : levels) {
    const CollisionWorld world(level);
    for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
      SCOPED_TRACE(name + (shape == UnitShape::Box ? ", box" : ", round"));
      FloodFillParams params = test::detourMatchedParams(0.9f);
      params.unit.shape = shape;
      params.threads = 1;
      const Result<NavBuild> one = buildNavigation(level, world, params);
      ASSERT_TRUE(one.ok()) << one.error();
      const std::vector<uint8_t> expected = serializeNavGraph(one.value().graph);
      params.threads = 2;
      for (int run = 0; run < 4; ++run) {
        const Result<NavBuild> two = buildNavigation(level, world, params);
        ASSERT_TRUE(two.ok()) << two.error();
        EXPECT_TRUE(serializeNavGraph(two.value().graph) == expected) << "run " << run;
      }
    }
  }
}

TEST(CompressPartition, FewerSectorsThanGreedyOnRealLevels) {
  struct Case {
    std::string path;
    bool clearlyFewer;
  };
  const Case cases[] = {{test::assetFile("showcase.obj"), true},
                        {test::assetFile("funnel.obj"), false},
                        {test::sharedFile("meshes/dungeon.obj"), true}};
  for (const Case& c : cases) {
    if (c.path.empty()) continue;  // ../shared is absent
    SCOPED_TRACE(c.path);
    Result<Level> level = loadLevel(c.path);
    ASSERT_TRUE(level.ok()) << level.error();
    CollisionWorld world(level.value());
    BuildOptions options;
    options.keepCells = true;
    const FloodFillParams params = defaultFillParams(level.value());
    Result<NavBuild> build = buildNavigation(level.value(), world, params, options);
    ASSERT_TRUE(build.ok()) << build.error();
    const std::vector<uint16_t> surfaces = test::surfaceOfMaterial(level.value());
    checkInvariants(build.value(), surfaces);
    checkSameReachability(build.value(), 0);
    size_t ground = 0;
    for (const Sector& s : build.value().graph.sectors)
      ground += s.kind == SectorKind::Ground;
    const size_t greedy =
        greedySectorCount(*build.value().cells, surfaces, CompressParams{}.maxSectorSide);
    EXPECT_LE(ground, greedy);
    if (c.clearlyFewer) {
      EXPECT_LT(double(ground), 0.97 * double(greedy));
    }
  }
}

}  // namespace
}  // namespace nav
