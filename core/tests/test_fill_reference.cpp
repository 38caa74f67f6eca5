// The flood fill (flood_fill.cpp) against a slow reference fill written here
// from its rules alone. The fast fill gathers candidate triangles per block,
// reuses a column's landing across steps from different heights, remembers
// footprint support, tests a rectangle in place of a round unit's stadium and
// runs on threads; none of that may change a cell. The reference asks the
// whole collision world every question afresh: the full sweep on every step,
// every landing recomputed. Both must give the same cells in the same order
// (column, height, links, material) and the same falls.
//
// Levels: generated terrain (seeds 1 and 2, round and box units, one turned
// 17 degrees; whole levels of about 41,000 cells, seeded everywhere), the
// bundled funnel (seeded), and a hand-made level with stairs, ledges, a gap,
// steep kerbs, a low wall, a low beam, a low ceiling before a step and ground
// the unit may not use, also with a ledge overhang and with cells wider than
// the unit. Not covered: devices (teleports); none of these levels has any.
// Rules no level here tells apart from their absence, so a mistake in them
// would pass: a step down's body up to a unit height above the source (the
// landing is the highest ground in a window reaching that high), the seeds'
// check for a cell at the triangle's plane (the seed checks again where it
// stands) and a link only within the step window (a step's target lies in it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "nav/cells.h"
#include "nav/collision.h"
#include "nav/flood_fill.h"
#include "nav/footprint_support.h"
#include "nav/ground_raster.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/terrain_generator.h"
#include "test_levels.h"

namespace nav {
namespace {

// The footprint is shrunk by this so that geometry exactly on its boundary (a
// wall at a multiple of the cell size) does not touch it. [metres]
constexpr float kShrink = 1e-3f;
// A cell's height may differ by this: the fast fill can clip the highest point
// in another window, a few micrometres apart. [metres]
constexpr float kHeightTolerance = 1e-5f;
constexpr float kNoFloor = -std::numeric_limits<float>::infinity();

// Where the unit would be after standing or stepping somewhere.
struct Landing {
  bool ok = false;
  /// It would stand clear, but ground does not support its footprint.
  bool hangs = false;
  /// Resting height: the highest ground under its footprint. [metres]
  float y = 0.0f;
  /// Ground under its centre; steps up are measured from here. [metres]
  float feet = 0.0f;
  /// What it stands on (the cell's material).
  uint32_t triangle = 0;
};

// What the reference met on its way, to show the comparison exercised each rule.
struct Seen {
  size_t steepEdges = 0;          ///< stands beside a face too steep (feet below y)
  size_t hangs = 0;               ///< steps whose landing hangs over a ledge
  size_t gaps = 0;                ///< walks off a ledge that met ground at their own height
  size_t unwalkable = 0;          ///< highest ground on a surface the unit may not use
  size_t falls = 0;               ///< falls in the reference's cells
  size_t unsupportedBetween = 0;  ///< steps leaving ground under the centre between cells
};

class ReferenceFill {
 public:
  ReferenceFill(const Level& level, const CollisionWorld& world, const FloodFillParams& params,
                const GroundRaster& ground)
      : m_level(level),
        m_world(world),
        m_params(params),
        m_unit(params.unit),
        m_walkable(walkableTrianglesFor(level, params)),
        m_ground(ground),
        m_support(ground, params.unit),
        m_grid(effectiveCellSize(params), {level.bounds.min.x, level.bounds.min.z},
               params.unit.stepHeight, params.unit.maxDrop) {}

  CellGrid run() {
    if (m_params.seeds.empty()) {
      seedEverywhere();
    } else {
      for (const glm::vec3& seed : m_params.seeds) {
        // A seed is a point a little above the ground: look down about a unit height.
        const glm::ivec2 column = m_grid.columnOf(seed);
        seedAt(column.x, column.y, seed.y - m_unit.height, seed.y + m_unit.stepHeight);
      }
    }
    m_grid.numberRowMajor();
    return std::move(m_grid);
  }

