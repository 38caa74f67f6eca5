// The debugger's crowd without a window: agents stand on the graph's ground,
// the same seed places them the same way, every agent gets a path through the
// shared PathManager, walks it no faster than its speed and stays on its route,
// and the crowd follows a change of graph (or its absence) without keeping the
// old one.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "nav/collision.h"
#include "nav/crowd.h"
#include "nav/locate.h"
#include "nav/nav_build.h"
#include "nav/navmesh_graph.h"

namespace {

using namespace nav;
using std::chrono::microseconds;

std::shared_ptr<const NavBuild> buildLevel(const char* name) {
  Result<Level> level = loadLevel(std::string(NAVSCOPE_ASSETS_DIR) + "/" + name);
  if (!level) return nullptr;
  const CollisionWorld world(level.value());
  Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()));
  if (!build) return nullptr;
  return std::make_shared<const NavBuild>(std::move(build).value());
}

const std::shared_ptr<const NavBuild>& showcase() {
  static const std::shared_ptr<const NavBuild> build = buildLevel("showcase.obj");
  return build;
}

/// Distance from p to the nearest point of the polyline.
float distanceToPolyline(const glm::vec3& p, const std::vector<glm::vec3>& line) {
  float best = line.empty() ? 1e9f : glm::length(p - line.front());
  for (size_t i = 0; i + 1 < line.size(); ++i) {
    const glm::vec3 a = line[i], ab = line[i + 1] - line[i];
    const float lengthSquared = glm::dot(ab, ab);
    const float t =
        lengthSquared > 0.0f ? glm::clamp(glm::dot(p - a, ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
    best = std::min(best, glm::length(p - (a + ab * t)));
  }
  return best;
}

/// Runs frames of 1/60 s until every agent has had a path (at most `frames`).
int framesUntilAllHavePaths(Crowd& crowd, int frames) {
  for (int frame = 0; frame < frames; ++frame) {
    if (crowd.totals().agentsWithPath == crowd.agents().size()) return frame;
    crowd.update(1.0f / 60.0f, microseconds(1000));
  }
  return frames;
}

TEST(Crowd, SpawnsOnGroundSectorsTheSameWayForTheSameSeed) {
  ASSERT_TRUE(showcase());
  const NavGraph& graph = showcase()->graph;
  Crowd first, again, other;
  for (Crowd* crowd : {&first, &again, &other})
    crowd->setBuild(showcase());
  first.spawn(kDefaultCrowdAgents, 7);
  again.spawn(kDefaultCrowdAgents, 7);
  other.spawn(kDefaultCrowdAgents, 8);
  ASSERT_EQ(first.agents().size(), 21u);
  ASSERT_EQ(again.agents().size(), 21u);
  size_t moved = 0;
  for (size_t i = 0; i < first.agents().size(); ++i) {
    const Agent& agent = first.agents()[i];
    EXPECT_EQ(agent.position, again.agents()[i].position);
    EXPECT_EQ(agent.goal, again.agents()[i].goal);
    moved += agent.position != other.agents()[i].position ? 1 : 0;
    for (const glm::vec3& point : {agent.position, agent.goal}) {
      const Location location = locateSector(graph, point);
      ASSERT_NE(location.sector, kNoSector) << point.x << " " << point.y << " " << point.z;
      EXPECT_EQ(graph.sectors[location.sector].kind, SectorKind::Ground);
      EXPECT_NEAR(location.point.y, point.y, 1e-3f);
    }
    EXPECT_EQ(agent.state, AgentState::Requested);
  }
  EXPECT_EQ(moved, first.agents().size()) << "another seed places every agent elsewhere";
  EXPECT_EQ(first.pendingRequests(), 21u);
}

TEST(Crowd, EveryAgentGetsAPathAndWalksItNoFasterThanItsSpeed) {
  ASSERT_TRUE(showcase());
  Crowd crowd;
  crowd.setBuild(showcase());
  crowd.spawn(kDefaultCrowdAgents, 1);
  // Each update makes progress, so a bounded number of frames always suffices.
  EXPECT_LT(framesUntilAllHavePaths(crowd, 2000), 2000);
  EXPECT_EQ(crowd.totals().agentsWithPath, 21u);
  EXPECT_GE(crowd.solverTime().frames, 1u);
  EXPECT_GT(crowd.solverTime().max, 0.0f);

  // Two seconds of walking: each agent keeps to the route it was given (or
  // has just been given a new one at its end), and none outruns its speed.
  std::vector<float> walkedBefore;
  for (const Agent& agent : crowd.agents())
    walkedBefore.push_back(agent.walked);
  const double totalBefore = crowd.totals().walked;
  constexpr int kFrames = 120;
  constexpr float kStep = 1.0f / 60.0f;
  for (int frame = 0; frame < kFrames; ++frame) {
    crowd.update(kStep, microseconds(1000));
    for (const Agent& agent : crowd.agents()) {
      if (agent.state != AgentState::Walking) continue;
      std::vector<glm::vec3> route(agent.route.begin(), agent.route.end());
      EXPECT_LT(distanceToPolyline(agent.position, route), 0.01f);
    }
  }
  const float limit = crowd.speed() * kStep * kFrames + 1e-3f;
  for (size_t i = 0; i < crowd.agents().size(); ++i) {
    EXPECT_LE(crowd.agents()[i].walked - walkedBefore[i], limit) << "agent " << i;
  }
  EXPECT_GT(crowd.totals().walked, totalBefore + 21 * 0.5 * limit)
      << "most agents walk most of the time";
  EXPECT_EQ(crowd.counts().stuck, 0u);
}

// On a navigation mesh's polygons: agents stand inside the polygons (not
// just their boxes), in each polygon about as often as its area says, and
// every one gets a path and walks it.
TEST(Crowd, OnANavMeshAgentsStandInsideThePolygonsAndWalk) {
  Result<Level> level = loadLevel(NAVSCOPE_ASSETS_DIR "/navmesh_plaza.obj");
  ASSERT_TRUE(level) << level.error();
  Result<NavMeshBuild> mesh = buildNavMeshGraph(level.value(), navMeshParamsFor(level.value()));
  ASSERT_TRUE(mesh) << mesh.error();
  const auto build = std::make_shared<const NavBuild>(asNavBuild(std::move(mesh).value()));
  const NavGraph& graph = build->graph;
  Crowd crowd;
  crowd.setBuild(build);
  crowd.spawn(kMaxCrowdAgents, 3);
  ASSERT_EQ(crowd.agents().size(), size_t(kMaxCrowdAgents));
  // The triangles of the last row fill half their boxes: points drawn in the
  // boxes would land outside one in four times.
  size_t inTriangles = 0;
  double triangleArea = 0.0, totalArea = 0.0;
  for (const Sector& sector : graph.sectors) {
    totalArea += graph.groundArea(sector);
    if (sector.cornerCount == 3) triangleArea += graph.groundArea(sector);
  }
  for (const Agent& agent : crowd.agents()) {
    const Location location = locateSector(graph, agent.position);
    ASSERT_NE(location.sector, kNoSector);
    const Sector& sector = graph.sectors[location.sector];
    EXPECT_TRUE(graph.contains(sector, agent.position.x, agent.position.z));
    EXPECT_NEAR(location.point.y, agent.position.y, 1e-3f);
    inTriangles += sector.cornerCount == 3 ? 1 : 0;
  }
  const double expected = double(kMaxCrowdAgents) * triangleArea / totalArea;
  EXPECT_NEAR(double(inTriangles), expected, 4.0 * std::sqrt(expected));
  EXPECT_LT(framesUntilAllHavePaths(crowd, 4000), 4000);
  for (int frame = 0; frame < 60; ++frame)
    crowd.update(1.0f / 60.0f, microseconds(1000));
  EXPECT_EQ(crowd.counts().stuck, 0u);
  EXPECT_GT(crowd.totals().walked, 0.0);
}

// The same crowd on the funnel level (one surface cost) solved with the exact
// search: every agent gets a path, and none is longer than the crossing-point one.
TEST(Crowd, ExactSearchesGiveNoLongerRoutes) {
  const std::shared_ptr<const NavBuild> funnel = buildLevel("funnel.obj");
  ASSERT_TRUE(funnel);
  Crowd crossing, exact;
  SearchOptions exactOptions;
  exactOptions.portalPoint = PortalPoint::Exact;
  exact.setSearchOptions(exactOptions);
  for (Crowd* crowd : {&crossing, &exact}) {
    crowd->setBuild(funnel);
    crowd->spawn(kDefaultCrowdAgents, 3);
    EXPECT_LT(framesUntilAllHavePaths(*crowd, 2000), 2000);
  }
  auto groundLength = [](const std::vector<glm::vec3>& route) {
    float length = 0.0f;
    for (size_t i = 1; i < route.size(); ++i)
      length += glm::distance(groundOf(route[i - 1]), groundOf(route[i]));
    return length;
  };
  size_t compared = 0;
  for (size_t i = 0; i < exact.agents().size(); ++i) {
    const Agent &a = exact.agents()[i], &b = crossing.agents()[i];
    // Agents still on their first goal walk the route first found for it.
    if (a.goal != b.goal || a.state != AgentState::Walking || b.state != AgentState::Walking)
      continue;
    ++compared;
    EXPECT_LE(groundLength(a.route), groundLength(b.route) + 1e-3f) << "agent " << i;
  }
  EXPECT_GE(compared, 15u);
}

TEST(Crowd, ArrivingAgentsPickNewGoalsAndAskAgain) {
  ASSERT_TRUE(showcase());
  Crowd crowd;
  crowd.setBuild(showcase());
  crowd.setSpeed(50.0f);
  crowd.spawn(5, 3);
  // 50 m/s crosses the 40 m level in about a second: ten seconds mean several goals each.
  for (int frame = 0; frame < 600; ++frame)
    crowd.update(1.0f / 60.0f, microseconds(1000));
  EXPECT_GE(crowd.totals().found + crowd.totals().partial, 5u * 3u);
  for (const Agent& agent : crowd.agents())
    EXPECT_GE(agent.paths, 2u);
}

TEST(Crowd, FollowsAChangeOfGraphAndDropsTheOldOne) {
  ASSERT_TRUE(showcase());
  std::shared_ptr<const NavBuild> funnel = buildLevel("funnel.obj");
  ASSERT_TRUE(funnel);
  const std::weak_ptr<const NavBuild> watched = funnel;
  Crowd crowd;
  crowd.setBuild(funnel);
  crowd.spawn(10, 2);
  crowd.update(0.1f, microseconds(1000));
  ASSERT_EQ(crowd.agents().size(), 10u);

  // A new graph: the same crowd again, on it, and the old graph is let go.
  const uint64_t revision = crowd.spawnRevision();
  crowd.setBuild(showcase());
  funnel.reset();
  EXPECT_TRUE(watched.expired()) << "the crowd must not keep the previous graph";
  EXPECT_GT(crowd.spawnRevision(), revision);
  ASSERT_EQ(crowd.agents().size(), 10u);
  for (const Agent& agent : crowd.agents())
    EXPECT_NE(locateSector(showcase()->graph, agent.position).sector, kNoSector);
  EXPECT_LT(framesUntilAllHavePaths(crowd, 2000), 2000);

  // No graph: no agents, but the crowd comes back with the next one.
  crowd.setBuild(nullptr);
  EXPECT_TRUE(crowd.agents().empty());
  EXPECT_EQ(crowd.pendingRequests(), 0u);
  crowd.update(0.1f, microseconds(1000));
  crowd.setBuild(showcase());
  EXPECT_EQ(crowd.agents().size(), 10u);

  crowd.clear();
  EXPECT_TRUE(crowd.agents().empty());
  EXPECT_FALSE(crowd.active());
  crowd.setBuild(nullptr);
  crowd.setBuild(showcase());
  EXPECT_TRUE(crowd.agents().empty()) << "a cleared crowd stays cleared";
}

TEST(Crowd, SpawnBeforeAnyGraphWaitsForOne) {
  ASSERT_TRUE(showcase());
  Crowd crowd;
  crowd.spawn(4, 1);
  EXPECT_TRUE(crowd.active());
  EXPECT_TRUE(crowd.agents().empty());
  EXPECT_FALSE(crowd.notice().empty());
  crowd.update(0.1f, microseconds(1000));
  crowd.setBuild(showcase());
  EXPECT_EQ(crowd.agents().size(), 4u);
  EXPECT_TRUE(crowd.notice().empty());
}

TEST(Crowd, AGraphWithoutSectorsGetsANoticeAndNoAgents) {
  auto empty = std::make_shared<NavBuild>();
  Crowd crowd;
  crowd.setBuild(empty);
  crowd.spawn(21, 1);
  EXPECT_TRUE(crowd.agents().empty());
  EXPECT_NE(crowd.notice().find("no ground sectors"), std::string::npos) << crowd.notice();
  crowd.update(0.1f, microseconds(1000));
  EXPECT_EQ(crowd.solverTime().frames, 0u);
}

TEST(Crowd, CountsAreClampedAndBadSpeedsIgnored) {
  ASSERT_TRUE(showcase());
  Crowd crowd;
  crowd.setBuild(showcase());
  crowd.spawn(0, 1);
  EXPECT_EQ(crowd.agents().size(), 1u);
  crowd.spawn(100000, 1);
  EXPECT_EQ(crowd.agents().size(), kMaxCrowdAgents);
  crowd.setSpeed(2.0f);
  crowd.setSpeed(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(crowd.speed(), 2.0f);
  crowd.setSpeed(-1.0f);
  EXPECT_GT(crowd.speed(), 0.0f);
}

TEST(Crowd, SolverHistoryKeepsTheLastFramesInOrder) {
  ASSERT_TRUE(showcase());
  Crowd crowd;
  crowd.setBuild(showcase());
  crowd.spawn(3, 1);
  for (size_t frame = 0; frame < kSolverHistoryFrames + 17; ++frame)
    crowd.update(1.0f / 60.0f, microseconds(1000));
  EXPECT_EQ(crowd.solverHistory().size(), kSolverHistoryFrames);
  EXPECT_EQ(crowd.solverHistoryStart(), 17u);
  EXPECT_EQ(crowd.frames(), kSolverHistoryFrames + 17);
  const SolverTimeSummary summary = crowd.solverTime();
  // The newest frame sits just before the oldest in the ring.
  EXPECT_EQ(summary.last, crowd.solverHistory()[16]);
  EXPECT_LE(summary.mean, summary.max);
}

}  // namespace
