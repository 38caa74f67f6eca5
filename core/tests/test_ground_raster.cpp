// The ground raster: hand-made floors, ramps and slabs whose ground is known,
// and random soups against a brute force over every triangle.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "nav/ground_raster.h"
#include "test_levels.h"

namespace nav {
namespace {

constexpr float kNone = -std::numeric_limits<float>::infinity();

GroundRaster rasterOf(Level& level, float squareSize = 0.3f, float reach = 0.03f) {
  test::finish(level);
  GroundRasterParams params;
  params.squareSize = squareSize;
  params.origin = {level.bounds.min.x, level.bounds.min.z};
  params.reach = reach;
  Result<GroundRaster> raster = GroundRaster::build(level, params);
  EXPECT_TRUE(raster.ok()) << raster.error();
  return raster ? std::move(raster).value() : GroundRaster();
}

// Two triangles a, b, c and a, c, d, in the order given.
void addQuad(Level& level, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  const auto base = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {a, b, c, d});
  level.triangles.push_back({{base, base + 1, base + 2}, 0});
  level.triangles.push_back({{base, base + 2, base + 3}, 0});
}

TEST(GroundRaster, FloorAndItsReach) {
  // A floor over [0, 3]^2 at y = 0, reach 3 cm. The square size (0.3) does
  // not divide the floor's edges away from the origin (bounds min, here the
  // floor's corner); the reach still lists the floor in the squares past them.
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  const GroundRaster raster = rasterOf(level);
  EXPECT_EQ(raster.triangleCount(), 2u);
  EXPECT_EQ(raster.groundBelow({1.5f, 1.5f}, 1.0f), 0.0f);
  EXPECT_EQ(raster.groundBelow({1.5f, 1.5f}, 0.0f), 0.0f) << "ground exactly at the top counts";
  EXPECT_EQ(raster.groundBelow({1.5f, 1.5f}, -0.1f), kNone) << "above the top";
  // 0.02 m past an edge is within the 0.03 m reach; 0.05 m is not.
  for (const glm::vec2 p : {glm::vec2(3.02f, 1.5f), glm::vec2(-0.02f, 1.5f), glm::vec2(1.5f, 3.02f),
                            glm::vec2(1.5f, -0.02f)}) {
    EXPECT_EQ(raster.groundBelow(p, 1.0f), 0.0f) << p.x << ", " << p.y;
  }
  for (const glm::vec2 p : {glm::vec2(3.05f, 1.5f), glm::vec2(-0.05f, 1.5f), glm::vec2(1.5f, 3.05f),
                            glm::vec2(1.5f, -0.05f)}) {
    EXPECT_EQ(raster.groundBelow(p, 1.0f), kNone) << p.x << ", " << p.y;
  }
  EXPECT_EQ(raster.groundBelow({20.0f, 20.0f}, 1.0f), kNone) << "far from any ground";
  EXPECT_EQ(raster.groundBelow({-20.0f, -20.0f}, 1.0f), kNone) << "left of the origin";
}

TEST(GroundRaster, StackedFloorsAnswerTheHighestBelowTheTop) {
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  test::addFloor(level, 0, 0, 3, 3, 2);
  const GroundRaster raster = rasterOf(level);
  EXPECT_EQ(raster.groundBelow({1.0f, 2.0f}, 1.0f), 0.0f);
  EXPECT_EQ(raster.groundBelow({1.0f, 2.0f}, 3.0f), 2.0f);
  EXPECT_EQ(raster.groundBelow({1.0f, 2.0f}, 2.0f), 2.0f);
  EXPECT_EQ(raster.groundBelow({1.0f, 2.0f}, -1.0f), kNone);
}

TEST(GroundRaster, RampGivesItsPlaneClampedToItsCorners) {
  // A ramp from x = 0 (y = 0) to x = 3 (y = 1.5), across z 0..3: y = x / 2.
  // Wound a, b, c with normal cross(b - a, c - a) = (-4.5, 9, 0): facing up.
  Level level;
  addQuad(level, {0, 0, 0}, {0, 0, 3}, {3, 1.5f, 3}, {3, 1.5f, 0});
  const GroundRaster raster = rasterOf(level);
  EXPECT_EQ(raster.triangleCount(), 2u);
  for (const float x : {0.1f, 0.7f, 1.2f, 2.05f, 2.9f}) {
    for (const float z : {0.4f, 1.5f, 2.6f}) {
      EXPECT_NEAR(raster.groundBelow({x, z}, 10.0f), x / 2, 1e-5f) << x << ", " << z;
    }
  }
  // The top cuts the ramp: at x = 2 it lies at 1, above a top of 0.9.
  EXPECT_EQ(raster.groundBelow({2.0f, 1.5f}, 0.9f), kNone);
  // Just past its ends, within reach, the plane would go on below 0 and above
  // 1.5: the corners' heights bound it.
  EXPECT_EQ(raster.groundBelow({-0.02f, 1.5f}, 10.0f), 0.0f);
  EXPECT_EQ(raster.groundBelow({3.02f, 1.5f}, 10.0f), 1.5f);
}

TEST(GroundRaster, CentreGroundNamesItsFaceAndWhereASegmentLeavesIt) {
  // The ramp above split along its diagonal from (0, 0) to (3, 3): triangle
  // a, b, c holds the half with z > x, a, c, d the half with z < x. Square
  // centres lie at 0.15 + 0.3 k.
  Level level;
  addQuad(level, {0, 0, 0}, {0, 0, 3}, {3, 1.5f, 3}, {3, 1.5f, 0});
  const GroundRaster raster = rasterOf(level);
  GroundRaster::TileCache tiles;
  uint32_t upper = GroundRaster::kNoFace, lower = GroundRaster::kNoFace;
  // (0.45, 1.05) lies in the half z > x, (1.05, 0.45) in the other.
  EXPECT_NEAR(raster.groundBelowCentre({1, 3}, 10.0f, tiles, upper), 0.225f, 1e-6f);
  EXPECT_NEAR(raster.groundBelowCentre({3, 1}, 10.0f, tiles, lower), 0.525f, 1e-6f);
  ASSERT_NE(upper, GroundRaster::kNoFace);
  ASSERT_NE(lower, GroundRaster::kNoFace);
  EXPECT_NE(upper, lower);
  uint32_t none = 0;
  EXPECT_EQ(raster.groundBelowCentre({30, 30}, 10.0f, tiles, none), kNone);
  EXPECT_EQ(none, GroundRaster::kNoFace);
  // From (0.45, 1.05) to (1.05, 0.45) the segment crosses the diagonal
  // halfway: the upper face holds its first half, the lower its second.
  const glm::vec2 a(0.45f, 1.05f), b(1.05f, 0.45f);
  const auto [upperFirst, upperLast] = raster.faceSpan(upper, a, b);
  const auto [lowerFirst, lowerLast] = raster.faceSpan(lower, a, b);
  EXPECT_EQ(upperFirst, 0.0f);
  EXPECT_NEAR(upperLast, 0.5f, 1e-5f);
  EXPECT_NEAR(lowerFirst, 0.5f, 1e-5f);
  EXPECT_EQ(lowerLast, 1.0f);
  // A segment off a face: an empty span.
  const auto [offFirst, offLast] = raster.faceSpan(upper, {2.0f, 0.5f}, {2.5f, 1.0f});
  EXPECT_GT(offFirst, offLast);
  // Heights: the plane y = x / 2, kept within the corners' heights past the ramp.
  EXPECT_NEAR(raster.faceHeight(upper, {0.75f, 0.75f}), 0.375f, 1e-6f);
  EXPECT_EQ(raster.faceHeight(lower, {4.0f, 1.0f}), 1.5f);
}

TEST(GroundRaster, FacesTurnedDownOrUprightAreNoGround) {
  // The floor's quad wound the other way round faces down (normal (0, -9, 0)).
  Level level;
  addQuad(level, {0, 1, 0}, {3, 1, 0}, {3, 1, 3}, {0, 1, 3});
  const GroundRaster raster = rasterOf(level);
  EXPECT_EQ(raster.triangleCount(), 0u);
  EXPECT_EQ(raster.groundBelow({1.5f, 1.5f}, 10.0f), kNone);

  // A closed box: only its top (2 of its 12 triangles) faces up.
  Level box;
  test::addBox(box, Aabb{{0, 0, 0}, {2, 1, 2}});
  const GroundRaster boxRaster = rasterOf(box);
  EXPECT_EQ(boxRaster.triangleCount(), 2u);
  EXPECT_EQ(boxRaster.groundBelow({1.0f, 1.0f}, 10.0f), 1.0f);
  EXPECT_EQ(boxRaster.groundBelow({1.0f, 1.0f}, 0.5f), kNone) << "the bottom faces down";
}

TEST(GroundRaster, ReachIsADistanceEvenPastASliversTip) {
  // A sliver pointing along +x: tip (3, 1.5), base (0, 1.4) .. (0, 1.6),
  // wound to face up (normal (0, 0.6, 0)). Its nearest point to (x, 1.5)
  // past the tip is the tip: 0.02 away at x = 3.02, within the 0.03 reach;
  // 0.1 and 0.2 away at 3.1 and 3.2, out of it. The answer is the level's,
  // whatever the lattice: the same for squares starting anywhere.
  Level level;
  level.vertices = {{3, 0, 1.5f}, {0, 0, 1.4f}, {0, 0, 1.6f}};
  level.triangles.push_back({{0, 1, 2}, 0});
  test::finish(level);
  for (const float originX : {0.0f, 0.1f, 0.2f}) {
    SCOPED_TRACE(::testing::Message() << "squares from x = " << originX);
    GroundRasterParams params;
    params.origin = {originX, 0.0f};
    params.squareSize = 0.3f;
    params.reach = 0.03f;
    const Result<GroundRaster> raster = GroundRaster::build(level, params);
    ASSERT_TRUE(raster.ok()) << raster.error();
    EXPECT_EQ(raster.value().groundBelow({3.02f, 1.5f}, 1.0f), 0.0f);
    EXPECT_EQ(raster.value().groundBelow({3.1f, 1.5f}, 1.0f), kNone);
    EXPECT_EQ(raster.value().groundBelow({3.2f, 1.5f}, 1.0f), kNone);
  }
}

// A random soup with floors and walls among its triangles.
Level floorsAndWallsSoup(uint32_t seed) {
  test::SoupShape shape;
  shape.flatsAndWalls = true;
  return test::randomSoup(seed, shape);
}

// Squares are how ground is found, not what it is: two rasters of the same
// random soup (randomSoup's triangles of every shape, slivers included), with
// other square sizes and origins, give the same ground everywhere.
TEST(GroundRaster, TheGroundDoesNotDependOnTheSquares) {
  for (const uint32_t seed : {1u, 2u, 3u, 4u}) {
    SCOPED_TRACE(::testing::Message() << "soup " << seed);
    const Level level = floorsAndWallsSoup(seed);
    GroundRasterParams coarse;
    coarse.origin = {level.bounds.min.x, level.bounds.min.z};
    GroundRasterParams fine = coarse;
    fine.squareSize = 0.45f;
    fine.origin += glm::vec2(0.137f, 0.071f);
    const Result<GroundRaster> a = GroundRaster::build(level, coarse);
    const Result<GroundRaster> b = GroundRaster::build(level, fine);
    ASSERT_TRUE(a.ok() && b.ok());
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> position(-9.0f, 9.0f), height(-10.0f, 10.0f);
    int differ = 0;
    for (int i = 0; i < 20000; ++i) {
      const glm::vec2 p(position(rng), position(rng));
      const float top = height(rng);
      const float first = a.value().groundBelow(p, top), second = b.value().groundBelow(p, top);
      if (first != second && ++differ <= 3) {
        ADD_FAILURE() << "at " << p.x << ", " << p.y << " below " << top << ": " << first
                      << " with squares of 0.3, " << second << " with squares of 0.45";
      }
    }
    EXPECT_EQ(differ, 0);
  }
}

// Threads list the centre heights in runs of tiles: any count gives the same
// lists. Squares of 5 cm make hundreds of tiles, enough for three runs.
TEST(GroundRaster, CentreHeightsDoNotDependOnTheThreads) {
  const Level level = floorsAndWallsSoup(8);
  GroundRasterParams one;
  one.squareSize = 0.05f;
  one.reach = 0.01f;
  one.origin = {level.bounds.min.x, level.bounds.min.z};
  GroundRasterParams three = one;
  three.threads = 3;
  const Result<GroundRaster> a = GroundRaster::build(level, one);
  const Result<GroundRaster> b = GroundRaster::build(level, three);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value().memoryBytes(), b.value().memoryBytes());
  const glm::ivec2 last = a.value().squareOf({level.bounds.max.x, level.bounds.max.z});
  int found = 0, differ = 0;
  for (int32_t z = -1; z <= last.y + 1; ++z) {
    for (int32_t x = -1; x <= last.x + 1; ++x) {
      for (const float top : {-5.0f, 0.5f, 10.0f}) {
        GroundRaster::TileCache first, second;
        const float listed = a.value().groundBelowCentre({x, z}, top, first);
        found += listed != kNone;
        differ += listed != b.value().groundBelowCentre({x, z}, top, second);
      }
    }
  }
  EXPECT_EQ(differ, 0);
  EXPECT_GT(found, 10000) << "too few centres have ground to tell";
}

