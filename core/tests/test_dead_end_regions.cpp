// Dead-end regions checked against brute force: every region a sector heads
// is exactly the part of its island that removing the sector it hangs off
// cuts away, holding exactly the surfaces, waypaths and devices found there,
// and every portal from that sector into the region enters it.
#include <gtest/gtest.h>

#include "nav/dead_end_regions.h"
#include "nav/nav_graph.h"
#include "test_levels.h"

namespace nav {
namespace {

// Returns how many regions the graph has.
size_t expectRegionsAreCutAway(const NavGraph& graph) {
  const DeadEndRegions& regions = graph.deadEnds;
  size_t count = 0;
  for (uint32_t head = 0; head < graph.sectors.size(); ++head) {
    const uint32_t off = regions.hangsOff(head);
    if (off == kNoSector) continue;
    ++count;
    const std::vector<bool> cut = test::sectorsReached(graph, head, off);
    RegionContents expected;
    for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
      EXPECT_EQ(regions.holds(head, s), bool(cut[s])) << "head " << head << ", sector " << s;
      if (!cut[s]) continue;
      const Sector& sector = graph.sectors[s];
      if (sector.kind == SectorKind::Waypath) expected.waypaths = true;
      if (sector.kind != SectorKind::Waypath)
        expected.surfaces |= uint64_t(1) << std::min<uint32_t>(sector.surface, 63);
      for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p)
        expected.devices = expected.devices || graph.portals[p].kind == PortalKind::Device;
    }
    EXPECT_FALSE(cut[off]);
    EXPECT_EQ(regions.contents(head).surfaces, expected.surfaces) << "head " << head;
    EXPECT_EQ(regions.contents(head).waypaths, expected.waypaths) << "head " << head;
    EXPECT_EQ(regions.contents(head).devices, expected.devices) << "head " << head;
  }
  // A portal enters the region it leads into from the sector the region hangs off.
  for (uint32_t p = 0; p < graph.portals.size(); ++p) {
    const Portal& portal = graph.portals[p];
    uint32_t expected = kNoSector;
    for (uint32_t head = 0; head < graph.sectors.size(); ++head) {
      if (regions.hangsOff(head) == portal.fromSector && regions.holds(head, portal.toSector))
        expected = head;
    }
    EXPECT_EQ(regions.regionEntered(p), expected) << "portal " << p;
  }
  return count;
}

TEST(DeadEndRegions, AreWhatRemovingTheirSectorCutsAway) {
  size_t regions = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE(seed);
    NavGraph graph = test::randomSectorGraph(seed, 0.25f);
    graph.deadEnds = DeadEndRegions(graph);
    regions += expectRegionsAreCutAway(graph);
  }
  EXPECT_GT(regions, 1000u);
}

// In a tree every sector but the first of its island heads a region.
TEST(DeadEndRegions, EverySubtreeOfATreeHangs) {
  NavGraph graph;
  graph.sectors.resize(7);
  for (uint32_t s = 1; s < 7; ++s) {
    Portal portal{};
    portal.fromSector = (s - 1) / 2;
    portal.toSector = s;
    portal.reverse = kNoPortal;
    graph.portals.push_back(portal);
  }
  sortPortalsBySource(graph);
  graph.deadEnds = DeadEndRegions(graph);
  EXPECT_EQ(graph.deadEnds.hangsOff(0), kNoSector);
  for (uint32_t s = 1; s < 7; ++s)
    EXPECT_EQ(graph.deadEnds.hangsOff(s), (s - 1) / 2) << s;
  EXPECT_EQ(expectRegionsAreCutAway(graph), 6u);
}

TEST(DeadEndRegions, OnBuiltLevels) {
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    SCOPED_TRACE(name);
    Result<Level> level = loadLevel(test::assetFile(name));
    ASSERT_TRUE(level.ok()) << level.error();
    EXPECT_GT(expectRegionsAreCutAway(test::buildGraph(std::move(level).value())), 0u);
  }
  const std::string dungeon = test::sharedFile("meshes/dungeon.obj");
  if (dungeon.empty()) GTEST_SKIP() << "no shared dungeon mesh";
  Result<Level> level = loadLevel(dungeon);
  ASSERT_TRUE(level.ok()) << level.error();
  EXPECT_GT(expectRegionsAreCutAway(test::buildGraph(std::move(level).value())), 10u);
}

}  // namespace
}  // namespace nav
