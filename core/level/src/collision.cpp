#include "nav/collision.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace nav {
namespace {

constexpr uint32_t kLeafSize = 4;
// Support heights this close are a tie, which the flatter triangle wins. [metres]
constexpr float kSupportTie = 1e-4f;

Aabb triangleBox(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  Aabb box;
  box.grow(a);
  box.grow(b);
  box.grow(c);
  return box;
}

bool rayHitsBox(const glm::vec3& origin, const glm::vec3& inverseDirection, float maxDistance,
                const Aabb& box) {
  float tMin = 0.0f, tMax = maxDistance;
  for (int axis = 0; axis < 3; ++axis) {
    float t0 = (box.min[axis] - origin[axis]) * inverseDirection[axis];
    float t1 = (box.max[axis] - origin[axis]) * inverseDirection[axis];
    if (t0 > t1) std::swap(t0, t1);
    // NaN from 0 * inf (origin on a slab plane, ray parallel) must not reject the box.
    if (!(t0 <= tMax) && !std::isnan(t0)) return false;
    if (t0 > tMin) tMin = t0;
    if (t1 < tMax) tMax = t1;
    if (tMin > tMax) return false;
  }
  return true;
}

// Möller–Trumbore, both faces.
bool rayHitsTriangle(const glm::vec3& origin, const glm::vec3& direction, const glm::vec3& a,
                     const glm::vec3& b, const glm::vec3& c, float& distance) {
  const glm::vec3 edge1 = b - a, edge2 = c - a;
  const glm::vec3 p = glm::cross(direction, edge2);
  const float det = glm::dot(edge1, p);
  if (std::abs(det) < 1e-12f) return false;
  const float inverseDet = 1.0f / det;
  const glm::vec3 s = origin - a;
  const float u = glm::dot(s, p) * inverseDet;
  if (u < 0.0f || u > 1.0f) return false;
  const glm::vec3 q = glm::cross(s, edge1);
  const float v = glm::dot(direction, q) * inverseDet;
  if (v < 0.0f || u + v > 1.0f) return false;
  distance = glm::dot(edge2, q) * inverseDet;
  return distance >= 0.0f;
}

// Sutherland–Hodgman clip of a convex polygon against one axis-aligned plane,
// keeping the side p[Axis] <= value (KeepBelow) or p[Axis] >= value. The
// distances beyond the plane are negated for the second side, which is exact.
template <int Axis, bool KeepBelow>
int clipPolygon(const glm::vec3* in, int count, glm::vec3* out, float value) {
  int outCount = 0;
  for (int i = 0; i < count; ++i) {
    const glm::vec3& p = in[i];
    const glm::vec3& q = in[i + 1 == count ? 0 : i + 1];
    const float dp = KeepBelow ? p[Axis] - value : -(p[Axis] - value);
    const float dq = KeepBelow ? q[Axis] - value : -(q[Axis] - value);
    if (dp <= 0.0f) out[outCount++] = p;
    if ((dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f)) {
      const float t = dp / (dp - dq);
      glm::vec3 crossing = p + (q - p) * t;
      crossing[Axis] = value;  // exact on the plane despite rounding
      out[outCount++] = crossing;
    }
  }
  return outCount;
}

// Clips against the box's two planes across one axis, skipping a plane the
// polygon's bounds lie wholly inside (it would cut nothing).
template <int Axis>
int clipToSlab(glm::vec3*& in, glm::vec3*& out, int count, const Aabb& bounds, const Aabb& box) {
  if (count > 0 && bounds.max[Axis] > box.max[Axis]) {
    count = clipPolygon<Axis, true>(in, count, out, box.max[Axis]);
    std::swap(in, out);
  }
  if (count > 0 && bounds.min[Axis] < box.min[Axis]) {
    count = clipPolygon<Axis, false>(in, count, out, box.min[Axis]);
    std::swap(in, out);
  }
  return count;
}

// --- upright stadiums (round units) ---------------------------------------------

float distanceSquared(glm::vec2 p, glm::vec2 q) {
  const glm::vec2 d = p - q;
  return glm::dot(d, d);
}

float pointSegmentDistanceSquared(glm::vec2 p, glm::vec2 a, glm::vec2 b) {
  const glm::vec2 ab = b - a;
  const float lengthSquared = glm::dot(ab, ab);
  const float t =
      lengthSquared > 0.0f ? std::clamp(glm::dot(p - a, ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
  return distanceSquared(a + ab * t, p);
}

// Segments that cross at a point inside both. Touching and collinear overlaps
// are left out: an end then lies on the other segment, which the distance tests find.
bool segmentsCrossProperly(glm::vec2 p0, glm::vec2 p1, glm::vec2 q0, glm::vec2 q1) {
  const float a = cross2(p1 - p0, q0 - p0), b = cross2(p1 - p0, q1 - p0);
  const float c = cross2(q1 - q0, p0 - q0), d = cross2(q1 - q0, p1 - q0);
  return ((a < 0.0f && b > 0.0f) || (a > 0.0f && b < 0.0f)) &&
         ((c < 0.0f && d > 0.0f) || (c > 0.0f && d < 0.0f));
}

// Inside or on a convex polygon of either winding: on one side of every edge.
// A polygon flattened to a line or a point (a wall seen from above, a corner
// touching a slab) holds nothing this way; the distance tests decide for it.
bool insideConvex(glm::vec2 p, const glm::vec2* corners, int count) {
  bool anyLeft = false, anyRight = false;
  for (int i = 0; i < count; ++i) {
    const glm::vec2 a = corners[i], b = corners[i + 1 == count ? 0 : i + 1];
    const float side = cross2(b - a, p - a);
    anyLeft |= side < 0.0f;
    anyRight |= side > 0.0f;
  }
  return anyLeft != anyRight;
}

// The part of the triangle between heights yMin and yMax, as a convex polygon
// of at most five corners; `in` must hold nine and ends up pointing at the result.
int clipToHeights(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, float yMin,
                  float yMax, glm::vec3*& in, glm::vec3*& out) {
  in[0] = a;
  in[1] = b;
  in[2] = c;
  int count = 3;
  if (std::max({a.y, b.y, c.y}) > yMax) {
    count = clipPolygon<1, true>(in, count, out, yMax);
    std::swap(in, out);
  }
  if (count > 0 && std::min({a.y, b.y, c.y}) < yMin) {
    count = clipPolygon<1, false>(in, count, out, yMin);
    std::swap(in, out);
  }
  return count;
}

// The triangle's slice between heights yMin and yMax, seen from above: at most
// five corners in `corners`, their count returned.
int groundSlice(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, float yMin, float yMax,
                glm::vec2* corners) {
  glm::vec3 bufferA[9], bufferB[9];
  glm::vec3* in = bufferA;
  glm::vec3* out = bufferB;
  const int count = clipToHeights(a, b, c, yMin, yMax, in, out);
  for (int i = 0; i < count; ++i)
    corners[i] = groundOf(in[i]);
  return count;
}

// Whether, seen from above, a line parts the whole triangle from the stadium
// with room to spare: then no slice of the triangle at any height touches it.
// The lines tried are across each edge of the triangle (a wall's edges seen
// from above all lie on its line) and along and across the stadium's
// segment. Most triangles the bounds let through go no further, and the
// slicing they would cost is most of the exact test's.
bool separatedFromAbove(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                        const Stadium& stadium) {
  // Room beyond the radius, so that rounding never parts what touches. [metres]
  constexpr float kSlack = 1e-4f;
  // Relative to the segment's start, so that far from the origin the
  // rounding stays that of the distances involved.
  const glm::vec2 p[3] = {groundOf(a) - stadium.from, groundOf(b) - stadium.from,
                          groundOf(c) - stadium.from};
  const glm::vec2 along = stadium.to - stadium.from;
  const float reachSquared = (stadium.radius + kSlack) * (stadium.radius + kSlack);
  // Whether the gap between the two along `axis` exceeds the reach (times the
  // axis's length, both sides squared: no square root).
  const auto parts = [&](glm::vec2 axis) {
    const float p0 = glm::dot(axis, p[0]), p1 = glm::dot(axis, p[1]), p2 = glm::dot(axis, p[2]);
    const float s1 = glm::dot(axis, along);
    const float below = std::min(0.0f, s1) - std::max(p0, std::max(p1, p2));
    const float above = std::min(p0, std::min(p1, p2)) - std::max(0.0f, s1);
    const float gap = std::max(below, above);
    return gap > 0.0f && gap * gap > reachSquared * glm::dot(axis, axis);
  };
  // A standing unit's segment is a point: along it and across it are no axes.
  const bool moves = along != glm::vec2(0.0f);
  return (moves && (parts(along) || parts({-along.y, along.x}))) ||
         parts({p[1].y - p[0].y, p[0].x - p[1].x}) || parts({p[2].y - p[1].y, p[1].x - p[2].x}) ||
         parts({p[0].y - p[2].y, p[2].x - p[0].x});
}

}  // namespace

Aabb Stadium::bounds() const {
  const glm::vec2 lo = glm::min(from, to) - radius, hi = glm::max(from, to) + radius;
  return Aabb{{lo.x, yMin, lo.y}, {hi.x, yMax, hi.y}};
}

// The stadium touches the clipped polygon when its segment comes within the
// radius of it: the segment crosses or lies inside the polygon, or one of the
// two comes within the radius of the other's boundary, which for segments that
// do not cross is decided at an end of one of them.
bool triangleOverlapsStadium(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                             const Stadium& stadium) {
  if (separatedFromAbove(a, b, c, stadium)) return false;
  glm::vec2 corners[9];
  const int count = groundSlice(a, b, c, stadium.yMin, stadium.yMax, corners);
  if (count == 0) return false;
  const float radiusSquared = stadium.radius * stadium.radius;
  const bool moving = stadium.from != stadium.to;
  for (int i = 0; i < count; ++i) {
    const glm::vec2 p = corners[i], q = corners[i + 1 == count ? 0 : i + 1];
    if (pointSegmentDistanceSquared(p, stadium.from, stadium.to) <= radiusSquared) return true;
    if (pointSegmentDistanceSquared(stadium.from, p, q) <= radiusSquared) return true;
    if (moving && pointSegmentDistanceSquared(stadium.to, p, q) <= radiusSquared) return true;
    if (moving && segmentsCrossProperly(stadium.from, stadium.to, p, q)) return true;
  }
  return insideConvex(stadium.from, corners, count);
}

Prism Prism::sweptSquare(glm::vec2 from, glm::vec2 to, float half, float yMin, float yMax) {
  // The hexagon's corners, counter-clockwise from the square's corner furthest
  // against the move: each corner of the square is on the hull at one end or
  // the other, and the two corners across the move at both.
  const glm::vec2 move = to - from;
  const float sx = move.x >= 0.0f ? 1.0f : -1.0f, sz = move.y >= 0.0f ? 1.0f : -1.0f;
  const glm::vec2 back = from - glm::vec2(sx, sz) * half;
  const glm::vec2 ahead = to + glm::vec2(sx, sz) * half;
  Prism prism;
  prism.yMin = yMin;
  prism.yMax = yMax;
  prism.count = 6;
  prism.corners = {back,
                   from + glm::vec2(sx, -sz) * half,
                   to + glm::vec2(sx, -sz) * half,
                   ahead,
                   to + glm::vec2(-sx, sz) * half,
                   from + glm::vec2(-sx, sz) * half,
                   glm::vec2(0.0f),
                   glm::vec2(0.0f)};
  return prism;
}

Aabb Prism::bounds() const {
  Aabb box;
  for (int i = 0; i < count; ++i)
    box.grow(glm::vec3(corners[i].x, yMin, corners[i].y));
  box.grow(glm::vec3(corners[0].x, yMax, corners[0].y));
  return box;
}

// Two convex polygons on the ground touch unless an edge's normal of either
// separates them (the separating axis theorem); a polygon of zero area offers
// only its line's normal, and a point none.
bool triangleOverlapsPrism(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                           const Prism& prism) {
  glm::vec2 slice[9];
  const int count = groundSlice(a, b, c, prism.yMin, prism.yMax, slice);
  if (count == 0) return false;
  auto separates = [&](glm::vec2 p, glm::vec2 q) {
    const glm::vec2 axis(q.y - p.y, p.x - q.x);
    if (axis == glm::vec2(0.0f)) return false;
    float lowSlice = glm::dot(axis, slice[0]), highSlice = lowSlice;
    for (int i = 1; i < count; ++i) {
      lowSlice = std::min(lowSlice, glm::dot(axis, slice[i]));
      highSlice = std::max(highSlice, glm::dot(axis, slice[i]));
    }
    float lowPrism = glm::dot(axis, prism.corners[0]), highPrism = lowPrism;
    for (int i = 1; i < prism.count; ++i) {
      lowPrism = std::min(lowPrism, glm::dot(axis, prism.corners[i]));
      highPrism = std::max(highPrism, glm::dot(axis, prism.corners[i]));
    }
    return highSlice < lowPrism || highPrism < lowSlice;
  };
  for (int i = 0; i < count; ++i) {
    if (separates(slice[i], slice[i + 1 == count ? 0 : i + 1])) return false;
  }
  for (int i = 0; i < prism.count; ++i) {
    if (separates(prism.corners[i], prism.corners[i + 1 == prism.count ? 0 : i + 1])) return false;
  }
  return true;
}

// A plane's height is linear over the ground, so the triangle's highest point
// over the disc is a corner inside the disc, an edge crossing the circle, or
// the disc's own highest point (its edge in the plane's uphill direction, its
// centre when flat) if the triangle holds it. Empty when no part of the
// triangle lies over the disc.
std::optional<float> highestOverDisc(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                     glm::vec2 center, float radius) {
  const glm::vec3 in[3] = {a, b, c};
  const float radiusSquared = radius * radius;
  std::optional<float> best;
  auto raise = [&](float height) { best = best ? std::max(*best, height) : height; };
  const glm::vec2 corners[3] = {groundOf(a), groundOf(b), groundOf(c)};
  const float low = std::min({a.y, b.y, c.y}), high = std::max({a.y, b.y, c.y});
  for (int i = 0; i < 3; ++i) {
    const glm::vec3& p = in[i];
    const glm::vec3& q = in[i == 2 ? 0 : i + 1];
    if (distanceSquared(corners[i], center) <= radiusSquared) raise(p.y);
    // |f + t d|^2 = r^2 for the edge p + t (q - p), t in [0, 1].
    const glm::vec2 d = groundOf(q) - groundOf(p), f = groundOf(p) - center;
    const float dd = glm::dot(d, d);
    if (!(dd > 0.0f)) continue;
    const float half = glm::dot(f, d) / dd;
    const float discriminant = half * half - (glm::dot(f, f) - radiusSquared) / dd;
    if (discriminant < 0.0f) continue;
    const float root = std::sqrt(discriminant);
    for (const float t : {-half - root, -half + root}) {
      if (t >= 0.0f && t <= 1.0f) raise(p.y + (q.y - p.y) * t);
    }
  }
  const glm::vec3 normal = glm::cross(b - a, c - a);
  const float steepest = std::max({std::abs(normal.x), std::abs(normal.y), std::abs(normal.z)});
  // A wall is flat on the ground: its highest points lie on its edges.
  if (std::abs(normal.y) > 1e-6f * steepest) {
    const glm::vec2 uphill(-normal.x / normal.y, -normal.z / normal.y);
    const float slope = glm::length(uphill);
    const glm::vec2 top = slope > 0.0f ? center + uphill * (radius / slope) : center;
    if (insideConvex(top, corners, 3)) {
      const float height = a.y + glm::dot(uphill, top - groundOf(a));
      raise(std::clamp(height, low, high));
    }
  }
  return best;
}

// The triangle's highest point over the disc, then the window's heights: a
// top inside them is the same float whatever they are, so a landing found from
// one cell holds to the bit for another (the fill reuses them, on any thread).
// A top above them gives yMax when the triangle comes down to it over the
// disc: over a convex disc the triangle is one convex piece, holding every
// height between its lowest point and its highest.
std::optional<float> triangleHighestInCylinder(const glm::vec3& a, const glm::vec3& b,
                                               const glm::vec3& c, const Stadium& cylinder) {
  if (separatedFromAbove(a, b, c, cylinder)) return std::nullopt;
  const std::optional<float> top = highestOverDisc(a, b, c, cylinder.from, cylinder.radius);
  if (!top || *top < cylinder.yMin) return std::nullopt;
  if (*top <= cylinder.yMax) return top;
  const auto upsideDown = [](const glm::vec3& p) { return glm::vec3(p.x, -p.y, p.z); };
  const std::optional<float> bottom =
      highestOverDisc(upsideDown(a), upsideDown(b), upsideDown(c), cylinder.from, cylinder.radius);
  if (!bottom || -*bottom > cylinder.yMax) return std::nullopt;
  return cylinder.yMax;
}

// Separating axis test (Akenine-Möller): box axes, triangle normal, and the
// nine cross products of box axes with triangle edges.
//
// Each cross product with a box axis has an exact zero component, e.g.
// cross(y, e) = (e.z, 0, -e.x). The projections and radii below are the float
// expressions of the full three-term dot products with those zero terms left
// out; adding a product with zero changes no value, so every comparison gets
// the same operands as the textbook form, only sooner. The tests are pure, so
// their order changes nothing either.
bool triangleOverlapsBox(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                         const Aabb& box) {
  const glm::vec3 center = box.center();
  const glm::vec3 half = (box.max - box.min) * 0.5f;
  const glm::vec3 v0 = a - center, v1 = b - center, v2 = c - center;
  auto separated = [](float p0, float p1, float p2, float radius) {
    return std::min(p0, std::min(p1, p2)) > radius || std::max(p0, std::max(p1, p2)) < -radius;
  };
  for (int axis = 0; axis < 3; ++axis) {
    if (separated(v0[axis], v1[axis], v2[axis], half[axis])) return false;
  }

  const glm::vec3 e0 = v1 - v0, e1 = v2 - v1, e2 = v0 - v2;
  // cross(x, e) = (0, -e.z, e.y)
  auto separatedAcrossX = [&](const glm::vec3& e) {
    return separated(v0.z * e.y - v0.y * e.z, v1.z * e.y - v1.y * e.z, v2.z * e.y - v2.y * e.z,
                     half.y * std::abs(e.z) + half.z * std::abs(e.y));
  };
  // cross(y, e) = (e.z, 0, -e.x)
  auto separatedAcrossY = [&](const glm::vec3& e) {
    return separated(v0.x * e.z - v0.z * e.x, v1.x * e.z - v1.z * e.x, v2.x * e.z - v2.z * e.x,
                     half.x * std::abs(e.z) + half.z * std::abs(e.x));
  };
  // cross(z, e) = (-e.y, e.x, 0)
  auto separatedAcrossZ = [&](const glm::vec3& e) {
    return separated(v0.y * e.x - v0.x * e.y, v1.y * e.x - v1.x * e.y, v2.y * e.x - v2.x * e.y,
                     half.x * std::abs(e.y) + half.y * std::abs(e.x));
  };

  // A triangle in a plane of constant y (floors) has e.y == 0 exactly. Then the
  // axes across x and z and the normal (0, n.y, 0) project every corner to the
  // same value (y times a constant), no further from zero than the half height
  // times that constant, which the y test above already bounds: only the three
  // axes across y can separate. Likewise for constant x or z (axis-aligned walls).
  if (v0.y == v1.y && v1.y == v2.y)
    return !separatedAcrossY(e0) && !separatedAcrossY(e1) && !separatedAcrossY(e2);
  if (v0.x == v1.x && v1.x == v2.x)
    return !separatedAcrossX(e0) && !separatedAcrossX(e1) && !separatedAcrossX(e2);
  if (v0.z == v1.z && v1.z == v2.z)
    return !separatedAcrossZ(e0) && !separatedAcrossZ(e1) && !separatedAcrossZ(e2);

  // The normal first: a box just above a sloped floor is apart from it only along it.
  // Project all three corners, not just one: for slivers the float normal is
  // inexact and the corners do not project to a single value.
  const glm::vec3 normal = glm::cross(e0, e1);
  const float radius =
      half.x * std::abs(normal.x) + half.y * std::abs(normal.y) + half.z * std::abs(normal.z);
  if (separated(glm::dot(normal, v0), glm::dot(normal, v1), glm::dot(normal, v2), radius))
    return false;
  for (const glm::vec3* e : {&e0, &e1, &e2}) {
    if (separatedAcrossX(*e) || separatedAcrossY(*e) || separatedAcrossZ(*e)) return false;
  }
  return true;
}

CollisionWorld::CollisionWorld(const Level& level) {
  const size_t count = level.triangles.size();
  m_triangles.reserve(count);
  m_boxes.reserve(count);
  m_normalY.reserve(count);
  std::vector<glm::vec3> centroids;
  centroids.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Triangle t{level.corner(i, 0), level.corner(i, 1), level.corner(i, 2)};
    m_triangles.push_back(t);
    m_boxes.push_back(triangleBox(t.a, t.b, t.c));
    const glm::vec3 normal = glm::cross(t.b - t.a, t.c - t.a);
    const float normalLength = glm::length(normal);
    m_normalY.push_back(normalLength > 0.0f ? normal.y / normalLength : 0.0f);
    centroids.push_back((t.a + t.b + t.c) / 3.0f);
    m_bounds.grow(m_boxes.back());
  }
  m_order.resize(count);
  std::iota(m_order.begin(), m_order.end(), 0u);
  if (count == 0) return;
  m_nodes.reserve(2 * (count / kLeafSize + 1));
  m_nodes.emplace_back();
  buildNode(0, 0, uint32_t(count), m_boxes, centroids);
}

// Builds the subtree for m_order[first, first + count) into m_nodes[nodeIndex].
// Median split on the longest axis of the centroids' box: O(n log n), and good
// enough for level geometry (queries touch few leaves).
void CollisionWorld::buildNode(uint32_t nodeIndex, uint32_t first, uint32_t count,
                               const std::vector<Aabb>& boxes,
                               const std::vector<glm::vec3>& centroids) {
  Aabb box, centroidBox;
  for (uint32_t i = first; i < first + count; ++i) {
    box.grow(boxes[m_order[i]]);
    centroidBox.grow(centroids[m_order[i]]);
  }
  m_nodes[nodeIndex].box = box;
  if (count <= kLeafSize) {
    m_nodes[nodeIndex].first = first;
    m_nodes[nodeIndex].count = count;
    return;
  }
  const glm::vec3 extent = centroidBox.size();
  const int axis =
      extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const uint32_t half = count / 2;
  std::nth_element(m_order.begin() + first, m_order.begin() + first + half,
                   m_order.begin() + first + count, [&](uint32_t l, uint32_t r) {
                     if (centroids[l][axis] != centroids[r][axis])
                       return centroids[l][axis] < centroids[r][axis];
                     return l < r;  // deterministic order for equal keys
                   });
  const uint32_t left = uint32_t(m_nodes.size());
  m_nodes[nodeIndex].first = left;
  m_nodes[nodeIndex].count = 0;
  m_nodes.emplace_back();
  m_nodes.emplace_back();
  buildNode(left, first, half, boxes, centroids);
  buildNode(left + 1, first + half, count - half, boxes, centroids);
}

template <class Visit>
void CollisionWorld::visitBox(const Aabb& box, Visit&& visit) const {
  if (m_nodes.empty()) return;
  uint32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = m_nodes[stack[--top]];
    if (!node.box.overlaps(box)) continue;
    if (node.count > 0) {
      for (uint32_t i = node.first; i < node.first + node.count; ++i) {
        if (!visit(m_order[i])) return;
      }
    } else {
      stack[top++] = node.first + 1;
      stack[top++] = node.first;
    }
  }
}

