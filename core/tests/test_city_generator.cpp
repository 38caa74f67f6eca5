// The procedural city: deterministic bytes, a loadable level, and a build whose
// cells reach what the generator says it made (every floor of every building,
// every bridge) from seeds on the streets only; its sidecar's devices become
// device portals and its lanes waypath sectors on the roads.
#include "nav/city_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "nav/unit_profile.h"

namespace nav {
namespace {

// Seed 5 at this size: two buildings of three and four floors joined by a bridge.
constexpr uint64_t kTargetCells = 50'000;
constexpr uint32_t kSeed = 5;

CityParams smallCity() {
  CityParams params;
  params.targetCells = kTargetCells;
  params.seed = kSeed;
  return params;
}

std::string generateText(const CityParams& params, CityInfo* info = nullptr) {
  std::ostringstream obj;
  Result<CityInfo> city = generateCity(params, obj);
  EXPECT_TRUE(city.ok()) << city.error();
  if (info && city) *info = city.value();
  return obj.str();
}

bool inside(const Aabb& box, const glm::vec3& p) {
  return p.x > box.min.x && p.x < box.max.x && p.z > box.min.z && p.z < box.max.z;
}

TEST(CityGenerator, SameSeedSameBytes) {
  CityInfo first, second;
  const std::string a = generateText(smallCity(), &first);
  const std::string b = generateText(smallCity(), &second);
  EXPECT_EQ(a, b);
  EXPECT_EQ(first.sidecarJson, second.sidecarJson);
  CityParams other = smallCity();
  other.seed = kSeed + 1;
  EXPECT_NE(generateText(other), a);
}

TEST(CityGenerator, RejectsBadParameters) {
  std::ostringstream obj;
  CityParams params = smallCity();
  params.targetCells = 0;
  Result<CityInfo> city = generateCity(params, obj);
  ASSERT_FALSE(city.ok());
  EXPECT_NE(city.error().find("targetCells"), std::string::npos) << city.error();

  params = smallCity();
  params.cellSize = 0.0f;
  city = generateCity(params, obj);
  ASSERT_FALSE(city.ok());
  EXPECT_NE(city.error().find("cellSize"), std::string::npos) << city.error();

  params = smallCity();
  params.unit.height = -1.0f;
  EXPECT_FALSE(generateCity(params, obj).ok());
}

// The sidecar loads whatever the params' unit is called or is.
TEST(CityGenerator, SidecarParsesForAnyUnit) {
  for (const char* name : {"human", "car"}) {
    for (UnitKind kind : {UnitKind::Human, UnitKind::Vehicle}) {
      CityParams params = smallCity();
      params.unit.name = name;
      params.unit.kind = kind;
      // Every other one round.
      params.unit.shape = kind == UnitKind::Human ? UnitShape::Round : UnitShape::Box;
      CityInfo info;
      generateText(params, &info);
      const Result<LevelSettings> settings = parseLevelSettings(info.sidecarJson, "city.json");
      ASSERT_TRUE(settings.ok()) << settings.error();
      ASSERT_FALSE(settings.value().units.empty());
      EXPECT_EQ(settings.value().units[0].name, name);
      EXPECT_EQ(settings.value().units[0].kind, kind);
      EXPECT_EQ(settings.value().units[0].shape, params.unit.shape);
      EXPECT_EQ(settings.value().units.size(), kind == UnitKind::Vehicle ? 1u : 2u);
      EXPECT_EQ(settings.value().devices.size(), info.devices.size());
      EXPECT_EQ(settings.value().waypaths.size(), info.waypaths.size());
    }
  }
}

TEST(CityGenerator, ReportsAFailedStream) {
  std::ostringstream obj;
  obj.setstate(std::ios::badbit);
  const Result<CityInfo> city = generateCity(smallCity(), obj);
  ASSERT_FALSE(city.ok());
  EXPECT_NE(city.error().find("writing"), std::string::npos) << city.error();
}

class SmallCity : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One file per process: ctest runs this suite's tests as parallel processes.
    const std::string stem =
        ::testing::TempDir() + "navscope_test_city_" + std::to_string(::getpid());
    s_objPath = stem + ".obj";
    s_jsonPath = stem + ".json";
    {
      std::ofstream obj(s_objPath, std::ios::binary);
      Result<CityInfo> city = generateCity(smallCity(), obj);
      ASSERT_TRUE(city.ok()) << city.error();
      s_info = new CityInfo(std::move(city).value());
      std::ofstream json(s_jsonPath, std::ios::binary);
      json << s_info->sidecarJson;
    }
    Result<Level> level = loadLevel(s_objPath);
    ASSERT_TRUE(level.ok()) << level.error();
    s_level = new Level(std::move(level).value());
    s_world = new CollisionWorld(*s_level);
    BuildOptions options;
    options.keepCells = true;
    Result<NavBuild> build =
        buildNavigation(*s_level, *s_world, defaultFillParams(*s_level), options);
    ASSERT_TRUE(build.ok()) << build.error();
    s_build = new NavBuild(std::move(build).value());
  }
  static void TearDownTestSuite() {
    delete s_build;
    delete s_world;
    delete s_level;
    delete s_info;
    s_build = nullptr;
    s_world = nullptr;
    s_level = nullptr;
    s_info = nullptr;
    std::remove(s_objPath.c_str());
    std::remove(s_jsonPath.c_str());
  }
  void SetUp() override { ASSERT_NE(s_build, nullptr) << "the city did not build"; }

