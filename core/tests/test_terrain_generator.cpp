// The procedural terrain: deterministic bytes, a loadable level, and each
// feature it promises measured from the triangles it wrote (solids found as
// the triangles that share vertices, thickness from their corners, slopes from
// their normals, the ground from a brute-force scan of its triangles), then a
// default build's cells and paths where they tell whether the unit gets there.
#include "nav/terrain_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "nav/search.h"

namespace nav {
namespace {

constexpr float kDegrees = 180.0f / 3.14159265358979f;

std::string generateText(const TerrainParams& params, TerrainInfo* info = nullptr) {
  std::ostringstream obj;
  Result<TerrainInfo> terrain = generateTerrain(params, obj);
  EXPECT_TRUE(terrain.ok()) << terrain.error();
  if (info && terrain) *info = terrain.value();
  return obj.str();
}

TerrainParams withSeed(uint32_t seed) {
  TerrainParams params;
  params.seed = seed;
  return params;
}

TEST(TerrainGenerator, SameSeedSameBytes) {
  TerrainInfo first, second;
  const std::string a = generateText(withSeed(7), &first);
  const std::string b = generateText(withSeed(7), &second);
  EXPECT_EQ(a, b);
  EXPECT_EQ(first.sidecarJson, second.sidecarJson);
  EXPECT_NE(generateText(withSeed(8)), a);
}

TEST(TerrainGenerator, RejectsBadParameters) {
  const auto expectError = [](const TerrainParams& params, const std::string& name) {
    std::ostringstream obj;
    const Result<TerrainInfo> terrain = generateTerrain(params, obj);
    ASSERT_FALSE(terrain.ok()) << name;
    EXPECT_NE(terrain.error().find(name), std::string::npos) << terrain.error();
  };
  TerrainParams params;
  for (float size : {10.0f, 4096.0f, std::nanf(""), -64.0f}) {
    params.size = size;
    expectError(params, "size");
  }
  params = {};
  params.cellSize = 0.0f;
  expectError(params, "cellSize");
  params = {};
  params.unit.maxSlopeDegrees = 5.0f;
  expectError(params, "unit.maxSlopeDegrees");
  params = {};
  params.unit.stepHeight = 0.1f;
  expectError(params, "unit.stepHeight");
  params = {};
  params.unit.width = -1.0f;
  expectError(params, "unit.width");
  // The smallest size holds everything; a little less does not.
  params = {};
  params.size = minTerrainSize(params.unit);
  std::ostringstream obj;
  EXPECT_TRUE(generateTerrain(params, obj).ok());
  params.size -= 0.5f;
  expectError(params, "size");
}

TEST(TerrainGenerator, ReportsAFailedStream) {
  std::ostringstream obj;
  obj.setstate(std::ios::badbit);
  const Result<TerrainInfo> terrain = generateTerrain(TerrainParams{}, obj);
  ASSERT_FALSE(terrain.ok());
  EXPECT_NE(terrain.error().find("writing"), std::string::npos) << terrain.error();
}

// Sized from the unit: a wider unit gets a larger minimum, and its level still holds all.
TEST(TerrainGenerator, SizedFromTheUnit) {
  TerrainParams params;
  params.unit.width = 0.6f;
  params.unit.height = 1.8f;
  params.unit.stepHeight = 0.45f;
  EXPECT_LT(minTerrainSize(params.unit), minTerrainSize(TerrainParams{}.unit));
  params.size = minTerrainSize(params.unit);
  TerrainInfo info;
  generateText(params, &info);
  std::vector<bool> seen(kTerrainFeatureCount);
  for (const TerrainSite& site : info.sites)
    seen[size_t(site.feature)] = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), kTerrainFeatureCount);
  const Result<LevelSettings> settings = parseLevelSettings(info.sidecarJson, "terrain.json");
  ASSERT_TRUE(settings.ok()) << settings.error();
  ASSERT_EQ(settings.value().units.size(), 1u);
  EXPECT_FLOAT_EQ(settings.value().units[0].stepHeight, 0.45f);
}

// ---------------------------------------------------------------------------
// Measures taken from the triangles alone.
// ---------------------------------------------------------------------------

glm::vec3 normalOf(const Level& level, uint32_t t) {
  const glm::vec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
  return glm::normalize(glm::cross(b - a, c - a));
}

