// CollisionWorld against brute force: every query is answered again by a
// method that shares nothing with the BVH and the separating-axis test
// (Möller–Trumbore over all triangles in double precision; Sutherland–Hodgman
// clipping of each triangle against the box's six planes).
//
// Float results near a boundary (a ray grazing an edge, a triangle touching the
// box within rounding) may go either way, so each brute-force answer is taken
// twice: "strict" (the query shrunk by a small margin) must be found, and only
// what "loose" (grown by the margin) finds may be reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "nav/collision.h"
#include "nav/level.h"
#include "test_levels.h"

namespace nav {
namespace {

/// Margin for "near a boundary". [metres, or barycentric units]
constexpr double kMargin = 1e-4;
/// Tolerance on reported distances and heights. [metres]
constexpr double kTolerance = 2e-3;

struct Triangle {
  glm::dvec3 a, b, c;
};

Triangle triangleOf(const Level& level, uint32_t t) {
  return {level.corner(t, 0), level.corner(t, 1), level.corner(t, 2)};
}

// --- brute force ---------------------------------------------------------------

struct BruteRayHit {
  double distance;
  /// Smallest barycentric coordinate: < 0 outside the triangle, tiny near an edge.
  double margin;
  /// |cos| of the angle between the ray and the triangle's plane normal.
  double facing;
};

/// Möller–Trumbore in double precision.
std::optional<BruteRayHit> intersect(const glm::dvec3& origin, const glm::dvec3& direction,
                                     const Triangle& tri) {
  const glm::dvec3 e1 = tri.b - tri.a, e2 = tri.c - tri.a;
  const glm::dvec3 p = glm::cross(direction, e2);
  const double det = glm::dot(e1, p);
  const glm::dvec3 normal = glm::cross(e1, e2);
  if (det == 0.0 || glm::length(normal) == 0.0) return std::nullopt;
  const glm::dvec3 s = origin - tri.a;
  const double u = glm::dot(s, p) / det;
  const glm::dvec3 q = glm::cross(s, e1);
  const double v = glm::dot(direction, q) / det;
  const double t = glm::dot(e2, q) / det;
  return BruteRayHit{t, std::min({u, v, 1.0 - u - v}),
                     std::abs(glm::dot(direction, normal)) / glm::length(normal)};
}

/// Nearest hit distance over all triangles; strict ignores grazing and near-edge hits.
std::optional<double> nearestHit(const Level& level, const glm::dvec3& origin,
                                 const glm::dvec3& direction, double maxDistance, bool strict) {
  std::optional<double> best;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const std::optional<BruteRayHit> hit = intersect(origin, direction, triangleOf(level, t));
    if (!hit) continue;
    const bool inside = strict ? hit->margin >= kMargin && hit->facing >= 0.02 &&
                                     hit->distance >= kTolerance &&
                                     hit->distance <= maxDistance - kTolerance
                               : hit->margin >= -kMargin && hit->distance >= -kTolerance &&
                                     hit->distance <= maxDistance + kTolerance;
    if (inside && (!best || hit->distance < *best)) best = hit->distance;
  }
  return best;
}

using Polygon = std::vector<glm::dvec3>;

/// Sutherland–Hodgman: the part of the triangle inside the closed box.
Polygon clipToBox(const Triangle& tri, const glm::dvec3& lo, const glm::dvec3& hi) {
  Polygon polygon{tri.a, tri.b, tri.c}, next;
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const double plane = side == 0 ? lo[axis] : hi[axis];
      const auto inside = [&](const glm::dvec3& p) {
        return side == 0 ? p[axis] >= plane : p[axis] <= plane;
      };
      next.clear();
      for (size_t i = 0; i < polygon.size(); ++i) {
        const glm::dvec3& p = polygon[i];
        const glm::dvec3& q = polygon[(i + 1) % polygon.size()];
        if (inside(p)) next.push_back(p);
        if (inside(p) != inside(q)) {
          glm::dvec3 crossing = p + (plane - p[axis]) / (q[axis] - p[axis]) * (q - p);
          crossing[axis] = plane;
          next.push_back(crossing);
        }
      }
      polygon.swap(next);
      if (polygon.empty()) return polygon;
    }
  }
  return polygon;
}

