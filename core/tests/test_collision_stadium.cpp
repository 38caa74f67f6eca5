// Stadium and cylinder queries against brute force that shares nothing with the
// library: the triangle is cut to the slab yMin..yMax in double precision
// (two-plane Sutherland–Hodgman), its shadow on the ground is measured against
// the stadium's segment edge by edge (segment-segment distances plus a
// crossing-number point-in-polygon test), and the highest point inside a
// cylinder is the best of the exact candidates of a linear function on a
// convex set (slice corners in the disc, slice edges meeting the rim, and where
// the triangle's plane rises fastest at the rim), checked again by sampling.
//
// As in test_collision.cpp each brute-force answer is taken twice near a
// boundary: "strict" (radius and slab shrunk by kMargin) must be found and only
// what "loose" (grown by kMargin) finds may be reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "nav/collision.h"
#include "nav/level.h"
#include "test_levels.h"

namespace nav {
namespace {

/// Margin for "near a boundary", on the radius and on the slab. [metres]
constexpr double kMargin = 1e-4;
/// Allowed float error of a reported height, beyond what the margins already
/// bracket. Inputs are floats of at most ~50 m (ulp 4e-6) and a height is a few
/// dozen float operations away from them (a clip, a rim intersection, a plane
/// evaluation), so rounding stays well under 1e-4; 5e-4 leaves room for that
/// and is still far below any geometric mistake (a missed rim point or a
/// wrong clip is off by centimetres at least in these cases).
constexpr double kHeightTolerance = 5e-4;
/// SupportHit's tie rule: heights within this are equal. [metres]
constexpr double kSupportTie = 1e-4;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

using Ground = glm::dvec2;

struct Tri {
  glm::dvec3 p[3];
};

Tri triOf(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  return {{glm::dvec3(a), glm::dvec3(b), glm::dvec3(c)}};
}

Ground ground(const glm::dvec3& p) {
  return {p.x, p.z};
}

// --- brute force: the slice and its shadow -----------------------------------------

/// The closed part of the triangle between heights lo and hi as a convex
/// polygon (possibly degenerate: a segment or a point); empty when none.
std::vector<glm::dvec3> sliceBetween(const Tri& tri, double lo, double hi) {
  std::vector<glm::dvec3> polygon(tri.p, tri.p + 3), kept;
  for (int pass = 0; pass < 2; ++pass) {
    const double level = pass == 0 ? lo : hi;
    const double up = pass == 0 ? 1.0 : -1.0;  // keep the points with up * (y - level) >= 0
    kept.clear();
    for (size_t i = 0; i < polygon.size(); ++i) {
      const glm::dvec3& p = polygon[i];
      const glm::dvec3& q = polygon[(i + 1) % polygon.size()];
      const double sp = up * (p.y - level), sq = up * (q.y - level);
      if (sp >= 0.0) kept.push_back(p);
      if ((sp >= 0.0) != (sq >= 0.0)) {
        glm::dvec3 cut = p + sp / (sp - sq) * (q - p);
        cut.y = level;
        kept.push_back(cut);
      }
    }
    polygon.swap(kept);
    if (polygon.empty()) break;
  }
  return polygon;
}

double pointToSegment(const Ground& p, const Ground& a, const Ground& b) {
  const Ground ab = b - a;
  const double length2 = glm::dot(ab, ab);
  const double t = length2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / length2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

/// Twice the signed area of a, b, c.
double turn(const Ground& a, const Ground& b, const Ground& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

double segmentToSegment(const Ground& a, const Ground& b, const Ground& c, const Ground& d) {
  const double t1 = turn(a, b, c), t2 = turn(a, b, d), t3 = turn(c, d, a), t4 = turn(c, d, b);
  const bool properCrossing = ((t1 > 0.0 && t2 < 0.0) || (t1 < 0.0 && t2 > 0.0)) &&
                              ((t3 > 0.0 && t4 < 0.0) || (t3 < 0.0 && t4 > 0.0));
  if (properCrossing) return 0.0;
  // Otherwise the closest pair has an endpoint in it (touching included: distance 0).
  return std::min({pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b),
                   pointToSegment(d, a, b)});
}

/// Crossing-number test (points on the boundary may go either way: callers
/// measure the boundary separately). A zero-area polygon contains nothing.
bool insidePolygon(const std::vector<Ground>& polygon, const Ground& p) {
  bool inside = false;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const Ground& a = polygon[i];
    const Ground& b = polygon[(i + 1) % polygon.size()];
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

std::vector<Ground> shadowOf(const std::vector<glm::dvec3>& slice) {
  std::vector<Ground> shadow;
  for (const glm::dvec3& p : slice)
    shadow.push_back(ground(p));
  return shadow;
}

/// Ground distance from the stadium's segment to the triangle's slice between
/// yMin - slabMargin and yMax + slabMargin; infinity when no part is in the slab.
double sliceDistance(const Tri& tri, const Stadium& stadium, double slabMargin) {
  const std::vector<glm::dvec3> slice =
      sliceBetween(tri, double(stadium.yMin) - slabMargin, double(stadium.yMax) + slabMargin);
  if (slice.empty()) return kInfinity;
  const std::vector<Ground> shadow = shadowOf(slice);
  const Ground from(stadium.from), to(stadium.to);
  if (insidePolygon(shadow, from)) return 0.0;
  double best = kInfinity;
  for (size_t i = 0; i < shadow.size(); ++i) {
    best = std::min(best, segmentToSegment(shadow[i], shadow[(i + 1) % shadow.size()], from, to));
  }
  return best;
}

/// Ground area of the triangle's slice between lo and hi: 0 when the slice
/// is a point or a segment (a vertical wall, a corner or edge on a slab face).
double sliceShadowArea(const Tri& tri, double lo, double hi) {
  const std::vector<Ground> shadow = shadowOf(sliceBetween(tri, lo, hi));
  double twice = 0.0;
  for (size_t i = 0; i < shadow.size(); ++i) {
    const Ground& a = shadow[i];
    const Ground& b = shadow[(i + 1) % shadow.size()];
    twice += a.x * b.y - a.y * b.x;
  }
  return 0.5 * std::abs(twice);
}

/// The stadium certainly overlaps (strict) or may overlap (loose) the triangle.
bool bruteOverlaps(const Tri& tri, const Stadium& stadium, bool strict) {
  const double margin = strict ? -kMargin : kMargin;
  return sliceDistance(tri, stadium, margin) <= double(stadium.radius) + margin;
}

// --- brute force: the highest point inside a cylinder ------------------------------

/// Exact (up to double rounding) highest y of the triangle's points within
/// ground distance `radius` of `center` and between lo and hi. y is linear on
/// the convex set slice ∩ disc, so its maximum is at a slice corner inside the
/// disc, where a slice edge crosses the rim, or (for a non-vertical triangle)
/// at the rim point in the direction of steepest ascent, or anywhere when flat.
std::optional<double> exactTop(const Tri& tri, const Ground& center, double radius, double lo,
                               double hi) {
  if (radius < 0.0) return std::nullopt;
  const std::vector<glm::dvec3> slice = sliceBetween(tri, lo, hi);
  if (slice.empty()) return std::nullopt;
  std::optional<double> best;
  const auto offer = [&](double y) {
    if (!best || y > *best) best = y;
  };
  const double radius2 = radius * radius;
  for (const glm::dvec3& p : slice) {
    const Ground d = ground(p) - center;
    if (glm::dot(d, d) <= radius2) offer(p.y);
  }
  for (size_t i = 0; i < slice.size(); ++i) {
    const glm::dvec3& p = slice[i];
    const glm::dvec3& q = slice[(i + 1) % slice.size()];
    // |f + t e|^2 = radius^2 for t in [0, 1].
    const Ground e = ground(q) - ground(p), f = ground(p) - center;
    const double a = glm::dot(e, e), b = glm::dot(f, e), c = glm::dot(f, f) - radius2;
    const double discriminant = b * b - a * c;
    if (a == 0.0 || discriminant < 0.0) continue;
    for (double sign : {-1.0, 1.0}) {
      const double t = (-b + sign * std::sqrt(discriminant)) / a;
      if (t >= 0.0 && t <= 1.0) offer(p.y + t * (q.y - p.y));
    }
  }
  const glm::dvec3 normal = glm::cross(tri.p[1] - tri.p[0], tri.p[2] - tri.p[0]);
  if (normal.y != 0.0) {
    const Ground gradient(-normal.x / normal.y, -normal.z / normal.y);  // dy/dx, dy/dz
    const auto heightAt = [&](const Ground& g) {
      return tri.p[0].y + glm::dot(gradient, g - ground(tri.p[0]));
    };
    std::vector<Ground> interior{center};
    const double steepness = glm::length(gradient);
    if (steepness > 0.0) interior.push_back(center + radius * gradient / steepness);
    const std::vector<Ground> shadow = shadowOf(slice);
    for (const Ground& g : interior) {
      if (insidePolygon(shadow, g)) offer(std::clamp(heightAt(g), lo, hi));
    }
  }
  return best;
}

bool insideTriangleShadow(const Tri& tri, const Ground& g) {
  const double t1 = turn(ground(tri.p[0]), ground(tri.p[1]), g);
  const double t2 = turn(ground(tri.p[1]), ground(tri.p[2]), g);
  const double t3 = turn(ground(tri.p[2]), ground(tri.p[0]), g);
  return (t1 >= 0.0 && t2 >= 0.0 && t3 >= 0.0) || (t1 <= 0.0 && t2 <= 0.0 && t3 <= 0.0);
}

/// Highest of many genuine points of the triangle within `radius` of `center`
/// and between lo and hi: a lower bound of the true top that uses no clipping
/// and no rim geometry. A barycentric grid over the triangle, and (for
/// triangles much bigger than the disc, which the grid barely hits) a polar
/// grid over the disc lifted onto the triangle's plane.
std::optional<double> sampledTop(const Tri& tri, const Ground& center, double radius, double lo,
                                 double hi) {
  if (radius < 0.0) return std::nullopt;
  std::optional<double> best;
  const auto offer = [&](const glm::dvec3& p) {
    const Ground d = ground(p) - center;
    if (p.y >= lo && p.y <= hi && glm::dot(d, d) <= radius * radius && (!best || p.y > *best))
      best = p.y;
  };
  constexpr int kSteps = 40;
  for (int i = 0; i <= kSteps; ++i) {
    for (int j = 0; i + j <= kSteps; ++j) {
      offer(tri.p[0] + double(i) / kSteps * (tri.p[1] - tri.p[0]) +
            double(j) / kSteps * (tri.p[2] - tri.p[0]));
    }
  }
  const glm::dvec3 normal = glm::cross(tri.p[1] - tri.p[0], tri.p[2] - tri.p[0]);
  if (std::abs(normal.y) > 1e-3 * glm::length(normal)) {
    constexpr int kRings = 12, kSpokes = 48;
    for (int ring = 0; ring <= kRings; ++ring) {
      for (int spoke = 0; spoke < (ring == 0 ? 1 : kSpokes); ++spoke) {
        const double angle = 2.0 * kPi * spoke / kSpokes;
        // Shrunk by a hair so that rounding cannot put a rim sample outside.
        const double rho = radius * (1.0 - 1e-12) * ring / kRings;
        const Ground g = center + rho * Ground(std::cos(angle), std::sin(angle));
        if (!insideTriangleShadow(tri, g)) continue;
        const double y =
            tri.p[0].y - (normal.x * (g.x - tri.p[0].x) + normal.z * (g.y - tri.p[0].z)) / normal.y;
        offer({g.x, y, g.y});
      }
    }
  }
  return best;
}

// --- random cases -------------------------------------------------------------------

enum class Kind { General, Floor, AxisWall, SlantedWall, Sliver, Big, SlabCrossing, Pole, Count };

const char* kindName(Kind kind) {
  static const char* names[] = {"general", "floor", "axis wall",     "slanted wall",
                                "sliver",  "big",   "slab crossing", "pole"};
  return names[int(kind)];
}

struct Case {
  glm::vec3 p[3];
  Stadium stadium;
};

std::string describe(const Case& c) {
  std::ostringstream out;
  out.precision(9);
  out << "triangle";
  for (const glm::vec3& corner : c.p)
    out << " (" << corner.x << ", " << corner.y << ", " << corner.z << ")";
  const Stadium& s = c.stadium;
  out << " stadium from (" << s.from.x << ", " << s.from.y << ") to (" << s.to.x << ", " << s.to.y
      << ") radius " << s.radius << " y " << s.yMin << ".." << s.yMax;
  return out.str();
}

class CaseMaker {
 public:
  explicit CaseMaker(uint32_t seed) : m_rng(seed) {}

  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(m_rng); }
  int pick(int count) { return std::uniform_int_distribution<int>(0, count - 1)(m_rng); }

  Stadium stadium() {
    Stadium s;
    s.from = {uniform(-3.0f, 3.0f), uniform(-3.0f, 3.0f)};
    switch (pick(4)) {
      case 0:
        s.to = s.from;
        break;  // a cylinder
      case 1:
        s.to = s.from + glm::vec2(uniform(-5.0f, 5.0f), 0.0f);
        break;
      case 2:
        s.to = s.from + glm::vec2(0.0f, uniform(-5.0f, 5.0f));
        break;
      default:
        s.to = s.from + glm::vec2(uniform(-4.0f, 4.0f), uniform(-4.0f, 4.0f));
        break;
    }
    s.radius = uniform(0.05f, 1.5f);
    s.yMin = uniform(-2.0f, 1.0f);
    s.yMax = s.yMin + uniform(0.1f, 3.0f);
    return s;
  }

  /// A random case. On the grid every coordinate, the radius and the slab are
  /// multiples of 0.25 m (exact in binary), as in levels and units placed on a
  /// grid: walls then lie on lines through stadium ends and corners sit exactly
  /// on the slab's faces, so slices shrunk to a segment or a point are common.
  Case make(Kind kind, bool cylinder, bool grid) {
    while (true) {
      Case c = makeOffGrid(kind, cylinder);
      if (!grid) return c;
      const auto snap = [](float v) { return std::round(v * 4.0f) / 4.0f; };
      for (glm::vec3& corner : c.p)
        corner = {snap(corner.x), snap(corner.y), snap(corner.z)};
      Stadium& s = c.stadium;
      s.from = {snap(s.from.x), snap(s.from.y)};
      s.to = {snap(s.to.x), snap(s.to.y)};
      s.radius = std::max(0.25f, snap(s.radius));
      s.yMin = snap(s.yMin);
      s.yMax = std::max(snap(s.yMax), s.yMin + 0.25f);
      // Levels hold no triangles without area (the loader drops them).
      if (glm::cross(c.p[1] - c.p[0], c.p[2] - c.p[0]) != glm::vec3(0.0f)) return c;
    }
  }

 private:
  Case makeOffGrid(Kind kind, bool cylinder) {
    Case c;
    c.stadium = stadium();
    if (cylinder) {
      // `to` is ignored by the cylinder queries: a third of the time it is garbage.
      c.stadium.to =
          pick(3) == 0 ? glm::vec2(uniform(-9.0f, 9.0f), uniform(-9.0f, 9.0f)) : c.stadium.from;
    }
    const Stadium& s = c.stadium;
    const glm::vec2 along = cylinder ? s.from : glm::mix(s.from, s.to, uniform(0.0f, 1.0f));
    const float angle = uniform(0.0f, 6.2831853f), reach = s.radius + uniform(-0.5f, 1.5f);
    const glm::vec3 anchor(along.x + reach * std::cos(angle), uniform(s.yMin - 1.5f, s.yMax + 1.5f),
                           along.y + reach * std::sin(angle));
    const auto around = [&](float extent) {
      return anchor + extent * glm::vec3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    };
    glm::vec3* p = c.p;
    switch (kind) {
      case Kind::General:
      case Kind::Count: {
        const float extent = uniform(0.1f, 2.5f);
        for (int i = 0; i < 3; ++i)
          p[i] = around(extent);
        break;
      }
      case Kind::Floor: {
        const float extent = uniform(0.1f, 3.0f);
        const int level = pick(4);
        const float y = level == 0 ? s.yMin : level == 1 ? s.yMax : anchor.y;
        for (int i = 0; i < 3; ++i) {
          p[i] = around(extent);
          p[i].y = y;
        }
        break;
      }
      case Kind::AxisWall: {
        const float extent = uniform(0.2f, 3.0f);
        const int axis = pick(2) * 2;  // x or z constant
        for (int i = 0; i < 3; ++i) {
          p[i] = around(extent);
          p[i][axis] = anchor[axis];
        }
        break;
      }
      case Kind::SlantedWall: {
        // Vertical in exact arithmetic; rounding leaves it a hair off.
        const float heading = uniform(0.0f, 6.2831853f);
        const glm::vec3 direction(std::cos(heading), 0.0f, std::sin(heading));
        for (int i = 0; i < 3; ++i) {
          p[i] = anchor + uniform(-2.0f, 2.0f) * direction +
                 glm::vec3(0.0f, uniform(-1.5f, 1.5f), 0.0f);
        }
        break;
      }
      case Kind::Sliver: {
        const float extent = uniform(0.2f, 3.0f);
        p[0] = around(extent);
        p[1] = around(extent);
        p[2] = glm::mix(p[0], p[1], uniform(0.0f, 1.0f));
        break;
      }
      case Kind::Big: {
        const float extent = uniform(8.0f, 40.0f);
        for (int i = 0; i < 3; ++i)
          p[i] = around(extent);
        // Mostly gentle slopes, so that the slab decides.
        if (pick(2) == 0) {
          for (int i = 0; i < 3; ++i)
            p[i].y = anchor.y + 0.05f * (p[i].y - anchor.y);
        }
        break;
      }
      case Kind::SlabCrossing: {
        const float ys[3] = {s.yMin - uniform(0.0f, 1.0f), s.yMax + uniform(0.0f, 1.0f),
                             uniform(s.yMin, s.yMax)};
        for (int i = 0; i < 3; ++i) {
          p[i] = around(uniform(0.2f, 2.5f));
          p[i].y = ys[i];
        }
        break;
      }
      case Kind::Pole: {
        const float height = uniform(0.5f, 4.0f);
        p[0] = anchor - glm::vec3(0.0f, 0.5f * height, 0.0f);
        p[1] = anchor + glm::vec3(0.0f, 0.5f * height, 0.0f);
        p[2] = anchor + glm::vec3(uniform(-0.02f, 0.02f), uniform(-0.5f, 0.5f) * height,
                                  uniform(-0.02f, 0.02f));
        break;
      }
    }
    return c;
  }

  std::mt19937 m_rng;
};

TEST(CollisionStadium, BruteForceDistanceAgreesWithSampling) {
  // The brute force itself, checked against the crudest possible method: a
  // sampled point of the triangle is never nearer than the exact distance, and
  // the nearest sample is within one grid cell of it.
  CaseMaker maker(30);
  for (int i = 0; i < 400; ++i) {
    Case c = maker.make(Kind(i % int(Kind::Count)), /*cylinder=*/false, /*grid=*/i % 2 == 1);
    c.stadium.yMin = -1e6f;
    c.stadium.yMax = 1e6f;
    const Tri tri = triOf(c.p[0], c.p[1], c.p[2]);
    const double exact = sliceDistance(tri, c.stadium, 0.0);
    constexpr int kSteps = 60;
    double sampled = kInfinity;
    for (int u = 0; u <= kSteps; ++u) {
      for (int v = 0; u + v <= kSteps; ++v) {
        const glm::dvec3 p = tri.p[0] + double(u) / kSteps * (tri.p[1] - tri.p[0]) +
                             double(v) / kSteps * (tri.p[2] - tri.p[0]);
        sampled = std::min(sampled,
                           pointToSegment(ground(p), Ground(c.stadium.from), Ground(c.stadium.to)));
      }
    }
    const double cell =
        std::max({glm::length(tri.p[1] - tri.p[0]), glm::length(tri.p[2] - tri.p[0]),
                  glm::length(tri.p[2] - tri.p[1])}) /
        kSteps;
    ASSERT_LE(exact, sampled + 1e-9) << describe(c);
    ASSERT_LE(sampled, exact + cell + 1e-9) << describe(c);
  }
}

void checkOverlaps(uint32_t seed, int casesPerKind, bool grid) {
  CaseMaker maker(seed);
  int overlapping = 0, total = 0;
  for (int k = 0; k < int(Kind::Count); ++k) {
    const Kind kind = Kind(k);
    for (int i = 0; i < casesPerKind; ++i) {
      const Case c = maker.make(kind, /*cylinder=*/i % 3 == 0, grid);
      const Tri tri = triOf(c.p[0], c.p[1], c.p[2]);
      const bool overlaps = triangleOverlapsStadium(c.p[0], c.p[1], c.p[2], c.stadium);
      if (bruteOverlaps(tri, c.stadium, /*strict=*/true)) {
        EXPECT_TRUE(overlaps) << kindName(kind) << " case " << i << ": " << describe(c)
                              << " distance " << sliceDistance(tri, c.stadium, -kMargin)
                              << " slice area "
                              << sliceShadowArea(tri, c.stadium.yMin, c.stadium.yMax);
      }
      if (!bruteOverlaps(tri, c.stadium, /*strict=*/false)) {
        EXPECT_FALSE(overlaps) << kindName(kind) << " case " << i << ": " << describe(c)
                               << " distance " << sliceDistance(tri, c.stadium, kMargin)
                               << " slice area "
                               << sliceShadowArea(tri, c.stadium.yMin, c.stadium.yMax);
      }
      overlapping += overlaps;
      ++total;
    }
  }
  EXPECT_GT(overlapping, total / 10);
  EXPECT_LT(overlapping, total - total / 10);
}

TEST(CollisionStadium, TriangleOverlapsStadiumMatchesBruteForce) {
  checkOverlaps(31, 3000, /*grid=*/false);
}

TEST(CollisionStadium, TriangleOverlapsStadiumOnAGridMatchesBruteForce) {
  checkOverlaps(33, 2000, /*grid=*/true);
}

void checkHighest(uint32_t seed, int casesPerKind, bool grid) {
  CaseMaker maker(seed);
  int found = 0, total = 0;
  for (int k = 0; k < int(Kind::Count); ++k) {
    const Kind kind = Kind(k);
    for (int i = 0; i < casesPerKind; ++i) {
      const Case c = maker.make(kind, /*cylinder=*/true, grid);
      const Stadium& s = c.stadium;
      const Tri tri = triOf(c.p[0], c.p[1], c.p[2]);
      const Ground center(s.from);
      const double r = s.radius, lo = s.yMin, hi = s.yMax;
      const std::optional<double> exact = exactTop(tri, center, r, lo, hi);
      const std::optional<double> strict =
          exactTop(tri, center, r - kMargin, lo + kMargin, hi - kMargin);
      const std::optional<double> loose =
          exactTop(tri, center, r + kMargin, lo - kMargin, hi + kMargin);
      const std::optional<double> sampled =
          sampledTop(tri, center, r - kMargin, lo + kMargin, hi - kMargin);
      // The brute forces agree among themselves: samples are genuine points of
      // the set, so never above its exact top, and shrinking the set never raises it.
      if (sampled) {
        ASSERT_TRUE(strict.has_value()) << describe(c);
        ASSERT_LE(*sampled, *strict + 1e-9) << describe(c);
      }
      if (strict) {
        ASSERT_TRUE(exact.has_value()) << describe(c);
        ASSERT_LE(*strict, *exact + 1e-9) << describe(c);
      }
      if (exact) {
        ASSERT_TRUE(loose.has_value()) << describe(c);
        ASSERT_LE(*exact, *loose + 1e-9) << describe(c);
      }

      const std::optional<float> top = triangleHighestInCylinder(c.p[0], c.p[1], c.p[2], s);
      ++total;
      if (!top) {
        EXPECT_FALSE(strict.has_value())
            << kindName(kind) << " case " << i << ": " << describe(c) << " missed top " << *strict
            << " slice area " << sliceShadowArea(tri, s.yMin, s.yMax);
        continue;
      }
      ++found;
      const double area = sliceShadowArea(tri, s.yMin, s.yMax);
      EXPECT_TRUE(loose.has_value()) << kindName(kind) << " case " << i << ": " << describe(c)
                                     << " reported " << *top << " slice area " << area;
      if (!loose) continue;
      EXPECT_LE(*top, *loose + kHeightTolerance)
          << kindName(kind) << " case " << i << ": " << describe(c);
      if (strict) {
        EXPECT_GE(*top, *strict - kHeightTolerance)
            << kindName(kind) << " case " << i << ": " << describe(c);
      }
      EXPECT_GE(*top, s.yMin - kHeightTolerance) << describe(c);
      EXPECT_LE(*top, s.yMax + kHeightTolerance) << describe(c);
    }
  }
  EXPECT_GT(found, total / 10);
  EXPECT_LT(found, total - total / 10);
}

TEST(CollisionCylinder, TriangleHighestInCylinderMatchesBruteForce) {
  checkHighest(32, 800, /*grid=*/false);
}

TEST(CollisionCylinder, TriangleHighestInCylinderOnAGridMatchesBruteForce) {
  checkHighest(34, 600, /*grid=*/true);
}

// --- hand cases ---------------------------------------------------------------------

void addTriangle(Level& level, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  const uint32_t base = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {a, b, c});
  level.triangles.push_back({{base, base + 1, base + 2}, 0});
}

/// The four side faces of an upright square pillar, two triangles each.
void addPillar(Level& level, float x0, float z0, float x1, float z1, float y0, float y1) {
  const glm::vec2 corners[4] = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
  for (int i = 0; i < 4; ++i) {
    const glm::vec2 p = corners[i], q = corners[(i + 1) % 4];
    addTriangle(level, {p.x, y0, p.y}, {q.x, y0, q.y}, {q.x, y1, q.y});
    addTriangle(level, {p.x, y0, p.y}, {q.x, y1, q.y}, {p.x, y1, p.y});
  }
}

bool anyTriangleOverlaps(const Level& level, const Stadium& stadium) {
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    if (triangleOverlapsStadium(level.corner(t, 0), level.corner(t, 1), level.corner(t, 2),
                                stadium))
      return true;
  }
  return false;
}

TEST(CollisionStadium, BoundsCoverTheStadium) {
  const Stadium s{{1.0f, -2.0f}, {-3.0f, 0.5f}, 0.75f, -1.0f, 2.0f};
  const Aabb box = s.bounds();
  EXPECT_FLOAT_EQ(box.min.x, -3.75f);
  EXPECT_FLOAT_EQ(box.max.x, 1.75f);
  EXPECT_FLOAT_EQ(box.min.z, -2.75f);
  EXPECT_FLOAT_EQ(box.max.z, 1.25f);
  EXPECT_FLOAT_EQ(box.min.y, -1.0f);
  EXPECT_FLOAT_EQ(box.max.y, 2.0f);
  const Aabb round = Stadium::cylinder({2.0f, 3.0f}, 0.5f, 0.0f, 1.8f).bounds();
  EXPECT_EQ(round.min, glm::vec3(1.5f, 0.0f, 2.5f));
  EXPECT_EQ(round.max, glm::vec3(2.5f, 1.8f, 3.5f));
}

TEST(CollisionCylinder, FloorLargerThanTheCylinderSupportsAtItsHeight) {
  // No corner of the floor is anywhere near the cylinder.
  const glm::vec3 a(-10.0f, 0.25f, -10.0f), b(-10.0f, 0.25f, 20.0f), c(20.0f, 0.25f, -10.0f);
  const Stadium round = Stadium::cylinder({1.5f, -0.5f}, 0.4f, -1.0f, 1.0f);
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, round));
  EXPECT_EQ(triangleHighestInCylinder(a, b, c, round), std::optional<float>(0.25f));
  // The slab's faces touch it: boundary included.
  EXPECT_EQ(triangleHighestInCylinder(a, b, c, Stadium::cylinder({1.5f, -0.5f}, 0.4f, 0.25f, 1.0f)),
            std::optional<float>(0.25f));
  EXPECT_EQ(
      triangleHighestInCylinder(a, b, c, Stadium::cylinder({1.5f, -0.5f}, 0.4f, -1.0f, 0.25f)),
      std::optional<float>(0.25f));
  EXPECT_TRUE(
      triangleOverlapsStadium(a, b, c, Stadium::cylinder({1.5f, -0.5f}, 0.4f, 0.25f, 1.0f)));
  EXPECT_TRUE(
      triangleOverlapsStadium(a, b, c, Stadium::cylinder({1.5f, -0.5f}, 0.4f, -1.0f, 0.25f)));
  // Above and below the slab.
  const Stadium low = Stadium::cylinder({1.5f, -0.5f}, 0.4f, -1.0f, 0.2f);
  const Stadium high = Stadium::cylinder({1.5f, -0.5f}, 0.4f, 0.3f, 1.0f);
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, low));
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, high));
  EXPECT_FALSE(triangleHighestInCylinder(a, b, c, low));
  EXPECT_FALSE(triangleHighestInCylinder(a, b, c, high));

  Level level;
  addTriangle(level, a, b, c);
  test::finish(level);
  const CollisionWorld world(level);
  const std::optional<SupportHit> hit = world.highestPointInCylinder(round);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->height, 0.25f);
  EXPECT_EQ(hit->triangle, 0u);
  EXPECT_FLOAT_EQ(hit->normalY, 1.0f);
  EXPECT_TRUE(world.overlapsStadium(round));
  EXPECT_FALSE(world.highestPointInCylinder(low));
  EXPECT_FALSE(world.highestPointInCylinder(high));
}