  // Cells standing at height y (within 5 cm) whose centre lies inside the box's footprint.
  static size_t cellsAt(const Aabb& box, float y) {
    const CellGrid& cells = *s_build->cells;
    size_t count = 0;
    for (uint32_t i = 0; i < cells.size(); ++i) {
      const glm::vec3 c = cells.center(i);
      if (std::abs(c.y - y) < 0.05f && inside(box, c)) ++count;
    }
    return count;
  }

  static std::string s_objPath, s_jsonPath;
  static CityInfo* s_info;
  static Level* s_level;
  static CollisionWorld* s_world;
  static NavBuild* s_build;
};
std::string SmallCity::s_objPath, SmallCity::s_jsonPath;
CityInfo* SmallCity::s_info = nullptr;
Level* SmallCity::s_level = nullptr;
CollisionWorld* SmallCity::s_world = nullptr;
NavBuild* SmallCity::s_build = nullptr;

TEST_F(SmallCity, LoadsWithItsSidecar) {
  EXPECT_EQ(s_level->triangles.size(), s_info->triangles);
  EXPECT_EQ(s_level->vertices.size(), s_info->vertices);
  for (const char* material :
       {"road", "sidewalk", "floor", "stairs", "bridge", "railing", "wall"}) {
    EXPECT_NE(std::find(s_level->materials.begin(), s_level->materials.end(), material),
              s_level->materials.end())
        << material;
  }
  const LevelSettings& settings = s_level->settings;
  ASSERT_EQ(settings.seeds.size(), size_t(s_info->blocksX) * s_info->blocksZ);
  for (size_t i = 0; i < settings.seeds.size(); ++i) {
    EXPECT_LT(glm::distance(settings.seeds[i], s_info->seeds[i]), 1e-3f) << i;
  }
  ASSERT_TRUE(settings.start && settings.goal && settings.cellSize);
  EXPECT_FLOAT_EQ(*settings.cellSize, 0.3f);
}

TEST_F(SmallCity, CellCountNearTheTarget) {
  const double cells = double(s_build->stats.cells);
  EXPECT_NEAR(cells, double(kTargetCells), 0.25 * double(kTargetCells));
  EXPECT_NEAR(cells, double(s_info->estimatedCells), 0.2 * cells);
}