/// The box grown (margin > 0) or shrunk (margin < 0) on every side.
std::pair<glm::dvec3, glm::dvec3> grown(const Aabb& box, double margin) {
  return {glm::dvec3(box.min) - margin, glm::dvec3(box.max) + margin};
}

bool clipTouches(const Triangle& tri, const Aabb& box, double margin) {
  const auto [lo, hi] = grown(box, margin);
  return !clipToBox(tri, lo, hi).empty();
}

/// Highest y of the triangle clipped to the box, if any of it is inside.
std::optional<double> clippedTop(const Triangle& tri, const Aabb& box, double margin) {
  const auto [lo, hi] = grown(box, margin);
  const Polygon polygon = clipToBox(tri, lo, hi);
  if (polygon.empty()) return std::nullopt;
  double top = -std::numeric_limits<double>::infinity();
  for (const glm::dvec3& p : polygon)
    top = std::max(top, p.y);
  return top;
}

// --- random soups ---------------------------------------------------------------

Level randomSoup(uint32_t seed, int randomTriangles) {
  test::SoupShape shape;
  shape.triangles = randomTriangles;
  return test::randomSoup(seed, shape);
}

Aabb randomBox(std::mt19937& rng) {
  std::uniform_real_distribution<float> position(-9.0f, 9.0f), half(0.05f, 2.5f);
  const glm::vec3 center(position(rng), position(rng), position(rng));
  const glm::vec3 extent(half(rng), half(rng), half(rng));
  return Aabb{center - extent, center + extent};
}

glm::vec3 randomDirection(std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> kind(0, 9);
  const int k = kind(rng);
  // Axis-aligned rays (straight down above all) are the common case in picking
  // and height queries, and the classic division-by-zero trap in slab tests.
  if (k < 3) {
    glm::vec3 axis(0.0f);
    axis[k] = unit(rng) < 0.0f ? -1.0f : 1.0f;
    return axis;
  }
  if (k == 3) return {0.0f, -1.0f, 0.0f};
  while (true) {
    const glm::vec3 d(unit(rng), unit(rng), unit(rng));
    const float length = glm::length(d);
    if (length > 0.1f && length <= 1.0f) return d / length;
  }
}

void checkRaycasts(const Level& level, const CollisionWorld& world, uint32_t seed, int rays,
                   float extent) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-extent, extent), reach(0.5f, 4.0f * extent);
  const glm::vec3 center = level.bounds.center();
  int hits = 0;
  for (int i = 0; i < rays; ++i) {
    const glm::vec3 origin = center + glm::vec3(position(rng), position(rng), position(rng));
    const glm::vec3 direction = randomDirection(rng);
    const float maxDistance = reach(rng);
    SCOPED_TRACE(::testing::Message()
                 << "ray " << i << " origin (" << origin.x << ", " << origin.y << ", " << origin.z
                 << ") direction (" << direction.x << ", " << direction.y << ", " << direction.z
                 << ") max " << maxDistance);
    const std::optional<RayHit> hit = world.raycast(origin, direction, maxDistance);
    const std::optional<double> strict =
        nearestHit(level, origin, direction, maxDistance, /*strict=*/true);
    const std::optional<double> loose =
        nearestHit(level, origin, direction, maxDistance, /*strict=*/false);
    if (!hit) {
      EXPECT_FALSE(strict.has_value()) << "missed a hit at " << *strict;
      continue;
    }
    ++hits;
    ASSERT_TRUE(loose.has_value()) << "reported a hit at " << hit->distance << " where none is";
    EXPECT_GE(hit->distance, *loose - kTolerance);
    if (strict) {
      EXPECT_LE(hit->distance, *strict + kTolerance);
    }
    EXPECT_LE(hit->distance, maxDistance + kTolerance);
    // The reported triangle is really hit there, and the rest of the hit agrees.
    ASSERT_LT(hit->triangle, level.triangles.size());
    const Triangle tri = triangleOf(level, hit->triangle);
    const std::optional<BruteRayHit> own = intersect(origin, direction, tri);
    ASSERT_TRUE(own.has_value());
    EXPECT_GE(own->margin, -kMargin);
    EXPECT_NEAR(own->distance, hit->distance, kTolerance / std::max(own->facing, 0.01));
    EXPECT_LT(glm::distance(glm::dvec3(hit->point), glm::dvec3(origin + hit->distance * direction)),
              kTolerance);
    const glm::dvec3 normal = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
    EXPECT_NEAR(glm::length(hit->normal), 1.0f, 1e-4f);
    EXPECT_NEAR(std::abs(glm::dot(glm::dvec3(hit->normal), normal)), 1.0, 1e-4);
    EXPECT_LE(glm::dot(hit->normal, direction), 1e-6f) << "normal must face the ray";
  }
  // The ray distribution must actually exercise hits.
  EXPECT_GT(hits, rays / 20);
}