float slopeDegrees(const glm::vec3& normal) {
  return std::acos(std::clamp(normal.y, -1.0f, 1.0f)) * kDegrees;
}

/// Triangles that share vertices: each solid the generator writes has its own.
struct Solid {
  std::string material;
  std::vector<uint32_t> triangles;
  std::vector<glm::vec3> points;
  float bottom = 1e30f, top = -1e30f;
};

std::vector<Solid> solidsOf(const Level& level, const std::string& material) {
  std::vector<uint32_t> parent(level.vertices.size());
  std::iota(parent.begin(), parent.end(), 0u);
  const auto root = [&](uint32_t v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<uint32_t> chosen;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const LevelTriangle& triangle = level.triangles[t];
    if (level.materials[triangle.material] != material) continue;
    chosen.push_back(t);
    parent[root(triangle.vertex[1])] = root(triangle.vertex[0]);
    parent[root(triangle.vertex[2])] = root(triangle.vertex[0]);
  }
  std::map<uint32_t, Solid> byRoot;
  for (uint32_t t : chosen) {
    Solid& solid = byRoot[root(level.triangles[t].vertex[0])];
    solid.material = material;
    solid.triangles.push_back(t);
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 p = level.corner(t, k);
      solid.points.push_back(p);
      solid.bottom = std::min(solid.bottom, p.y);
      solid.top = std::max(solid.top, p.y);
    }
  }
  std::vector<Solid> solids;
  for (auto& entry : byRoot)
    solids.push_back(std::move(entry.second));
  return solids;
}

/// Convex hull of the points on the ground plane (monotone chain), counter-clockwise.
std::vector<glm::vec2> planHull(const std::vector<glm::vec3>& points) {
  std::vector<glm::vec2> p;
  for (const glm::vec3& q : points)
    p.push_back(groundOf(q));
  std::sort(p.begin(), p.end(), [](const glm::vec2& a, const glm::vec2& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() < 3) return p;
  std::vector<glm::vec2> hull(2 * p.size());
  size_t k = 0;
  const auto turn = [](glm::vec2 o, glm::vec2 a, glm::vec2 b) { return cross2(a - o, b - o); };
  for (size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], p[i]) <= 0)
      --k;
    hull[k++] = p[i];
  }
  for (size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && turn(hull[k - 2], hull[k - 1], p[i]) <= 0)
      --k;
    hull[k++] = p[i];
  }
  hull.resize(k - 1);
  return hull;
}

/// Narrowest and widest extent of a convex polygon, and the direction of its longest edge.
struct PlanShape {
  float thickness = 0.0f, length = 0.0f;
  glm::vec2 direction{0.0f};
};

PlanShape planShape(const std::vector<glm::vec3>& points) {
  const std::vector<glm::vec2> hull = planHull(points);
  PlanShape shape;
  shape.thickness = 1e30f;
  float longest = 0.0f;
  for (size_t i = 0; i < hull.size(); ++i) {
    const glm::vec2 a = hull[i], b = hull[(i + 1) % hull.size()];
    const glm::vec2 edge = glm::normalize(b - a);
    float across = 0.0f, along0 = 1e30f, along1 = -1e30f;
    for (const glm::vec2& p : hull) {
      across = std::max(across, std::abs(cross2(edge, p - a)));
      along0 = std::min(along0, glm::dot(edge, p - a));
      along1 = std::max(along1, glm::dot(edge, p - a));
    }
    shape.thickness = std::min(shape.thickness, across);
    shape.length = std::max(shape.length, along1 - along0);
    if (glm::distance(a, b) > longest) {
      longest = glm::distance(a, b);
      shape.direction = edge;
    }
  }
  return shape;
}

bool insideTriangle(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b,
                    const glm::vec2& c) {
  const float d1 = cross2(b - a, p - a), d2 = cross2(c - b, p - b), d3 = cross2(a - c, p - c);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

/// Height of the triangle's plane at (x, z) (the triangle must not be vertical).
float heightOn(const Level& level, uint32_t t, const glm::vec2& p) {
  const glm::vec3 a = level.corner(t, 0);
  const glm::vec3 n = normalOf(level, t);
  return a.y - (n.x * (p.x - a.x) + n.z * (p.y - a.z)) / n.y;
}

/// The ground under (x, z): the highest `ground` triangle there, by scanning them all.
std::optional<float> groundBelow(const Level& level, const glm::vec2& p) {
  std::optional<float> best;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    if (level.materials[level.triangles[t].material] != "ground") continue;
    if (!insideTriangle(p, groundOf(level.corner(t, 0)), groundOf(level.corner(t, 1)),
                        groundOf(level.corner(t, 2)))) {
      continue;
    }
    const float y = heightOn(level, t, p);
    if (!best || y > *best) best = y;
  }
  return best;
}