TEST_F(SmallCity, EveryFloorOfEveryBuildingHasCells) {
  ASSERT_FALSE(s_info->buildings.empty());
  uint32_t tallest = 0;
  for (const CityBuilding& building : s_info->buildings) {
    tallest = std::max(tallest, building.floors);
    for (uint32_t k = 0; k < building.floors; ++k) {
      // Seeds are on the streets and bridges reach floor 1 only: floors above
      // it are reached by the stairs.
      EXPECT_GT(cellsAt(building.bounds, 3.0f * float(k)), 100u) << "floor " << k;
    }
  }
  EXPECT_GE(tallest, 3u) << "the test city should have stairs above floor 1";
  const auto stairs = std::find(s_level->materials.begin(), s_level->materials.end(), "stairs");
  const uint16_t stairsMaterial = uint16_t(stairs - s_level->materials.begin());
  size_t stairCells = 0;
  for (uint32_t i = 0; i < s_build->cells->size(); ++i) {
    stairCells += (*s_build->cells)[i].material == stairsMaterial;
  }
  EXPECT_GT(stairCells, 0u);
}

TEST_F(SmallCity, EveryBridgeHasCells) {
  ASSERT_FALSE(s_info->bridges.empty());
  for (const CityBridge& bridge : s_info->bridges) {
    const glm::vec3 size = bridge.deck.size();
    // At least one lane of cells over most of the deck's length.
    const float length = std::max(size.x, size.z);
    EXPECT_GT(cellsAt(bridge.deck, bridge.deck.max.y), size_t(length / 0.3f * 0.8f));
  }
}

TEST_F(SmallCity, StreetsConnectEveryBlockAndTheGoal) {
  const std::vector<glm::vec3>& seeds = s_info->seeds;
  for (size_t i = 1; i < seeds.size(); ++i) {
    const PathResult there = findPath(s_build->graph, seeds[0], seeds[i]);
    EXPECT_EQ(there.status, PathStatus::Found) << "seed " << i;
    const PathResult back = findPath(s_build->graph, seeds[i], seeds[0]);
    EXPECT_EQ(back.status, PathStatus::Found) << "seed " << i;
  }
  const PathResult goal = findPath(s_build->graph, s_info->start, s_info->goal);
  EXPECT_EQ(goal.status, PathStatus::Found);
  EXPECT_GT(s_info->goal.y, 3.0f) << "the goal is on an upper floor";
}

TEST_F(SmallCity, SidecarHoldsUnitsDevicesAndWaypaths) {
  const LevelSettings& settings = s_level->settings;
  ASSERT_EQ(settings.units.size(), 2u);
  EXPECT_EQ(settings.units[0].kind, UnitKind::Human);
  EXPECT_EQ(settings.units[1].name, "car");
  EXPECT_EQ(settings.units[1].kind, UnitKind::Vehicle);

  // What the loader read is what the generator reports.
  ASSERT_EQ(settings.devices.size(), s_info->devices.size());
  for (size_t d = 0; d < settings.devices.size(); ++d) {
    const DeviceSpec& read = settings.devices[d];
    const DeviceSpec& made = s_info->devices[d];
    EXPECT_EQ(read.id, made.id);
    EXPECT_EQ(read.kind, made.kind);
    EXPECT_EQ(read.locked, made.locked);
    EXPECT_EQ(read.key, made.key);
    EXPECT_EQ(read.twoWay, made.twoWay);
    for (const auto& [a, b] :
         {std::pair{read.entry.min, made.entry.min}, std::pair{read.entry.max, made.entry.max},
          std::pair{read.exit.min, made.exit.min}, std::pair{read.exit.max, made.exit.max}}) {
      EXPECT_LT(glm::distance(a, b), 1e-4f) << read.id;
    }
  }
  // The test city's two buildings have three and four floors: two elevators,
  // and with four side walls one at least has no door: a locked back door.
  const auto count = [&](auto&& pick) {
    return std::count_if(settings.devices.begin(), settings.devices.end(), pick);
  };
  EXPECT_EQ(count([](const DeviceSpec& d) { return d.kind == DeviceKind::Elevator; }), 2);
  EXPECT_EQ(count([](const DeviceSpec& d) {
              return d.kind == DeviceKind::Door && d.locked && d.key == "red";
            }),
            1);

  // One waypath per street and direction, one point per crossing.
  ASSERT_EQ(settings.waypaths.size(), s_info->waypaths.size());
  const uint32_t alongX = s_info->blocksX + 1, alongZ = s_info->blocksZ + 1;
  EXPECT_EQ(settings.waypaths.size(), size_t(2 * alongX + 2 * alongZ));
  const float pitch = s_info->blockSize + 8.0f;  // a block and a road
  for (size_t w = 0; w < settings.waypaths.size(); ++w) {
    const WaypathSpec& waypath = settings.waypaths[w];
    SCOPED_TRACE(waypath.id);
    EXPECT_EQ(waypath.id, s_info->waypaths[w].id);
    EXPECT_TRUE(waypath.oneWay);
    ASSERT_TRUE(waypath.unitKind.has_value());
    EXPECT_EQ(*waypath.unitKind, UnitKind::Vehicle);
    ASSERT_GE(waypath.points.size(), 2u);
    EXPECT_TRUE(waypath.points.size() == alongX || waypath.points.size() == alongZ);
    // Right-hand traffic: the lane lies right of its street's centre line
    // (streets are 8 m wide, their centre lines 4 m past each pitch). Facing
    // +x (east) the right-hand side is +z (south).
    const glm::vec3 heading = glm::normalize(waypath.points[1] - waypath.points[0]);
    const bool eastWest = std::abs(heading.x) > 0.5f;
    const glm::vec2 right(-heading.z, heading.x);  // (x, z)
    for (const glm::vec3& p : waypath.points) {
      const float across = eastWest ? p.z : p.x;
      const float centre = std::round((across - 4.0f) / pitch) * pitch + 4.0f;
      const glm::vec2 fromCentre =
          eastWest ? glm::vec2(0.0f, across - centre) : glm::vec2(across - centre, 0.0f);
      EXPECT_NEAR(glm::dot(fromCentre, right), 1.5f, 1e-3f) << p.x << "," << p.z;
      EXPECT_NEAR(p.y, 0.0f, 1e-6f);
    }
  }
}