std::optional<RayHit> CollisionWorld::raycast(const glm::vec3& origin, const glm::vec3& direction,
                                              float maxDistance, RayFaces faces) const {
  const float length = glm::length(direction);
  if (m_nodes.empty() || !(length > 0.0f) || !isFinite(origin) || !(maxDistance >= 0.0f))
    return std::nullopt;
  const glm::vec3 dir = direction / length;
  const glm::vec3 inverse = 1.0f / dir;
  std::optional<RayHit> best;
  float bestDistance = maxDistance;
  uint32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = m_nodes[stack[--top]];
    if (!rayHitsBox(origin, inverse, bestDistance, node.box)) continue;
    if (node.count > 0) {
      for (uint32_t i = node.first; i < node.first + node.count; ++i) {
        const uint32_t t = m_order[i];
        const Triangle& tri = m_triangles[t];
        float distance;
        if (rayHitsTriangle(origin, dir, tri.a, tri.b, tri.c, distance) &&
            (distance < bestDistance || (distance == bestDistance && best && t < best->triangle))) {
          glm::vec3 normal = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
          const bool back = glm::dot(normal, dir) > 0.0f;
          if (back && faces == RayFaces::Front) continue;
          bestDistance = distance;
          if (back) normal = -normal;
          best = RayHit{distance, origin + dir * distance, normal, t};
        }
      }
    } else {
      stack[top++] = node.first + 1;
      stack[top++] = node.first;
    }
  }
  return best;
}

