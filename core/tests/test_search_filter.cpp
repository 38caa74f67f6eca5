// The search filter on built levels: surface costs and exclusions, waypath
// bias, one-way and one-kind waypaths, device costs, and the funnel's legs.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"

namespace nav {
namespace {

struct Built {
  Level level;
  NavGraph graph;
};

Built build(Level level) {
  test::finish(level);
  CollisionWorld world(level);
  Result<NavBuild> built = buildNavigation(level, world, fillParamsFor(level, UnitProfile{}));
  EXPECT_TRUE(built.ok()) << built.error();
  EXPECT_TRUE(built.value().stats.warnings.empty());
  return {std::move(level), built ? std::move(built).value().graph : NavGraph{}};
}

bool crossesSurface(const NavGraph& graph, const PathResult& path, const std::string& name) {
  for (uint32_t s : path.corridor.sectors) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind == SectorKind::Ground && graph.surfaces[sector.surface].name == name)
      return true;
  }
  return false;
}

bool ridesWaypath(const NavGraph& graph, const PathResult& path) {
  for (uint32_t s : path.corridor.sectors) {
    if (graph.sectors[s].kind == SectorKind::Waypath) return true;
  }
  return false;
}

// A 20 x 10 floor with a lava strip at x 8..12 leaving a gap at z 8..10;
// optionally a wall closing the gap.
Level lavaField(bool closeTheGap) {
  Level level;
  test::addFloor(level, 0, 0, 8, 10, 0, "floor");
  test::addFloor(level, 12, 0, 20, 10, 0, "floor");
  test::addFloor(level, 8, 0, 12, 8, 0, "lava");
  test::addFloor(level, 8, 8, 12, 10, 0, "floor");
  if (closeTheGap) test::addBox(level, Aabb{{8, 0, 8.2f}, {12, 2.5f, 10.5f}}, "wall");
  level.settings.seeds = {{1, 0.05f, 1}};
  return level;
}

TEST(SearchFilter, SurfaceCostsAndExclusions) {
  const Built field = build(lavaField(false));
  const glm::vec3 from{2, 0.05f, 2}, to{18, 0.05f, 2};
  const PathResult around = findPath(field.graph, from, to);
  ASSERT_EQ(around.status, PathStatus::Found);
  EXPECT_FALSE(crossesSurface(field.graph, around, "lava")) << "lava costs 25 a metre";
  EXPECT_GT(around.cost, 18.0f);

  SearchOptions cheapLava;
  cheapLava.filter.surfaceCosts["lava"] = 1.0f;
  const PathResult across = findPath(field.graph, from, to, cheapLava);
  ASSERT_EQ(across.status, PathStatus::Found);
  EXPECT_TRUE(crossesSurface(field.graph, across, "lava"));
  EXPECT_NEAR(across.cost, 16.0f, 0.5f) << "about the straight line";

  const Built closed = build(lavaField(true));
  SearchOptions noLava;
  noLava.filter.excludedSurfaces = {"lava"};
  const PathResult blocked = findPath(closed.graph, from, to, noLava);
  EXPECT_EQ(blocked.status, PathStatus::Partial);
  EXPECT_NE(blocked.reason.find("'lava'"), std::string::npos) << blocked.reason;
  EXPECT_EQ(findPath(closed.graph, from, to).status, PathStatus::Found) << "costly, not closed";
}

// The solver keeps its surface costs from query to query while nothing they
// come from changes: a graph's surface table changed in place must be seen.
TEST(SearchFilter, OneSolverSeesSurfacesChangedInPlace) {
  Built field = build(lavaField(false));
  NavGraph& graph = field.graph;
  const glm::vec3 from{2, 0.05f, 2}, to{18, 0.05f, 2};
  const auto lava = std::find_if(graph.surfaces.begin(), graph.surfaces.end(),
                                 [](const SurfaceSpec& s) { return s.name == "lava"; });
  ASSERT_NE(lava, graph.surfaces.end());
  PathSolver solver;
  const auto crossesLava = [&](const SearchOptions& options) {
    solver.init(graph, from, to, options);
    while (solver.update(1000u) == SolveStatus::InProgress) {
    }
    const PathResult path = solver.finalize();
    EXPECT_EQ(path.status, PathStatus::Found);
    return crossesSurface(graph, path, "lava");
  };
  EXPECT_FALSE(crossesLava({}));
  lava->cost = 1.0f;
  EXPECT_TRUE(crossesLava({}));
  lava->allowedKinds = 0;
  EXPECT_FALSE(crossesLava({})) << "no kind may walk on it";
  lava->allowedKinds = 0xff;
  EXPECT_TRUE(crossesLava({}));
  SearchOptions dearLava;
  dearLava.filter.surfaceCosts["lava"] = 25.0f;
  EXPECT_FALSE(crossesLava(dearLava));
  EXPECT_TRUE(crossesLava({}));
  // New options on a query that ends at once (its start is off the mesh)
  // still count for the next query asking the same.
  solver.init(graph, {500.0f, 0.0f, 500.0f}, to, dearLava);
  EXPECT_EQ(solver.finalize().status, PathStatus::StartOffMesh);
  EXPECT_FALSE(crossesLava(dearLava));
  EXPECT_TRUE(crossesLava({}));
  SearchOptions vehicle;
  vehicle.filter.unitKind = UnitKind::Vehicle;
  lava->allowedKinds = 1u << int(UnitKind::Human);
  EXPECT_TRUE(crossesLava({}));
  EXPECT_FALSE(crossesLava(vehicle)) << "lava closed to vehicles";
}

