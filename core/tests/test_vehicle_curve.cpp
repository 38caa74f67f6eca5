#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "nav/nav_draw.h"
#include "nav/vehicle_curve.h"

namespace nav {
namespace {

constexpr float kPi = 3.14159265358979f;

// Direction of travel at a point of a piece: along a line, or across the
// radius with the centre on the right (clockwise, cross2 > 0) or on the left.
glm::vec2 travelAt(const CurvePiece& piece, const glm::vec2& p) {
  if (piece.kind == CurvePiece::Line) return glm::normalize(piece.end - piece.start);
  const glm::vec2 toCenter = piece.center - p;
  glm::vec2 d = glm::normalize(glm::vec2(toCenter.y, -toCenter.x));
  if ((cross2(d, toCenter) > 0.0f) != piece.clockwise) d = -d;
  return d;
}

// Angle an arc turns through, from its end points and sense. [0, 2 pi)
float arcAngle(const CurvePiece& piece) {
  const glm::vec2 a = piece.start - piece.center, b = piece.end - piece.center;
  // Turning right (clockwise) turns headings and radii by positive cross2.
  float angle = std::atan2(cross2(a, b), glm::dot(a, b));
  if (!piece.clockwise) angle = -angle;
  return angle < 0.0f ? angle + 2.0f * kPi : angle;
}

float groundLength(const std::vector<glm::vec3>& corners) {
  float length = 0.0f;
  for (size_t i = 1; i < corners.size(); ++i)
    length += glm::distance(groundOf(corners[i]), groundOf(corners[i - 1]));
  return length;
}

bool finite(const CurvePiece& piece) {
  return std::isfinite(piece.start.x) && std::isfinite(piece.start.y) &&
         std::isfinite(piece.end.x) && std::isfinite(piece.end.y) &&
         std::isfinite(piece.center.x) && std::isfinite(piece.center.y) &&
         std::isfinite(piece.radius) && std::isfinite(piece.length);
}

// Everything a vehicle curve promises, checked from the pieces' geometry alone.
void checkCurve(const std::vector<CurvePiece>& pieces, const std::vector<glm::vec3>& corners,
                float radius) {
  ASSERT_FALSE(pieces.empty());
  float total = 0.0f;
  for (size_t i = 0; i < pieces.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "piece " << i);
    const CurvePiece& piece = pieces[i];
    ASSERT_TRUE(finite(piece));
    EXPECT_GT(piece.length, 0.0f);
    total += piece.length;
    if (piece.kind == CurvePiece::Line) {
      EXPECT_NEAR(piece.length, glm::distance(piece.start, piece.end), 1e-3f);
    } else {
      EXPECT_GE(piece.radius, radius * (1.0f - 1e-5f)) << "an arc tighter than the turning radius";
      EXPECT_NEAR(glm::distance(piece.start, piece.center), piece.radius, 1e-3f);
      EXPECT_NEAR(glm::distance(piece.end, piece.center), piece.radius, 1e-3f);
      // The length is the angle turned (up to whole turns, as start and end cannot tell).
      const float turns = (piece.length / piece.radius - arcAngle(piece)) / (2.0f * kPi);
      EXPECT_NEAR(turns, std::round(turns), 2e-3f);
    }
    if (i == 0) continue;
    // G1: the same point, the same direction.
    const CurvePiece& before = pieces[i - 1];
    EXPECT_LT(glm::distance(before.end, piece.start), 1e-3f);
    EXPECT_GT(glm::dot(travelAt(before, before.end), travelAt(piece, piece.start)), 1.0f - 1e-4f);
  }
  EXPECT_GE(total, groundLength(corners) - 1e-3f);
  EXPECT_LT(glm::distance(pieces.front().start, groundOf(corners.front())), 1e-4f);
  EXPECT_LT(glm::distance(pieces.back().end, groundOf(corners.back())), 1e-4f);
  // Through every corner, in order.
  size_t corner = 1;
  for (const CurvePiece& piece : pieces) {
    while (corner < corners.size() &&
           glm::distance(groundOf(corners[corner]), groundOf(corners[corner - 1])) < 1e-4f)
      ++corner;
    if (corner < corners.size() && glm::distance(piece.end, groundOf(corners[corner])) < 1e-3f)
      ++corner;
  }
  EXPECT_EQ(corner, corners.size()) << "the curve passes every corner";
}

TEST(VehicleCurve, RightAngleCorner) {
  // East 10 m, then a right turn (towards +z) and 10 m on; radius 2.
  const std::vector<glm::vec3> corners{{0, 0, 0}, {10, 0, 0}, {10, 0, 10}};
  const float r = 2.0f;
  const std::vector<CurvePiece> pieces = vehicleCurve(corners, r);
  checkCurve(pieces, corners, r);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].kind, CurvePiece::Line);
  EXPECT_EQ(pieces[1].kind, CurvePiece::Arc);
  EXPECT_EQ(pieces[2].kind, CurvePiece::Arc);
  EXPECT_EQ(pieces[3].kind, CurvePiece::Line);

  // By hand: at the corner P the heading bisects the turn, (1, 1)/sqrt 2, so the
  // turn circle's centre is r inside it on the diagonal: C = P + r (-1, 1)/sqrt 2.
  const glm::vec2 start(0, 0), corner(10, 0);
  const glm::vec2 center = corner + r * glm::vec2(-1, 1) / std::sqrt(2.0f);
  // From the start, a tangent to the circle: sqrt(d^2 - r^2) long, touching it
  // acos(r/d) round from the centre-to-start ray; the arc turns from there to P.
  const float d = glm::distance(start, center);
  const float tangentLength = std::sqrt(d * d - r * r);
  const float startToCorner =
      std::acos(glm::dot(start - center, corner - center) / (glm::length(start - center) * r));
  const float arc = startToCorner - std::acos(r / d);
  EXPECT_NEAR(arc, 0.8542f, 1e-3f);  // 48.94 degrees
  for (int i : {1, 2}) {
    EXPECT_NEAR(pieces[size_t(i)].center.x, center.x, 1e-4f);
    EXPECT_NEAR(pieces[size_t(i)].center.y, center.y, 1e-4f);
    EXPECT_NEAR(pieces[size_t(i)].radius, r, 1e-6f);
    EXPECT_TRUE(pieces[size_t(i)].clockwise);
    EXPECT_NEAR(pieces[size_t(i)].length, r * arc, 1e-3f);
  }
  EXPECT_NEAR(pieces[0].length, tangentLength, 1e-3f);
  EXPECT_NEAR(pieces[3].length, tangentLength, 1e-3f);
  // The tangent point: on the circle, with the line square to the radius there.
  const glm::vec2 touch = pieces[0].end;
  EXPECT_NEAR(glm::distance(touch, center), r, 1e-4f);
  EXPECT_NEAR(glm::dot(touch - start, touch - center), 0.0f, 1e-3f);
  EXPECT_NEAR(pieces[1].end.x, 10.0f, 1e-5f);
  EXPECT_NEAR(pieces[1].end.y, 0.0f, 1e-5f);
  EXPECT_NEAR(curveLength(pieces), 2.0f * (tangentLength + r * arc), 2e-3f);
}

