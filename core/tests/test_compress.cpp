// Sector and portal invariants, checked cell by cell against the fill's own links.
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include "nav/nav_build.h"
#include "test_levels.h"

namespace nav {
namespace {

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

// Checks every invariant the compression promises.
void checkInvariants(const NavBuild& build) {
  ASSERT_TRUE(build.cells.has_value());
  const CellGrid& cells = *build.cells;
  const NavGraph& graph = build.graph;
  const CellSectors& sectorOf = build.cellSectors;
  ASSERT_EQ(sectorOf.size(), cells.size());

  // Every cell in exactly one sector, inside its rectangle; sector areas add up.
  size_t area = 0;
  for (const Sector& s : graph.sectors) {
    area += size_t(s.lastColumn.x - s.firstColumn.x + 1) * size_t(s.lastColumn.y - s.firstColumn.y + 1);
  }
  EXPECT_EQ(area, cells.size());
  std::set<std::tuple<uint32_t, int32_t, int32_t>> seen;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    ASSERT_LT(sectorOf[i], graph.sectors.size());
    const Sector& s = graph.sectors[sectorOf[i]];
    const Cell& c = cells[i];
    EXPECT_TRUE(c.x >= s.firstColumn.x && c.x <= s.lastColumn.x && c.z >= s.firstColumn.y &&
                c.z <= s.lastColumn.y);
    EXPECT_TRUE(seen.insert({sectorOf[i], c.x, c.z}).second) << "two cells of a sector share a column";
    EXPECT_EQ(c.material, s.material) << "sectors never mix materials";
    EXPECT_GE(c.y, s.bounds.min.y);
    EXPECT_LE(c.y, s.bounds.max.y);
    // Inside a sector, neighbours are mutually connected.
    for (int d = 0; d < kDirectionCount; ++d) {
      const int32_t nx = c.x + kDirectionDx[d], nz = c.z + kDirectionDz[d];
      const bool inside = nx >= s.firstColumn.x && nx <= s.lastColumn.x && nz >= s.firstColumn.y &&
                          nz <= s.lastColumn.y;
      if (!inside) continue;
      const uint32_t next = cells.neighbor(i, Direction(d));
      ASSERT_NE(next, kNoCell);
      EXPECT_EQ(sectorOf[next], sectorOf[i]);
      EXPECT_EQ(cells.neighbor(next, opposite(Direction(d))), i);
    }
  }