// A 30 x 6 floor with a waypath along z = 3.
Level lane(bool oneWay, std::optional<UnitKind> kind) {
  Level level;
  test::addFloor(level, 0, 0, 30, 6, 0, "floor");
  WaypathSpec waypath;
  waypath.id = "lane";
  waypath.points = {{2, 0, 3}, {10, 0, 3}, {20, 0, 3}, {28, 0, 3}};
  waypath.oneWay = oneWay;
  waypath.unitKind = kind;
  level.settings.waypaths = {waypath};
  return level;
}

TEST(SearchFilter, WaypathBiasAndDirection) {
  const Built oneWay = build(lane(true, std::nullopt));
  const glm::vec3 west{3, 0.05f, 1}, east{27, 0.05f, 1};
  SearchOptions strongBias;
  strongBias.filter.waypathBias = 0.5f;
  const PathResult riding = findPath(oneWay.graph, west, east, strongBias);
  ASSERT_EQ(riding.status, PathStatus::Found);
  EXPECT_TRUE(ridesWaypath(oneWay.graph, riding));
  EXPECT_LT(riding.cost, glm::distance(west, east)) << "the bias makes riding cheaper";
  // Its corners follow the waypath's points between getting on and off.
  const FunnelResult pulled = pullCorridor(oneWay.graph, riding.corridor);
  size_t onLane = 0;
  for (const glm::vec3& c : pulled.corners)
    onLane += std::abs(c.z - 3.0f) < 1e-3f;
  EXPECT_GE(onLane, 2u);

  const PathResult back = findPath(oneWay.graph, east, west, strongBias);
  ASSERT_EQ(back.status, PathStatus::Found);
  EXPECT_FALSE(ridesWaypath(oneWay.graph, back)) << "a one-way waypath is not ridden backwards";

  SearchOptions weakBias;
  weakBias.filter.waypathBias = 2.0f;
  EXPECT_FALSE(ridesWaypath(oneWay.graph, findPath(oneWay.graph, west, east, weakBias)));

  const Built twoWay = build(lane(false, std::nullopt));
  EXPECT_TRUE(ridesWaypath(twoWay.graph, findPath(twoWay.graph, east, west, strongBias)));
}

TEST(SearchFilter, WaypathsForOneKind) {
  const Built vehiclesOnly = build(lane(false, UnitKind::Vehicle));
  const glm::vec3 west{3, 0.05f, 1}, east{27, 0.05f, 1};
  SearchOptions options;
  options.filter.waypathBias = 0.5f;
  EXPECT_FALSE(ridesWaypath(vehiclesOnly.graph, findPath(vehiclesOnly.graph, west, east, options)))
      << "the graph's unit is a human";
  options.filter.unitKind = UnitKind::Vehicle;
  EXPECT_TRUE(ridesWaypath(vehiclesOnly.graph, findPath(vehiclesOnly.graph, west, east, options)));
}

// The heuristic's cost a metre is the cheapest the unit may pay anywhere: a
// waypath only another kind may ride does not lower it (it would make the
// search wander, as on a city whose streets are lanes for cars).
TEST(SearchFilter, OnlyRideableWaypathsLowerTheCheapestMetre) {
  const Built vehiclesOnly = build(lane(false, UnitKind::Vehicle));
  QueryFilter filter;
  filter.waypathBias = 0.5f;
  FilterCosts costs;
  costs.prepare(vehiclesOnly.graph, filter);
  EXPECT_FALSE(costs.anyWaypathOpen());
  EXPECT_EQ(costs.cheapest(), 1.0f) << "the graph's unit is a human";
  RegionContents withWaypath;
  withWaypath.waypaths = true;
  EXPECT_EQ(costs.cheapestIn(withWaypath), std::numeric_limits<float>::infinity())
      << "no surface, no rideable waypath";

  filter.unitKind = UnitKind::Vehicle;
  costs.prepare(vehiclesOnly.graph, filter);
  EXPECT_TRUE(costs.anyWaypathOpen());
  EXPECT_EQ(costs.cheapest(), 0.5f);
  EXPECT_EQ(costs.cheapestIn(withWaypath), 0.5f);
}

