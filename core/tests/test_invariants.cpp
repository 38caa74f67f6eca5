#include "test_invariants.h"

#include <gtest/gtest.h>

#include "nav/graph_check.h"
#include "nav/portal_ends.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>

namespace nav::test {

std::vector<bool> reachableCells(const CellGrid& cells, uint32_t start) {
  std::vector<bool> cellSeen(cells.size(), false);
  std::deque<uint32_t> open{start};
  cellSeen[start] = true;
  while (!open.empty()) {
    const uint32_t c = open.front();
    open.pop_front();
    for (int d = 0; d < kDirectionCount; ++d) {
      // A step, or a drop over more than one column (a fall).
      uint32_t next = cells.neighbor(c, Direction(d));
      if (const FallLink* fall = next == kNoCell ? cells.fallFrom(c, Direction(d)) : nullptr)
        next = fall->to;
      if (next != kNoCell && !cellSeen[next]) {
        cellSeen[next] = true;
        open.push_back(next);
      }
    }
  }
  return cellSeen;
}

std::vector<uint16_t> surfaceOfMaterial(const Level& level) {
  return materialSurfaceIndices(level.settings, level.materials, surfaceTable(level.settings));
}

void checkInvariants(const NavBuild& build, const std::vector<uint16_t>& surfaceOfMaterial) {
  ASSERT_TRUE(build.cells.has_value());
  const CellGrid& cells = *build.cells;
  const NavGraph& graph = build.graph;
  const CellSectors& sectorOf = build.cellSectors;
  ASSERT_EQ(sectorOf.size(), cells.size());

  // Every cell in exactly one sector, inside its rectangle; sector areas add up.
  size_t area = 0;
  for (const Sector& s : graph.sectors) {
    if (s.kind != SectorKind::Ground) continue;
    area +=
        size_t(s.lastColumn.x - s.firstColumn.x + 1) * size_t(s.lastColumn.y - s.firstColumn.y + 1);
  }
  EXPECT_EQ(area, cells.size());
  std::set<std::tuple<uint32_t, int32_t, int32_t>> seen;
  for (uint32_t i = 0; i < cells.size(); ++i) {
    ASSERT_LT(sectorOf[i], graph.sectors.size());
    const Sector& s = graph.sectors[sectorOf[i]];
    const Cell& c = cells[i];
    EXPECT_TRUE(c.x >= s.firstColumn.x && c.x <= s.lastColumn.x && c.z >= s.firstColumn.y &&
                c.z <= s.lastColumn.y);
    EXPECT_TRUE(seen.insert({sectorOf[i], c.x, c.z}).second)
        << "two cells of a sector share a column";
    if (!surfaceOfMaterial.empty()) {
      EXPECT_EQ(surfaceOfMaterial.at(c.material), s.surface) << "sectors never mix surfaces";
    }
    EXPECT_EQ(s.kind, SectorKind::Ground);
    EXPECT_GE(c.y, s.bounds.min.y);
    EXPECT_LE(c.y, s.bounds.max.y);
    // The sector's ground at every cell centre is the cell's: its plane within
    // 5 mm, or its stored heights within their step.
    const glm::vec3 center = cells.center(i);
    EXPECT_LE(std::abs(graph.heightAt(s, center.x, center.z) - c.y), 0.005f + 1e-4f);
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

  // Everything a .nav reader demands (indices, ranges, portal order) holds.
  const std::optional<std::string> unsound = checkNavGraph(graph, "build");
  EXPECT_FALSE(unsound.has_value()) << *unsound;

  // Portals: from adjacent sectors, sorted by source, on the shared edge.
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    const Sector& sector = graph.sectors[s];
    for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p)
      EXPECT_EQ(graph.portals[p].fromSector, s);
  }
  size_t portalTotal = 0;
  for (const Sector& s : graph.sectors)
    portalTotal += s.portalCount;
  EXPECT_EQ(portalTotal, graph.portals.size());

  const float size = cells.cellSize();
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Walk) continue;
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
    EXPECT_TRUE(nextX >= to.firstColumn.x && nextX <= to.lastColumn.x &&
                nextZ >= to.firstColumn.y && nextZ <= to.lastColumn.y)
        << "portal " << p;
    // The portal lies on the source's side.
    const float edge = kDirectionDx[d] > 0   ? from.bounds.max.x
                       : kDirectionDx[d] < 0 ? from.bounds.min.x
                       : kDirectionDz[d] > 0 ? from.bounds.max.z
                                             : from.bounds.min.z;
    const float along = kDirectionDx[d] != 0 ? portal.left.x : portal.left.z;
    EXPECT_NEAR(along, edge, 1e-4f);
    // Left really is on the left of the crossing direction (or the portal has no width).
    const glm::vec2 walk{float(kDirectionDx[d]), float(kDirectionDz[d])};
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
        if (portal.kind != PortalKind::Walk || portal.toSector != sectorOf[next] ||
            int(portal.direction) != d)
          continue;
        const float lateral = kDirectionDx[d] != 0 ? c.z : c.x;
        const float a = kDirectionDx[d] != 0 ? portal.left.z : portal.left.x;
        const float b = kDirectionDx[d] != 0 ? portal.right.z : portal.right.x;
        if (lateral < std::min(a, b) - size * 0.01f || lateral > std::max(a, b) + size * 0.01f)
          continue;
        covered = true;
        EXPECT_EQ(portal.oneWay(), !twoWay);
      }
      EXPECT_TRUE(covered) << "cell " << i << " direction " << d;
    }
  }

  // The gate points kept with the graph (once its indexes are built) are the
  // ones its portals give now.
  if (graph.gatePoints.empty()) return;
  ASSERT_EQ(graph.gatePoints.size(), graph.portals.size());
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    if (graph.portals[p].kind != PortalKind::Walk) continue;
    for (const bool left : {true, false}) {
      for (const bool entering : {false, true}) {
        EXPECT_EQ(gatePoint(graph, p, left, entering),
                  computedGatePoint(graph, graph.portals[p], left, entering))
            << "portal " << p;
      }
    }
  }
}

void checkSameReachability(const NavBuild& build, uint32_t start) {
  const std::vector<bool> cellSeen = reachableCells(*build.cells, start);
  const CellGrid& cells = *build.cells;
  const NavGraph& graph = build.graph;
  std::vector<bool> sectorSeen(graph.sectors.size(), false);
  std::deque<uint32_t> sectorsOpen{build.cellSectors[start]};
  sectorSeen[build.cellSectors[start]] = true;
  while (!sectorsOpen.empty()) {
    const Sector& s = graph.sectors[sectorsOpen.front()];
    sectorsOpen.pop_front();
    for (uint32_t p = s.firstPortal; p < s.firstPortal + s.portalCount; ++p) {
      // Cells know nothing of devices and waypaths: compare walking only.
      if (graph.portals[p].kind != PortalKind::Walk) continue;
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

}  // namespace nav::test