// ---------------------------------------------------------------------------
// Features found in the triangles.
// ---------------------------------------------------------------------------

bool isUp(const glm::vec3& n) {
  return n.y > 0.99f;
}

bool insideAny(const Level& level, const std::vector<uint32_t>& triangles, const glm::vec2& p) {
  return std::any_of(triangles.begin(), triangles.end(), [&](uint32_t t) {
    return insideTriangle(p, groundOf(level.corner(t, 0)), groundOf(level.corner(t, 1)),
                          groundOf(level.corner(t, 2)));
  });
}

/// A ramp's sloped top: its triangles, its slope, and the heights of its foot and top.
struct Ramp {
  std::vector<uint32_t> triangles;
  float slope = 0.0f, foot = 1e30f, top = -1e30f;
};

std::vector<Ramp> rampsOf(const Level& level) {
  std::vector<Ramp> ramps;
  for (const Solid& solid : solidsOf(level, "ramp")) {
    Ramp ramp;
    for (uint32_t t : solid.triangles) {
      const float slope = slopeDegrees(normalOf(level, t));
      if (slope < 5.0f || slope > 85.0f) continue;  // tops of plateaus, sides, bottoms
      ramp.triangles.push_back(t);
      ramp.slope = slope;
      for (int k = 0; k < 3; ++k) {
        ramp.foot = std::min(ramp.foot, level.corner(t, k).y);
        ramp.top = std::max(ramp.top, level.corner(t, k).y);
      }
    }
    if (!ramp.triangles.empty()) ramps.push_back(ramp);
  }
  return ramps;
}

/// The flat top of a stair step: its height, corners and centre.
struct Tread {
  float y = 0.0f;
  std::vector<glm::vec2> corners;
  glm::vec2 centre{0.0f};
};

/// Treads that touch, lowest first, with the ground just in front of the first.
struct Flight {
  std::vector<Tread> treads;
  float ground = 0.0f;
  /// From the ground to the first tread, then between treads.
  std::vector<float> risers;
  /// Out from the first step, away from the second.
  glm::vec2 away{0.0f};
};

std::vector<Flight> flightsOf(const Level& level) {
  std::vector<Tread> treads;
  for (const Solid& solid : solidsOf(level, "stairs")) {
    Tread tread{solid.top, {}, glm::vec2(0.0f)};
    for (const glm::vec3& p : solid.points) {
      const bool known =
          std::any_of(tread.corners.begin(), tread.corners.end(),
                      [&](const glm::vec2& q) { return glm::distance(q, groundOf(p)) < 1e-3f; });
      if (p.y > solid.top - 1e-4f && !known) tread.corners.push_back(groundOf(p));
    }
    EXPECT_EQ(tread.corners.size(), 4u) << "a step is a box";
    for (const glm::vec2& q : tread.corners)
      tread.centre += q / float(tread.corners.size());
    treads.push_back(tread);
  }
  const auto touching = [](const Tread& a, const Tread& b) {
    int shared = 0;
    for (const glm::vec2& p : a.corners) {
      for (const glm::vec2& q : b.corners)
        shared += glm::distance(p, q) < 3e-3f;
    }
    return shared >= 2;
  };
  std::sort(treads.begin(), treads.end(), [](const Tread& a, const Tread& b) { return a.y < b.y; });
  std::vector<bool> used(treads.size());
  std::vector<Flight> flights;
  for (size_t first = 0; first < treads.size(); ++first) {
    if (used[first]) continue;
    Flight flight;
    flight.treads.push_back(treads[first]);
    used[first] = true;
    for (size_t next = first + 1; next < treads.size(); ++next) {
      if (!used[next] && touching(flight.treads.back(), treads[next])) {
        flight.treads.push_back(treads[next]);
        used[next] = true;
      }
    }
    if (flight.treads.size() < 2) {
      ADD_FAILURE() << "a flight of one step";
      continue;
    }
    const Tread& lowest = flight.treads[0];
    const Tread& second = flight.treads[1];
    flight.away = glm::normalize(lowest.centre - second.centre);
    // Just in front of the first riser (treads are as deep as their centres are apart).
    const float depth = glm::distance(lowest.centre, second.centre);
    const std::optional<float> ground =
        groundBelow(level, lowest.centre + (depth / 2 + 0.2f) * flight.away);
    EXPECT_TRUE(ground.has_value());
    flight.ground = ground.value_or(0.0f);
    flight.risers.push_back(lowest.y - flight.ground);
    for (size_t k = 1; k < flight.treads.size(); ++k)
      flight.risers.push_back(flight.treads[k].y - flight.treads[k - 1].y);
    flights.push_back(flight);
  }
  return flights;
}