// Every device direction becomes at least one device portal; no device exit
// lacked room for the unit.
TEST_F(SmallCity, DevicesGiveDevicePortals) {
  const NavGraph& graph = s_build->graph;
  EXPECT_TRUE(s_build->stats.warnings.empty())
      << s_build->stats.warnings.size()
      << " warnings, the first: " << s_build->stats.warnings.front();
  ASSERT_EQ(graph.devices.size(), s_level->settings.devices.size());
  for (uint32_t d = 0; d < graph.devices.size(); ++d) {
    SCOPED_TRACE(graph.devices[d].id);
    size_t going = 0, back = 0;
    for (const Portal& portal : graph.portals) {
      if (portal.kind != PortalKind::Device || graph.deviceLinks[portal.link].device != d) continue;
      ++(graph.deviceLinks[portal.link].reverse ? back : going);
      // It leads from a ground sector to another ground sector.
      EXPECT_EQ(graph.sectors[portal.fromSector].kind, SectorKind::Ground);
      EXPECT_EQ(graph.sectors[portal.toSector].kind, SectorKind::Ground);
    }
    EXPECT_GE(going, 1u);
    EXPECT_GE(back, 1u) << "two-way";
  }
}

// Each waypath is a sector of its own, joined both ways to the road under each point.
void expectWaypathsOnRoads(const NavGraph& graph, const std::vector<WaypathSpec>& waypaths) {
  size_t waypathSectors = 0;
  for (const Sector& sector : graph.sectors) {
    if (sector.kind != SectorKind::Waypath) continue;
    ++waypathSectors;
    ASSERT_LT(sector.waypath, waypaths.size());
    SCOPED_TRACE(waypaths[sector.waypath].id);
    EXPECT_EQ(sector.portalCount, waypaths[sector.waypath].points.size())
        << "a portal off at each point";
    for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
      const Portal& off = graph.portals[p];
      EXPECT_EQ(off.kind, PortalKind::Waypath);
      const Sector& road = graph.sectors[off.toSector];
      EXPECT_EQ(road.kind, SectorKind::Ground);
      EXPECT_EQ(graph.surfaces[road.surface].name, "road");
    }
  }
  EXPECT_EQ(waypathSectors, waypaths.size());
}

TEST_F(SmallCity, WaypathSectorsLieOnTheRoads) {
  expectWaypathsOnRoads(s_build->graph, s_level->settings.waypaths);
}