TEST(CollisionCylinder, SlopeIsHighestAtTheRim) {
  // The plane y = 0.5 x, one triangle far bigger than the cylinder.
  const glm::vec3 a(-10.0f, -5.0f, -10.0f), b(10.0f, 5.0f, -10.0f), c(-10.0f, -5.0f, 30.0f);
  const auto top = [&](glm::vec2 center, float radius, float yMin, float yMax) {
    return triangleHighestInCylinder(a, b, c, Stadium::cylinder(center, radius, yMin, yMax));
  };
  ASSERT_TRUE(top({0, 0}, 1.0f, -2.0f, 2.0f));
  EXPECT_NEAR(*top({0, 0}, 1.0f, -2.0f, 2.0f), 0.5f, 1e-5f);   // at x = 1
  EXPECT_NEAR(*top({2, 3}, 0.5f, -2.0f, 2.0f), 1.25f, 1e-5f);  // at x = 2.5
  EXPECT_NEAR(*top({0, 0}, 1.0f, -2.0f, 0.3f), 0.3f, 1e-5f);   // cut by the slab's top
  EXPECT_NEAR(*top({0, 0}, 1.0f, 0.49f, 2.0f), 0.5f, 1e-5f);   // only a sliver above yMin
  EXPECT_FALSE(top({0, 0}, 1.0f, 0.51f, 2.0f));
  EXPECT_FALSE(top({0, 0}, 1.0f, -2.0f, -0.51f));

  // Steepest ascent along neither axis: y = 0.3 x + 0.4 z rises 0.5 per metre
  // towards (0.6, 0.8); at the rim of a unit cylinder at (1, 1) it is 0.7 + 0.5.
  const glm::vec3 d(-20.0f, -14.0f, -20.0f), e(20.0f, -2.0f, -20.0f), f(-20.0f, 18.0f, 60.0f);
  const std::optional<float> diagonal =
      triangleHighestInCylinder(d, e, f, Stadium::cylinder({1, 1}, 1.0f, -5.0f, 5.0f));
  ASSERT_TRUE(diagonal);
  EXPECT_NEAR(*diagonal, 1.2f, 1e-5f);

  // The same through the world, with the slope's normal (wound to face up).
  Level level;
  addTriangle(level, a, c, b);
  test::finish(level);
  const CollisionWorld world(level);
  const std::optional<SupportHit> hit =
      world.highestPointInCylinder(Stadium::cylinder({0, 0}, 1.0f, -2.0f, 2.0f));
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->height, 0.5f, 1e-5f);
  EXPECT_EQ(hit->triangle, 0u);
  EXPECT_NEAR(hit->normalY, 1.0f / std::sqrt(1.25f), 1e-5f);
}