/// A bridge solid whose underside clears the ground by more than `height`.
struct Deck {
  std::vector<uint32_t> tops;
  float top = 0.0f, underside = 0.0f, ground = 0.0f;
};

std::vector<Deck> decksOf(const Level& level, float height) {
  std::vector<Deck> decks;
  for (const Solid& solid : solidsOf(level, "bridge")) {
    const std::optional<float> ground = groundBelow(level, groundOf(solid.points[0]));
    EXPECT_TRUE(ground.has_value());
    if (!ground || solid.bottom < *ground + height) continue;  // ramps and pillars
    Deck deck{{}, solid.top, solid.bottom, *ground};
    for (uint32_t t : solid.triangles) {
      if (isUp(normalOf(level, t))) deck.tops.push_back(t);
    }
    decks.push_back(deck);
  }
  return decks;
}

/// A downward face of a roof and how far it is above the ground.
struct Underside {
  uint32_t triangle;
  float y, clearance;
};

std::vector<Underside> roofUndersides(const Level& level) {
  std::vector<Underside> undersides;
  for (const Solid& roof : solidsOf(level, "roof")) {
    for (uint32_t t : roof.triangles) {
      if (normalOf(level, t).y > -0.99f) continue;
      glm::vec2 centre(0.0f);
      for (int k = 0; k < 3; ++k)
        centre += groundOf(level.corner(t, k)) / 3.0f;
      const std::optional<float> ground = groundBelow(level, centre);
      EXPECT_TRUE(ground.has_value());
      const float y = level.corner(t, 0).y;
      undersides.push_back({t, y, y - ground.value_or(y)});
    }
  }
  return undersides;
}

/// An axis-aligned box on the ground plane round a gap in the ground. [metres]
struct Gap {
  float x0, z0, x1, z1;
  float narrowest() const { return std::min(x1 - x0, z1 - z0); }
};

// Samples 0.1 m apart that no ground triangle covers, joined into gaps.
std::vector<Gap> gapsIn(const Level& level, float size) {
  constexpr float kStep = 0.1f;
  const int n = int(std::lround(size / kStep));
  std::vector<uint8_t> covered(size_t(n) * n);
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    if (level.materials[level.triangles[t].material] != "ground") continue;
    const glm::vec2 a = groundOf(level.corner(t, 0)), b = groundOf(level.corner(t, 1)),
                    c = groundOf(level.corner(t, 2));
    const glm::vec2 low = glm::min(a, glm::min(b, c)), high = glm::max(a, glm::max(b, c));
    for (int j = std::max(0, int(low.y / kStep)); j < std::min(n, int(high.y / kStep) + 1); ++j) {
      for (int i = std::max(0, int(low.x / kStep)); i < std::min(n, int(high.x / kStep) + 1); ++i) {
        if (insideTriangle({(i + 0.5f) * kStep, (j + 0.5f) * kStep}, a, b, c))
          covered[size_t(j) * n + i] = 1;
      }
    }
  }
  std::vector<Gap> gaps;
  std::vector<uint8_t> seen(covered.size());
  for (size_t start = 0; start < covered.size(); ++start) {
    if (covered[start] || seen[start]) continue;
    int i0 = n, j0 = n, i1 = -1, j1 = -1;
    std::vector<size_t> stack{start};
    seen[start] = 1;
    while (!stack.empty()) {
      const size_t s = stack.back();
      stack.pop_back();
      const int i = int(s % n), j = int(s / n);
      i0 = std::min(i0, i), i1 = std::max(i1, i), j0 = std::min(j0, j), j1 = std::max(j1, j);
      for (const auto& [di, dj] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
        const int a = i + di, b = j + dj;
        const size_t next = size_t(b) * n + a;
        if (a >= 0 && b >= 0 && a < n && b < n && !covered[next] && !seen[next]) {
          seen[next] = 1;
          stack.push_back(next);
        }
      }
    }
    gaps.push_back({i0 * kStep, j0 * kStep, (i1 + 1) * kStep, (j1 + 1) * kStep});
  }
  return gaps;
}