// Two rooms split by a wall with a door as the only way through.
Level doorBetweenRooms(float waitTime) {
  Level level;
  test::addFloor(level, 0, 0, 10, 10, 0, "floor");
  test::addBox(level, Aabb{{5.0f, 0, -0.5f}, {5.4f, 6.0f, 10.5f}}, "wall");
  DeviceSpec door;
  door.id = "gate";
  door.entry = Aabb{{3.5f, -0.5f, 2}, {4.7f, 0.5f, 3.2f}};
  door.exit = Aabb{{6, -0.5f, 2}, {7.2f, 0.5f, 3.2f}};
  door.waitTime = waitTime;
  level.settings.devices = {door};
  level.settings.seeds = {{1, 0.05f, 1}};
  return level;
}

TEST(SearchFilter, DeviceTimesCostDistance) {
  const glm::vec3 roomA{1, 0.05f, 5}, roomB{8, 0.05f, 4};
  const Built quick = build(doorBetweenRooms(0.0f));
  const Built slow = build(doorBetweenRooms(10.0f));
  const PathResult fast = findPath(quick.graph, roomA, roomB);
  const PathResult waiting = findPath(slow.graph, roomA, roomB);
  ASSERT_EQ(fast.status, PathStatus::Found);
  ASSERT_EQ(waiting.status, PathStatus::Found);
  SearchOptions defaults;
  EXPECT_NEAR(waiting.cost - fast.cost, 10.0f * defaults.filter.unitSpeed, 1e-3f);

  // The funnel ends one leg at the door's entry and starts the next at its exit.
  const FunnelResult pulled = pullCorridor(quick.graph, fast.corridor);
  const Portal* door = nullptr;
  for (uint32_t p : fast.corridor.portals) {
    if (quick.graph.portals[p].kind == PortalKind::Device) door = &quick.graph.portals[p];
  }
  ASSERT_NE(door, nullptr);
  const glm::vec3 in = quick.graph.entryPoint(*door), out = quick.graph.exitPoint(*door);
  bool entryThenExit = false;
  for (size_t i = 0; i + 1 < pulled.corners.size(); ++i) {
    entryThenExit |= glm::distance(pulled.corners[i], in) < 1e-4f &&
                     glm::distance(pulled.corners[i + 1], out) < 1e-4f;
  }
  EXPECT_TRUE(entryThenExit);
}

// A 20 x 10 floor split by a wall along z = 5 from x = 0 to 16: from one side
// to the other is a U-turn round the wall's end, in a 4 m wide bay.
Level hairpin() {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0, "floor");
  test::addBox(level, Aabb{{-1, 0, 4.5f}, {16, 2.5f, 5.5f}}, "wall");
  level.settings.seeds = {{1, 0.05f, 1}};
  return level;
}

TEST(SearchFilter, VehiclesSkipTurnsSharperThanTheirRadius) {
  const Built bay = build(hairpin());
  const glm::vec3 south{2, 0.05f, 2}, north{2, 0.05f, 8}, ahead{18, 0.05f, 2};
  const PathResult walked = findPath(bay.graph, south, north);
  ASSERT_EQ(walked.status, PathStatus::Found);

  // No radius, or one small enough for the bay, changes nothing.
  SearchOptions nimble;
  nimble.turningRadius = 0.0f;
  EXPECT_EQ(findPath(bay.graph, south, north, nimble).corridor.portals, walked.corridor.portals);
  nimble.turningRadius = 1.0f;
  EXPECT_EQ(findPath(bay.graph, south, north, nimble).status, PathStatus::Found);

  // Two right-angle turns a wall's width apart need a radius under about 1.5 m.
  SearchOptions truck;
  truck.turningRadius = 2.5f;
  const PathResult blocked = findPath(bay.graph, south, north, truck);
  EXPECT_EQ(blocked.status, PathStatus::Partial);
  EXPECT_NE(blocked.reason.find("sharper turn"), std::string::npos) << blocked.reason;
  // Straight on is no turn at all.
  EXPECT_EQ(findPath(bay.graph, south, ahead, truck).status, PathStatus::Found);
  // The graph's unit gives the radius when the query does not.
  NavGraph truckGraph = bay.graph;
  truckGraph.unit.turningRadius = 6.0f;
  EXPECT_EQ(findPath(truckGraph, south, north).status, PathStatus::Partial);
}

}  // namespace
}  // namespace nav