// A square's centre is answered from the heights listed there when the raster
// is built; the same point, off every centre of a raster whose squares start
// elsewhere, through the triangles themselves. Both give the same ground.
TEST(GroundRaster, SquareCentresAgreeWithTheTriangles) {
  for (const uint32_t seed : {5u, 6u, 7u}) {
    SCOPED_TRACE(::testing::Message() << "soup " << seed);
    const Level level = floorsAndWallsSoup(seed);
    GroundRasterParams lattice;
    lattice.origin = {level.bounds.min.x, level.bounds.min.z};
    GroundRasterParams shifted = lattice;
    shifted.origin += glm::vec2(0.11f, 0.07f);
    const Result<GroundRaster> a = GroundRaster::build(level, lattice);
    const Result<GroundRaster> b = GroundRaster::build(level, shifted);
    ASSERT_TRUE(a.ok() && b.ok());
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> square(-5, 70);
    std::uniform_real_distribution<float> height(-10.0f, 10.0f);
    int found = 0, differ = 0;
    for (int i = 0; i < 20000; ++i) {
      const glm::ivec2 at(square(rng), square(rng));
      const glm::vec2 centre = a.value().squareCentre(at);
      const float top = height(rng);
      GroundRaster::TileCache cache;
      const float listed = a.value().groundBelowCentre(at, top, cache);
      const float computed = b.value().groundBelow(centre, top);
      found += listed != kNone;
      if (listed != computed && ++differ <= 3) {
        ADD_FAILURE() << "at " << centre.x << ", " << centre.y << " below " << top << ": "
                      << listed << " listed, " << computed << " from the triangles";
      }
    }
    EXPECT_EQ(differ, 0);
    EXPECT_GT(found, 2000) << "too few centres have ground to tell";
  }
}