TEST(CollisionCylinder, ToIsIgnored) {
  // A floor and a wall well away from the cylinder but on the way to `to`.
  Level level;
  test::addFloor(level, 3.0f, -1.0f, 5.0f, 1.0f, 0.5f);
  addTriangle(level, {6.0f, 0.0f, -1.0f}, {6.0f, 0.0f, 1.0f}, {6.0f, 2.0f, 0.0f});
  test::addFloor(level, -1.0f, -1.0f, 1.0f, 1.0f, 0.0f);
  test::finish(level);
  const CollisionWorld world(level);
  Stadium round = Stadium::cylinder({0.0f, 0.0f}, 0.5f, -1.0f, 2.0f);
  round.to = {8.0f, 0.0f};
  EXPECT_TRUE(world.overlapsStadium(round));  // as a stadium it reaches all three
  const std::optional<SupportHit> hit = world.highestPointInCylinder(round);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->height, 0.0f);
  EXPECT_GE(hit->triangle, 3u);
  std::vector<uint32_t> candidates;
  world.candidatesInBox(round.bounds(), candidates);
  const std::optional<SupportHit> fromCandidates = world.highestPointInCylinder(round, candidates);
  ASSERT_TRUE(fromCandidates.has_value());
  EXPECT_EQ(fromCandidates->height, 0.0f);
  EXPECT_EQ(fromCandidates->triangle, hit->triangle);
  for (uint32_t t = 0; t < 3; ++t) {
    EXPECT_FALSE(triangleHighestInCylinder(level.corner(t, 0), level.corner(t, 1),
                                           level.corner(t, 2), round))
        << "triangle " << t;
  }
}