bool CollisionWorld::triangleOverlaps(uint32_t triangle, const Aabb& box) const {
  if (!m_boxes[triangle].overlaps(box)) return false;
  const Triangle& tri = m_triangles[triangle];
  return triangleOverlapsBox(tri.a, tri.b, tri.c, box);
}

void CollisionWorld::raiseSupport(uint32_t triangle, const Aabb& box,
                                  std::optional<SupportHit>& best) const {
  const Aabb& bounds = m_boxes[triangle];
  if (!bounds.overlaps(box)) return;
  const Triangle& tri = m_triangles[triangle];
  const float normalY = m_normalY[triangle];
  auto takesOver = [&](float height) { return supportTakesOver(triangle, height, best); };
  if (bounds.min.y == bounds.max.y) {
    // Level floors are mostly flat triangles: their height is known before the
    // exact test, which only matters when that height would take over.
    if (takesOver(bounds.max.y) && triangleOverlapsBox(tri.a, tri.b, tri.c, box))
      best = SupportHit{bounds.max.y, triangle, normalY};
    return;
  }
  // The clipped polygon is no higher than the triangle and the box (give or take
  // the clip's rounding, far less than `slack`): when even that top would neither
  // be higher nor tie, the clip cannot change the answer.
  if (best) {
    const float top = std::min(bounds.max.y, box.max.y);
    const float slack =
        1e-5f * (1.0f + std::max({std::abs(bounds.min.y), std::abs(bounds.max.y), std::abs(top)}));
    if (top + slack < best->height - kSupportTie) return;
  }
  // Clip the triangle to the box; the highest point of a planar polygon is one
  // of its vertices. Heights last: a top inside the box's heights is then the
  // same float whatever those heights are, so a landing found from one cell
  // holds to the bit for another (the fill reuses them, on any thread).
  glm::vec3 bufferA[9], bufferB[9];
  bufferA[0] = tri.a;
  bufferA[1] = tri.b;
  bufferA[2] = tri.c;
  glm::vec3* in = bufferA;
  glm::vec3* out = bufferB;
  int count = clipToSlab<0>(in, out, 3, bounds, box);
  count = clipToSlab<2>(in, out, count, bounds, box);
  count = clipToSlab<1>(in, out, count, bounds, box);
  if (count == 0) return;
  float height = in[0].y;
  for (int i = 1; i < count; ++i)
    height = std::max(height, in[i].y);
  if (takesOver(height)) best = SupportHit{height, triangle, normalY};
}