TEST(GroundRaster, PointsOnSquareBoundaries) {
  // Squares of 0.3 from the origin (0, 0), no reach, a floor over
  // [0.3, 0.9]^2 at y = 1: its edges lie on square boundaries. Points on a 0.15 lattice fall on
  // square edges and corners, on the floor's edges and corners, and on its diagonal (the shared
  // edge of its two triangles): all of them on the floor or its boundary have ground 1, the others
  // none.
  Level level;
  test::addFloor(level, 0.3f, 0.3f, 0.9f, 0.9f, 1.0f);
  test::finish(level);
  GroundRasterParams params;
  params.squareSize = 0.3f;
  params.origin = {0.0f, 0.0f};
  params.reach = 0.0f;
  const Result<GroundRaster> raster = GroundRaster::build(level, params);
  ASSERT_TRUE(raster.ok()) << raster.error();
  const float lattice[] = {0.0f, 0.15f, 0.3f, 0.45f, 0.6f, 0.75f, 0.9f, 1.05f, 1.2f};
  for (const float x : lattice) {
    for (const float z : lattice) {
      const bool onFloor = x >= 0.3f && x <= 0.9f && z >= 0.3f && z <= 0.9f;
      EXPECT_EQ(raster.value().groundBelow({x, z}, 2.0f), onFloor ? 1.0f : kNone) << x << ", " << z;
    }
  }
}

