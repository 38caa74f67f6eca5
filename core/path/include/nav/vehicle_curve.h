#pragma once
// A path a vehicle with a turning radius can drive through a funnel's corners:
// arcs of that radius joined by tangent lines, in the ground plane (x, z).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace nav {

/// One line or circular arc of a vehicle curve, in the ground plane (x, z).
struct CurvePiece {
  enum Kind : uint8_t { Line, Arc };
  Kind kind = Line;
  glm::vec2 start{0.0f}, end{0.0f};
  /// Arcs: the turn circle's centre. [metres]
  glm::vec2 center{0.0f};
  /// Arcs: the turn circle's radius; 0 for lines. [metres]
  float radius = 0.0f;
  /// Arcs: turning clockwise seen from above (Y up), i.e. to the right.
  bool clockwise = false;
  /// Along the piece. [metres]
  float length = 0.0f;
  /// Index into the corners given to vehicleCurve of the corner this piece leads to.
  uint32_t toCorner = 0;
};

/// A curve through every corner, tangent at each to the bisector of its turn:
/// from one corner to the next, an exit arc, a tangent line and an entry arc
/// (Dubins' shortest circle-line-circle over the four ways of turning), every
/// arc of exactly `turningRadius`. Without a start heading the first stretch is
/// a line and an entry arc, and without a goal heading the last is an exit arc
/// and a line (a free end inside both turn circles of the next corner faces
/// that corner instead). Consecutive pieces share end points and tangent
/// directions; zero-length pieces are left out. Repeated corners count once; a
/// radius of 0 gives the corner polyline itself. Fewer than two distinct
/// corners give no pieces. Corners close together for the radius make loops,
/// and arcs swing outside the corners: the curve may leave the corridor
/// (nothing checks it). Headings are directions in the ground plane (x, z),
/// need not be unit length, and are ignored when zero.
std::vector<CurvePiece> vehicleCurve(std::span<const glm::vec3> corners, float turningRadius,
                                     std::optional<glm::vec2> startHeading = {},
                                     std::optional<glm::vec2> goalHeading = {});

/// Points along the pieces, at most `spacing` apart (at least 0.01 m; and
/// every 10 degrees on arcs), each piece's ends included. Heights are the
/// corners' (those given to vehicleCurve), interpolated by distance along the
/// curve between them.
std::vector<glm::vec3> sampleCurve(std::span<const CurvePiece> pieces,
                                   std::span<const glm::vec3> corners, float spacing = 0.25f);

/// Total length of the pieces. [metres]
float curveLength(std::span<const CurvePiece> pieces);

}  // namespace nav