// ---------------------------------------------------------------------------
// Generated levels, once per seed and test program.
// ---------------------------------------------------------------------------

struct Terrain {
  TerrainParams params;
  TerrainInfo info;
  Level level;
};

const Terrain& terrainFor(uint32_t seed) {
  static std::map<uint32_t, Terrain> cache;
  const auto found = cache.find(seed);
  if (found != cache.end()) return found->second;
  Terrain& terrain = cache[seed];
  terrain.params = withSeed(seed);
  const std::string text = generateText(terrain.params, &terrain.info);
  Result<Level> level = parseObj(text, "terrain.obj");
  EXPECT_TRUE(level.ok()) << level.error();
  if (level) terrain.level = std::move(level).value();
  Result<LevelSettings> settings = parseLevelSettings(terrain.info.sidecarJson, "terrain.json");
  EXPECT_TRUE(settings.ok()) << settings.error();
  if (settings) terrain.level.settings = std::move(settings).value();
  return terrain;
}

class GeneratedTerrain : public ::testing::TestWithParam<uint32_t> {
 protected:
  void SetUp() override {
    m_terrain = &terrainFor(GetParam());
    ASSERT_FALSE(m_terrain->level.triangles.empty());
  }
  const Level& level() const { return m_terrain->level; }
  const UnitProfile& unit() const { return m_terrain->params.unit; }
  float size() const { return m_terrain->params.size; }

  const Terrain* m_terrain = nullptr;
};

TEST_P(GeneratedTerrain, LoadsWithEveryMaterialAndNoDegenerateTriangle) {
  EXPECT_EQ(level().triangles.size(), m_terrain->info.triangles) << "the loader dropped some";
  EXPECT_EQ(level().vertices.size(), m_terrain->info.vertices);
  for (const char* material : {"ground", "ramp", "wall", "railing", "bridge", "stairs", "roof"}) {
    EXPECT_NE(std::find(level().materials.begin(), level().materials.end(), material),
              level().materials.end())
        << material;
  }
  for (uint32_t t = 0; t < level().triangles.size(); ++t) {
    const glm::vec3 a = level().corner(t, 0), b = level().corner(t, 1), c = level().corner(t, 2);
    const float area = 0.5f * glm::length(glm::cross(b - a, c - a));
    ASSERT_GT(area, 1e-4f) << "triangle " << t;
  }
  // The sidecar: a cell size and one unit, no seeds (builds seed everywhere).
  const LevelSettings& settings = level().settings;
  EXPECT_TRUE(settings.seeds.empty());
  ASSERT_TRUE(settings.cellSize.has_value());
  EXPECT_FLOAT_EQ(*settings.cellSize, 0.3f);
  ASSERT_EQ(settings.units.size(), 1u);
  EXPECT_FLOAT_EQ(settings.units[0].width, 1.2f);
  EXPECT_FLOAT_EQ(settings.units[0].stepHeight, 0.9f);
}

TEST_P(GeneratedTerrain, BoundsMatchTheSize) {
  EXPECT_NEAR(level().bounds.min.x, 0.0f, 1e-3f);
  EXPECT_NEAR(level().bounds.min.z, 0.0f, 1e-3f);
  EXPECT_NEAR(level().bounds.max.x, size(), 1e-3f);
  EXPECT_NEAR(level().bounds.max.z, size(), 1e-3f);
}

// Hills, not a flat floor: most of the ground is gentle, some of it not flat.
TEST_P(GeneratedTerrain, GroundRollsGently) {
  double area = 0.0, gentle = 0.0, sloped = 0.0;
  for (uint32_t t = 0; t < level().triangles.size(); ++t) {
    if (level().materials[level().triangles[t].material] != "ground") continue;
    const glm::vec3 a = level().corner(t, 0), b = level().corner(t, 1), c = level().corner(t, 2);
    const glm::vec3 cross = glm::cross(b - a, c - a);
    ASSERT_GT(cross.y, 0.0f) << "ground faces up";
    const double triangleArea = 0.5 * glm::length(cross);
    const float slope = slopeDegrees(glm::normalize(cross));
    area += triangleArea;
    if (slope < 20.0f) gentle += triangleArea;
    if (slope > 5.0f) sloped += triangleArea;
  }
  EXPECT_GT(gentle / area, 0.9);
  EXPECT_GT(sloped / area, 0.3);
  EXPECT_GT(level().bounds.size().y, 3.0f);
}