TEST(GroundRaster, BadParametersAndLimitsFailWithAMessage) {
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  test::finish(level);
  GroundRasterParams params;
  params.squareSize = 0.0f;
  const Result<GroundRaster> noSize = GroundRaster::build(level, params);
  ASSERT_FALSE(noSize.ok());
  EXPECT_NE(noSize.error().find("squareSize"), std::string::npos) << noSize.error();
  params = {};
  params.reach = params.squareSize;
  const Result<GroundRaster> farReach = GroundRaster::build(level, params);
  ASSERT_FALSE(farReach.ok());
  EXPECT_NE(farReach.error().find("reach"), std::string::npos) << farReach.error();

  // The floor lies in about 10 x 10 squares: far more than 37 entries.
  params = {};
  params.maxEntries = 37;
  const Result<GroundRaster> tooMany = GroundRaster::build(level, params);
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.error().find("37 entries"), std::string::npos) << tooMany.error();

  BuildControl control;
  control.cancelRequested = true;
  const Result<GroundRaster> cancelled = GroundRaster::build(level, GroundRasterParams{}, &control);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_NE(cancelled.error().find("cancelled"), std::string::npos) << cancelled.error();
}

// Random triangles of reasonable shape (no slivers, no faces steeper than
// 60 degrees, whose heights float rounding would blur: gradients of at most
// 1.2 along each axis) in three stacked layers, wound either way, plus
// axis-aligned floors sharing the layers' heights.
Level randomGround(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-6.0f, 6.0f), size(0.3f, 2.5f),
      angle(0.0f, 6.2831853f), tilt(-1.2f, 1.2f), jitter(-0.5f, 0.5f);
  const float layers[] = {0.0f, 1.5f, 3.0f};
  Level level;
  for (int i = 0; i < 150; ++i) {
    const glm::vec2 center(position(rng), position(rng));
    const float radius = size(rng), turn = angle(rng);
    // Corners 120 degrees apart around the centre, each moved by up to 0.5 rad:
    // every angle of the triangle is over 30 degrees.
    const glm::vec2 slope(tilt(rng), tilt(rng));
    const float base = layers[rng() % 3];
    glm::vec3 corners[3];
    for (int k = 0; k < 3; ++k) {
      const float a = turn + 2.0943951f * float(k) + jitter(rng);
      const glm::vec2 p = center + radius * glm::vec2(std::cos(a), std::sin(a));
      corners[k] = {p.x, base + glm::dot(slope, p - center), p.y};
    }
    if (rng() % 2) std::swap(corners[1], corners[2]);
    const auto first = uint32_t(level.vertices.size());
    level.vertices.insert(level.vertices.end(), {corners[0], corners[1], corners[2]});
    level.triangles.push_back({{first, first + 1, first + 2}, 0});
  }
  std::uniform_int_distribution<int> grid(-12, 10);
  for (int i = 0; i < 10; ++i) {
    const float x = float(grid(rng)) * 0.5f, z = float(grid(rng)) * 0.5f;
    test::addFloor(level, x, z, x + 2.0f, z + 1.5f, layers[rng() % 3]);
  }
  return level;
}