TEST(CollisionStadium, PillarCornerAtAKnownDistance) {
  // A 1 x 1 pillar, x and z in [0, 1], y in [0, 3]; cylinders off each corner
  // along the diagonal, 0.59 and 0.61 from it.
  Level level;
  addPillar(level, 0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 3.0f);
  test::finish(level);
  const CollisionWorld world(level);
  const float step = 1.0f / std::sqrt(2.0f);
  for (const glm::vec2 corner :
       {glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(1, 1), glm::vec2(0, 1)}) {
    const glm::vec2 out(corner.x == 0 ? -step : step, corner.y == 0 ? -step : step);
    SCOPED_TRACE(::testing::Message() << "corner (" << corner.x << ", " << corner.y << ")");
    const Stadium near = Stadium::cylinder(corner + 0.59f * out, 0.6f, 0.5f, 1.5f);
    const Stadium far = Stadium::cylinder(corner + 0.61f * out, 0.6f, 0.5f, 1.5f);
    EXPECT_TRUE(world.overlapsStadium(near));
    EXPECT_TRUE(anyTriangleOverlaps(level, near));
    EXPECT_FALSE(world.overlapsStadium(far));
    EXPECT_FALSE(anyTriangleOverlaps(level, far));
    const std::optional<SupportHit> hit = world.highestPointInCylinder(near);
    ASSERT_TRUE(hit.has_value());
    EXPECT_FLOAT_EQ(hit->height, 1.5f);  // the walls, cut by the slab's top
    EXPECT_NEAR(hit->normalY, 0.0f, 1e-6f);
    EXPECT_FALSE(world.highestPointInCylinder(far));

    // A stadium sweeping past the corner, perpendicular to the diagonal: its
    // segment comes nearest (0.59) at its middle and its ends are 2.5 m off.
    const glm::vec2 across(out.y, -out.x);
    const glm::vec2 middle = corner + 0.59f * out;
    Stadium sweep{middle - 3.0f * across, middle + 3.0f * across, 0.6f, 0.5f, 1.5f};
    EXPECT_TRUE(world.overlapsStadium(sweep));
    EXPECT_TRUE(anyTriangleOverlaps(level, sweep));
    sweep.radius = 0.58f;
    EXPECT_FALSE(world.overlapsStadium(sweep));
    EXPECT_FALSE(anyTriangleOverlaps(level, sweep));
  }
  // Reaching above the pillar: the wall tops at 3 are within the cylinder.
  const std::optional<SupportHit> top = world.highestPointInCylinder(
      Stadium::cylinder(glm::vec2(1.0f) + 0.59f * glm::vec2(step), 0.6f, 0.5f, 5.0f));
  ASSERT_TRUE(top.has_value());
  EXPECT_FLOAT_EQ(top->height, 3.0f);
}