void CollisionWorld::raiseSupport(uint32_t triangle, const Stadium& cylinder,
                                  std::optional<SupportHit>& best) const {
  const Aabb& bounds = m_boxes[triangle];
  if (!bounds.overlaps(cylinder.bounds())) return;
  const Triangle& tri = m_triangles[triangle];
  const float normalY = m_normalY[triangle];
  if (bounds.min.y == bounds.max.y) {
    if (supportTakesOver(triangle, bounds.max.y, best) &&
        triangleOverlapsStadium(tri.a, tri.b, tri.c, cylinder))
      best = SupportHit{bounds.max.y, triangle, normalY};
    return;
  }
  if (best && std::min(bounds.max.y, cylinder.yMax) + 1e-5f * (1.0f + std::abs(bounds.max.y)) <
                  best->height - kSupportTie)
    return;
  const std::optional<float> height = triangleHighestInCylinder(tri.a, tri.b, tri.c, cylinder);
  if (height && supportTakesOver(triangle, *height, best))
    best = SupportHit{*height, triangle, normalY};
}

bool CollisionWorld::supportTakesOver(uint32_t triangle, float height,
                                      const std::optional<SupportHit>& best) const {
  if (!best || height > best->height + kSupportTie) return true;
  const float normalY = m_normalY[triangle];
  return std::abs(height - best->height) <= kSupportTie &&
         (normalY > best->normalY || (normalY == best->normalY && triangle < best->triangle));
}