// The brute force: per triangle facing up (in 3D, by its normal), the
// vertical line through (x, z) meets its plane at a point; that point is in
// the triangle when it lies on the inner side of each edge, tested with 3D
// cross products against the normal. In double precision.
struct BruteGround {
  float ground = kNone;
  // The point is within 1e-3 m of an edge of a triangle facing up, or within
  // 1e-3 m of the top: too close to call.
  bool tooClose = false;
};

double segmentDistance(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 ab = b - a;
  const double t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
  return glm::length(p - (a + t * ab));
}

BruteGround bruteGround(const Level& level, glm::vec2 point, float top) {
  BruteGround answer;
  const glm::dvec2 p(point);
  for (const LevelTriangle& triangle : level.triangles) {
    const glm::dvec3 a(level.vertices[triangle.vertex[0]]);
    const glm::dvec3 b(level.vertices[triangle.vertex[1]]);
    const glm::dvec3 c(level.vertices[triangle.vertex[2]]);
    const glm::dvec3 normal = glm::cross(b - a, c - a);
    if (!(normal.y > 0.0)) continue;
    const glm::dvec2 a2(a.x, a.z), b2(b.x, b.z), c2(c.x, c.z);
    if (segmentDistance(p, a2, b2) < 1e-3 || segmentDistance(p, b2, c2) < 1e-3 ||
        segmentDistance(p, c2, a2) < 1e-3) {
      answer.tooClose = true;
    }
    const double y = a.y - (normal.x * (p.x - a.x) + normal.z * (p.y - a.z)) / normal.y;
    const glm::dvec3 hit(p.x, y, p.y);
    const bool inside = glm::dot(glm::cross(b - a, hit - a), normal) >= 0.0 &&
                        glm::dot(glm::cross(c - b, hit - b), normal) >= 0.0 &&
                        glm::dot(glm::cross(a - c, hit - c), normal) >= 0.0;
    if (!inside) continue;
    if (std::abs(y - double(top)) < 1e-3) answer.tooClose = true;
    if (y <= double(top)) answer.ground = std::max(answer.ground, float(y));
  }
  return answer;
}