  const Seen& seen() const { return m_seen; }

 private:
  struct Open {
    int32_t x, z;
    uint32_t index;
    float y, feet;
  };

  glm::vec2 center(int32_t x, int32_t z) const {
    const glm::vec3 c = m_grid.columnCenter(x, z, 0.0f);
    return {c.x, c.z};
  }

  // Half the square's side, or the disc's radius.
  float half() const { return m_unit.footprint() * 0.5f - kShrink; }
  bool round() const { return m_unit.shape == UnitShape::Round; }
  float minNormalY() const { return std::cos(glm::radians(m_unit.maxSlopeDegrees)); }
  bool walkable(uint32_t triangle) const { return m_walkable.empty() || m_walkable[triangle]; }

  // Highest geometry under the footprint at c between yMin and yMax.
  std::optional<SupportHit> highest(glm::vec2 c, float yMin, float yMax) const {
    if (round()) return m_world.highestPointInCylinder(Stadium::cylinder(c, half(), yMin, yMax));
    return m_world.highestPointInBox(
        Aabb{{c.x - half(), yMin, c.y - half()}, {c.x + half(), yMax, c.y + half()}});
  }

  // Whether the footprint touches anything between yMin and yMax moving
  // straight from `from` to `to` (the same point: standing). A square sweeps
  // the box around both squares, a disc the stadium.
  bool touches(glm::vec2 from, glm::vec2 to, float yMin, float yMax) const {
    if (round()) return m_world.overlapsStadium(Stadium{from, to, half(), yMin, yMax});
    const glm::vec2 low = glm::min(from, to) - half(), high = glm::max(from, to) + half();
    return m_world.overlapsBox(Aabb{{low.x, yMin, low.y}, {high.x, yMax, high.y}});
  }

  // The unit resting on `hit` stands on it when it is flat enough; on a face
  // too steep (a kerb's bevel, the foot of a bank) it stands when flat,
  // walkable ground lies at most a step below its centre, with its feet there.
  Landing restOn(glm::vec2 c, const SupportHit& hit) {
    if (hit.normalY >= minNormalY()) return {true, false, hit.height, hit.height, hit.triangle};
    const std::optional<RayHit> under =
        m_world.raycast({c.x, hit.height + kGroundClearance, c.y}, {0.0f, -1.0f, 0.0f},
                        m_unit.stepHeight + kGroundClearance);
    if (!under || m_world.normalY(under->triangle) < minNormalY() || !walkable(under->triangle))
      return {};
    ++m_seen.steepEdges;
    return {true, false, hit.height, under->point.y, under->triangle};
  }

  // The unit set down on column centre c in [yMin, yMax]: on the highest
  // ground there, which it must be allowed to use, with its body clear from
  // 2 cm above that ground up to a unit height above it or above `headFrom`
  // (a step down also needs the column it drops through clear), and ground
  // supporting its footprint (else it hangs).
  Landing land(glm::vec2 c, float yMin, float yMax, float headFrom) {
    const std::optional<SupportHit> hit = highest(c, yMin, yMax);
    if (!hit) return {};
    if (!walkable(hit->triangle)) {
      ++m_seen.unwalkable;
      return {};
    }
    const float y = hit->height;
    if (touches(c, c, y + kGroundClearance, std::max(y, headFrom) + m_unit.height)) return {};
    Landing landing = restOn(c, *hit);
    if (landing.ok && !m_support.supported(c, landing.y)) {
      landing.ok = false;
      landing.hangs = true;
    }
    return landing;
  }