bool CollisionWorld::overlapsStadium(const Stadium& stadium) const {
  const Aabb box = stadium.bounds();
  bool hit = false;
  visitBox(box, [&](uint32_t t) {
    hit = triangleTouchesStadium(t, box, stadium);
    return !hit;
  });
  return hit;
}

bool CollisionWorld::overlapsStadium(const Stadium& stadium,
                                     std::span<const uint32_t> candidates) const {
  const Aabb box = stadium.bounds();
  for (uint32_t t : candidates) {
    if (triangleTouchesStadium(t, box, stadium)) return true;
  }
  return false;
}

bool CollisionWorld::overlapsPrism(const Prism& prism) const {
  const Aabb box = prism.bounds();
  bool hit = false;
  visitBox(box, [&](uint32_t t) {
    hit = triangleTouchesPrism(t, box, prism);
    return !hit;
  });
  return hit;
}

bool CollisionWorld::overlapsPrism(const Prism& prism, std::span<const uint32_t> candidates) const {
  const Aabb box = prism.bounds();
  for (uint32_t t : candidates) {
    if (triangleTouchesPrism(t, box, prism)) return true;
  }
  return false;
}

bool CollisionWorld::triangleTouchesPrism(uint32_t triangle, const Aabb& bounds,
                                          const Prism& prism) const {
  if (!m_boxes[triangle].overlaps(bounds)) return false;
  const Triangle& tri = m_triangles[triangle];
  return triangleOverlapsPrism(tri.a, tri.b, tri.c, prism);
}