TEST(GroundRaster, MatchesABruteForceOnRandomGround) {
  for (const uint32_t seed : {1u, 2u, 3u, 4u}) {
    for (const float squareSize : {0.3f, 0.65f}) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", squares " << squareSize);
      Level level = randomGround(seed);
      const GroundRaster raster = rasterOf(level, squareSize, 0.0f);
      std::mt19937 rng(seed + 100);
      std::uniform_real_distribution<float> position(-8.0f, 8.0f), height(-2.0f, 6.0f);
      int compared = 0, grounded = 0;
      for (int i = 0; i < 3000; ++i) {
        const glm::vec2 p(position(rng), position(rng));
        const float top = i % 10 == 0 ? std::numeric_limits<float>::max() : height(rng);
        const BruteGround expected = bruteGround(level, p, top);
        if (expected.tooClose) continue;
        ++compared;
        grounded += expected.ground != kNone;
        const float ground = raster.groundBelow(p, top);
        if (expected.ground == kNone) {
          EXPECT_EQ(ground, kNone) << "at " << p.x << ", " << p.y << " below " << top;
        } else {
          EXPECT_NEAR(ground, expected.ground, 1e-4f)
              << "at " << p.x << ", " << p.y << " below " << top;
        }
      }
      // Nearly every point is compared (about 2,985 of 3,000), and many of those
      // have ground (850 to 1,150).
      EXPECT_GT(compared, 2900);
      EXPECT_GT(grounded, 700);
    }
  }
}

}  // namespace
}  // namespace nav