// Each solid is closed (every edge used once each way) and its faces point
// away from its middle (they are all convex).
TEST_P(GeneratedTerrain, SolidsAreClosedAndFaceOutward) {
  size_t solids = 0;
  for (const char* material : {"ramp", "wall", "railing", "bridge", "stairs", "roof"}) {
    for (const Solid& solid : solidsOf(level(), material)) {
      ++solids;
      glm::vec3 middle(0.0f);
      for (const glm::vec3& p : solid.points)
        middle += p / float(solid.points.size());
      std::map<std::pair<uint32_t, uint32_t>, int> edges;
      for (uint32_t t : solid.triangles) {
        const LevelTriangle& triangle = level().triangles[t];
        for (int k = 0; k < 3; ++k)
          ++edges[{triangle.vertex[k], triangle.vertex[(k + 1) % 3]}];
        glm::vec3 centre(0.0f);
        for (int k = 0; k < 3; ++k)
          centre += level().corner(t, k) / 3.0f;
        EXPECT_GT(glm::dot(normalOf(level(), t), centre - middle), 0.0f) << material << " " << t;
      }
      for (const auto& [edge, count] : edges) {
        EXPECT_EQ(count, 1) << material;
        EXPECT_EQ(edges.count({edge.second, edge.first}), 1u) << material << " has an open edge";
      }
    }
  }
  EXPECT_GT(solids, 30u);
}

// Sloped ramp faces lie 2..6 degrees under or over the max slope, both present.
TEST_P(GeneratedTerrain, RampsEitherSideOfTheMaxSlope) {
  size_t gentle = 0, steep = 0;
  for (const Ramp& ramp : rampsOf(level())) {
    EXPECT_GE(std::abs(ramp.slope - unit().maxSlopeDegrees), 2.0f) << ramp.slope;
    EXPECT_LE(std::abs(ramp.slope - unit().maxSlopeDegrees), 6.0f) << ramp.slope;
    ++(ramp.slope < unit().maxSlopeDegrees ? gentle : steep);
    // Up to a plateau higher than a step.
    EXPECT_GT(ramp.top - ramp.foot, unit().stepHeight);
  }
  EXPECT_GE(gentle, 1u);
  EXPECT_GE(steep, 1u);
}

// Railings and thin walls are thinner than the unit; some railings are low
// enough to step over, some walls thin and taller than the unit.
TEST_P(GeneratedTerrain, ThinWallsAndRailings) {
  size_t lowRailings = 0, tallThinWalls = 0, thickWalls = 0;
  for (const Solid& railing : solidsOf(level(), "railing")) {
    const PlanShape shape = planShape(railing.points);
    EXPECT_LT(shape.thickness, unit().width);
    EXPECT_GE(shape.thickness, 0.09f);
    EXPECT_LE(shape.thickness, 0.31f);
    const std::optional<float> ground = groundBelow(level(), groundOf(railing.points[0]));
    ASSERT_TRUE(ground.has_value());
    const float height = railing.top - *ground;
    if (height > 0.2f && height < unit().stepHeight) ++lowRailings;
  }
  for (const Solid& wall : solidsOf(level(), "wall")) {
    const PlanShape shape = planShape(wall.points);
    if (shape.thickness >= unit().width * 0.4f) {
      ++thickWalls;
      continue;
    }
    EXPECT_GE(shape.thickness, 0.09f);
    EXPECT_LE(shape.thickness, 0.31f);
    // Taller than the unit over every corner's ground.
    float highestGround = -1e30f;
    for (const glm::vec2& p : planHull(wall.points)) {
      if (const std::optional<float> ground = groundBelow(level(), p))
        highestGround = std::max(highestGround, *ground);
    }
    if (wall.top - highestGround > unit().height) ++tallThinWalls;
  }
  EXPECT_GE(lowRailings, 2u);
  EXPECT_GE(tallThinWalls, 2u);
  EXPECT_GE(thickWalls, 1u);
}