bool CollisionWorld::triangleTouchesStadium(uint32_t triangle, const Aabb& bounds,
                                            const Stadium& stadium) const {
  if (!m_boxes[triangle].overlaps(bounds)) return false;
  const Triangle& tri = m_triangles[triangle];
  return triangleOverlapsStadium(tri.a, tri.b, tri.c, stadium);
}

std::optional<SupportHit> CollisionWorld::highestPointInCylinder(const Stadium& cylinder) const {
  const Stadium disc =
      Stadium::cylinder(cylinder.from, cylinder.radius, cylinder.yMin, cylinder.yMax);
  std::optional<SupportHit> best;
  visitBox(disc.bounds(), [&](uint32_t t) {
    raiseSupport(t, disc, best);
    return true;
  });
  return best;
}

std::optional<SupportHit> CollisionWorld::highestPointInCylinder(
    const Stadium& cylinder, std::span<const uint32_t> candidates) const {
  const Stadium disc =
      Stadium::cylinder(cylinder.from, cylinder.radius, cylinder.yMin, cylinder.yMax);
  std::optional<SupportHit> best;
  for (uint32_t t : candidates)
    raiseSupport(t, disc, best);
  return best;
}

bool CollisionWorld::overlapsBox(const Aabb& box) const {
  bool hit = false;
  visitBox(box, [&](uint32_t t) {
    hit = triangleOverlaps(t, box);
    return !hit;
  });
  return hit;
}