  // A step from `cell` into the neighbouring column: it lands on the highest
  // ground from a drop below its ground up to a step above its feet, and the
  // footprint swept between the two centres at the higher height must be
  // clear. A landing that hangs over a ledge starts a fall (only when the two
  // footprints overlap, as in the fast fill). Returns the landing and how many
  // columns away it is.
  std::pair<Landing, int> step(const Open& cell, int d) {
    const glm::vec2 from = center(cell.x, cell.z);
    const glm::vec2 to = center(cell.x + kDirectionDx[d], cell.z + kDirectionDz[d]);
    const Landing landing =
        land(to, cell.y - m_unit.maxDrop, cell.feet + m_unit.stepHeight, cell.y);
    const bool overlapping = m_grid.cellSize() <= m_unit.footprint() - 2.0f * kShrink;
    if (landing.hangs) ++m_seen.hangs;
    if (landing.hangs && overlapping) return fall(cell, d);
    if (!landing.ok) return {};
    const float top = std::max(cell.y, landing.y);
    if (touches(from, to, top + kGroundClearance, top + m_unit.height)) return {};
    if (!supportedBetween(from, to, top + kGroundClearance)) {
      ++m_seen.unsupportedBetween;
      return {};
    }
    return {landing, 1};
  }

  // Between two cells, at the points that cut the line between their
  // centres into the fewest even number of pieces no longer than twice the
  // ground raster's reach, at most six, the ground under the
  // unit's centre (the highest up to `top`, 2 cm above the higher cell) must
  // lie within a step below everything under the footprint there up to `top`.
  bool supportedBetween(glm::vec2 from, glm::vec2 to, float top) const {
    const float spacing = 2.0f * m_ground.reach();
    const int least = int(std::ceil(glm::distance(from, to) / spacing));
    const int pieces = std::clamp(least + least % 2, 2, 6);
    for (int k = 1; k < pieces; ++k) {
      const glm::vec2 p = glm::mix(from, to, float(k) / float(pieces));
      const float ground = m_ground.groundBelow(p, top);
      if (ground == kNoFloor) return false;
      const float highestRest = ground + m_unit.stepHeight + kStepSlack;
      if (top > highestRest && touches(p, p, highestRest, top)) return false;
    }
    return true;
  }

  // Walking off a ledge: the unit goes on at its height, column by column,
  // until its footprint clears the ledge, then lands on the highest ground
  // below if it can stand there. Meeting ground it stands on at its own
  // height first is a gap it cannot cross: no fall.
  std::pair<Landing, int> fall(const Open& cell, int d) {
    const glm::vec2 from = center(cell.x, cell.z);
    const int maxColumns = int(std::ceil(2.0f * m_unit.footprint() / m_grid.cellSize())) + 2;
    for (int j = 2; j <= maxColumns; ++j) {
      const glm::vec2 to = center(cell.x + j * kDirectionDx[d], cell.z + j * kDirectionDz[d]);
      if (touches(from, to, cell.y + kGroundClearance, cell.y + m_unit.height)) return {};
      const float bottom = cell.y - m_unit.maxDrop, top = cell.y + m_unit.stepHeight;
      const std::optional<SupportHit> ground = highest(to, bottom, top);
      if (!ground) return {};  // deeper than the unit may drop
      const Landing landing = land(to, bottom, top, kNoFloor);
      if (ground->height < cell.y - m_unit.stepHeight) {
        if (!landing.ok) return {};
        return {landing, j};
      }
      if (landing.ok) {
        ++m_seen.gaps;
        return {};
      }
    }
    return {};
  }

  // A cell is known by its column and its height within half a unit height.
  uint32_t cellNear(int32_t x, int32_t z, float y) const {
    const float tolerance = m_unit.height * 0.5f;
    return m_grid.findInColumn(x, z, y - tolerance, y + tolerance);
  }

  uint32_t add(int32_t x, int32_t z, const Landing& landing) {
    const uint32_t index =
        m_grid.add(x, z, landing.y, m_level.triangles[landing.triangle].material);
    m_open.push_back({x, z, index, landing.y, landing.feet});
    return index;
  }