TEST(CollisionRandom, RaycastMatchesBruteForce) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const Level level = randomSoup(seed, 300);
    const CollisionWorld world(level);
    checkRaycasts(level, world, seed + 100, 2000, 9.0f);
  }
}

// A floor facing up under a ceiling facing down: a ray from above hits the
// ceiling's back first, and the floor when only fronts count; a ray from
// below hits the ceiling's front through the floor's back.
TEST(CollisionRaycast, FrontFacesOnlySkipsTrianglesSeenFromBehind) {
  Level level;
  level.vertices = {{0, 0, 0}, {0, 0, 4}, {4, 0, 4}, {4, 0, 0},
                    {0, 3, 0}, {4, 3, 0}, {4, 3, 4}, {0, 3, 4}};
  level.triangles = {{{0, 1, 2}, 0}, {{0, 2, 3}, 0}, {{4, 5, 6}, 0}, {{4, 6, 7}, 0}};
  level.bounds = Aabb{{0, 0, 0}, {4, 3, 4}};
  const CollisionWorld world(level);
  using Faces = CollisionWorld::RayFaces;
  const glm::vec3 above(1.5f, 10.0f, 2.5f), below(1.5f, -1.0f, 2.5f);
  const std::optional<RayHit> both = world.raycast(above, {0, -1, 0}, 100.0f);
  ASSERT_TRUE(both);
  EXPECT_FLOAT_EQ(both->point.y, 3.0f);
  EXPECT_GE(both->triangle, 2u);
  const std::optional<RayHit> front = world.raycast(above, {0, -1, 0}, 100.0f, Faces::Front);
  ASSERT_TRUE(front);
  EXPECT_FLOAT_EQ(front->point.y, 0.0f);
  EXPECT_LT(front->triangle, 2u);
  EXPECT_GT(front->normal.y, 0.99f);
  const std::optional<RayHit> up = world.raycast(below, {0, 1, 0}, 100.0f, Faces::Front);
  ASSERT_TRUE(up);
  EXPECT_FLOAT_EQ(up->point.y, 3.0f);
  EXPECT_FALSE(world.raycast(below, {0, 1, 0}, 2.0f, Faces::Front)) << "the floor's back";
  EXPECT_TRUE(world.raycast(below, {0, 1, 0}, 2.0f));
}