TEST(VehicleCurve, QuarterCircleBetweenHeadings) {
  // Facing +x at the origin, facing +z at (10, 10): a quarter of the circle round (0, 10).
  const std::vector<glm::vec3> right{{0, 0, 0}, {10, 0, 10}};
  const std::vector<CurvePiece> pieces =
      vehicleCurve(right, 10.0f, glm::vec2(1, 0), glm::vec2(0, 1));
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].kind, CurvePiece::Arc);
  EXPECT_TRUE(pieces[0].clockwise);
  EXPECT_NEAR(pieces[0].center.x, 0.0f, 1e-4f);
  EXPECT_NEAR(pieces[0].center.y, 10.0f, 1e-4f);
  EXPECT_NEAR(pieces[0].length, 5.0f * kPi, 1e-3f);
  checkCurve(pieces, right, 10.0f);

  // Mirrored: a left turn round (0, -10).
  const std::vector<glm::vec3> left{{0, 0, 0}, {10, 0, -10}};
  const std::vector<CurvePiece> mirrored =
      vehicleCurve(left, 10.0f, glm::vec2(2, 0), glm::vec2(0, -3));
  ASSERT_EQ(mirrored.size(), 1u);
  EXPECT_FALSE(mirrored[0].clockwise);
  EXPECT_NEAR(mirrored[0].center.y, -10.0f, 1e-4f);
  EXPECT_NEAR(mirrored[0].length, 5.0f * kPi, 1e-3f);
}