TEST(CollisionStadium, SweepPastAThinPole) {
  // A 2 cm pole whose near face is 0.8 m from the middle of a 10 m segment; the
  // segment's ends are 5 m from it.
  Level level;
  test::addBox(level, Aabb{{5.0f, 0.0f, 0.8f}, {5.02f, 3.0f, 0.82f}});
  test::finish(level);
  const CollisionWorld world(level);
  const Stadium pass{{0.0f, 0.0f}, {10.0f, 0.0f}, 0.81f, 0.5f, 1.5f};
  EXPECT_TRUE(world.overlapsStadium(pass));
  EXPECT_TRUE(anyTriangleOverlaps(level, pass));
  std::vector<uint32_t> candidates;
  world.candidatesInBox(pass.bounds(), candidates);
  EXPECT_TRUE(world.overlapsStadium(pass, candidates));
  Stadium clear = pass;
  clear.radius = 0.79f;
  EXPECT_FALSE(world.overlapsStadium(clear));
  EXPECT_FALSE(anyTriangleOverlaps(level, clear));
  EXPECT_FALSE(world.overlapsStadium(Stadium::cylinder(pass.from, 0.81f, 0.5f, 1.5f)));
  EXPECT_FALSE(world.overlapsStadium(Stadium::cylinder(pass.to, 0.81f, 0.5f, 1.5f)));
  // Backwards is the same stadium.
  EXPECT_TRUE(world.overlapsStadium(Stadium{pass.to, pass.from, 0.81f, 0.5f, 1.5f}));
  // Above the pole.
  EXPECT_FALSE(world.overlapsStadium(Stadium{pass.from, pass.to, 0.81f, 3.01f, 4.0f}));

  // Diagonally, past a single vertical triangle whose shadow is a 1.4 cm
  // segment along the sweep, 0.8 m to its left.
  const float step = 0.8f / std::sqrt(2.0f);
  const glm::vec3 q(5.0f - step, 0.0f, 5.0f + step);
  const glm::vec3 a = q, b = q + glm::vec3(0.0f, 3.0f, 0.0f), c = q + glm::vec3(0.01f, 1.5f, 0.01f);
  const Stadium diagonal{{0.0f, 0.0f}, {10.0f, 10.0f}, 0.81f, 0.5f, 1.5f};
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, diagonal));
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, Stadium{{0, 0}, {10, 10}, 0.79f, 0.5f, 1.5f}));
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, Stadium::cylinder({0, 0}, 0.81f, 0.5f, 1.5f)));
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, Stadium::cylinder({10, 10}, 0.81f, 0.5f, 1.5f)));
}

TEST(CollisionStadium, SlabFacesAreIncludedAndNothingBeyond) {
  const Stadium s{{0.0f, 0.0f}, {2.0f, 0.0f}, 0.5f, 1.0f, 2.0f};
  const Stadium round = Stadium::cylinder({0.0f, 0.0f}, 0.5f, 1.0f, 2.0f);
  // A tilted triangle over the segment, wholly above, wholly below.
  const glm::vec3 a(-1.0f, 0.0f, -1.0f), b(3.0f, 0.5f, -1.0f), c(1.0f, 0.25f, 2.0f);
  const glm::vec3 up(0.0f, 2.01f, 0.0f), down(0.0f, -0.51f, 0.0f);
  EXPECT_FALSE(triangleOverlapsStadium(a + up, b + up, c + up, s));
  EXPECT_FALSE(triangleOverlapsStadium(a + down, b + down, c + down, s));
  EXPECT_FALSE(triangleHighestInCylinder(a + up, b + up, c + up, round));
  EXPECT_FALSE(triangleHighestInCylinder(a + down, b + down, c + down, round));
  // Resting on the top face with its lowest corner, inside the disc.
  const glm::vec3 p(0.1f, 2.0f, 0.1f), q(3.0f, 4.0f, 0.0f), r(0.0f, 3.0f, 3.0f);
  EXPECT_TRUE(triangleOverlapsStadium(p, q, r, s));
  EXPECT_TRUE(triangleOverlapsStadium(p, q, r, round));
  const std::optional<float> resting = triangleHighestInCylinder(p, q, r, round);
  ASSERT_TRUE(resting);
  EXPECT_FLOAT_EQ(*resting, 2.0f);
  // Hanging onto the bottom face with its highest corner.
  const glm::vec3 u(1.9f, 1.0f, 0.3f), v(3.0f, -1.0f, 0.0f), w(0.0f, -2.0f, 3.0f);
  EXPECT_TRUE(triangleOverlapsStadium(u, v, w, s));
  EXPECT_FALSE(triangleOverlapsStadium(u, v, w, round));  // 1.92 m from the cylinder's centre
  const glm::vec3 lowCorner(0.2f, 1.0f, -0.3f);
  const std::optional<float> hanging = triangleHighestInCylinder(lowCorner, v, w, round);
  ASSERT_TRUE(hanging);
  EXPECT_FLOAT_EQ(*hanging, 1.0f);
  // A wall standing across the slab: cut at the top.
  const glm::vec3 w0(0.25f, -1.0f, -2.0f), w1(0.25f, -1.0f, 2.0f), w2(0.25f, 5.0f, 0.0f);
  EXPECT_TRUE(triangleOverlapsStadium(w0, w1, w2, s));
  const std::optional<float> cut = triangleHighestInCylinder(w0, w1, w2, round);
  ASSERT_TRUE(cut);
  EXPECT_FLOAT_EQ(*cut, 2.0f);
  // ...and a lower wall, whose top edge y = 1.5 - 0.75 |z| peaks inside the disc.
  const glm::vec3 v0(0.25f, 0.0f, -2.0f), v1(0.25f, 0.0f, 2.0f), v2(0.25f, 1.5f, 0.0f);
  const std::optional<float> peak = triangleHighestInCylinder(v0, v1, v2, round);
  ASSERT_TRUE(peak);
  EXPECT_NEAR(*peak, 1.5f, 1e-6f);
}

