// The path pipeline against its stages called one by one, on the bundled
// levels: the same search, corners, ground path, curve and clearance; only the
// stages asked for run; and one answer reused over many queries gives each
// query what a fresh one would.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "expect_same.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "smoothing.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

// The bundled level's collision world, built once per level and test program.
const CollisionWorld& worldOf(const std::string& name) {
  static std::map<std::string, std::unique_ptr<CollisionWorld>> worlds;
  std::unique_ptr<CollisionWorld>& world = worlds[name];
  if (!world) {
    Result<Level> level = loadLevel(test::assetFile(name));
    EXPECT_TRUE(level.ok()) << level.error();
    world = std::make_unique<CollisionWorld>(level.ok() ? std::move(level).value() : Level{});
  }
  return *world;
}

PathStages everyStage() {
  PathStages stages;
  stages.searchTrace = stages.funnelSteps = stages.groundPath = true;
  stages.smoothed = stages.vehicleCurve = stages.clearance = true;
  return stages;
}

void expectSamePoints(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a[i], b[i]) << i;
}

// Each stage by hand, as the callers used to assemble them.
void expectAsByHand(const NavGraph& graph, const CollisionWorld& world, const test::QueryPair& pair,
                    const SearchOptions& options, const PathAnswer& answer) {
  SearchTrace trace;
  const PathResult search = findPath(graph, pair.start, pair.goal, options, &trace);
  test::expectSameResult(answer.search, search);
  EXPECT_EQ(answer.trace.events.size(), trace.events.size());
  if (search.corridor.sectors.empty()) {
    EXPECT_FALSE(answer.hasPath());
    EXPECT_TRUE(answer.funnel.corners.empty());
    EXPECT_TRUE(answer.clearance.empty());
    return;
  }
  const FunnelResult funnel = pullCorridor(graph, search.corridor, true);
  expectSamePoints(answer.funnel.corners, funnel.corners);
  EXPECT_EQ(answer.funnel.steps.size(), funnel.steps.size());
  EXPECT_EQ(answer.funnel.length, funnel.length);
  const std::vector<FunnelPortal> portals = funnelPortals(graph, search.corridor);
  EXPECT_EQ(answer.portals.size(), portals.size());
  expectSamePoints(answer.groundPath, followPortalHeights(funnel, portals));
  expectSamePoints(answer.smoothed, smoothPath(graph, search.corridor, funnel.corners));
  EXPECT_EQ(answer.clearance.size(), pathClearance(world, graph.unit, funnel.corners).size());
  const float radius = options.turningRadius.value_or(graph.unit.turningRadius);
  EXPECT_EQ(answer.vehicle.size(),
            radius > 0.0f ? vehicleCurve(funnel.corners, radius).size() : 0u);
}

TEST(PathPipeline, EveryStageAsTheStagesGiveIt) {
  for (const std::string name : {"showcase.obj", "funnel.obj"}) {
    SCOPED_TRACE(name);
    const NavBuild& build = test::bundledBuild(name);
    const CollisionWorld& world = worldOf(name);
    PathAnswer answer;
    size_t found = 0;
    for (const test::QueryPair& pair : test::randomPairs(build, 60, 7)) {
      planPath(build.graph, pair.start, pair.goal, {}, everyStage(), answer, &world);
      if (answer.search.status == PathStatus::Found) ++found;
      expectAsByHand(build.graph, world, pair, {}, answer);
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(found, 30u);
  }
}

// A turning radius given in the query gives a vehicle curve of that radius,
// even for a unit that turns on the spot.
TEST(PathPipeline, AQueryTurningRadiusGivesAVehicleCurve) {
  const NavBuild& build = test::bundledBuild("funnel.obj");
  const CollisionWorld& world = worldOf("funnel.obj");
  ASSERT_EQ(build.graph.unit.turningRadius, 0.0f);
  SearchOptions options;
  options.turningRadius = 0.5f;
  PathAnswer answer;
  const test::QueryPair pair = test::randomPairs(build, 1, 3).front();
  planPath(build.graph, pair.start, pair.goal, options, everyStage(), answer, &world);
  ASSERT_TRUE(answer.hasPath());
  expectAsByHand(build.graph, world, pair, options, answer);
  EXPECT_FALSE(answer.vehicle.empty());
  for (const CurvePiece& piece : answer.vehicle) {
    if (piece.kind == CurvePiece::Arc) {
      EXPECT_EQ(piece.radius, 0.5f);
    }
  }
}

// Only what is asked for runs; the search and the funnel always do.
TEST(PathPipeline, OnlyTheStagesAskedForRun) {
  const NavBuild& build = test::bundledBuild("showcase.obj");
  const CollisionWorld& world = worldOf("showcase.obj");
  const test::QueryPair pair = test::randomPairs(build, 1, 5).front();
  PathAnswer answer;
  planPath(build.graph, pair.start, pair.goal, {}, everyStage(), answer, &world);
  ASSERT_TRUE(answer.hasPath());
  ASSERT_FALSE(answer.trace.events.empty());
  planPath(build.graph, pair.start, pair.goal, {}, {}, answer, &world);
  ASSERT_TRUE(answer.hasPath());
  EXPECT_GE(answer.funnel.corners.size(), 2u);
  EXPECT_TRUE(answer.trace.events.empty());
  EXPECT_TRUE(answer.funnel.steps.empty());
  EXPECT_TRUE(answer.portals.empty());
  EXPECT_TRUE(answer.groundPath.empty());
  EXPECT_TRUE(answer.smoothed.empty());
  EXPECT_TRUE(answer.vehicle.empty());
  EXPECT_TRUE(answer.clearance.empty());
  // Without the level, no clearance even when asked.
  planPath(build.graph, pair.start, pair.goal, {}, everyStage(), answer, nullptr);
  EXPECT_TRUE(answer.clearance.empty());
  EXPECT_FALSE(answer.smoothed.empty());
}

// A partial path goes through the stages too: it leads as close as the unit gets.
TEST(PathPipeline, APartialPathHasItsCorners) {
  const NavGraph graph = test::buildGraph(test::chasmLevel());
  PathAnswer answer;
  planPath(graph, {2.0f, 0.0f, 3.0f}, {20.0f, 0.0f, 3.0f}, {}, everyStage(), answer);
  ASSERT_EQ(answer.search.status, PathStatus::Partial) << answer.search.reason;
  ASSERT_GE(answer.funnel.corners.size(), 2u);
  EXPECT_EQ(answer.funnel.corners.back(), answer.search.corridor.goal);
  EXPECT_FALSE(answer.groundPath.empty());
  // Off the mesh: no path, and nothing left over from the query before.
  planPath(graph, {2.0f, 0.0f, 3.0f}, {12.0f, -30.0f, 3.0f}, {}, everyStage(), answer);
  EXPECT_EQ(answer.search.status, PathStatus::GoalOffMesh);
  EXPECT_FALSE(answer.hasPath());
  EXPECT_TRUE(answer.funnel.corners.empty());
  EXPECT_TRUE(answer.groundPath.empty());
  EXPECT_TRUE(answer.smoothed.empty());
}

}  // namespace
}  // namespace nav
