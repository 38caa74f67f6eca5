#include "nav/root_dominance.h"

#include <cmath>

namespace nav {

// Earlier is no dearer at p when |R1 p| - |R2 p| <= K for the roots R1
// (earlier's) and R2 (later's) and a constant K. The other side of that,
// |R1 p| - |R2 p| > K, is convex when K >= 0 (the inside of a hyperbola's
// branch round R2, or a half-plane); when K < 0 the side itself is convex
// (round R1). Either way, along a line, a point on the side and a point off
// it have exactly one crossing between them; and for K < 0 two points on the
// side hold all between them.
float noDearerUpTo(const CostedRoot& earlier, const CostedRoot& later, float metre,
                   const glm::vec2& from, const glm::vec2& along, float start, float end,
                   const DominanceTolerance& tolerance) {
  // By the triangle inequality, the two costs to any point differ by at most
  // the walk between the roots: within that, earlier is no dearer anywhere,
  // or dearer everywhere.
  const float between = glm::distance(earlier.at, later.at) * metre;
  if (earlier.cost + between <= later.cost + tolerance.slack) return end;
  if (earlier.cost - between > later.cost + tolerance.slack) return start;
  const auto noDearer = [&](float s) {
    const glm::vec2 p = from + along * s;
    return earlier.cost + glm::distance(earlier.at, p) * metre <=
           later.cost + glm::distance(later.at, p) * metre + tolerance.slack;
  };
  if (!noDearer(start)) return start;
  if (noDearer(end)) {
    const bool sideIsConvex = earlier.cost > later.cost + tolerance.slack;
    return sideIsConvex ? end : start;
  }
  // One crossing between: halve the bracket, keeping the side that is held.
  float held = start, beyond = end;
  while (std::abs(beyond - held) > tolerance.step) {
    const float middle = 0.5f * (held + beyond);
    (noDearer(middle) ? held : beyond) = middle;
  }
  return held;
}

}  // namespace nav