  // Breadth first: each cell's four steps in direction order; a step's target
  // is the column's cell near its height, or a new one. A link is kept only
  // when the target lies in the step's window (what CellGrid::neighbor finds);
  // a fall is a FallLink and no link.
  void explore() {
    while (!m_open.empty()) {
      const Open cell = m_open.front();
      m_open.pop_front();
      uint8_t links = 0;
      for (int d = 0; d < kDirectionCount; ++d) {
        const auto [landing, columns] = step(cell, d);
        if (!landing.ok) continue;
        const int32_t x = cell.x + columns * kDirectionDx[d];
        const int32_t z = cell.z + columns * kDirectionDz[d];
        uint32_t target = cellNear(x, z, landing.y);
        if (target == kNoCell) target = add(x, z, landing);
        if (columns > 1) {
          m_grid.addFall({cell.index, target, Direction(d), uint8_t(columns)});
        } else if (m_grid.inStepWindow(cell.y, m_grid.height(target))) {
          links = uint8_t(links | (1u << d));
        }
      }
      m_grid.setLinks(cell.index, links);
    }
  }

  // A seed stands the unit in a window and explores everything it reaches
  // before the next seed, unless the column already has a cell there.
  void seedAt(int32_t x, int32_t z, float yMin, float yMax) {
    const Landing landing = land(center(x, z), yMin, yMax, kNoFloor);
    if (!landing.ok || cellNear(x, z, landing.y) != kNoCell) return;
    add(x, z, landing);
    explore();
  }

  // Without seeds: every triangle facing up flat enough (by its winding; its
  // material is the standing test's business), in index order, seeds each
  // column whose centre lies inside its ground projection, row by row, from
  // 5 cm below its plane up to a step above (on a slope the footprint rests
  // higher than its centre); a column with a cell near that plane is skipped.
  void seedEverywhere() {
    for (uint32_t t = 0; t < m_level.triangles.size(); ++t) {
      const glm::vec3 a = m_level.corner(t, 0), b = m_level.corner(t, 1), c = m_level.corner(t, 2);
      const glm::vec3 normal = glm::cross(b - a, c - a);
      const float length = glm::length(normal);
      if (!(length > 0.0f) || normal.y / length < minNormalY()) continue;
      const glm::ivec2 lo = m_grid.columnOf(glm::min(a, glm::min(b, c)));
      const glm::ivec2 hi = m_grid.columnOf(glm::max(a, glm::max(b, c)));
      for (int32_t z = lo.y; z <= hi.y; ++z) {
        for (int32_t x = lo.x; x <= hi.x; ++x) {
          const glm::vec3 p = m_grid.columnCenter(x, z, 0.0f);
          const float e0 = triArea2(a, b, p), e1 = triArea2(b, c, p), e2 = triArea2(c, a, p);
          const bool inside = (e0 <= 0 && e1 <= 0 && e2 <= 0) || (e0 >= 0 && e1 >= 0 && e2 >= 0);
          if (!inside) continue;
          const float y = a.y - (normal.x * (p.x - a.x) + normal.z * (p.z - a.z)) / normal.y;
          if (cellNear(x, z, y) != kNoCell) continue;
          seedAt(x, z, y - 0.05f, y + m_unit.stepHeight);
        }
      }
    }
  }

