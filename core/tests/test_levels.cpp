#include "test_levels.h"

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "nav/collision.h"
#include "nav/grid_angle.h"
#include "nav/nav_build.h"
#include "nav/terrain_generator.h"

namespace nav::test {
namespace {

uint16_t materialIndex(Level& level, const std::string& name) {
  for (size_t i = 0; i < level.materials.size(); ++i) {
    if (level.materials[i] == name) return uint16_t(i);
  }
  level.materials.push_back(name);
  return uint16_t(level.materials.size() - 1);
}

void addQuad(Level& level, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, uint16_t material) {
  const uint32_t base = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {a, b, c, d});
  level.triangles.push_back({{base, base + 1, base + 2}, material});
  level.triangles.push_back({{base, base + 2, base + 3}, material});
}

}  // namespace

NavGraph buildGraph(Level level) {
  finish(level);
  CollisionWorld world(level);
  Result<NavBuild> built = buildNavigation(level, world, fillParamsFor(level, UnitProfile{}));
  EXPECT_TRUE(built.ok()) << built.error();
  return built ? std::move(built).value().graph : NavGraph{};
}

std::optional<NavBuild> buildLevel(const Level& level, bool keepCells) {
  const CollisionWorld world(level);
  BuildOptions options;
  options.keepCells = keepCells;
  Result<NavBuild> built = buildNavigation(level, world, defaultFillParams(level), options);
  EXPECT_TRUE(built.ok()) << built.error();
  if (!built) return std::nullopt;
  return std::move(built).value();
}

const NavBuild& bundledBuild(const std::string& name) {
  static std::map<std::string, NavBuild> cache;
  const auto found = cache.find(name);
  if (found != cache.end()) return found->second;
  NavBuild& build = cache[name];
  Result<Level> level = loadLevel(assetFile(name));
  EXPECT_TRUE(level.ok()) << level.error();
  if (level) {
    std::optional<NavBuild> built = buildLevel(level.value(), /*keepCells=*/true);
    if (built) build = std::move(*built);
  }
  return build;
}

BuiltLevel builtForARoundUnit(const std::string& asset) {
  BuiltLevel s;
  Result<Level> level = loadLevel(assetFile(asset));
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return s;
  s.level = std::move(level).value();
  s.level.settings.devices.clear();
  s.level.settings.waypaths.clear();
  s.level.settings.surfaces.clear();
  for (const std::string& material : s.level.materials)
    s.level.settings.materialSurfaces[material] = "default";
  s.world = std::make_unique<CollisionWorld>(s.level);
  UnitProfile unit;
  unit.shape = UnitShape::Round;
  unit.width = 0.6f;
  unit.height = 1.8f;
  unit.stepHeight = 0.45f;
  unit.maxDrop = 0.45f;
  FloodFillParams params = fillParamsFor(s.level, unit);
  params.unit = unit;
  params.cellSize = 0.3f;
  Result<NavBuild> build = buildNavigation(s.level, *s.world, params);
  EXPECT_TRUE(build.ok()) << build.error();
  if (build) s.build = std::move(build).value();
  return s;
}

Level randomSoup(uint32_t seed, const SoupShape& shape) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-8.0f, 8.0f), unit(-1.0f, 1.0f), size(0.1f, 3.0f);
  Level level;
  for (int i = 0; i < shape.triangles; ++i) {
    const glm::vec3 center(position(rng), position(rng), position(rng));
    const float extent = size(rng);
    glm::vec3 p[3];
    for (glm::vec3& corner : p)
      corner = center + extent * glm::vec3(unit(rng), unit(rng), unit(rng));
    if (shape.flatsAndWalls && i % 5 == 1) p[1].y = p[2].y = p[0].y;
    if (shape.flatsAndWalls && i % 5 == 2) p[1].x = p[2].x = p[0].x;
    const auto base = uint32_t(level.vertices.size());
    level.vertices.insert(level.vertices.end(), {p[0], p[1], p[2]});
    level.triangles.push_back({{base, base + 1, base + 2}, 0});
  }
  std::uniform_int_distribution<int> grid(-16, 16);
  for (int i = 0; i < shape.floors; ++i) {
    const float x = grid(rng) * 0.5f, z = grid(rng) * 0.5f, y = grid(rng) * 0.25f;
    addFloor(level, x, z, x + 2.0f, z + 1.5f, y, "floor");
  }
  for (int i = 0; i < shape.boxes; ++i) {
    const glm::vec3 corner(grid(rng) * 0.5f, grid(rng) * 0.25f, grid(rng) * 0.5f);
    addBox(level, Aabb{corner, corner + glm::vec3(1.0f, 2.0f, 0.5f)}, "wall");
  }
  finish(level);
  return level;
}

