#pragma once
// Small geometric value types shared by every stage. Y is up; units are metres.
#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>
#include <limits>

namespace nav {

/// Axis-aligned box. An empty box has min > max.
struct Aabb {
  glm::vec3 min{std::numeric_limits<float>::max()};
  glm::vec3 max{-std::numeric_limits<float>::max()};

  bool empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  void grow(const glm::vec3& p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void grow(const Aabb& b) {
    min = glm::min(min, b.min);
    max = glm::max(max, b.max);
  }
  glm::vec3 center() const { return (min + max) * 0.5f; }
  glm::vec3 size() const { return max - min; }
  bool overlaps(const Aabb& b) const {
    return min.x <= b.max.x && b.min.x <= max.x && min.y <= b.max.y && b.min.y <= max.y &&
           min.z <= b.max.z && b.min.z <= max.z;
  }
  bool contains(const glm::vec3& p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && p.z >= min.z &&
           p.z <= max.z;
  }
  /// Distance from p to the nearest point of the box (0 inside).
  float distanceTo(const glm::vec3& p) const {
    return glm::length(glm::max(glm::max(min - p, p - max), glm::vec3(0.0f)));
  }
};

/// Ground-plane projection (x, z) of a 3D point.
inline glm::vec2 groundOf(const glm::vec3& p) {
  return {p.x, p.z};
}

/// The point of the segment [a, b] nearest p.
inline glm::vec3 closestOnSegment(const glm::vec3& a, const glm::vec3& b, const glm::vec3& p) {
  const glm::vec3 span = b - a;
  const float length2 = glm::dot(span, span);
  if (!(length2 > 0.0f)) return a;
  return a + span * std::clamp(glm::dot(p - a, span) / length2, 0.0f, 1.0f);
}

/// The point of the segment [a, b] nearest p, on the ground plane.
inline glm::vec2 closestOnSegment(const glm::vec2& a, const glm::vec2& b, const glm::vec2& p) {
  const glm::vec2 span = b - a;
  const float length2 = glm::dot(span, span);
  if (!(length2 > 0.0f)) return a;
  return a + span * std::clamp(glm::dot(p - a, span) / length2, 0.0f, 1.0f);
}

/// 2D cross product on the ground plane. Walking along d with Y up, a point p
/// is on the walker's left when cross2(d, p) < 0 (left of +X is -Z).
inline float cross2(const glm::vec2& a, const glm::vec2& b) {
  return a.x * b.y - a.y * b.x;
}

/// A part [low, high] of a segment, as fractions of the way from its first
/// end to its second (none when low > high).
struct SegmentPart {
  float low, high;
  bool empty() const { return low > high; }
};

/// Where on a segment a function linear along it, with these values at its
/// ends, is >= 0.
inline SegmentPart nonNegativePart(float atFrom, float atTo) {
  if (atFrom >= 0.0f && atTo >= 0.0f) return {0.0f, 1.0f};
  if (atFrom < 0.0f && atTo < 0.0f) return {1.0f, 0.0f};
  const float t = atFrom / (atFrom - atTo);
  return atFrom >= 0.0f ? SegmentPart{0.0f, t} : SegmentPart{t, 1.0f};
}

/// Where on a segment such a function is < 0.
inline SegmentPart negativePart(float atFrom, float atTo) {
  if (atFrom < 0.0f && atTo < 0.0f) return {0.0f, 1.0f};
  if (atFrom >= 0.0f && atTo >= 0.0f) return {1.0f, 0.0f};
  const float t = atFrom / (atFrom - atTo);
  return atFrom < 0.0f ? SegmentPart{0.0f, t} : SegmentPart{t, 1.0f};
}

inline SegmentPart intersect(const SegmentPart& a, const SegmentPart& b) {
  return {std::max(a.low, b.low), std::min(a.high, b.high)};
}

/// The point a fraction t along [from, to], its ends exactly at 0 and 1.
inline glm::vec2 pointOnSegment(const glm::vec2& from, const glm::vec2& to, float t) {
  return t == 0.0f ? from : t == 1.0f ? to : glm::mix(from, to, t);
}

/// Points closer than this are one point: it absorbs the rounding of portals
/// that share an endpoint, far below any cell size. [metres]
constexpr float kSamePoint = 1e-5f;

inline bool samePoint(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 d = a - b;
  return glm::dot(d, d) < kSamePoint * kSamePoint;
}

inline bool sameGroundPoint(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec2 d = groundOf(a) - groundOf(b);
  return glm::dot(d, d) < kSamePoint * kSamePoint;
}

/// The direction of v, or zero for a vector shorter than kSamePoint.
inline glm::vec2 unitOrZero(const glm::vec2& v) {
  const float length = glm::length(v);
  return length > kSamePoint ? v / length : glm::vec2(0.0f);
}

/// Signed area (times two) of the ground-plane triangle a, b, c: negative when c
/// lies to the left of the walk from a to b.
inline float triArea2(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  return cross2(groundOf(b) - groundOf(a), groundOf(c) - groundOf(a));
}

/// touchingPoint for one segment and one `from` and many `to`s: what does not
/// depend on `to` is worked out once.
class TouchingPoints {
 public:
  TouchingPoints(const glm::vec2& a, const glm::vec2& b, const glm::vec2& from)
      : m_a(a),
        m_span(b - a),
        m_from(from),
        m_spanLength2(glm::dot(m_span, m_span)),
        m_sideFrom(cross2(m_span, from - a)) {}

  float towards(glm::vec2 to) const {
    if (!(m_spanLength2 > 0.0f)) return 0.0f;
    if ((m_sideFrom > 0.0f) == (cross2(m_span, to - m_a) > 0.0f)) {
      const glm::vec2 foot = m_a + m_span * (glm::dot(to - m_a, m_span) / m_spanLength2);
      to = 2.0f * foot - to;
    }
    const glm::vec2 direction = to - m_from;
    const float denominator = cross2(direction, m_span);
    float along = glm::dot(m_from - m_a, m_span) / m_spanLength2;  // degenerate: the nearest point
    if (std::abs(denominator) > 1e-12f) along = cross2(direction, m_from - m_a) / denominator;
    return std::clamp(along, 0.0f, 1.0f);
  }

 private:
  glm::vec2 m_a, m_span, m_from;
  float m_spanLength2, m_sideFrom;
};

/// Where the shortest way from `from` to `to` that touches the segment [a, b]
/// touches it, as a fraction of the way from a: where the straight line crosses
/// the segment, or with `to` on the same side, where the line to its mirror
/// image does (a ray reflected off the segment's line); clamped to the ends,
/// which is exact since the length is convex along the segment. 0 for a point.
inline float touchingPoint(const glm::vec2& a, const glm::vec2& b, const glm::vec2& from,
                           const glm::vec2& to) {
  return TouchingPoints(a, b, from).towards(to);
}

inline bool isFinite(const glm::vec3& p) {
  return glm::all(glm::lessThan(glm::abs(p), glm::vec3(std::numeric_limits<float>::max())));
}

/// How far from the origin a level's or a graph's points may lie. Further
/// out, the squared distance between two points can overflow a float, and a
/// float's step (8 m at 1e8 m) is coarser than any cell. [metres]
constexpr float kMaxCoordinate = 1e8f;

/// True when every coordinate is finite and at most kMaxCoordinate from 0 (NaN fails).
inline bool inWorld(const glm::vec3& p) {
  return glm::all(glm::lessThanEqual(glm::abs(p), glm::vec3(kMaxCoordinate)));
}

}  // namespace nav