  const Level& m_level;
  const CollisionWorld& m_world;
  const FloodFillParams& m_params;
  const UnitProfile& m_unit;
  std::vector<bool> m_walkable;
  const GroundRaster& m_ground;
  FootprintSupport m_support;
  CellGrid m_grid;
  std::deque<Open> m_open;
  Seen m_seen;
};

std::string describe(const Cell& cell) {
  std::ostringstream out;
  out.precision(9);
  out << "column (" << cell.x << ", " << cell.z << ") y " << cell.y << " links " << int(cell.links)
      << " material " << cell.material;
  return out.str();
}

// The fast fill's cells and falls against the reference's, index by index.
// Reports the first few differences; after one the rest often follow.
void expectSameCells(const CellGrid& reference, const CellGrid& fast, const std::string& name) {
  EXPECT_EQ(fast.size(), reference.size()) << name << ": cell count";
  int reported = 0;
  size_t differing = 0;
  const size_t common = std::min(fast.size(), reference.size());
  for (uint32_t i = 0; i < common; ++i) {
    const Cell want = reference[i], got = fast[i];
    const bool same = got.x == want.x && got.z == want.z &&
                      std::abs(got.y - want.y) <= kHeightTolerance && got.links == want.links &&
                      got.material == want.material;
    if (same) continue;
    ++differing;
    if (reported++ < 5) {
      ADD_FAILURE() << name << ": cell " << i << "\n  fast:      " << describe(got)
                    << "\n  reference: " << describe(want);
    }
  }
  EXPECT_EQ(differing, 0u) << name << ": cells that differ of " << common;

  const std::vector<FallLink>& wantFalls = reference.falls();
  const std::vector<FallLink>& gotFalls = fast.falls();
  EXPECT_EQ(gotFalls.size(), wantFalls.size()) << name << ": falls";
  reported = 0;
  for (size_t i = 0; i < std::min(gotFalls.size(), wantFalls.size()); ++i) {
    const FallLink& want = wantFalls[i];
    const FallLink& got = gotFalls[i];
    if (got.from == want.from && got.to == want.to && got.direction == want.direction &&
        got.columns == want.columns)
      continue;
    if (reported++ < 5) {
      ADD_FAILURE() << name << ": fall " << i << "\n  fast:      " << got.from << " -> " << got.to
                    << " direction " << int(got.direction) << " columns " << int(got.columns)
                    << "\n  reference: " << want.from << " -> " << want.to << " direction "
                    << int(want.direction) << " columns " << int(want.columns);
    }
  }
}

// Fills the level with the fast fill (one thread and three) and the
// reference, and compares them. Returns what the reference met.
Seen compareWithReference(const Level& level, const FloodFillParams& params,
                          const std::string& name) {
  const CollisionWorld world(level);
  const Result<GroundRaster> ground = buildGroundRaster(level, params);
  EXPECT_TRUE(ground.ok()) << name << ": " << ground.error();
  if (!ground) return {};

  ReferenceFill reference(level, world, params, ground.value());
  const CellGrid referenceCells = reference.run();
  EXPECT_GT(referenceCells.size(), 0u) << name;

  for (const int threads : {1, 3}) {
    FloodFillParams fastParams = params;
    fastParams.threads = threads;
    const Result<CellGrid> fast =
        floodFill(level, world, fastParams, nullptr, nullptr, &ground.value());
    EXPECT_TRUE(fast.ok()) << name << ": " << fast.error();
    if (fast)
      expectSameCells(referenceCells, fast.value(),
                      name + ", " + std::to_string(threads) + " thread(s)");
  }
  Seen seen = reference.seen();
  seen.falls = referenceCells.falls().size();
  return seen;
}

// Generated terrain with its sidecar (cell size and unit; no seeds).
Level terrain(uint32_t seed) {
  TerrainParams params;
  params.seed = seed;
  std::ostringstream obj;
  const Result<TerrainInfo> info = generateTerrain(params, obj);
  EXPECT_TRUE(info.ok()) << info.error();
  Result<Level> level = parseObj(obj.str(), "terrain " + std::to_string(seed));
  EXPECT_TRUE(level.ok()) << level.error();
  if (!info || !level) return {};
  Level made = std::move(level).value();
  made.settings = parseLevelSettings(info.value().sidecarJson, "terrain").value();
  return made;
}

// The terrain's unit drops no more than it steps (0.9 m): it could never fall.
// Dropping up to 3 m, it falls off ledges (over a hundred falls a terrain).
FloodFillParams terrainParams(const Level& level, UnitShape shape) {
  FloodFillParams params = defaultFillParams(level);
  params.unit.shape = shape;
  params.unit.maxDrop = 3.0f;
  return params;
}

// The terrains hold every rule: slopes either side of the max, stairs either
// side of the step, walls at any angle, railings, a bridge, a low cave, holes.
void expectTerrainCovered(const Seen& seen, const std::string& name) {
  EXPECT_GT(seen.steepEdges, 0u) << name;
  EXPECT_GT(seen.hangs, 0u) << name;
  EXPECT_GT(seen.falls, 0u) << name;
}

TEST(FillReference, TerrainSeed1Round) {
  const Level level = terrain(1);
  const Seen seen =
      compareWithReference(level, terrainParams(level, UnitShape::Round), "terrain 1");
  expectTerrainCovered(seen, "terrain 1");
}

TEST(FillReference, TerrainSeed2Box) {
  const Level level = terrain(2);
  const Seen seen = compareWithReference(level, terrainParams(level, UnitShape::Box), "terrain 2");
  expectTerrainCovered(seen, "terrain 2");
  // Its stairs of risers near the step hold the box between cells.
  EXPECT_GT(seen.unsupportedBetween, 0u);
}

TEST(FillReference, TerrainSeed2BoxTurned17Degrees) {
  const Result<Level> turned = rotatedAboutY(terrain(2), 17.0f);
  ASSERT_TRUE(turned.ok()) << turned.error();
  const Seen seen = compareWithReference(
      turned.value(), terrainParams(turned.value(), UnitShape::Box), "terrain 2 turned 17");
  expectTerrainCovered(seen, "terrain 2 turned 17");
}

TEST(FillReference, Funnel) {
  Result<Level> level = loadLevel(test::assetFile("funnel.obj"));
  ASSERT_TRUE(level.ok()) << level.error();
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    FloodFillParams params = defaultFillParams(level.value());
    params.unit.shape = shape;
    compareWithReference(level.value(), params, std::string("funnel, ") + toString(shape));
  }
}

// A triangle of the solid around `inside`, wound to face away from it.
void addOutward(Level& level, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 inside) {
  if (glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0f - inside) < 0.0f) std::swap(b, c);
  const uint32_t base = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {a, b, c});
  level.triangles.push_back({{base, base + 1, base + 2}, 0});
}

