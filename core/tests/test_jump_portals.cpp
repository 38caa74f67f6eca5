// Jump portals: placing them, the first-in-first-out bucket, the search taking
// them one way only, the funnel breaking at them, and their expiry.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "nav/funnel.h"
#include "nav/jump_portals.h"
#include "nav/locate.h"
#include "nav/path_manager.h"
#include "nav/search.h"
#include "smoothing.h"
#include "test_levels.h"

namespace nav {
namespace {

NavGraph chasm() {
  return test::buildGraph(test::chasmLevel());
}

JumpSpec jumpAt(float z, bool eastwards) {
  JumpSpec spec;
  spec.takeoff = {eastwards ? 9.0f : 15.0f, 0.0f, z};
  spec.landing = {eastwards ? 15.0f : 9.0f, 0.0f, z};
  spec.heading = headingOf(spec.takeoff, spec.landing);
  spec.speed = 6.0f;
  spec.airTime = 1.0f;
  return spec;
}

const glm::vec3 kWest{2.0f, 0.05f, 3.0f}, kEast{22.0f, 0.05f, 3.0f};

// The ids of the jumps a path takes, in order.
std::vector<uint32_t> jumpsTaken(const PathResult& path) {
  std::vector<uint32_t> ids;
  for (uint32_t p : path.corridor.portals) {
    if (p & kJumpPortalFlag) ids.push_back(path.corridor.jumps[p & ~kJumpPortalFlag].id);
  }
  return ids;
}

TEST(JumpPortals, TheChasmIsCrossedOnlyByJumpingAndOnlyOneWay) {
  const NavGraph graph = chasm();
  ASSERT_FALSE(graph.sectors.empty());
  EXPECT_EQ(findPath(graph, kWest, kEast).status, PathStatus::Partial);

  JumpBucket bucket;
  const Result<uint32_t> id = bucket.add(graph, jumpAt(3.0f, true));
  ASSERT_TRUE(id.ok()) << id.error();
  SearchOptions options;
  options.jumps = &bucket;
  const PathResult across = findPath(graph, kWest, kEast, options);
  ASSERT_EQ(across.status, PathStatus::Found) << across.reason;
  EXPECT_EQ(jumpsTaken(across), std::vector<uint32_t>{id.value()});
  // Walk 7 m to the takeoff, jump (1 s at 1.4 m/s is less than the 6 m flown), walk 7 m.
  EXPECT_NEAR(across.cost, 7.0f + 6.0f + 7.0f, 0.3f);

  // The funnel ends at the takeoff and starts again at the landing.
  const FunnelResult funnel = pullCorridor(graph, across.corridor);
  ASSERT_EQ(funnel.corners.size(), 4u);
  EXPECT_NEAR(funnel.corners[1].x, 9.0f, 1e-3f);
  EXPECT_NEAR(funnel.corners[2].x, 15.0f, 1e-3f);
  EXPECT_NEAR(funnel.length, 20.0f, 1e-2f);

  // Smoothing never bends across the jump: both its ends stay on the curve.
  const std::vector<glm::vec3> smooth = smoothPath(graph, across.corridor, funnel.corners);
  auto reaches = [&](float x) {
    return std::any_of(smooth.begin(), smooth.end(),
                       [x](const glm::vec3& p) { return std::abs(p.x - x) < 1e-3f; });
  };
  EXPECT_TRUE(reaches(9.0f));
  EXPECT_TRUE(reaches(15.0f));

  // One way: there is no way back.
  const PathResult back = findPath(graph, kEast, kWest, options);
  EXPECT_EQ(back.status, PathStatus::Partial);
  EXPECT_TRUE(jumpsTaken(back).empty());
}

// A takeoff or landing in the half cell past its sector's last cells, where
// the fill never tested the unit, moves onto the cells, as a query's start
// and goal do.
TEST(JumpPortals, TakeoffAndLandingStandOnTheCells) {
  const NavGraph graph = chasm();
  ASSERT_FALSE(graph.sectors.empty());
  const Location west = locateSector(graph, {9.0f, 0.05f, 3.0f});
  const Location east = locateSector(graph, {15.0f, 0.05f, 3.0f});
  ASSERT_NE(west.sector, kNoSector);
  ASSERT_NE(east.sector, kNoSector);
  const Aabb& from = graph.sectors[west.sector].bounds;
  const Aabb& to = graph.sectors[east.sector].bounds;
  const float half = 0.5f * graph.cellSize;
  JumpSpec spec = jumpAt(3.0f, true);
  // At the very edges of the two sectors facing the chasm.
  spec.takeoff.x = from.max.x - 0.01f;
  spec.landing.x = to.min.x + 0.01f;
  const Result<JumpPortal> jump = placeJump(graph, spec);
  ASSERT_TRUE(jump.ok()) << jump.error();
  EXPECT_NEAR(jump.value().portal.left.x, from.max.x - half, 1e-4f);
  EXPECT_NEAR(jump.value().portal.right.x, to.min.x + half, 1e-4f);
  EXPECT_NEAR(jump.value().portal.left.z, 3.0f, 1e-4f);
}

TEST(JumpPortals, UsedAndExpiredInOrder) {
  const NavGraph graph = chasm();
  JumpBucket bucket(2);
  SearchOptions options;
  options.jumps = &bucket;
  const glm::vec3 west{2.0f, 0.05f, 1.0f}, east{22.0f, 0.05f, 1.0f};

  const uint32_t near = bucket.add(graph, jumpAt(1.0f, true)).value();
  const uint32_t far = bucket.add(graph, jumpAt(5.0f, true)).value();
  EXPECT_EQ(jumpsTaken(findPath(graph, west, east, options)), std::vector<uint32_t>{near})
      << "the jump in line with the path wins";
  const PathResult keptPath = findPath(graph, west, east, options);

  // A third jump pushes the oldest out.
  const uint32_t back = bucket.add(graph, jumpAt(3.0f, false)).value();
  ASSERT_EQ(bucket.jumps().size(), 2u);
  EXPECT_EQ(bucket.jumps()[0].id, far);
  EXPECT_EQ(bucket.jumps()[1].id, back);
  EXPECT_EQ(jumpsTaken(findPath(graph, west, east, options)), std::vector<uint32_t>{far});
  EXPECT_EQ(jumpsTaken(findPath(graph, east, west, options)), std::vector<uint32_t>{back});

  // And a fourth pushes out the next: nothing leads east any more.
  bucket.add(graph, jumpAt(3.0f, false));
  EXPECT_EQ(findPath(graph, west, east, options).status, PathStatus::Partial);

  // A path keeps its own copy of the jumps it takes.
  bucket.clear();
  const FunnelResult funnel = pullCorridor(graph, keptPath.corridor);
  EXPECT_EQ(funnel.corners.size(), 4u);
  EXPECT_NEAR(funnel.corners[1].z, 1.0f, 1e-3f);
}

TEST(JumpPortals, RemovedByIdAndRelocatedOnARebuild) {
  const NavGraph graph = chasm();
  JumpBucket bucket(4);
  const uint32_t a = bucket.add(graph, jumpAt(1.0f, true)).value();
  const uint32_t b = bucket.add(graph, jumpAt(5.0f, true)).value();
  EXPECT_TRUE(bucket.remove(a));
  EXPECT_FALSE(bucket.remove(a));
  ASSERT_EQ(bucket.jumps().size(), 1u);
  EXPECT_EQ(bucket.jumps()[0].id, b);
  EXPECT_EQ(bucket.nextId(), b + 1);
  const uint32_t c = bucket.add(graph, jumpAt(3.0f, false)).value();
  bucket.setCapacity(1);
  ASSERT_EQ(bucket.jumps().size(), 1u);
  EXPECT_EQ(bucket.jumps()[0].id, c) << "the oldest expire";

  // On a graph with the same floors the jump stays; on an empty one it goes.
  EXPECT_EQ(bucket.relocate(chasm()), 0u);
  ASSERT_EQ(bucket.jumps().size(), 1u);
  EXPECT_EQ(bucket.jumps()[0].id, c);
  EXPECT_EQ(bucket.relocate(NavGraph{}), 1u);
  EXPECT_TRUE(bucket.jumps().empty());
}

TEST(JumpPortals, BadJumpsAreRefusedWithTheParameterNamed) {
  const NavGraph graph = chasm();
  JumpBucket bucket(3);
  auto refused = [&](JumpSpec spec, const std::string& words) {
    const Result<uint32_t> added = bucket.add(graph, spec);
    EXPECT_FALSE(added.ok());
    EXPECT_NE(added.error().find(words), std::string::npos) << added.error();
  };
  JumpSpec spec = jumpAt(3.0f, true);
  spec.takeoff.x = std::nanf("");
  refused(spec, "takeoff");
  spec = jumpAt(3.0f, true);
  spec.landing.y = INFINITY;
  refused(spec, "landing");
  spec = jumpAt(3.0f, true);
  spec.speed = 0.0f;
  refused(spec, "speed");
  spec = jumpAt(3.0f, true);
  spec.airTime = -1.0f;
  refused(spec, "air time");
  spec = jumpAt(3.0f, true);
  spec.heading = std::nanf("");
  refused(spec, "heading");
  spec = jumpAt(3.0f, true);
  spec.landing = {12.0f, 0.0f, 3.0f};  // over the chasm, 2 m from either floor
  refused(spec, "landing");
  spec = jumpAt(3.0f, true);
  spec.landing = {5.0f, 0.0f, 3.0f};
  refused(spec, "both in sector");
  EXPECT_TRUE(bucket.jumps().empty()) << "nothing was added, nothing expired";
  EXPECT_EQ(JumpBucket(0).capacity(), 1u);
}

// On a level put on a turned grid, the spec's points are the grid's; a
// refusal names the point as the level's file places it.
TEST(JumpPortals, ARefusalNamesThePointInTheFilesCoordinates) {
  Level level = test::chasmLevel();
  test::finish(level);
  const Result<Level> turned = levelOnGrid(level, 30.0f);
  ASSERT_TRUE(turned.ok()) << turned.error();
  const NavGraph graph = test::buildGraph(turned.value());
  ASSERT_TRUE(graph.gridFrame.turned());
  const glm::vec3 overTheChasm{12.0f, 0.0f, 0.5f};  // 2.5 m from the turn's centre
  JumpSpec spec = jumpAt(3.0f, true);
  spec.takeoff = graph.gridFrame.toGrid(spec.takeoff);
  spec.landing = graph.gridFrame.toGrid(overTheChasm);
  const Result<JumpPortal> placed = placeJump(graph, spec);
  ASSERT_FALSE(placed.ok());
  const std::string& error = placed.error();
  glm::vec3 named{0.0f};
  const size_t at = error.find("landing (");
  ASSERT_NE(at, std::string::npos) << error;
  ASSERT_EQ(std::sscanf(error.c_str() + at, "landing (%f, %f, %f)", &named.x, &named.y, &named.z), 3)
      << error;
  EXPECT_NEAR(named.x, overTheChasm.x, 1e-4f) << error;
  EXPECT_NEAR(named.z, overTheChasm.z, 1e-4f) << error;
}

// The manager's sliced searches see the jumps as they stood when each started.
TEST(JumpPortals, SlicedSearchesTakeJumpsLikeOneShotOnes) {
  const NavGraph graph = chasm();
  JumpBucket bucket;
  bucket.add(graph, jumpAt(1.0f, true));
  bucket.add(graph, jumpAt(5.0f, false));
  SearchOptions options;
  options.jumps = &bucket;
  PathManager manager(graph, {2, 3});
  std::vector<std::pair<glm::vec3, glm::vec3>> pairs;
  for (float z : {0.5f, 2.5f, 4.5f}) {
    pairs.push_back({{1.0f, 0.05f, z}, {23.0f, 0.05f, 5.5f - z}});
    pairs.push_back({{23.0f, 0.05f, z}, {1.0f, 0.05f, 5.5f - z}});
  }
  std::vector<PathTicket> tickets;
  for (const auto& [from, to] : pairs)
    tickets.push_back(manager.request(from, to, options));
  for (int frame = 0; frame < 1000 && manager.pending() > 0; ++frame)
    manager.update(5u);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::optional<PathResult> sliced = manager.takeResult(tickets[i]);
    ASSERT_TRUE(sliced.has_value());
    const PathResult oneShot = findPath(graph, pairs[i].first, pairs[i].second, options);
    EXPECT_EQ(sliced->status, PathStatus::Found);
    EXPECT_EQ(sliced->corridor.portals, oneShot.corridor.portals);
    EXPECT_EQ(jumpsTaken(*sliced), jumpsTaken(oneShot));
    EXPECT_EQ(jumpsTaken(oneShot).size(), 1u);
  }
}

}  // namespace
}  // namespace nav