FloodFillParams detourMatchedParams(float maxDrop) {
  FloodFillParams params;
  params.cellSize = 0.3f;
  params.unit.width = 1.2f;
  params.unit.height = 2.0f;
  params.unit.stepHeight = 0.9f;
  params.unit.maxDrop = maxDrop;
  params.unit.maxSlopeDegrees = 45.0f;
  return params;
}

Level chasmLevel() {
  Level level;
  addFloor(level, 0, 0, 10, 6, 0, "floor");
  addFloor(level, 14, 0, 24, 6, 0, "floor");
  level.settings.seeds = {{1, 0.05f, 1}, {20, 0.05f, 1}};
  return level;
}

void addBox(Level& level, const Aabb& box, const std::string& material) {
  const uint16_t m = materialIndex(level, material);
  const glm::vec3 lo = box.min, hi = box.max;
  const glm::vec3 p[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, lo.y, hi.z},
                          {lo.x, lo.y, hi.z}, {lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z},
                          {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
  addQuad(level, p[4], p[7], p[6], p[5], m);  // top (+y)
  addQuad(level, p[0], p[1], p[2], p[3], m);  // bottom (-y)
  addQuad(level, p[0], p[4], p[5], p[1], m);  // -z
  addQuad(level, p[3], p[2], p[6], p[7], m);  // +z
  addQuad(level, p[0], p[3], p[7], p[4], m);  // -x
  addQuad(level, p[1], p[5], p[6], p[2], m);  // +x
}

void addFloor(Level& level, float x0, float z0, float x1, float z1, float y,
              const std::string& material) {
  const uint16_t m = materialIndex(level, material);
  addQuad(level, {x0, y, z0}, {x0, y, z1}, {x1, y, z1}, {x1, y, z0}, m);
}

void finish(Level& level) {
  level.bounds = Aabb{};
  for (const glm::vec3& v : level.vertices)
    level.bounds.grow(v);
}

std::string sharedFile(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(NAVSCOPE_SHARED_DIR) / relative;
  return std::filesystem::exists(path) ? path.string() : std::string();
}

std::string assetFile(const std::string& relative) {
  return (std::filesystem::path(NAVSCOPE_ASSETS_DIR) / relative).string();
}

NavGraph randomSectorGraph(uint32_t seed, float extraPerSector) {
  std::mt19937 random(seed);
  const uint32_t count = 2 + random() % 60;
  NavGraph graph;
  graph.sectors.resize(count);
  for (Sector& sector : graph.sectors) {
    sector.surface = uint16_t(random() % 70);
    sector.kind = random() % 8 == 0 ? SectorKind::Waypath : SectorKind::Ground;
  }
  const auto join = [&](uint32_t a, uint32_t b) {
    Portal portal{};
    portal.fromSector = a;
    portal.toSector = b;
    portal.reverse = kNoPortal;
    portal.kind = random() % 10 == 0 ? PortalKind::Device : PortalKind::Walk;
    graph.portals.push_back(portal);
    if (random() % 3 != 0) {
      std::swap(portal.fromSector, portal.toSector);
      graph.portals.push_back(portal);
    }
  };
  for (uint32_t s = 1; s < count; ++s) {
    if (random() % 12 != 0) join(s, random() % s);  // else s starts another island
  }
  for (uint32_t extra = random() % (uint32_t(float(count) * extraPerSector) + 1); extra > 0;
       --extra)
    join(random() % count, random() % count);
  sortPortalsBySource(graph);
  return graph;
}

std::vector<bool> sectorsReached(const NavGraph& graph, uint32_t from, uint32_t removed,
                                 bool forwardsOnly) {
  std::vector<std::vector<uint32_t>> neighbours(graph.sectors.size());
  for (const Portal& p : graph.portals) {
    neighbours[p.fromSector].push_back(p.toSector);
    if (!forwardsOnly) neighbours[p.toSector].push_back(p.fromSector);
  }
  std::vector<bool> reached(graph.sectors.size(), false);
  std::deque<uint32_t> queue{from};
  reached[from] = true;
  while (!queue.empty()) {
    const uint32_t s = queue.front();
    queue.pop_front();
    for (uint32_t n : neighbours[s]) {
      if (!reached[n] && n != removed) queue.push_back(n), reached[n] = true;
    }
  }
  return reached;
}

namespace {

// A level built at detourMatchedParams(0.9) with its cells kept; null, with a
// test failure, when it cannot be.
std::unique_ptr<NavBuild> matchedBuild(const Result<Level>& level) {
  if (!level.ok()) {
    ADD_FAILURE() << level.error();
    return nullptr;
  }
  const CollisionWorld world(level.value());
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> build =
      buildNavigation(level.value(), world, detourMatchedParams(0.9f), options);
  if (!build.ok()) {
    ADD_FAILURE() << build.error();
    return nullptr;
  }
  return std::make_unique<NavBuild>(std::move(build).value());
}

}  // namespace

const NavBuild* dungeonBuild() {
  static const std::unique_ptr<NavBuild> built = []() -> std::unique_ptr<NavBuild> {
    const std::string path = sharedFile("meshes/dungeon.obj");
    return path.empty() ? nullptr : matchedBuild(loadLevel(path));
  }();
  return built.get();
}

Level terrainLevel(uint32_t seed, float degrees) {
  TerrainParams params;
  params.seed = seed;
  std::ostringstream obj;
  const Result<TerrainInfo> info = generateTerrain(params, obj);
  const Result<Level> level = info ? parseObj(obj.str(), "terrain " + std::to_string(seed))
                                   : Result<Level>::failure(info.error());
  const Result<Level> turned = level ? rotatedAboutY(level.value(), degrees) : level;
  if (turned) return turned.value();
  ADD_FAILURE() << turned.error();
  return {};
}

namespace {

// Detour's matched parameters (drop 0.9 m) for `unit`'s shape, width,
// height and step, on cells of `cellSize`.
FloodFillParams terrainParams(const UnitProfile& unit, float cellSize) {
  FloodFillParams params = detourMatchedParams(0.9f);
  params.unit.shape = unit.shape;
  params.unit.width = unit.width;
  params.unit.height = unit.height;
  params.unit.stepHeight = unit.stepHeight;
  params.unit.maxDrop = unit.maxDrop;
  params.cellSize = cellSize;
  return params;
}

FloodFillParams terrainParams(UnitShape shape, float cellSize) {
  UnitProfile unit = detourMatchedParams(0.9f).unit;
  unit.shape = shape;
  return terrainParams(unit, cellSize);
}

}  // namespace

Result<NavBuild> terrainOnChosenGrid(uint32_t seed, float degrees, UnitShape shape,
                                     float cellSize) {
  return terrainOnChosenGrid(seed, degrees, terrainParams(shape, cellSize).unit, cellSize);
}

Result<NavBuild> terrainOnChosenGrid(uint32_t seed, float degrees, const UnitProfile& unit,
                                     float cellSize) {
  const FloodFillParams params = terrainParams(unit, cellSize);
  const Result<Level> level = levelOnChosenGrid(terrainLevel(seed, degrees), std::nullopt, params);
  if (!level) return Result<NavBuild>::failure(level.error());
  const CollisionWorld world(level.value());
  return buildNavigation(level.value(), world, params);
}

std::unique_ptr<TerrainOnGrid> terrainOnChosenGridWithWorld(uint32_t seed, float degrees,
                                                            UnitShape shape, float cellSize) {
  return terrainOnChosenGridWithWorld(seed, degrees, terrainParams(shape, cellSize).unit, cellSize);
}

std::unique_ptr<TerrainOnGrid> terrainOnChosenGridWithWorld(uint32_t seed, float degrees,
                                                            const UnitProfile& unit,
                                                            float cellSize) {
  const FloodFillParams params = terrainParams(unit, cellSize);
  Result<Level> level = levelOnChosenGrid(terrainLevel(seed, degrees), std::nullopt, params);
  if (!level) {
    ADD_FAILURE() << level.error();
    return nullptr;
  }
  auto terrain = std::make_unique<TerrainOnGrid>();
  terrain->level = std::move(level).value();
  terrain->world = std::make_unique<CollisionWorld>(terrain->level);
  Result<NavBuild> build = buildNavigation(terrain->level, *terrain->world, params);
  if (!build) {
    ADD_FAILURE() << build.error();
    return nullptr;
  }
  terrain->build = std::move(build).value();
  return terrain;
}

const NavBuild& terrainBuild(uint32_t seed, float degrees) {
  static std::map<std::pair<uint32_t, float>, std::unique_ptr<NavBuild>> built;
  std::unique_ptr<NavBuild>& build = built[{seed, degrees}];
  if (!build) {
    build = matchedBuild(Result<Level>::success(terrainLevel(seed, degrees)));
    if (!build) build = std::make_unique<NavBuild>();
  }
  return *build;
}

}  // namespace nav::test