// Straight walls lie at least 5 degrees off both axes; a curved wall is many
// short segments turning through many directions.
TEST_P(GeneratedTerrain, DiagonalAndCurvedWalls) {
  size_t straight = 0;
  std::vector<bool> headings(18);
  size_t segments = 0;
  for (const Solid& wall : solidsOf(level(), "wall")) {
    const PlanShape shape = planShape(wall.points);
    const float heading = std::atan2(shape.direction.y, shape.direction.x) * kDegrees;
    const float fromAxis = std::abs(std::remainder(heading, 90.0f));
    if (shape.length > 2.0f && shape.thickness < unit().width) {
      ++straight;
      EXPECT_GE(fromAxis, 5.0f) << "a straight wall along an axis";
    } else if (shape.length < 1.0f) {
      ++segments;
      headings[size_t(std::floor(std::fmod(heading + 360.0f, 180.0f) / 10.0f)) % 18] = true;
    }
  }
  EXPECT_GE(straight, 3u);
  EXPECT_GE(segments, 10u);
  EXPECT_GE(std::count(headings.begin(), headings.end(), true), 8);
}

// Treads that touch differ by one riser: 0.1 m under or over the unit's step
// (within 0.15 m), one kind a flight, both kinds present.
TEST_P(GeneratedTerrain, StairRisersEitherSideOfTheStep) {
  size_t below = 0, above = 0;
  for (const Flight& flight : flightsOf(level())) {
    ASSERT_GE(flight.treads.size(), 3u);
    const bool climbable = flight.risers[1] < unit().stepHeight;
    for (float riser : flight.risers) {
      EXPECT_NEAR(riser, unit().stepHeight, 0.15f);
      EXPECT_EQ(riser < unit().stepHeight, climbable) << "one flight, one riser";
    }
    ++(climbable ? below : above);
  }
  EXPECT_GE(below, 1u);
  EXPECT_GE(above, 1u);
}

// A deck clears the ground by more than the unit's height, railed on both sides.
TEST_P(GeneratedTerrain, BridgeDeckOverLowerGround) {
  const std::vector<Deck> decks = decksOf(level(), unit().height);
  ASSERT_GE(decks.size(), 1u);
  for (const Deck& deck : decks) {
    EXPECT_GT(deck.underside - deck.ground, unit().height);
    size_t railings = 0;
    for (const Solid& railing : solidsOf(level(), "railing")) {
      glm::vec2 middle(0.0f);
      for (const glm::vec3& p : railing.points)
        middle += groundOf(p) / float(railing.points.size());
      railings += std::abs(railing.bottom - deck.top) < 1e-3f &&
                  railing.top - deck.top > unit().stepHeight &&
                  insideAny(level(), deck.tops, middle);
    }
    EXPECT_EQ(railings, 2u);
  }
}

// Roofs clear the ground by more than the unit's height in one part and by
// less in another, neither by a metre more or less.
TEST_P(GeneratedTerrain, CaveClearanceAboveAndBelowTheUnit) {
  size_t high = 0, low = 0;
  for (const Underside& underside : roofUndersides(level())) {
    EXPECT_NEAR(underside.clearance, unit().height, 1.0f);
    ++(underside.clearance > unit().height ? high : low);
  }
  EXPECT_GE(high, 2u);
  EXPECT_GE(low, 2u);
}

// Gaps in the ground: one narrower than the unit, one wider both ways.
TEST_P(GeneratedTerrain, HolesNarrowerAndWiderThanTheUnit) {
  size_t narrow = 0, wide = 0;
  for (const Gap& gap : gapsIn(level(), size())) {
    narrow += gap.narrowest() < unit().width - 0.2f;
    wide += gap.narrowest() > unit().width + 0.2f;
  }
  EXPECT_GE(narrow, 1u);
  EXPECT_GE(wide, 1u);
}

