// The procedural city: deterministic bytes, a loadable level, and a build whose
// cells reach what the generator says it made (every floor of every building,
// every bridge) from seeds on the streets only.
#include "nav/city_generator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "nav/nav_build.h"
#include "nav/search.h"

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
    const std::string stem = ::testing::TempDir() + "navscope_test_city";
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

}  // namespace
}  // namespace nav