// A kerb across z0..z1 from x, `height` tall: a bevel rising over `run` along x
// (too steep to stand on), then a flat top to x + 1, and a vertical back.
void addBevelledKerb(Level& level, float x, float z0, float z1, float height, float run) {
  const glm::vec2 profile[4] = {{x, 0.0f}, {x + run, height}, {x + 1.0f, height}, {x + 1.0f, 0.0f}};
  const glm::vec3 inside(x + 0.6f, 0.5f * height, 0.5f * (z0 + z1));
  for (int i = 0; i < 3; ++i) {
    const glm::vec2 p = profile[i], q = profile[i + 1];
    addOutward(level, {p.x, p.y, z0}, {q.x, q.y, z0}, {q.x, q.y, z1}, inside);
    addOutward(level, {p.x, p.y, z0}, {q.x, q.y, z1}, {p.x, p.y, z1}, inside);
  }
  for (const float z : {z0, z1}) {
    for (int i = 1; i < 3; ++i) {
      addOutward(level, {profile[0].x, profile[0].y, z}, {profile[i].x, profile[i].y, z},
                 {profile[i + 1].x, profile[i + 1].y, z}, inside);
    }
  }
}

// Ground 16 x 10 m with stairs of 0.3 m risers up to a 1.5 m platform, a 0.5 m
// gap to a second platform whose far edge drops 1.5 m, a 0.7 m shelf (more
// than a step: fallen off, never climbed), a 0.3 m kerb with a 56 degree bevel,
// a 0.6 m kerb with a 63 degree bevel whose foot is partly ground the unit may
// not use, a low wall to step over, a beam too low to pass under, a low
// ceiling ending just before a 0.3 m step up (the head would hit it on the
// way up), and a corner of ground the unit may not use.
Level ledgeLevel() {
  Level level;
  test::addFloor(level, 0, 0, 16, 5.5f, 0);
  test::addFloor(level, 0, 5.5f, 11.4f, 6, 0);
  test::addFloor(level, 11.4f, 5.5f, 12, 6, 0, "forbidden");
  test::addFloor(level, 12, 5.5f, 16, 6, 0);
  test::addFloor(level, 0, 6, 16, 7, 0);
  test::addFloor(level, 0, 7, 10, 10, 0);
  test::addFloor(level, 10, 7, 14, 10, 0, "forbidden");
  test::addFloor(level, 14, 7, 16, 10, 0);
  for (int i = 0; i < 5; ++i) {
    const float x = 1.5f + 0.5f * float(i);
    test::addBox(level, Aabb{{x, 0.0f, 0.5f}, {x + 0.5f, 0.3f * float(i + 1), 3.0f}});
  }
  test::addBox(level, Aabb{{4.0f, 0.0f, 0.0f}, {8.0f, 1.5f, 4.0f}});
  test::addBox(level, Aabb{{8.5f, 0.0f, 0.0f}, {11.0f, 1.5f, 4.0f}});
  test::addBox(level, Aabb{{1.0f, 0.0f, 5.0f}, {3.0f, 0.7f, 6.5f}});
  addBevelledKerb(level, 4.0f, 5.0f, 6.5f, 0.3f, 0.2f);
  addBevelledKerb(level, 12.0f, 5.0f, 6.5f, 0.6f, 0.3f);
  test::addBox(level, Aabb{{6.5f, 0.0f, 4.5f}, {6.7f, 0.3f, 9.0f}});
  test::addBox(level, Aabb{{8.0f, 1.0f, 5.0f}, {8.4f, 3.0f, 9.5f}});
  test::addBox(level, Aabb{{13.5f, 1.9f, 0.5f}, {14.5f, 2.1f, 3.0f}});
  test::addBox(level, Aabb{{15.0f, 0.0f, 0.5f}, {15.6f, 0.3f, 3.0f}});
  test::finish(level);
  level.settings.seeds = {{0.8f, 0.05f, 0.8f}};
  return level;
}