// A default build (the sidecar's unit and cell size, seeds everywhere) goes
// where each feature says it may, and nowhere it says it may not. One test,
// since each test runs in a process of its own and the build is most of its time.
TEST_P(GeneratedTerrain, DefaultBuildGoesWhereTheFeaturesSay) {
  const CollisionWorld world(level());
  BuildOptions options;
  options.keepCells = true;
  const Result<NavBuild> built =
      buildNavigation(level(), world, defaultFillParams(level()), options);
  ASSERT_TRUE(built.ok()) << built.error();
  const NavBuild& build = built.value();
  const CellGrid& cells = *build.cells;
  EXPECT_TRUE(build.stats.warnings.empty());
  // Most of the ground: the level is 64 x 64 m, 45,500 cells of 0.3 m.
  const double groundCells = double(size()) * size() / 0.09;
  EXPECT_GT(double(build.stats.cells), 0.8 * groundCells);
  EXPECT_LT(double(build.stats.cells), 1.3 * groundCells);
  EXPECT_GT(build.stats.sectors, 100u);
  const auto count = [&](auto&& pick) {
    size_t n = 0;
    for (uint32_t i = 0; i < cells.size(); ++i)
      n += pick(cells.center(i));
    return n;
  };

  // The unit stands on a ramp's slope (higher than a step from its foot and
  // lower than its top, where the ground and the plateau are) below the max
  // slope only.
  for (const Ramp& ramp : rampsOf(level())) {
    const size_t onSlope = count([&](const glm::vec3& c) {
      return c.y > ramp.foot + unit().stepHeight + 0.05f && c.y < ramp.top - 0.05f &&
             insideAny(level(), ramp.triangles, groundOf(c));
    });
    if (ramp.slope < unit().maxSlopeDegrees) {
      EXPECT_GT(onSlope, 10u) << "no cells on a ramp of " << ramp.slope << " degrees";
    } else {
      EXPECT_EQ(onSlope, 0u) << "cells on a ramp of " << ramp.slope << " degrees";
    }
  }

  // It climbs from in front of a flight to its landing when the risers are below its step.
  for (const Flight& flight : flightsOf(level())) {
    const glm::vec2 foot = flight.treads[0].centre + (1.0f + unit().width) * flight.away;
    const std::optional<float> ground = groundBelow(level(), foot);
    ASSERT_TRUE(ground.has_value());
    const Tread& landing = flight.treads.back();
    const PathResult up = findPath(build.graph, {foot.x, *ground + 0.05f, foot.y},
                                   {landing.centre.x, landing.y + 0.05f, landing.centre.y});
    EXPECT_EQ(up.status == PathStatus::Found, flight.risers[1] < unit().stepHeight)
        << "risers of " << flight.risers[1] << ": " << toString(up.status);
  }

  // It stands on a deck and under it.
  for (const Deck& deck : decksOf(level(), unit().height)) {
    const auto onDeck = [&](const glm::vec3& c) {
      return insideAny(level(), deck.tops, groundOf(c));
    };
    EXPECT_GT(
        count([&](const glm::vec3& c) { return std::abs(c.y - deck.top) < 0.05f && onDeck(c); }),
        10u);
    EXPECT_GT(count([&](const glm::vec3& c) {
                return c.y < deck.underside - unit().height && onDeck(c);
              }),
              10u);
  }

  // It stands under a roof that clears it, never under one that does not.
  for (const Underside& underside : roofUndersides(level())) {
    const size_t beneath = count([&](const glm::vec3& c) {
      return c.y < underside.y && insideAny(level(), {underside.triangle}, groundOf(c));
    });
    if (underside.clearance > unit().height) {
      EXPECT_GT(beneath, 0u) << "under a roof " << underside.clearance << " m up";
    } else {
      EXPECT_EQ(beneath, 0u) << "under a roof " << underside.clearance << " m up";
    }
  }

  // Its whole footprint needs ground: at the ground's height round a gap, it
  // never stands with its footprint across a crack (wider than a cell,
  // narrower than the unit), nor over a wide hole. (Below, in a hole's pit, it
  // may.) The margin covers the gaps' 0.1 m sampling and the ground's 3 cm reach.
  const float half = unit().width / 2 - 0.15f;
  for (const Gap& gap : gapsIn(level(), size())) {
    const std::optional<float> rim =
        groundBelow(level(), {gap.x0 - 0.2f, 0.5f * (gap.z0 + gap.z1)});
    ASSERT_TRUE(rim.has_value());
    EXPECT_EQ(count([&](const glm::vec3& c) {
                return std::abs(c.y - *rim) < unit().stepHeight && c.x + half > gap.x0 &&
                       c.x - half < gap.x1 && c.z + half > gap.z0 && c.z - half < gap.z1;
              }),
              0u)
        << "cells over a gap " << gap.narrowest() << " m wide";
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, GeneratedTerrain, ::testing::Values(1u, 2u, 3u));

}  // namespace
}  // namespace nav