bool CollisionWorld::overlapsBox(const Aabb& box, std::span<const uint32_t> candidates) const {
  for (uint32_t t : candidates) {
    if (triangleOverlaps(t, box)) return true;
  }
  return false;
}

void CollisionWorld::trianglesInBox(const Aabb& box, std::vector<uint32_t>& out) const {
  out.clear();
  visitBox(box, [&](uint32_t t) {
    if (triangleOverlaps(t, box)) out.push_back(t);
    return true;
  });
  std::sort(out.begin(), out.end());
}

void CollisionWorld::candidatesInBox(const Aabb& box, std::vector<uint32_t>& out) const {
  out.clear();
  visitBox(box, [&](uint32_t t) {
    if (m_boxes[t].overlaps(box)) out.push_back(t);
    return true;
  });
}

std::optional<SupportHit> CollisionWorld::highestPointInBox(const Aabb& box) const {
  std::optional<SupportHit> best;
  visitBox(box, [&](uint32_t t) {
    raiseSupport(t, box, best);
    return true;
  });
  return best;
}

std::optional<SupportHit> CollisionWorld::highestPointInBox(
    const Aabb& box, std::span<const uint32_t> candidates) const {
  std::optional<SupportHit> best;
  for (uint32_t t : candidates)
    raiseSupport(t, box, best);
  return best;
}

size_t CollisionWorld::memoryBytes() const {
  return m_triangles.capacity() * sizeof(Triangle) + m_boxes.capacity() * sizeof(Aabb) +
         m_normalY.capacity() * sizeof(float) + m_order.capacity() * sizeof(uint32_t) +
         m_nodes.capacity() * sizeof(Node);
}

}  // namespace nav