TEST(VehicleCurve, NoArcTighterThanTheTurningRadius) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> coordinate(-15.0f, 15.0f);
  std::uniform_real_distribution<float> angle(-kPi, kPi);
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    const float r = std::array<float, 4>{0.5f, 2.0f, 5.0f, 12.0f}[size_t(trial % 4)];
    std::vector<glm::vec3> corners(size_t(2 + trial % 7));
    for (glm::vec3& c : corners)
      c = {coordinate(rng), 0.1f * coordinate(rng), coordinate(rng)};
    std::optional<glm::vec2> startHeading, goalHeading;
    const float a = angle(rng), b = angle(rng);
    if (trial % 3 != 0) startHeading = glm::vec2(std::cos(a), std::sin(a));
    if (trial % 5 >= 2) goalHeading = glm::vec2(std::cos(b), std::sin(b));
    const std::vector<CurvePiece> pieces = vehicleCurve(corners, r, startHeading, goalHeading);
    checkCurve(pieces, corners, r);
    if (startHeading) {
      EXPECT_GT(glm::dot(travelAt(pieces.front(), pieces.front().start), *startHeading),
                1.0f - 1e-4f);
    }
    if (goalHeading) {
      EXPECT_GT(glm::dot(travelAt(pieces.back(), pieces.back().end), *goalHeading), 1.0f - 1e-4f);
    }

    // The sampled curve bends no tighter either: every three consecutive
    // samples lie on a circle at least the turning radius wide.
    const std::vector<glm::vec3> samples = sampleCurve(pieces, corners, 0.2f);
    for (size_t i = 2; i < samples.size(); ++i) {
      const glm::vec2 p = groundOf(samples[i - 2]), q = groundOf(samples[i - 1]),
                      s = groundOf(samples[i]);
      const float twiceArea = std::abs(cross2(q - p, s - p));
      if (twiceArea < 1e-6f) continue;
      const float circumradius =
          glm::distance(p, q) * glm::distance(q, s) * glm::distance(s, p) / (2.0f * twiceArea);
      EXPECT_GT(circumradius, 0.99f * r) << "samples " << i - 2 << ".." << i;
    }
  }
}

TEST(VehicleCurve, DegenerateInput) {
  EXPECT_TRUE(vehicleCurve({}, 2.0f).empty());
  const std::vector<glm::vec3> one{{1, 0, 1}};
  EXPECT_TRUE(vehicleCurve(one, 2.0f, glm::vec2(1, 0), glm::vec2(0, 1)).empty());
  const std::vector<glm::vec3> same{{1, 0, 1}, {1, 2, 1}, {1, 0, 1}};
  EXPECT_TRUE(vehicleCurve(same, 2.0f).empty());
  EXPECT_TRUE(sampleCurve({}, one).empty());

  // Repeated corners count once.
  const std::vector<glm::vec3> repeated{{0, 0, 0}, {0, 0, 0}, {10, 0, 0}, {10, 0, 0}, {10, 0, 10}};
  const std::vector<glm::vec3> distinct{{0, 0, 0}, {10, 0, 0}, {10, 0, 10}};
  const std::vector<CurvePiece> a = vehicleCurve(repeated, 2.0f), b = vehicleCurve(distinct, 2.0f);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start, b[i].start);
    EXPECT_EQ(a[i].end, b[i].end);
  }
  checkCurve(a, repeated, 2.0f);

  // Collinear corners: one straight run, no arcs.
  const std::vector<glm::vec3> collinear{{0, 0, 0}, {3, 0, 3}, {5, 0, 5}, {9, 0, 9}};
  const std::vector<CurvePiece> line = vehicleCurve(collinear, 3.0f);
  for (const CurvePiece& piece : line)
    EXPECT_EQ(piece.kind, CurvePiece::Line);
  EXPECT_NEAR(curveLength(line), 9.0f * std::sqrt(2.0f), 1e-4f);
  checkCurve(line, collinear, 3.0f);

  // Radius 0 (and nonsense radii): the corner polyline itself.
  const std::vector<glm::vec3> zigZag{{0, 0, 0}, {2, 0, 1}, {4, 1, -1}, {6, 0, 1}};
  for (float r : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()}) {
    const std::vector<CurvePiece> polyline = vehicleCurve(zigZag, r);
    ASSERT_EQ(polyline.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(polyline[i].kind, CurvePiece::Line);
      EXPECT_NEAR(glm::distance(polyline[i].start, groundOf(zigZag[i])), 0.0f, 1e-6f);
      EXPECT_NEAR(glm::distance(polyline[i].end, groundOf(zigZag[i + 1])), 0.0f, 1e-6f);
    }
  }

  // A U-turn, and a start inside both circles of the next corner: finite and smooth.
  const std::vector<glm::vec3> uTurn{{0, 0, 0}, {5, 0, 0}, {1, 0, 0}};
  checkCurve(vehicleCurve(uTurn, 2.0f), uTurn, 2.0f);
  const std::vector<glm::vec3> close{{0, 0, 0.5f}, {0, 0, 0}, {10, 0, 10}};
  checkCurve(vehicleCurve(close, 4.0f), close, 4.0f);
  const std::vector<glm::vec3> twoClose{{0, 0, 0}, {0.5f, 0, 0.5f}};
  checkCurve(vehicleCurve(twoClose, 4.0f, glm::vec2(-1, 0)), twoClose, 4.0f);
}