TEST(CollisionStadium, DegenerateSlicesAreOnlyWhereTheyAre) {
  // A wall in the plane x = 2 with an upright edge at z = 0 (its slice reaches
  // z from 0 to 5/6 m): seen from above a segment, and nothing of it is
  // anywhere else on its line.
  const glm::vec3 a(2.0f, 0.0f, 0.0f), b(2.0f, 3.0f, 0.0f), c(2.0f, 0.0f, 1.0f);
  const Stadium onLine = Stadium::cylinder({2.0f, 5.0f}, 0.5f, 0.5f, 1.5f);
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, onLine));
  EXPECT_FALSE(
      triangleOverlapsStadium(a, b, c, Stadium::cylinder({2.0f, -3.0f}, 0.5f, 0.5f, 1.5f)));
  EXPECT_FALSE(
      triangleOverlapsStadium(a, b, c, Stadium{{2.0f, 5.0f}, {2.0f, 3.0f}, 0.5f, 0.5f, 1.5f}));
  EXPECT_TRUE(
      triangleOverlapsStadium(a, b, c, Stadium{{2.0f, 5.0f}, {2.0f, 1.25f}, 0.5f, 0.5f, 1.5f}));
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, Stadium::cylinder({2.0f, -0.5f}, 0.5f, 0.5f, 1.5f)));
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, Stadium::cylinder({2.0f, 0.5f}, 0.25f, 0.5f, 1.5f)));
  EXPECT_FALSE(triangleHighestInCylinder(a, b, c, onLine));

  // A triangle whose top corner lies exactly on the slab's bottom face: its
  // slice is that corner alone, 1.92 m from the cylinder's centre.
  const Stadium round = Stadium::cylinder({0.0f, 0.0f}, 0.5f, 1.0f, 2.0f);
  const glm::vec3 u(1.9f, 1.0f, 0.3f), v(3.0f, -1.0f, 0.0f), w(0.0f, -2.0f, 3.0f);
  EXPECT_FALSE(triangleOverlapsStadium(u, v, w, round));
  EXPECT_FALSE(triangleHighestInCylinder(u, v, w, round));
  EXPECT_TRUE(triangleOverlapsStadium(u, v, w, Stadium::cylinder({1.9f, 0.0f}, 0.5f, 1.0f, 2.0f)));

  // A triangle with an edge lying on the slab's top face (x from 0 to 1, z = 0)
  // and the rest above it: the slice is that edge.
  const glm::vec3 p(0.0f, 2.0f, 0.0f), q(1.0f, 2.0f, 0.0f), r(0.5f, 3.0f, 1.0f);
  const Stadium beyond = Stadium::cylinder({5.0f, 0.0f}, 0.5f, 1.0f, 2.0f);
  EXPECT_FALSE(triangleOverlapsStadium(p, q, r, beyond));
  EXPECT_FALSE(triangleHighestInCylinder(p, q, r, beyond));
  EXPECT_FALSE(
      triangleOverlapsStadium(p, q, r, Stadium{{5.0f, 0.0f}, {3.0f, 0.0f}, 0.5f, 1.0f, 2.0f}));
  EXPECT_TRUE(
      triangleOverlapsStadium(p, q, r, Stadium{{5.0f, 0.0f}, {1.5f, 0.0f}, 0.5f, 1.0f, 2.0f}));
  const Stadium reaching = Stadium::cylinder({1.25f, 0.0f}, 0.5f, 1.0f, 2.0f);
  EXPECT_TRUE(triangleOverlapsStadium(p, q, r, reaching));
  EXPECT_EQ(triangleHighestInCylinder(p, q, r, reaching), std::optional<float>(2.0f));

  // The same through the world, one triangle at a time.
  const auto worldOf = [](const glm::vec3& x, const glm::vec3& y, const glm::vec3& z) {
    Level level;
    addTriangle(level, x, y, z);
    test::finish(level);
    return CollisionWorld(level);
  };
  const CollisionWorld wall = worldOf(a, b, c), corner = worldOf(u, v, w), edge = worldOf(p, q, r);
  EXPECT_FALSE(wall.overlapsStadium(onLine));
  EXPECT_FALSE(wall.highestPointInCylinder(onLine));
  EXPECT_FALSE(corner.overlapsStadium(round));
  EXPECT_FALSE(corner.highestPointInCylinder(round));
  EXPECT_FALSE(edge.overlapsStadium(beyond));
  EXPECT_FALSE(edge.highestPointInCylinder(beyond));
  EXPECT_TRUE(edge.overlapsStadium(reaching));
}

TEST(CollisionStadium, TouchingTheRimCounts) {
  // A wall in the plane x = 1 against a unit cylinder and stadiums at the
  // origin: every number is exact in binary, so "boundary included" must hold.
  const glm::vec3 a(1.0f, 0.0f, -2.0f), b(1.0f, 0.0f, 2.0f), c(1.0f, 2.0f, 0.0f);
  const Stadium round = Stadium::cylinder({0.0f, 0.0f}, 1.0f, 0.5f, 1.5f);
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, round));
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, Stadium{{0, -5}, {0, 5}, 1.0f, 0.5f, 1.5f}));
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, Stadium{{-3, 0}, {0, 0}, 1.0f, 0.5f, 1.5f}));
  EXPECT_TRUE(triangleOverlapsStadium(a, b, c, Stadium{{0, 0}, {0.5f, 0}, 0.5f, 0.5f, 1.5f}));
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, Stadium::cylinder({0, 0}, 0.999f, 0.5f, 1.5f)));
  EXPECT_FALSE(triangleOverlapsStadium(a, b, c, Stadium{{0, -5}, {0, 5}, 0.999f, 0.5f, 1.5f}));
  // The highest point inside is on the touching line, cut by the slab.
  EXPECT_EQ(triangleHighestInCylinder(a, b, c, round), std::optional<float>(1.5f));
  EXPECT_FALSE(triangleHighestInCylinder(a, b, c, Stadium::cylinder({0, 0}, 0.999f, 0.5f, 1.5f)));
}

// --- the world against the free functions --------------------------------------------

Level randomSoup(uint32_t seed) {
  test::SoupShape shape;
  shape.triangles = 250;
  shape.flatsAndWalls = true;  // tilted floors are rare in levels, flat ones not
  shape.floors = 16;
  shape.boxes = 6;
  return test::randomSoup(seed, shape);
}

Stadium randomStadium(std::mt19937& rng, bool cylinder, bool grid) {
  std::uniform_real_distribution<float> position(-9.0f, 9.0f), step(-4.0f, 4.0f),
      radius(0.05f, 2.0f), height(0.2f, 4.0f);
  Stadium s;
  s.from = {position(rng), position(rng)};
  s.to = cylinder || rng() % 3 == 0 ? s.from : s.from + glm::vec2(step(rng), step(rng));
  s.radius = radius(rng);
  s.yMin = position(rng);
  s.yMax = s.yMin + height(rng);
  if (grid) {  // on the soup's 0.25 m grid, where its floors and boxes lie
    const auto snap = [](float v) { return std::round(v * 4.0f) / 4.0f; };
    s.from = {snap(s.from.x), snap(s.from.y)};
    s.to = {snap(s.to.x), snap(s.to.y)};
    s.radius = std::max(0.25f, snap(s.radius));
    s.yMin = snap(s.yMin);
    s.yMax = std::max(snap(s.yMax), s.yMin + 0.25f);
  }
  return s;
}

double normalYOf(const Level& level, uint32_t t) {
  const Tri tri = triOf(level.corner(t, 0), level.corner(t, 1), level.corner(t, 2));
  const glm::dvec3 n = glm::cross(tri.p[1] - tri.p[0], tri.p[2] - tri.p[0]);
  return n.y / glm::length(n);
}

TEST(CollisionStadium, WorldOverlapsMatchesEveryTriangle) {
  for (uint32_t seed : {40u, 41u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const Level level = randomSoup(seed);
    const CollisionWorld world(level);
    std::mt19937 rng(seed + 100);
    int overlapping = 0;
    constexpr int kQueries = 1000;
    std::vector<uint32_t> candidates, wider;
    for (int i = 0; i < kQueries; ++i) {
      const Stadium s = randomStadium(rng, /*cylinder=*/false, /*grid=*/i % 2 == 1);
      const bool expected = anyTriangleOverlaps(level, s);
      const bool overlaps = world.overlapsStadium(s);
      // And against the brute force directly.
      bool strict = false, loose = false;
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        const Tri tri = triOf(level.corner(t, 0), level.corner(t, 1), level.corner(t, 2));
        strict = strict || bruteOverlaps(tri, s, /*strict=*/true);
        loose = loose || bruteOverlaps(tri, s, /*strict=*/false);
      }
      if (strict) {
        EXPECT_TRUE(overlaps) << "query " << i << " (brute force): " << describe(Case{{}, s});
      }
      if (!loose) {
        EXPECT_FALSE(overlaps) << "query " << i << " (brute force): " << describe(Case{{}, s});
      }
      EXPECT_EQ(overlaps, expected) << "query " << i << ": " << describe(Case{{}, s});
      world.candidatesInBox(s.bounds(), candidates);
      EXPECT_EQ(world.overlapsStadium(s, candidates), overlaps) << "query " << i;
      Aabb grown = s.bounds();
      grown.min -= glm::vec3(1.0f);
      grown.max += glm::vec3(1.0f);
      world.candidatesInBox(grown, wider);
      EXPECT_EQ(world.overlapsStadium(s, wider), overlaps) << "query " << i;
      overlapping += overlaps;
    }
    EXPECT_GT(overlapping, kQueries / 10);
    EXPECT_LT(overlapping, kQueries - kQueries / 10);
  }
}