TEST(CollisionRandom, OverlapsBoxMatchesClipping) {
  for (uint32_t seed : {4u, 5u, 6u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const Level level = randomSoup(seed, 300);
    const CollisionWorld world(level);
    std::mt19937 rng(seed + 100);
    int overlapping = 0;
    for (int i = 0; i < 2000; ++i) {
      const Aabb box = randomBox(rng);
      bool strict = false, loose = false;
      for (uint32_t t = 0; t < level.triangles.size() && !strict; ++t) {
        const Triangle tri = triangleOf(level, t);
        strict = strict || clipTouches(tri, box, -kMargin);
        loose = loose || clipTouches(tri, box, kMargin);
      }
      const bool overlaps = world.overlapsBox(box);
      if (strict) {
        EXPECT_TRUE(overlaps) << "box " << i;
      }
      if (!loose) {
        EXPECT_FALSE(overlaps) << "box " << i;
      }
      overlapping += overlaps;
    }
    EXPECT_GT(overlapping, 100);
    EXPECT_LT(overlapping, 1900);
  }
}

TEST(CollisionRandom, TrianglesInBoxMatchesClipping) {
  for (uint32_t seed : {7u, 8u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const Level level = randomSoup(seed, 300);
    const CollisionWorld world(level);
    std::mt19937 rng(seed + 100);
    for (int i = 0; i < 1000; ++i) {
      const Aabb box = randomBox(rng);
      std::vector<uint32_t> found;
      world.trianglesInBox(box, found);
      EXPECT_TRUE(std::is_sorted(found.begin(), found.end()));
      EXPECT_EQ(std::adjacent_find(found.begin(), found.end()), found.end()) << "duplicates";
      EXPECT_EQ(world.overlapsBox(box), !found.empty());
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        const Triangle tri = triangleOf(level, t);
        const bool reported = std::binary_search(found.begin(), found.end(), t);
        if (clipTouches(tri, box, -kMargin)) {
          EXPECT_TRUE(reported) << "box " << i << " tri " << t;
        }
        if (!clipTouches(tri, box, kMargin)) {
          EXPECT_FALSE(reported) << "box " << i << " tri " << t;
        }
      }
    }
  }
}

TEST(CollisionRandom, HighestPointInBoxMatchesClipping) {
  for (uint32_t seed : {9u, 10u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const Level level = randomSoup(seed, 300);
    const CollisionWorld world(level);
    std::mt19937 rng(seed + 100);
    int supported = 0;
    for (int i = 0; i < 1500; ++i) {
      const Aabb box = randomBox(rng);
      std::optional<double> strict, loose;
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        const Triangle tri = triangleOf(level, t);
        if (const auto top = clippedTop(tri, box, -kMargin); top && (!strict || *top > *strict)) {
          strict = top;
        }
        if (const auto top = clippedTop(tri, box, kMargin); top && (!loose || *top > *loose)) {
          loose = top;
        }
      }
      const std::optional<SupportHit> hit = world.highestPointInBox(box);
      if (!hit) {
        EXPECT_FALSE(strict.has_value()) << "box " << i << " missed support at " << *strict;
        continue;
      }
      ++supported;
      ASSERT_TRUE(loose.has_value()) << "box " << i << " reported support at " << hit->height;
      EXPECT_LE(hit->height, *loose + kTolerance) << "box " << i;
      if (strict) {
        EXPECT_GE(hit->height, *strict - kTolerance) << "box " << i;
      }
      // The reported triangle reaches that height inside the box, with its own slope.
      ASSERT_LT(hit->triangle, level.triangles.size());
      const Triangle tri = triangleOf(level, hit->triangle);
      const std::optional<double> own = clippedTop(tri, box, kMargin);
      ASSERT_TRUE(own.has_value()) << "box " << i;
      EXPECT_GE(*own, hit->height - kTolerance) << "box " << i;
      const glm::dvec3 normal = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
      EXPECT_NEAR(hit->normalY, normal.y, 1e-4) << "box " << i;
    }
    EXPECT_GT(supported, 100);
  }
}

enum class Shape { General, Horizontal, Vertical, Sliver };

/// Random triangles of one shape against random boxes, a third of them
/// grid-aligned so that flat triangles can touch their faces exactly.
void checkTriangleBoxOverlap(uint32_t seed, Shape shape, int cases) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-3.0f, 3.0f), unit(0.0f, 1.0f);
  std::uniform_int_distribution<int> grid(-6, 6);
  int overlapping = 0;
  for (int i = 0; i < cases; ++i) {
    glm::vec3 p[3];
    for (glm::vec3& corner : p)
      corner = {position(rng), position(rng), position(rng)};
    if (shape == Shape::Horizontal) p[1].y = p[2].y = p[0].y = grid(rng) * 0.5f;
    if (shape == Shape::Vertical) p[1].x = p[2].x = p[0].x = grid(rng) * 0.5f;
    // Nearly collinear after rounding: the loader keeps such slivers (their area is not zero).
    if (shape == Shape::Sliver) p[2] = glm::mix(p[0], p[1], unit(rng));
    Aabb box = randomBox(rng);
    if (i % 3 == 0) {
      const glm::vec3 lo(grid(rng) * 0.5f, grid(rng) * 0.5f, grid(rng) * 0.5f);
      const float side = 0.5f * float(1 + std::abs(grid(rng)) % 4);
      box = Aabb{lo, lo + glm::vec3(side)};
    }
    const Triangle tri{p[0], p[1], p[2]};
    const bool overlaps = triangleOverlapsBox(p[0], p[1], p[2], box);
    const auto describe = [&] {
      std::ostringstream out;
      out.precision(9);
      out << "case " << i << ": triangle";
      for (const glm::vec3& corner : p)
        out << " (" << corner.x << ", " << corner.y << ", " << corner.z << ")";
      out << " box (" << box.min.x << ", " << box.min.y << ", " << box.min.z << ")-(" << box.max.x
          << ", " << box.max.y << ", " << box.max.z << ")";
      return out.str();
    };
    if (clipTouches(tri, box, -kMargin)) {
      EXPECT_TRUE(overlaps) << describe();
    }
    if (!clipTouches(tri, box, kMargin)) {
      EXPECT_FALSE(overlaps) << describe();
    }
    overlapping += overlaps;
  }
  EXPECT_GT(overlapping, cases / 100);
  EXPECT_LT(overlapping, cases - cases / 100);
}