TEST(VehicleCurve, SamplesFollowTheCurveAndTheCornersHeights) {
  const std::vector<glm::vec3> corners{{0, 0, 0}, {10, 1, 0}, {10, 3, 10}};
  const std::vector<CurvePiece> pieces = vehicleCurve(corners, 2.0f);
  const std::vector<glm::vec3> samples = sampleCurve(pieces, corners, 0.5f);
  ASSERT_GE(samples.size(), 2u);
  EXPECT_EQ(samples.front(), corners.front());
  EXPECT_EQ(samples.back(), corners.back());
  float walked = 0.0f;
  for (size_t i = 1; i < samples.size(); ++i) {
    EXPECT_LE(glm::distance(groundOf(samples[i]), groundOf(samples[i - 1])), 0.5f + 1e-4f);
    walked += glm::distance(groundOf(samples[i]), groundOf(samples[i - 1]));
    EXPECT_GE(samples[i].y, samples[i - 1].y - 1e-5f);  // climbing all the way
  }
  // The polyline through the samples is a little shorter than the arcs it cuts.
  EXPECT_NEAR(walked, curveLength(pieces), 0.01f * curveLength(pieces));
  const auto middle = std::find_if(samples.begin(), samples.end(), [](const glm::vec3& p) {
    return glm::distance(groundOf(p), glm::vec2(10, 0)) < 1e-4f;
  });
  ASSERT_NE(middle, samples.end());
  EXPECT_NEAR(middle->y, 1.0f, 1e-4f);
}

TEST(VehicleCurve, DrawsPiecesAndFaintTurnCircles) {
  struct Recorder : DebugDraw {
    std::vector<std::pair<glm::vec3, glm::vec3>> solid, faint;
    void line(const glm::vec3& a, const glm::vec3& b, Color color) override {
      (color.a == 255 ? solid : faint).push_back({a, b});
    }
    void triangle(const glm::vec3&, const glm::vec3&, const glm::vec3&, Color) override {}
    void point(const glm::vec3&, float, Color) override {}
    void text(const glm::vec3&, std::string_view, Color) override {}
  } recorder;
  const std::vector<glm::vec3> corners{{0, 0, 0}, {10, 0, 0}, {10, 0, 10}};
  const std::vector<CurvePiece> pieces = vehicleCurve(corners, 2.0f);
  drawVehicleCurve(recorder, pieces, 1.0f, colors::kVehicleCurve);
  ASSERT_FALSE(recorder.solid.empty());
  ASSERT_FALSE(recorder.faint.empty());
  // The solid lines run end to end from the start to the goal.
  EXPECT_NEAR(recorder.solid.front().first.x, 0.0f, 1e-5f);
  EXPECT_NEAR(recorder.solid.back().second.z, 10.0f, 1e-5f);
  for (size_t i = 1; i < recorder.solid.size(); ++i)
    EXPECT_LT(glm::distance(recorder.solid[i - 1].second, recorder.solid[i].first), 1e-4f);
  // The one turn circle (both arcs share it), drawn round its centre.
  const glm::vec2 center = pieces[1].center;
  float angle = 0.0f;
  for (const auto& [a, b] : recorder.faint) {
    EXPECT_NEAR(glm::distance(glm::vec2(a.x, a.z), center), 2.0f, 1e-4f);
    angle += std::acos(std::clamp(glm::dot(glm::normalize(glm::vec2(a.x, a.z) - center),
                                           glm::normalize(glm::vec2(b.x, b.z) - center)),
                                  -1.0f, 1.0f));
    EXPECT_GT(a.y, 1.0f);
  }
  EXPECT_NEAR(angle, 2.0f * kPi, 1e-2f);
}

}  // namespace
}  // namespace nav
