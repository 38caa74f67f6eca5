#pragma once
// The string pulled through the portals a search path crossed, kept as the
// search goes (a funnel with one apex, as Theta* keeps a line of sight to an
// ancestor): the point the string last started from (its apex), the cost of
// getting there, and the two portal ends that bound what the apex sees. The
// cost of reaching a point the apex sees is the straight string's length from
// it, not the sum of straight hops between the points where each portal was
// crossed, which zigzags and makes a corridor of many narrow portals look
// dearer than it is. Where the apex sees none of the next portal, the string
// starts again on the portal the search last crossed (PortalSearch picks
// where). So on the ground every cost is the length of a way through the
// corridor's sectors (convex there), never below the corridor's shortest.

#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>

#include "nav/geometry.h"

namespace nav {

struct PulledString {
  /// Where the string starts (the path's start, or where it started again),
  /// and the cost of the way there.
  glm::vec3 apex{0.0f};
  float apexCost = 0.0f;
  /// The cost a metre of every stretch the string pulls across.
  float metre = 1.0f;
  /// On the ground, from the apex to the ends (as seen walking on) that bound
  /// what it sees. Zero, for a string not yet pulled through a portal: no
  /// point lies left or right of a zero bound, so nothing bounds what it sees.
  glm::vec2 toLeft{0.0f}, toRight{0.0f};

  /// A string starting at `point`, which cost `cost` to reach.
  static PulledString startingAt(const glm::vec3& point, float cost, float metre) {
    PulledString string;
    string.startAt(point, cost, metre);
    return string;
  }
  void startAt(const glm::vec3& point, float cost, float costPerMetre) {
    apex = point;
    apexCost = cost;
    metre = costPerMetre;
    toLeft = toRight = glm::vec2(0.0f);
  }

  /// True when the apex sees `point` through every portal the string was pulled through.
  bool sees(const glm::vec3& point) const {
    const glm::vec2 offset = groundOf(point) - groundOf(apex);
    return !leftOf(toLeft, offset) && !rightOf(toRight, offset);
  }
  /// Moves `point`, a point of segment [a, b], to the point of the segment
  /// the apex sees nearest it; false when the apex sees none of the segment.
  /// The seen part is one piece, between the two bounds' lines. The cost of a
  /// way through a point of the segment to a point beyond is convex along it,
  /// so over the seen part it is least at the seen point nearest its best.
  bool nearestSeen(const glm::vec3& a, const glm::vec3& b, glm::vec3& point) const {
    const glm::vec2 from = groundOf(a) - groundOf(apex), span = groundOf(b) - groundOf(a);
    const float length2 = glm::dot(span, span);
    if (!(length2 > 0.0f)) {
      if (!sees(a)) return false;
      point = a;
      return true;
    }
    float least = 0.0f, most = 1.0f;
    // Seen where cross2(toLeft, offset) >= 0 and cross2(toRight, offset) <= 0,
    // each linear along the segment: offset(t) = from + t span.
    const auto keep = [&](const glm::vec2& bound, float sign) {
      const float at0 = sign * cross2(bound, from), slope = sign * cross2(bound, span);
      if (slope > 0.0f)
        least = std::max(least, -at0 / slope);
      else if (slope < 0.0f)
        most = std::min(most, -at0 / slope);
      else if (at0 < 0.0f)
        most = -1.0f;  // along the bound, on its unseen side: nothing seen
    };
    keep(toLeft, 1.0f);
    keep(toRight, -1.0f);
    if (!(least <= most)) return false;
    const float t = glm::dot(groundOf(point) - groundOf(a), span) / length2;
    point = glm::mix(a, b, std::clamp(t, least, most));
    return true;
  }

  /// The cost of the string pulled straight from the apex to `point` (which it sees).
  float costTo(const glm::vec3& point) const {
    return apexCost + glm::distance(apex, point) * metre;
  }

  /// No more than costTo of any point of the segment [a, b], whether the
  /// apex sees it or the string starts again from a point it reaches: the
  /// apex's cost plus the ground distance to the segment, less far more than
  /// float rounding of the costs and of the points' coordinates can move it.
  float costBelowSegment(const glm::vec3& a, const glm::vec3& b) const {
    constexpr float kRounding = 1e-6f;
    const glm::vec2 from = groundOf(a), span = groundOf(b) - from, offset = groundOf(apex) - from;
    const float length2 = glm::dot(span, span);
    float along = length2 > 0.0f ? glm::dot(offset, span) / length2 : 0.0f;
    // Selects, not std::clamp, which compiles to a branch: a coin toss here.
    along = along > 0.0f ? along : 0.0f;
    along = along < 1.0f ? along : 1.0f;
    const float bound = apexCost + glm::distance(offset, span * along) * metre;
    const float reach = std::abs(apex.x) + std::abs(apex.z) + std::abs(a.x) + std::abs(a.z);
    return bound - kRounding * (std::abs(bound) + reach * metre);
  }

  /// Pulls the string on through a portal from `portalLeft` to `portalRight`
  /// (as seen walking through it); it starts again from `restart` (reached at
  /// `restartCost`) when the apex sees none of the portal. In place: a string
  /// built in a temporary and copied out stalls on the store buffer.
  void pullThrough(const glm::vec3& portalLeft, const glm::vec3& portalRight,
                   const glm::vec3& restart, float restartCost) {
    const glm::vec2 from = groundOf(apex);
    const glm::vec2 left = groundOf(portalLeft) - from, right = groundOf(portalRight) - from;
    if (leftOf(toLeft, right) || rightOf(toRight, left)) {
      const glm::vec2 shift = groundOf(restart) - from;
      apex = restart;
      apexCost = restartCost;
      toLeft = left - shift;
      toRight = right - shift;
      return;
    }
    if (!leftOf(toLeft, left)) toLeft = left;
    if (!rightOf(toRight, right)) toRight = right;
  }

 private:
  // Walking along `bound`, the walker's left on the ground is where cross2
  // (geometry.h) of the walk and the offset is negative.
  static bool leftOf(const glm::vec2& bound, const glm::vec2& offset) {
    return cross2(bound, offset) < 0.0f;
  }
  static bool rightOf(const glm::vec2& bound, const glm::vec2& offset) {
    return cross2(bound, offset) > 0.0f;
  }
};

}  // namespace nav