// The lanes are where the car fits: its own build locates every lane point.
TEST_F(SmallCity, TheCarReachesEveryLane) {
  const UnitProfile& car = s_level->settings.units.at(1);
  Result<NavBuild> build = buildNavigation(*s_level, *s_world, fillParamsFor(*s_level, car));
  ASSERT_TRUE(build.ok()) << build.error();
  EXPECT_TRUE(build.value().stats.warnings.empty()) << build.value().stats.warnings.front();
  expectWaypathsOnRoads(build.value().graph, s_level->settings.waypaths);
  // Roads only: the car never gets into a building.
  for (const Sector& sector : build.value().graph.sectors) {
    if (sector.kind == SectorKind::Ground) {
      EXPECT_LT(sector.bounds.max.y, 0.01f);
    }
  }
}

bool usesDevice(const NavGraph& graph, const PathResult& path, uint32_t device) {
  for (uint32_t p : path.corridor.portals) {
    const Portal& portal = graph.portals[p];
    if (portal.kind == PortalKind::Device && graph.deviceLinks[portal.link].device == device)
      return true;
  }
  return false;
}

glm::vec3 zoneFloor(const Aabb& zone, float y) {
  return {zone.center().x, y, zone.center().z};
}

TEST_F(SmallCity, TheLockedBackDoorOpensOnlyWithItsKey) {
  const NavGraph& graph = s_build->graph;
  const auto door = std::find_if(graph.devices.begin(), graph.devices.end(),
                                 [](const DeviceSpec& d) { return d.locked; });
  ASSERT_NE(door, graph.devices.end());
  const uint32_t index = uint32_t(door - graph.devices.begin());
  // From the sidewalk (0.15 m) outside to the floor inside.
  const glm::vec3 outside = zoneFloor(door->entry, 0.2f), inside = zoneFloor(door->exit, 0.05f);
  const PathResult around = findPath(graph, outside, inside);
  ASSERT_EQ(around.status, PathStatus::Found) << "round to a front door";
  EXPECT_FALSE(usesDevice(graph, around, index));
  SearchOptions withKey;
  withKey.filter.keys = {door->key};
  const PathResult through = findPath(graph, outside, inside, withKey);
  ASSERT_EQ(through.status, PathStatus::Found);
  EXPECT_TRUE(usesDevice(graph, through, index));
  // Through the wall is a few metres; round the building at least its width.
  EXPECT_LT(through.cost, 5.0f);
  EXPECT_GT(around.cost, 10.0f);
}

TEST_F(SmallCity, ElevatorsLiftFromTheGroundToTheTopFloor) {
  const NavGraph& graph = s_build->graph;
  size_t elevators = 0;
  for (uint32_t d = 0; d < graph.devices.size(); ++d) {
    const DeviceSpec& elevator = graph.devices[d];
    if (elevator.kind != DeviceKind::Elevator) continue;
    ++elevators;
    SCOPED_TRACE(elevator.id);
    // Its landings are on the ground floor and on the top floor of a building.
    const glm::vec3 ground = zoneFloor(elevator.entry, 0.05f);
    const glm::vec3 top = zoneFloor(elevator.exit, elevator.exit.min.y + 0.25f);
    const auto building =
        std::find_if(s_info->buildings.begin(), s_info->buildings.end(),
                     [&](const CityBuilding& b) { return inside(b.bounds, ground); });
    ASSERT_NE(building, s_info->buildings.end());
    EXPECT_GE(building->floors, 3u);
    EXPECT_NEAR(top.y, 3.0f * float(building->floors - 1) + 0.05f, 1e-3f);
    const PathResult up = findPath(graph, ground, top);
    ASSERT_EQ(up.status, PathStatus::Found);
    EXPECT_TRUE(usesDevice(graph, up, d)) << "the elevator beats the stairs";
    const PathResult down = findPath(graph, top, ground);
    ASSERT_EQ(down.status, PathStatus::Found);
    EXPECT_TRUE(usesDevice(graph, down, d));
  }
  EXPECT_GT(elevators, 0u);
}

}  // namespace
}  // namespace nav
