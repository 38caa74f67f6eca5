#include "nav/vehicle_curve.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nav/geometry.h"

namespace nav {
namespace {

constexpr float kPi = 3.14159265358979f;
// Shorter pieces are left out. [metres]
constexpr float kNoLength = 1e-6f;
// A turn this close to a full circle is rounding of no turn at all. [radians]
constexpr float kFullTurnSlack = 1e-4f;
// Arcs are sampled at least this often. [radians]
constexpr float kMaxSampleAngle = kPi / 18.0f;
// Samples per piece at most, whatever its length.
constexpr float kMaxSteps = 1e6f;

// The walker's right (Y up): clockwise seen from above.
glm::vec2 rightOf(const glm::vec2& v) {
  return {-v.y, v.x};
}

// Where a stretch starts or ends: a corner, with a heading when the vehicle
// must pass it facing one way (a pose), else free (a point, radius 0).
struct Pose {
  glm::vec2 position;
  glm::vec2 heading;  // zero when free
};

// Angle turned from heading `from` to heading `to` going round clockwise
// (side +1) or anticlockwise (-1). [radians, 0..2 pi)
float turnAngle(const glm::vec2& from, const glm::vec2& to, int side) {
  float angle = float(side) * std::atan2(cross2(from, to), glm::dot(from, to));
  if (angle < 0.0f) angle += 2.0f * kPi;
  return angle > 2.0f * kPi - kFullTurnSlack ? 0.0f : angle;
}

// A circle-line-circle way from `a` to `b`, turning on sides sideA and sideB
// (+1 clockwise). A free end is a circle of radius 0.
struct Candidate {
  bool feasible = false;
  int sideA = 1, sideB = 1;
  glm::vec2 centerA{0.0f}, centerB{0.0f}, tangentA{0.0f}, tangentB{0.0f};
  float arcA = 0.0f, line = 0.0f, arcB = 0.0f;
  float total() const { return arcA + line + arcB; }
};

Candidate circleLineCircle(const Pose& a, const Pose& b, float radius, int sideA, int sideB) {
  const float radiusA = a.heading == glm::vec2(0.0f) ? 0.0f : radius;
  const float radiusB = b.heading == glm::vec2(0.0f) ? 0.0f : radius;
  Candidate c;
  c.sideA = sideA;
  c.sideB = sideB;
  c.centerA = a.position + float(sideA) * radiusA * rightOf(a.heading);
  c.centerB = b.position + float(sideB) * radiusB * rightOf(b.heading);
  // Along the line d, each tangent point is its centre less side * radius *
  // right(d); so centerB - centerA = line * d + k * right(d).
  const glm::vec2 v = c.centerB - c.centerA;
  const float k = float(sideB) * radiusB - float(sideA) * radiusA;
  const float distance2 = glm::dot(v, v);
  if (distance2 < k * k) return c;  // the circles overlap: no crossing tangent
  c.line = std::sqrt(std::max(distance2 - k * k, 0.0f));
  glm::vec2 direction;
  if (distance2 > kSamePoint * kSamePoint) {
    direction = (c.line * v - k * rightOf(v)) / distance2;
  } else {
    // One circle twice: the exit arc alone goes all the way.
    direction = b.heading != glm::vec2(0.0f) ? b.heading : a.heading;
  }
  c.tangentA = c.centerA - float(sideA) * radiusA * rightOf(direction);
  c.tangentB = c.centerB - float(sideB) * radiusB * rightOf(direction);
  if (radiusA > 0.0f) c.arcA = radiusA * turnAngle(a.heading, direction, sideA);
  if (radiusB > 0.0f) c.arcB = radiusB * turnAngle(direction, b.heading, sideB);
  c.feasible = std::isfinite(c.total());
  return c;
}

// Appends the stretch a -> b as its non-empty pieces, each starting where the
// last one ended and the last ending at b exactly.
void addStretch(const Pose& a, const Pose& b, float radius, uint32_t toCorner,
                std::vector<CurvePiece>& pieces) {
  Candidate best;
  for (int sideA : {1, -1}) {
    for (int sideB : {1, -1}) {
      const Candidate c = circleLineCircle(a, b, radius, sideA, sideB);
      if (c.feasible && (!best.feasible || c.total() < best.total())) best = c;
    }
  }
  if (!best.feasible) return;
  const size_t first = pieces.size();
  glm::vec2 at = a.position;
  auto add = [&](CurvePiece::Kind kind, const glm::vec2& end, const glm::vec2& center, float length,
                 int side) {
    if (!(length > kNoLength)) return;
    const bool arc = kind == CurvePiece::Arc;
    pieces.push_back({kind, at, end, arc ? center : glm::vec2(0.0f), arc ? radius : 0.0f,
                      arc && side > 0, length, toCorner});
    at = end;
  };
  add(CurvePiece::Arc, best.tangentA, best.centerA, best.arcA, best.sideA);
  add(CurvePiece::Line, best.tangentB, {}, glm::distance(at, best.tangentB), 0);
  add(CurvePiece::Arc, b.position, best.centerB, best.arcB, best.sideB);
  if (pieces.size() > first) {
    CurvePiece& last = pieces.back();
    last.end = b.position;
    if (last.kind == CurvePiece::Line) last.length = glm::distance(last.start, last.end);
  }
}

}  // namespace

std::vector<CurvePiece> vehicleCurve(std::span<const glm::vec3> corners, float turningRadius,
                                     std::optional<glm::vec2> startHeading,
                                     std::optional<glm::vec2> goalHeading) {
  const float radius = std::isfinite(turningRadius) ? std::max(turningRadius, 0.0f) : 0.0f;
  // Distinct corners (ground plane), with their indices in `corners`.
  std::vector<glm::vec2> points;
  std::vector<uint32_t> indices;
  for (uint32_t i = 0; i < corners.size(); ++i) {
    const glm::vec2 p = groundOf(corners[i]);
    if (!points.empty() && glm::distance(points.back(), p) < kSamePoint) continue;
    points.push_back(p);
    indices.push_back(i);
  }
  std::vector<CurvePiece> pieces;
  if (points.size() < 2) return pieces;

  // Headings: given ones at the ends, the turn's bisector at corners (the way
  // in at a U-turn, which has none).
  const size_t last = points.size() - 1;
  std::vector<glm::vec2> headings(points.size(), glm::vec2(0.0f));
  for (size_t i = 1; i < last; ++i) {
    const glm::vec2 in = unitOrZero(points[i] - points[i - 1]);
    const glm::vec2 out = unitOrZero(points[i + 1] - points[i]);
    headings[i] = unitOrZero(in + out);
    if (headings[i] == glm::vec2(0.0f)) headings[i] = in;
  }
  if (startHeading) headings[0] = unitOrZero(*startHeading);
  if (goalHeading) headings[last] = unitOrZero(*goalHeading);

  for (size_t i = 0; i < last; ++i) {
    Pose a{points[i], headings[i]}, b{points[i + 1], headings[i + 1]};
    const size_t before = pieces.size();
    addStretch(a, b, radius, indices[i + 1], pieces);
    if (pieces.size() > before || radius == 0.0f) continue;
    // A free end inside both of the other end's circles has no tangent line:
    // face the other end instead (two circles always have an outer tangent).
    const glm::vec2 towards = unitOrZero(b.position - a.position);
    if (a.heading == glm::vec2(0.0f)) a.heading = towards;
    if (b.heading == glm::vec2(0.0f)) b.heading = towards;
    addStretch(a, b, radius, indices[i + 1], pieces);
  }
  return pieces;
}

float curveLength(std::span<const CurvePiece> pieces) {
  double length = 0.0;
  for (const CurvePiece& piece : pieces)
    length += piece.length;
  return float(length);
}

std::vector<glm::vec3> sampleCurve(std::span<const CurvePiece> pieces,
                                   std::span<const glm::vec3> corners, float spacing) {
  std::vector<glm::vec3> samples;
  if (pieces.empty()) return samples;
  spacing = std::isfinite(spacing) ? std::max(spacing, 0.01f) : 0.25f;
  auto cornerHeight = [&corners](uint32_t corner) {
    return corner < corners.size() ? corners[corner].y : 0.0f;
  };
  // Heights run from the corner a stretch leaves to the one it reaches, by
  // distance along the stretch's pieces.
  size_t stretchBegin = 0;
  uint32_t fromCorner = 0;
  while (stretchBegin < pieces.size()) {
    const uint32_t toCorner = pieces[stretchBegin].toCorner;
    size_t stretchEnd = stretchBegin;
    double stretchLength = 0.0;
    while (stretchEnd < pieces.size() && pieces[stretchEnd].toCorner == toCorner)
      stretchLength += pieces[stretchEnd++].length;
    const float y0 = cornerHeight(fromCorner), y1 = cornerHeight(toCorner);
    double walked = 0.0;
    auto add = [&](const glm::vec2& p, double along) {
      const float t = stretchLength > 0.0 ? float(along / stretchLength) : 1.0f;
      samples.push_back({p.x, glm::mix(y0, y1, std::clamp(t, 0.0f, 1.0f)), p.y});
    };
    if (samples.empty()) add(pieces[0].start, 0.0);
    for (size_t i = stretchBegin; i < stretchEnd; ++i) {
      const CurvePiece& piece = pieces[i];
      const bool arc = piece.kind == CurvePiece::Arc && piece.radius > 0.0f;
      const float angle = arc ? piece.length / piece.radius : 0.0f;
      const float wanted = std::max(piece.length / spacing, angle / kMaxSampleAngle);
      const int steps = std::max(1, int(std::ceil(std::min(wanted, kMaxSteps))));
      const glm::vec2 from = piece.start - piece.center;
      const float side = piece.clockwise ? 1.0f : -1.0f;
      for (int s = 1; s < steps; ++s) {
        const float f = float(s) / float(steps);
        glm::vec2 p = glm::mix(piece.start, piece.end, f);
        if (arc) {
          // Clockwise seen from above turns from +x towards +z.
          const float turn = side * angle * f, c = std::cos(turn), sn = std::sin(turn);
          p = piece.center + glm::vec2(c * from.x - sn * from.y, sn * from.x + c * from.y);
        }
        add(p, walked + double(piece.length) * f);
      }
      walked += piece.length;
      add(piece.end, walked);
    }
    fromCorner = toCorner;
    stretchBegin = stretchEnd;
  }
  return samples;
}

}  // namespace nav