/// The exact top of the whole level inside the cylinder (centre `from`),
/// strict or loose; triangles whose bounds miss the loose cylinder's box are skipped.
std::optional<double> bruteLevelTop(const Level& level, const Stadium& s, bool strict) {
  const double margin = strict ? -kMargin : kMargin;
  const Ground center(s.from);
  const double r = double(s.radius) + margin, lo = double(s.yMin) - margin,
               hi = double(s.yMax) + margin;
  std::optional<double> best;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const Tri tri = triOf(level.corner(t, 0), level.corner(t, 1), level.corner(t, 2));
    glm::dvec3 low = tri.p[0], high = tri.p[0];
    for (const glm::dvec3& p : tri.p) {
      low = glm::min(low, p);
      high = glm::max(high, p);
    }
    if (high.y < lo - kMargin || low.y > hi + kMargin || high.x < center.x - r - kMargin ||
        low.x > center.x + r + kMargin || high.z < center.y - r - kMargin ||
        low.z > center.y + r + kMargin)
      continue;
    const std::optional<double> top = exactTop(tri, center, r, lo, hi);
    if (top && (!best || *top > *best)) best = top;
  }
  return best;
}

TEST(CollisionCylinder, WorldHighestPointMatchesEveryTriangle) {
  for (uint32_t seed : {42u, 43u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const Level level = randomSoup(seed);
    const CollisionWorld world(level);
    std::mt19937 rng(seed + 100);
    int supported = 0, ambiguous = 0;
    constexpr int kQueries = 1000;
    std::vector<std::optional<float>> heights(level.triangles.size());
    std::vector<uint32_t> candidates, wider;
    for (int i = 0; i < kQueries; ++i) {
      Stadium s = randomStadium(rng, /*cylinder=*/true, /*grid=*/i % 4 >= 2);
      const Aabb ownBounds = s.bounds();
      if (i % 2 == 1) s.to = s.from + glm::vec2(3.0f, -2.0f);  // ignored
      SCOPED_TRACE(::testing::Message() << "query " << i << ": " << describe(Case{{}, s}));

      std::optional<float> highest;
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        heights[t] = triangleHighestInCylinder(level.corner(t, 0), level.corner(t, 1),
                                               level.corner(t, 2), s);
        if (heights[t] && (!highest || *heights[t] > *highest)) highest = heights[t];
      }
      const std::optional<SupportHit> hit = world.highestPointInCylinder(s);
      // Against the brute force: a flatter triangle may win up to a tie (two
      // in a chain, see below) below the top.
      const std::optional<double> strictTop = bruteLevelTop(level, s, /*strict=*/true);
      const std::optional<double> looseTop = bruteLevelTop(level, s, /*strict=*/false);
      if (!hit) {
        EXPECT_FALSE(strictTop.has_value()) << "missed support at " << *strictTop;
      } else {
        EXPECT_TRUE(looseTop.has_value()) << "reported support at " << hit->height;
        if (looseTop) {
          EXPECT_LE(hit->height, *looseTop + kHeightTolerance) << "brute force";
        }
        if (strictTop) {
          EXPECT_GE(hit->height, *strictTop - 2.1 * kSupportTie - kHeightTolerance)
              << "brute force";
        }
      }
      EXPECT_EQ(hit.has_value(), highest.has_value())
          << "reported " << (hit ? hit->height : 0.0f) << " on triangle "
          << (hit ? int64_t(hit->triangle) : -1);
      if (!hit || !highest) continue;
      ++supported;
      // Which triangles tie with the highest, and whether the answer may depend
      // on the visiting order (a height between one and two ties below the top
      // can tie with a tied triangle yet lose to the top).
      double flattest = -1.0;
      bool chain = false;
      for (uint32_t t = 0; t < level.triangles.size(); ++t) {
        if (!heights[t]) continue;
        const double below = double(*highest) - double(*heights[t]);
        if (below <= kSupportTie) flattest = std::max(flattest, normalYOf(level, t));
        if (below > 0.9 * kSupportTie && below < 2.1 * kSupportTie) chain = true;
      }
      ASSERT_LT(hit->triangle, level.triangles.size());
      EXPECT_TRUE(heights[hit->triangle].has_value())
          << "reported " << hit->height << " on triangle " << hit->triangle
          << ", which does not reach into the cylinder";
      if (!heights[hit->triangle]) continue;
      EXPECT_NEAR(hit->height, *heights[hit->triangle], 1e-5);
      EXPECT_NEAR(hit->normalY, normalYOf(level, hit->triangle), 1e-5);
      if (chain) {
        ++ambiguous;
        EXPECT_GE(hit->height, double(*highest) - 2.1 * kSupportTie);
      } else {
        EXPECT_GE(hit->height, double(*highest) - kSupportTie - 1e-6);
        // The flattest of the tied (float normals of equal slopes may differ in the last bit).
        EXPECT_GE(hit->normalY, flattest - 1e-6) << "triangle " << hit->triangle;
      }

      // The candidates variants give the very same answer.
      const auto expectSame = [&](const std::vector<uint32_t>& from, const char* what) {
        const std::optional<SupportHit> other = world.highestPointInCylinder(s, from);
        ASSERT_TRUE(other.has_value()) << what;
        EXPECT_EQ(other->height, hit->height) << what;
        EXPECT_EQ(other->normalY, hit->normalY) << what;
        if (!chain) {
          EXPECT_EQ(other->triangle, hit->triangle) << what;
        }
      };
      world.candidatesInBox(ownBounds, candidates);
      expectSame(candidates, "candidates");
      Aabb grown = ownBounds;
      grown.min -= glm::vec3(1.0f);
      grown.max += glm::vec3(1.0f);
      world.candidatesInBox(grown, wider);
      expectSame(wider, "wider candidates");
    }
    EXPECT_GT(supported, kQueries / 10);
    EXPECT_LT(ambiguous, kQueries / 20);
  }
}

// --- the tie rule -------------------------------------------------------------------

/// A triangle of the plane through (1, height, 0) rising `slope` per metre along
/// x, facing up, big enough to cover a unit cylinder at the origin: its highest point in
/// that cylinder is `height`, at x = 1.
void addSlope(Level& level, float slope, float height) {
  const auto at = [&](float x, float z) { return glm::vec3(x, height + slope * (x - 1.0f), z); };
  addTriangle(level, at(-4.0f, -4.0f), at(-4.0f, 12.0f), at(4.0f, -4.0f));
}

struct Tied {
  uint32_t triangle;
  float height, normalY;
};

Tied supportOf(const Level& level, std::span<const uint32_t> order = {}) {
  const CollisionWorld world(level);
  const Stadium round = Stadium::cylinder({0.0f, 0.0f}, 1.0f, -1.0f, 3.0f);
  const std::optional<SupportHit> hit = order.empty() ? world.highestPointInCylinder(round)
                                                      : world.highestPointInCylinder(round, order);
  EXPECT_TRUE(hit.has_value());
  if (!hit) return {~0u, 0.0f, 0.0f};
  return {hit->triangle, hit->height, hit->normalY};
}

