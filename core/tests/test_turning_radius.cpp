// The turning-radius filter (path_solver.cpp, PathSolver::turn): a vehicle
// skips a portal when the turn onto it needs a longer tangent than the
// straights on either side. Its heading at the start is free: a start that
// lands a few centimetres from its sector's portal, as one snapped onto a
// sliver sector does, must not commit it to the direction of that tiny first
// stretch and refuse every turn after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"

namespace nav {
namespace {

uint32_t addSector(NavGraph& graph, glm::vec2 min, glm::vec2 max) {
  Sector sector{};
  sector.bounds.min = {min.x, 0.0f, min.y};
  sector.bounds.max = {max.x, 0.0f, max.y};
  sector.kind = SectorKind::Ground;
  sector.waypath = kNoWaypath;
  graph.sectors.push_back(sector);
  return uint32_t(graph.sectors.size() - 1);
}

// Both ways over one edge; `left` and `right` as seen going `direction`.
void addWalkPortals(NavGraph& graph, uint32_t from, uint32_t to, glm::vec3 left, glm::vec3 right,
                    Direction direction, Direction back) {
  const uint32_t there = uint32_t(graph.portals.size());
  graph.portals.push_back({from, to, left, right, direction, PortalKind::Walk, 0, there + 1});
  graph.portals.push_back({to, from, right, left, back, PortalKind::Walk, 0, there});
}

// Cells of 0.3 m. A road, x -6..4.2 and z 0..20, runs south in two sectors
// (split at z 10: the goal is no portal, so a turn is judged only on the way
// to one). North of it a yard, split into a sliver one cell wide (x 0.6..0.9)
// and the rest (x 0.9..4.2), both z 20..21.8. A start just inside the
// sliver's west edge, bound south-west, first crosses into the road at the
// sliver's one-cell portal (x 0.75): 0.18 m, east of south, then turns by
// about 70 degrees towards the goal.
NavGraph sliverYard() {
  NavGraph graph;
  graph.cellSize = 0.3f;
  const uint32_t north = addSector(graph, {-6.0f, 10.0f}, {4.2f, 20.0f});
  const uint32_t south = addSector(graph, {-6.0f, 0.0f}, {4.2f, 10.0f});
  const uint32_t sliver = addSector(graph, {0.6f, 20.0f}, {0.9f, 21.8f});
  const uint32_t yard = addSector(graph, {0.9f, 20.0f}, {4.2f, 21.8f});
  // Walking -z, left is -x.
  addWalkPortals(graph, north, south, {-5.85f, 0, 10}, {4.05f, 0, 10}, Direction::MinusZ,
                 Direction::PlusZ);
  addWalkPortals(graph, sliver, north, {0.75f, 0, 20}, {0.75f, 0, 20}, Direction::MinusZ,
                 Direction::PlusZ);
  addWalkPortals(graph, yard, north, {1.05f, 0, 20}, {4.05f, 0, 20}, Direction::MinusZ,
                 Direction::PlusZ);
  // Walking +x, left is -z.
  addWalkPortals(graph, sliver, yard, {0.9f, 0, 20.15f}, {0.9f, 0, 21.65f}, Direction::PlusX,
                 Direction::MinusX);
  sortPortalsBySource(graph);
  graph.bounds = {{-6.0f, 0.0f, 0.0f}, {4.2f, 0.0f, 21.8f}};
  return graph;
}

TEST(TurningRadius, AStartInASliverSectorDoesNotFixTheHeading) {
  const NavGraph graph = sliverYard();
  const glm::vec3 start{0.6f, 0.05f, 20.1f}, goal{-5.0f, 0.05f, 1.0f};
  SearchOptions walker;
  const PathResult walked = findPath(graph, start, goal, walker);
  ASSERT_EQ(walked.status, PathStatus::Found);
  ASSERT_EQ(walked.corridor.sectors.front(), 2u) << "the start stands in the sliver";
  for (float radius : {1.0f, 5.0f, 10.0f}) {
    SCOPED_TRACE(testing::Message() << "radius " << radius);
    SearchOptions vehicle;
    vehicle.turningRadius = radius;
    const PathResult driven = findPath(graph, start, goal, vehicle);
    EXPECT_EQ(driven.status, PathStatus::Found) << driven.reason;
  }
}

// Still refused: a real turn after a long first stretch (the 4 m wide bay
// round a wall's end; see also SearchFilter.VehiclesSkipTurnsSharperThanTheirRadius).
TEST(TurningRadius, ALongFirstStretchStillFixesTheHeading) {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0, "floor");
  test::addBox(level, Aabb{{-1, 0, 4.5f}, {16, 2.5f, 5.5f}}, "wall");
  level.settings.seeds = {{1, 0.05f, 1}};
  const NavGraph graph = test::buildGraph(level);
  SearchOptions truck;
  truck.turningRadius = 2.5f;
  const PathResult blocked = findPath(graph, {2, 0.05f, 2}, {2, 0.05f, 8}, truck);
  EXPECT_EQ(blocked.status, PathStatus::Partial);
  EXPECT_NE(blocked.reason.find("sharper turn"), std::string::npos) << blocked.reason;
}

// The route: the showcase's car, from just off the plaza's edge
// (snapped onto a sector's edge 0.18 m from its portal) down the road.
TEST(TurningRadius, ShowcaseCarRouteDownTheRoad) {
  Result<Level> level = loadLevel(test::assetFile("showcase.obj"));
  ASSERT_TRUE(level.ok()) << level.error();
  const UnitProfile* car = nullptr;
  for (const UnitProfile& unit : level.value().settings.units)
    if (unit.name == "car") car = &unit;
  ASSERT_NE(car, nullptr);
  ASSERT_EQ(car->turningRadius, 5.0f);
  const CollisionWorld world(level.value());
  Result<NavBuild> build =
      buildNavigation(level.value(), world, fillParamsFor(level.value(), *car));
  ASSERT_TRUE(build.ok()) << build.error();
  const NavGraph& graph = build.value().graph;
  const glm::vec3 from{20, 0.05f, 24}, to{20, 0.05f, 3};
  const PathResult route = findPath(graph, from, to);
  EXPECT_EQ(route.status, PathStatus::Found) << route.reason;
  for (float radius : {1.0f, 2.0f, 5.0f}) {
    SearchOptions options;
    options.turningRadius = radius;
    const PathResult other = findPath(graph, from, to, options);
    EXPECT_EQ(other.status, PathStatus::Found) << "radius " << radius << ": " << other.reason;
  }
}

}  // namespace
}  // namespace nav