  // Portals: from adjacent sectors, sorted by source, on the shared edge.
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p)
      EXPECT_EQ(graph.portals[p].fromSector, s);
  }
  size_t portalTotal = 0;
  for (const Sector& s : graph.sectors) portalTotal += s.portalCount;
  EXPECT_EQ(portalTotal, graph.portals.size());

  const float size = cells.cellSize();
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    const Sector& from = graph.sectors[portal.fromSector];
    const Sector& to = graph.sectors[portal.toSector];
    const int d = int(portal.direction);
    // The column just past the source's side lies inside the target (which may
    // reach under or over the source: a drop off a bridge lands on a floor below it).
    const int32_t nextX = kDirectionDx[d] > 0   ? from.lastColumn.x + 1
                          : kDirectionDx[d] < 0 ? from.firstColumn.x - 1
                                                : std::max(from.firstColumn.x, to.firstColumn.x);
    const int32_t nextZ = kDirectionDz[d] > 0   ? from.lastColumn.y + 1
                          : kDirectionDz[d] < 0 ? from.firstColumn.y - 1
                                                : std::max(from.firstColumn.y, to.firstColumn.y);
    EXPECT_TRUE(nextX >= to.firstColumn.x && nextX <= to.lastColumn.x && nextZ >= to.firstColumn.y &&
                nextZ <= to.lastColumn.y)
        << "portal " << p;
    // The portal lies on the source's side.
    const float edge = kDirectionDx[d] > 0   ? from.bounds.max.x
                       : kDirectionDx[d] < 0 ? from.bounds.min.x
                       : kDirectionDz[d] > 0 ? from.bounds.max.z
                                             : from.bounds.min.z;
    const float along = kDirectionDx[d] != 0 ? portal.left.x : portal.left.z;
    EXPECT_NEAR(along, edge, 1e-4f);
    // Left really is on the left of the crossing direction (or the portal has no width).
    const glm::vec2 walk(float(kDirectionDx[d]), float(kDirectionDz[d]));
    EXPECT_LE(cross2(walk, groundOf(portal.left) - groundOf(portal.right)), 0.0f);
    if (!portal.oneWay()) {
      const Portal& back = graph.portals[portal.reverse];
      EXPECT_EQ(back.reverse, p);
      EXPECT_EQ(back.fromSector, portal.toSector);
      EXPECT_EQ(back.toSector, portal.fromSector);
      EXPECT_NEAR(glm::distance(groundOf(back.left), groundOf(portal.right)), 0.0f, 1e-4f);
    }
  }

  // Each cell step that leaves its sector is covered by a portal of matching
  // way-ness; one-way portals exist only where the cells are one-way.
  for (uint32_t i = 0; i < cells.size(); ++i) {
    for (int d = 0; d < kDirectionCount; ++d) {
      const uint32_t next = cells.neighbor(i, Direction(d));
      if (next == kNoCell || sectorOf[next] == sectorOf[i]) continue;
      const bool twoWay = cells.neighbor(next, opposite(Direction(d))) == i;
      const glm::vec3 c = cells.center(i);
      const Sector& s = graph.sectors[sectorOf[i]];
      bool covered = false;
      for (uint32_t p = s.firstPortal; p < s.firstPortal + s.portalCount; ++p) {
        const Portal& portal = graph.portals[p];
        if (portal.toSector != sectorOf[next] || int(portal.direction) != d) continue;
        const float lateral = kDirectionDx[d] != 0 ? c.z : c.x;
        const float a = kDirectionDx[d] != 0 ? portal.left.z : portal.left.x;
        const float b = kDirectionDx[d] != 0 ? portal.right.z : portal.right.x;
        if (lateral < std::min(a, b) - size * 0.01f || lateral > std::max(a, b) + size * 0.01f) continue;
        covered = true;
        EXPECT_EQ(portal.oneWay(), !twoWay);
      }
      EXPECT_TRUE(covered) << "cell " << i << " direction " << d;
    }
  }
}

// Which cells can be reached from `start`: over cell links, and over sectors and portals.
void checkSameReachability(const NavBuild& build, uint32_t start) {
  const CellGrid& cells = *build.cells;
  std::vector<bool> cellSeen(cells.size(), false);
  std::deque<uint32_t> open{start};
  cellSeen[start] = true;
  while (!open.empty()) {
    const uint32_t c = open.front();
    open.pop_front();
    for (int d = 0; d < kDirectionCount; ++d) {
      const uint32_t next = cells.neighbor(c, Direction(d));
      if (next != kNoCell && !cellSeen[next]) {
        cellSeen[next] = true;
        open.push_back(next);
      }
    }
  }
  const NavGraph& graph = build.graph;
  std::vector<bool> sectorSeen(graph.sectors.size(), false);
  std::deque<uint32_t> sectorsOpen{build.cellSectors[start]};
  sectorSeen[build.cellSectors[start]] = true;
  while (!sectorsOpen.empty()) {
    const Sector& s = graph.sectors[sectorsOpen.front()];
    sectorsOpen.pop_front();
    for (uint32_t p = s.firstPortal; p < s.firstPortal + s.portalCount; ++p) {
      const uint32_t to = graph.portals[p].toSector;
      if (!sectorSeen[to]) {
        sectorSeen[to] = true;
        sectorsOpen.push_back(to);
      }
    }
  }
  for (uint32_t i = 0; i < cells.size(); ++i)
    EXPECT_EQ(cellSeen[i], sectorSeen[build.cellSectors[i]]) << "cell " << i;
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

}  // namespace
}  // namespace nav