TEST(CollisionCylinder, TiesGoToTheFlattestThenTheLowestIndex) {
  const float gentle = 1.0f / std::sqrt(1.25f), steep = 1.0f / std::sqrt(5.0f);
  for (bool floorFirst : {false, true}) {
    SCOPED_TRACE(floorFirst ? "floor listed first" : "floor listed last");
    // A slope reaching exactly the floor's height, and one reaching 5e-5 above
    // it: both tie, and the floor is flatter.
    for (float slopeTop : {1.0f, 1.00005f}) {
      Level level;
      if (floorFirst) test::addFloor(level, -3.0f, -3.0f, 3.0f, 3.0f, 1.0f);
      addSlope(level, 0.5f, slopeTop);
      if (!floorFirst) test::addFloor(level, -3.0f, -3.0f, 3.0f, 3.0f, 1.0f);
      test::finish(level);
      const Tied tied = supportOf(level);
      EXPECT_NE(tied.triangle, floorFirst ? 2u : 0u) << "slope top " << slopeTop;
      EXPECT_EQ(tied.height, 1.0f);
      EXPECT_FLOAT_EQ(tied.normalY, 1.0f);
    }
    // A millimetre higher is higher, however steep.
    Level higher;
    if (floorFirst) test::addFloor(higher, -3.0f, -3.0f, 3.0f, 3.0f, 1.0f);
    addSlope(higher, 0.5f, 1.001f);
    if (!floorFirst) test::addFloor(higher, -3.0f, -3.0f, 3.0f, 3.0f, 1.0f);
    test::finish(higher);
    const Tied higherHit = supportOf(higher);
    EXPECT_EQ(higherHit.triangle, floorFirst ? 2u : 0u);
    EXPECT_NEAR(higherHit.height, 1.001f, 1e-5f);
    EXPECT_NEAR(higherHit.normalY, gentle, 1e-5f);

    // Two slopes reaching the same height: the gentler wins.
    Level slopes;
    addSlope(slopes, floorFirst ? 0.5f : 2.0f, 1.0f);
    addSlope(slopes, floorFirst ? 2.0f : 0.5f, 1.0f);
    test::finish(slopes);
    const Tied slopeHit = supportOf(slopes);
    EXPECT_EQ(slopeHit.triangle, floorFirst ? 0u : 1u);
    EXPECT_NEAR(slopeHit.height, 1.0f, 1e-5f);
    EXPECT_NEAR(slopeHit.normalY, gentle, 1e-5f);
    EXPECT_GT(gentle, steep);
  }
  // A wall whose top edge reaches the floor's height inside the cylinder.
  Level wall;
  addTriangle(wall, {0.5f, -1.0f, -2.0f}, {0.5f, -1.0f, 2.0f}, {0.5f, 1.0f, 0.0f});
  test::addFloor(wall, -3.0f, -3.0f, 3.0f, 3.0f, 1.0f);
  test::finish(wall);
  const Tied wallHit = supportOf(wall);
  EXPECT_GE(wallHit.triangle, 1u);
  EXPECT_EQ(wallHit.height, 1.0f);
  EXPECT_FLOAT_EQ(wallHit.normalY, 1.0f);

  // Identical floors: the lowest index, whatever order the candidates come in.
  Level twins;
  addSlope(twins, 0.5f, 1.0f);
  addSlope(twins, 0.5f, 1.0f);
  addSlope(twins, 0.5f, 1.0f);
  test::finish(twins);
  EXPECT_EQ(supportOf(twins).triangle, 0u);
  const std::vector<uint32_t> reversed{2, 1, 0}, middleFirst{1, 2, 0};
  EXPECT_EQ(supportOf(twins, reversed).triangle, 0u);
  EXPECT_EQ(supportOf(twins, middleFirst).triangle, 0u);
  const std::vector<uint32_t> withoutFirst{2, 1};
  EXPECT_EQ(supportOf(twins, withoutFirst).triangle, 1u);
}

// --- swept squares (box units) --------------------------------------------------

// A square swept along a segment against boxes along it: the square at sample
// points of the segment, shrunk by a margin, lies inside the sweep (if any
// touches the triangle, the sweep must); the squares grown by half the
// spacing along both axes cover the sweep (if none touches, it must not).
// The boxes are tested by triangleOverlapsBox, which shares nothing with the
// prism's separating-axis test on the ground.
TEST(CollisionPrism, SweptSquareMatchesBoxesAlongTheSweep) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> position(-3.0f, 3.0f), unit(-1.0f, 1.0f), half(0.1f, 1.0f),
      step(-3.0f, 3.0f);
  constexpr int kSamples = 400;
  int touching = 0, apart = 0;
  for (int i = 0; i < 3000; ++i) {
    const glm::vec3 center(position(rng), position(rng), position(rng));
    const float extent = 0.2f + 2.0f * std::abs(unit(rng));
    glm::vec3 p[3];
    for (glm::vec3& corner : p)
      corner = center + extent * glm::vec3(unit(rng), unit(rng), unit(rng));
    if (i % 4 == 1) p[1].y = p[2].y = p[0].y;
    if (i % 4 == 2) p[1].x = p[2].x = p[0].x;
    const glm::vec2 from(position(rng), position(rng));
    const glm::vec2 to = i % 5 == 0 ? from : from + glm::vec2(step(rng), step(rng));
    const float h = half(rng), yMin = position(rng), yMax = yMin + 0.5f + std::abs(step(rng));
    const Prism prism = Prism::sweptSquare(from, to, h, yMin, yMax);
    const bool reported = triangleOverlapsPrism(p[0], p[1], p[2], prism);
    const float spacing = glm::length(to - from) / float(kSamples);
    bool strict = false, loose = false;
    for (int k = 0; k <= kSamples && !strict; ++k) {
      const glm::vec2 at = glm::mix(from, to, float(k) / float(kSamples));
      auto box = [&](float grow) {
        return Aabb{{at.x - h - grow, yMin - grow, at.y - h - grow},
                    {at.x + h + grow, yMax + grow, at.y + h + grow}};
      };
      strict = triangleOverlapsBox(p[0], p[1], p[2], box(-1e-3f));
      loose = loose || triangleOverlapsBox(p[0], p[1], p[2], box(spacing * 0.5f + 1e-3f));
    }
    if (strict) {
      EXPECT_TRUE(reported) << "case " << i;
    }
    if (!loose) {
      EXPECT_FALSE(reported) << "case " << i;
    }
    touching += strict;
    apart += !loose;
  }
  // Both answers were put to the test many times.
  EXPECT_GT(touching, 100);
  EXPECT_GT(apart, 100);
}

TEST(CollisionPrism, SweepAlongAnAxisIsTheBoxAroundBothSquares) {
  const glm::vec3 a(1.0f, 0.0f, 2.2f), b(1.0f, 2.0f, 2.2f), c(1.05f, 1.0f, 2.2f);  // a thin pole
  // Squares of half side 0.5 at x = 0 and x = 3, z = 1.75: the pole stands 0.45 m to the side.
  EXPECT_TRUE(
      triangleOverlapsPrism(a, b, c, Prism::sweptSquare({0, 1.75f}, {3, 1.75f}, 0.5f, 0, 2)));
  EXPECT_FALSE(
      triangleOverlapsPrism(a, b, c, Prism::sweptSquare({0, 1.65f}, {3, 1.65f}, 0.5f, 0, 2)));
  // Diagonally from (0, 0) to (2, 2) with half side 0.5, the hexagon's upper
  // edge runs from (1.5, 2.5) to (-0.5, 0.5), on z = x + 1: a pole at (1, 1.9)
  // is inside; with half side 0.3 the edge is z = x + 0.6, and it is outside.
  const glm::vec3 d(1.0f, 0.0f, 1.9f), e(1.0f, 2.0f, 1.9f), f(1.02f, 1.0f, 1.9f);
  EXPECT_TRUE(triangleOverlapsPrism(d, e, f, Prism::sweptSquare({0, 0}, {2, 2}, 0.5f, 0, 2)));
  EXPECT_FALSE(triangleOverlapsPrism(d, e, f, Prism::sweptSquare({0, 0}, {2, 2}, 0.3f, 0, 2)));
  // Neither square alone reaches it.
  EXPECT_FALSE(triangleOverlapsPrism(d, e, f, Prism::sweptSquare({0, 0}, {0, 0}, 0.5f, 0, 2)));
  EXPECT_FALSE(triangleOverlapsPrism(d, e, f, Prism::sweptSquare({2, 2}, {2, 2}, 0.5f, 0, 2)));
  // Above or below the prism's heights: nothing.
  EXPECT_FALSE(
      triangleOverlapsPrism(a, b, c, Prism::sweptSquare({0, 1.75f}, {3, 1.75f}, 0.5f, 2.5f, 3)));
}

TEST(CollisionPrism, WorldOverlapsMatchesEveryTriangle) {
  const Level level = randomSoup(43);
  const CollisionWorld world(level);
  std::mt19937 rng(44);
  for (int i = 0; i < 400; ++i) {
    const Stadium s = randomStadium(rng, false, i % 2 == 0);
    const Prism prism = Prism::sweptSquare(s.from, s.to, s.radius, s.yMin, s.yMax);
    bool any = false;
    for (uint32_t t = 0; t < level.triangles.size() && !any; ++t)
      any =
          triangleOverlapsPrism(level.corner(t, 0), level.corner(t, 1), level.corner(t, 2), prism);
    EXPECT_EQ(world.overlapsPrism(prism), any) << "query " << i;
    // Over candidates: those of its own box, or of a box a metre bigger all round.
    std::vector<uint32_t> candidates;
    world.candidatesInBox(prism.bounds(), candidates);
    EXPECT_EQ(world.overlapsPrism(prism, candidates), any) << "query " << i;
    Aabb grown = prism.bounds();
    grown.min -= glm::vec3(1.0f);
    grown.max += glm::vec3(1.0f);
    world.candidatesInBox(grown, candidates);
    EXPECT_EQ(world.overlapsPrism(prism, candidates), any) << "query " << i;
  }
}

}  // namespace
}  // namespace nav