TEST(CollisionRandom, TriangleOverlapsBoxMatchesClipping) {
  checkTriangleBoxOverlap(11, Shape::General, 10000);
  checkTriangleBoxOverlap(12, Shape::Horizontal, 5000);
  checkTriangleBoxOverlap(13, Shape::Vertical, 5000);
}

TEST(CollisionRandom, SliverTriangleOverlapsBoxMatchesClipping) {
  checkTriangleBoxOverlap(14, Shape::Sliver, 10000);
}

/// The separating-axis test written out in full: 13 axes, each cross product
/// and dot product with all three terms, in float like the library's.
bool thirteenAxisOverlap(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                         const Aabb& box) {
  const glm::vec3 center = box.center();
  const glm::vec3 half = (box.max - box.min) * 0.5f;
  const glm::vec3 v[3] = {a - center, b - center, c - center};
  auto separatedOn = [&](const glm::vec3& axis) {
    const float p0 = glm::dot(v[0], axis), p1 = glm::dot(v[1], axis), p2 = glm::dot(v[2], axis);
    const float radius =
        half.x * std::abs(axis.x) + half.y * std::abs(axis.y) + half.z * std::abs(axis.z);
    return std::min({p0, p1, p2}) > radius || std::max({p0, p1, p2}) < -radius;
  };
  const glm::vec3 boxAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const glm::vec3 edges[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  bool separated = separatedOn(glm::cross(edges[0], edges[1]));
  for (const glm::vec3& boxAxis : boxAxes) {
    separated = separated || separatedOn(boxAxis);
    for (const glm::vec3& edge : edges)
      separated = separated || separatedOn(glm::cross(boxAxis, edge));
  }
  return !separated;
}

TEST(CollisionRandom, TriangleOverlapsBoxGivesTheFullTestsAnswerExactly) {
  // The library's test leaves out terms it knows are zero and skips axes that
  // cannot separate a triangle lying in an axis plane; the answers must be the
  // same bit for bit, so the cases are where rounding decides: corners, faces
  // and boxes on a grid of 0.1 m (not exact in binary), far from the origin too.
  std::mt19937 rng(21);
  std::uniform_int_distribution<int> grid(-12, 12), shape(0, 4), sideSteps(1, 8);
  std::uniform_real_distribution<float> jitter(-1e-4f, 1e-4f);
  int overlapping = 0;
  constexpr int kCases = 200000;
  for (int i = 0; i < kCases; ++i) {
    const float origin = i % 2 == 0 ? 0.0f : 1013.7f;
    auto onGrid = [&] { return origin + float(grid(rng)) * 0.1f; };
    glm::vec3 p[3];
    for (glm::vec3& corner : p)
      corner = {onGrid(), onGrid(), onGrid()};
    const int kind = shape(rng);
    if (kind == 1) p[1].y = p[2].y = p[0].y;  // floor
    if (kind == 2) p[1].x = p[2].x = p[0].x;  // wall across x
    if (kind == 3) p[1].z = p[2].z = p[0].z;  // wall across z
    if (kind == 4) {                          // nearly one of those, or a sliver
      for (glm::vec3& corner : p)
        corner += glm::vec3(jitter(rng), jitter(rng), jitter(rng));
      if (i % 3 == 0) p[2] = glm::mix(p[0], p[1], 0.37f);
    }
    const glm::vec3 lo(onGrid(), onGrid(), onGrid());
    const glm::vec3 side(float(sideSteps(rng)) * 0.1f, float(sideSteps(rng)) * 0.1f,
                         float(sideSteps(rng)) * 0.1f);
    const Aabb box{lo, lo + side};
    const bool expected = thirteenAxisOverlap(p[0], p[1], p[2], box);
    ASSERT_EQ(triangleOverlapsBox(p[0], p[1], p[2], box), expected)
        << "case " << i << " kind " << kind;
    overlapping += expected;
  }
  EXPECT_GT(overlapping, kCases / 50);
}

// --- hand cases --------------------------------------------------------------------

Level floorLevel() {
  Level level;
  test::addFloor(level, 0.0f, 0.0f, 4.0f, 4.0f, 0.0f);
  test::finish(level);
  return level;
}

TEST(CollisionHand, RayHitsFloorAtKnownDistance) {
  const CollisionWorld world(floorLevel());  // the level is a temporary: the world keeps a copy
  const std::optional<RayHit> down = world.raycast({1.0f, 2.5f, 3.0f}, {0, -1, 0}, 10.0f);
  ASSERT_TRUE(down.has_value());
  EXPECT_FLOAT_EQ(down->distance, 2.5f);
  EXPECT_NEAR(glm::distance(down->point, glm::vec3(1.0f, 0.0f, 3.0f)), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::distance(down->normal, glm::vec3(0, 1, 0)), 0.0f, 1e-6f);
  EXPECT_LT(down->triangle, 2u);

  // From below, the back face counts and its normal faces the ray.
  const std::optional<RayHit> up = world.raycast({1.0f, -1.0f, 1.0f}, {0, 1, 0}, 10.0f);
  ASSERT_TRUE(up.has_value());
  EXPECT_FLOAT_EQ(up->distance, 1.0f);
  EXPECT_NEAR(glm::distance(up->normal, glm::vec3(0, -1, 0)), 0.0f, 1e-6f);

  // A slanted ray: 3-4-5 triangle in the xy plane.
  const glm::vec3 slant = glm::normalize(glm::vec3(0.6f, -0.8f, 0.0f));
  const std::optional<RayHit> slanted = world.raycast({0.5f, 4.0f, 2.0f}, slant, 10.0f);
  ASSERT_TRUE(slanted.has_value());
  EXPECT_NEAR(slanted->distance, 5.0f, 1e-5f);
  EXPECT_NEAR(glm::distance(slanted->point, glm::vec3(3.5f, 0.0f, 2.0f)), 0.0f, 1e-5f);

  EXPECT_FALSE(world.raycast({1.0f, 2.5f, 3.0f}, {0, -1, 0}, 2.0f));   // too short
  EXPECT_FALSE(world.raycast({1.0f, 2.5f, 3.0f}, {0, 1, 0}, 10.0f));   // pointing away
  EXPECT_FALSE(world.raycast({5.0f, 2.5f, 3.0f}, {0, -1, 0}, 10.0f));  // beside the floor
  EXPECT_FALSE(world.raycast({1.0f, 1.0f, 3.0f}, {1, 0, 0}, 10.0f));   // parallel above it
  // A long picking ray.
  const std::optional<RayHit> far = world.raycast({1.0f, 1000.0f, 3.0f}, {0, -1, 0}, 1e30f);
  ASSERT_TRUE(far.has_value());
  EXPECT_FLOAT_EQ(far->distance, 1000.0f);
}

TEST(CollisionHand, RayReportsTheNearestOfStackedFloors) {
  Level level;
  test::addFloor(level, 0.0f, 0.0f, 4.0f, 4.0f, 0.0f);
  test::addFloor(level, 0.0f, 0.0f, 4.0f, 4.0f, 3.0f);
  test::addFloor(level, 0.0f, 0.0f, 4.0f, 4.0f, 1.5f);
  test::finish(level);
  const CollisionWorld world(level);
  const std::optional<RayHit> hit = world.raycast({2.0f, 2.0f, 2.0f}, {0, -1, 0}, 10.0f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_FLOAT_EQ(hit->distance, 0.5f);
  EXPECT_GE(hit->triangle, 4u);
}

TEST(CollisionHand, BoxTouchingAndNotTouchingAWall) {
  // A wall: a box occupying x in [2, 2.5].
  Level level;
  test::addBox(level, Aabb{{2.0f, 0.0f, 0.0f}, {2.5f, 3.0f, 4.0f}});
  test::finish(level);
  const CollisionWorld world(level);
  const Aabb touching{{1.0f, 0.5f, 1.0f}, {2.0f, 1.5f, 2.0f}};
  const Aabb apart{{1.0f, 0.5f, 1.0f}, {1.99f, 1.5f, 2.0f}};
  const Aabb inside{{2.1f, 0.5f, 1.0f}, {2.4f, 1.5f, 2.0f}};  // within the solid, no face crossed
  EXPECT_TRUE(world.overlapsBox(touching));
  EXPECT_FALSE(world.overlapsBox(apart));
  EXPECT_FALSE(world.overlapsBox(inside));
  std::vector<uint32_t> found;
  world.trianglesInBox(touching, found);
  // Exactly the two triangles of the -x face (addBox's fifth quad).
  EXPECT_EQ(found, (std::vector<uint32_t>{8, 9}));
  found.clear();
  world.trianglesInBox(apart, found);
  EXPECT_TRUE(found.empty());

  const glm::vec3 a(2.0f, 0.0f, 0.0f), b(2.0f, 3.0f, 0.0f), c(2.0f, 0.0f, 4.0f);
  EXPECT_TRUE(triangleOverlapsBox(a, b, c, touching));
  EXPECT_FALSE(triangleOverlapsBox(a, b, c, apart));
  // Corner-to-corner contact is still contact.
  EXPECT_TRUE(triangleOverlapsBox(a, b, c, Aabb{{1.0f, -1.0f, -1.0f}, {2.0f, 0.0f, 0.0f}}));
}

TEST(CollisionHand, HighestPointIsClippedToTheBox) {
  // A ramp rising 0.5 m per metre along x, facing up.
  Level level;
  level.vertices = {{0, 0, 0}, {4, 2, 0}, {4, 2, 4}, {0, 0, 4}};
  level.triangles = {{{0, 2, 1}, 0}, {{0, 3, 2}, 0}};
  test::finish(level);
  const CollisionWorld world(level);
  const float rampNormalY = 1.0f / std::sqrt(1.25f);

  const std::optional<SupportHit> over = world.highestPointInBox({{1, -1, 1}, {2, 3, 2}});
  ASSERT_TRUE(over.has_value());
  EXPECT_NEAR(over->height, 1.0f, 1e-5f);
  EXPECT_NEAR(over->normalY, rampNormalY, 1e-5f);

  // The box's top cuts the ramp: the highest point inside is on the top face.
  const std::optional<SupportHit> cut = world.highestPointInBox({{1, -1, 1}, {2, 0.8f, 2}});
  ASSERT_TRUE(cut.has_value());
  EXPECT_NEAR(cut->height, 0.8f, 1e-5f);

  EXPECT_FALSE(world.highestPointInBox({{1, 1.5f, 1}, {2, 3, 2}}));  // above the ramp
  EXPECT_FALSE(world.highestPointInBox({{5, -1, 1}, {6, 3, 2}}));    // beside it
}

TEST(CollisionHand, HighestPointPrefersTheFlattestOnTies) {
  Level level;
  // Listed first so that "first found wins" would pick them: a slope and a wall
  // whose tops reach exactly the floor's height inside the box.
  level.vertices = {{1, -1, 1}, {3, -1, 1}, {2, 0, 3}, {1, -2, 2}, {3, -2, 2}, {2, 0, 2}};
  level.triangles = {{{0, 1, 2}, 0}, {{3, 4, 5}, 0}};
  test::addFloor(level, 0.0f, 0.0f, 4.0f, 4.0f, 0.0f);
  test::finish(level);
  const CollisionWorld world(level);
  const std::optional<SupportHit> hit =
      world.highestPointInBox({{0.5f, -3, 0.5f}, {3.5f, 1, 3.5f}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->height, 0.0f);
  EXPECT_GE(hit->triangle, 2u);
  EXPECT_FLOAT_EQ(hit->normalY, 1.0f);
}

TEST(CollisionHand, SizesAndBounds) {
  Level level;
  test::addBox(level, Aabb{{-1, -2, -3}, {1, 2, 3}});
  test::addFloor(level, -10.0f, -10.0f, 10.0f, 10.0f, -2.0f);
  test::finish(level);
  const CollisionWorld world(level);
  EXPECT_EQ(world.triangleCount(), 14u);
  EXPECT_GT(world.nodeCount(), 0u);
  EXPECT_GT(world.memoryBytes(), 14u * 9u * sizeof(float) - 1u);
  EXPECT_EQ(world.bounds().min, glm::vec3(-10, -2, -10));
  EXPECT_EQ(world.bounds().max, glm::vec3(10, 2, 10));
}

TEST(CollisionHand, QueriesAreDeterministic) {
  const Level level = randomSoup(12, 500);
  const CollisionWorld first(level), second(level);
  EXPECT_EQ(first.nodeCount(), second.nodeCount());
  std::mt19937 rng(13);
  for (int i = 0; i < 200; ++i) {
    const Aabb box = randomBox(rng);
    std::vector<uint32_t> a, b;
    first.trianglesInBox(box, a);
    second.trianglesInBox(box, b);
    EXPECT_EQ(a, b);
  }
}

TEST(CollisionDungeon, RaycastMatchesBruteForce) {
  const std::string path = test::sharedFile("meshes/dungeon.obj");
  if (path.empty()) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  const Result<Level> level = loadLevel(path);
  ASSERT_TRUE(level.ok()) << level.error();
  ASSERT_GT(level.value().triangles.size(), 0u);
  ASSERT_TRUE(isFinite(level.value().bounds.min) && isFinite(level.value().bounds.max));
  const CollisionWorld world(level.value());
  EXPECT_EQ(world.triangleCount(), level.value().triangles.size());
  const glm::vec3 size = level.value().bounds.size();
  checkRaycasts(level.value(), world, 14, 300, 0.5f * std::max({size.x, size.y, size.z}));
}

}  // namespace
}  // namespace nav