FloodFillParams ledgeParams(const Level& level, UnitShape shape, float cellSize,
                            float overhang = 0.0f) {
  FloodFillParams params;
  params.unit.shape = shape;
  params.unit.ledgeOverhang = overhang;
  params.cellSize = cellSize;
  params.seeds = level.settings.seeds;
  for (const std::string& material : level.materials)
    params.walkableMaterials.push_back(material != "forbidden");
  return params;
}

TEST(FillReference, HandMadeLedgesAndStairs) {
  const Level level = ledgeLevel();
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    const std::string name = std::string("ledges, ") + toString(shape);
    const FloodFillParams params = ledgeParams(level, shape, 0.3f);
    const Seen seen = compareWithReference(level, params, name);
    EXPECT_GT(seen.steepEdges, 0u) << name;
    EXPECT_GT(seen.hangs, 0u) << name;
    EXPECT_GT(seen.gaps, 0u) << name;
    EXPECT_GT(seen.falls, 0u) << name;
    EXPECT_GT(seen.unwalkable, 0u) << name;
  }
  // A footprint may hang 0.2 m over a ledge: support samples a smaller square.
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    compareWithReference(level, ledgeParams(level, shape, 0.3f, 0.2f),
                         std::string("ledges, overhang 0.2, ") + toString(shape));
  }
  // Cells wider than the unit: footprints of neighbours do not overlap, the
  // step sweeps the strip between them, and nothing falls.
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    compareWithReference(level, ledgeParams(level, shape, 0.7f),
                         std::string("ledges, cells 0.7, ") + toString(shape));
  }
}

}  // namespace
}  // namespace nav
