#include "nav/portal_ends.h"

#include <algorithm>
#include <cmath>

namespace nav {

float widestCoveringCell(const UnitProfile& unit) {
  // Every point of a sector's box must lie in the footprint of a cell centre:
  // within half a cell along both axes, for a square; half the diagonal, for a disc.
  return 2.0f * testedHalfFootprint(unit) /
         (unit.shape == UnitShape::Round ? std::sqrt(2.0f) : 1.0f);
}

// Between cell rectangles only: a navigation mesh's walk portals lie on its
// polygons' edges at any angle, and their directions are only the nearest axes.
bool backOverTheSameEdge(const NavGraph& graph, const Portal& first, const Portal& second) {
  if (first.kind != PortalKind::Walk || second.kind != PortalKind::Walk) return false;
  if (second.direction != opposite(first.direction)) return false;
  const bool crossesX = kDirectionDx[int(first.direction)] != 0;
  const float lineFirst = crossesX ? first.left.x : first.left.z;
  const float lineSecond = crossesX ? second.left.x : second.left.z;
  if (!(std::abs(lineFirst - lineSecond) < 1e-4f)) return false;
  return first.fromSector >= graph.sectors.size() || !graph.sectors[first.fromSector].polygonal();
}

std::pair<float, float> overlapAlongTheEdge(const Portal& in, const Portal& out) {
  const float inLeft = coordinateAlongTheEdge(in, in.left);
  const float inRight = coordinateAlongTheEdge(in, in.right);
  const float outLeft = coordinateAlongTheEdge(out, out.left);
  const float outRight = coordinateAlongTheEdge(out, out.right);
  return {std::max(std::min(inLeft, inRight), std::min(outLeft, outRight)),
          std::min(std::max(inLeft, inRight), std::max(outLeft, outRight))};
}

glm::vec3 pointAlongTheEdge(const Portal& portal, float t) {
  const float a = coordinateAlongTheEdge(portal, portal.left);
  const float b = coordinateAlongTheEdge(portal, portal.right);
  const float f = a == b ? 0.0f : std::clamp((t - a) / (b - a), 0.0f, 1.0f);
  return glm::mix(portal.left, portal.right, f);
}

bool wayBackAtAPoint(const NavGraph& graph, const Portal& in, const Portal& out) {
  // Spans shorter than this are points: portal coordinates sit on a grid of
  // sixths of a cell. [metres]
  constexpr float kPoint = 1e-4f;
  if (out.toSector == in.fromSector || !backOverTheSameEdge(graph, in, out)) return false;
  const auto [low, high] = overlapAlongTheEdge(in, out);
  return low <= high && high - low <= kPoint;
}

bool computedHasWayBackAtAPoint(const NavGraph& graph, uint32_t portal) {
  const Portal& in = graph.portals[portal];
  if (in.kind != PortalKind::Walk || in.toSector >= graph.sectors.size()) return false;
  const Sector& between = graph.sectors[in.toSector];
  for (uint32_t p = between.firstPortal; p < between.firstPortal + between.portalCount; ++p) {
    if (wayBackAtAPoint(graph, in, graph.portals[p])) return true;
  }
  return false;
}

std::vector<uint8_t> waysBackAtAPointOf(const NavGraph& graph) {
  std::vector<uint8_t> ways(graph.portals.size());
  for (uint32_t p = 0; p < graph.portals.size(); ++p)
    ways[p] = computedHasWayBackAtAPoint(graph, p) ? 1 : 0;
  return ways;
}

bool cellsCoverSectors(const UnitProfile& unit, float cellSize) {
  return cellSize > 0.0f && cellSize < widestCoveringCell(unit);
}

namespace {

// A stretch shorter than this leaves a turn in no direction. [metres]
constexpr float kSamePlace = 1e-4f;
// A stretch this close to running along the portal's line leaves into neither sector.
constexpr float kAlongTheLine = 1e-6f;

glm::vec2 gateGround(const NavGraph& graph, const Portal& portal, bool left, bool entering) {
  return groundOf(unwidenedPortalEnd(graph, portal, left)) +
         walkDirection(portal) * (0.5f * graph.cellSize * (entering ? 1.0f : -1.0f));
}

float gateHeight(const NavGraph& graph, const Portal& portal, const glm::vec2& at, bool entering) {
  return graph.heightAt(graph.sectors[entering ? portal.toSector : portal.fromSector], at.x, at.y);
}

// How far the stretch from `from` in unit `direction` runs, up to `length`,
// before it meets the box [low, high] (0 when it starts inside), or
// `length` when it never does.
float runBeforeMeeting(const glm::vec2& from, const glm::vec2& direction, float length,
                       const glm::vec2& low, const glm::vec2& high) {
  float enter = 0.0f, leave = length;
  for (int axis = 0; axis < 2; ++axis) {
    if (direction[axis] == 0.0f) {
      if (from[axis] < low[axis] || from[axis] > high[axis]) return length;
      continue;
    }
    const float t0 = (low[axis] - from[axis]) / direction[axis];
    const float t1 = (high[axis] - from[axis]) / direction[axis];
    enter = std::max(enter, std::min(t0, t1));
    leave = std::min(leave, std::max(t0, t1));
  }
  return enter <= leave ? enter : length;
}

// How far the stretch from `from` in unit `direction`, `length` long, runs in
// the box [low, high] it starts in.
float runInside(const glm::vec2& from, const glm::vec2& direction, float length,
                const glm::vec2& low, const glm::vec2& high) {
  for (int axis = 0; axis < 2; ++axis) {
    if (direction[axis] > 0.0f)
      length = std::min(length, (high[axis] - from[axis]) / direction[axis]);
    if (direction[axis] < 0.0f)
      length = std::min(length, (low[axis] - from[axis]) / direction[axis]);
  }
  return length;
}

}  // namespace

int reachLeavesInto(const NavGraph& graph, const Portal& portal, const PortalEndReach& reach,
                    bool left, const glm::vec2& other) {
  const glm::vec2 from = groundOf(reach.point);
  glm::vec2 direction = other - from;
  const float length = glm::length(direction);
  if (!(length > kSamePlace)) return -1;
  direction /= length;
  const float into = glm::dot(direction, walkDirection(portal));
  if (std::abs(into) <= kAlongTheLine) return -1;
  const int side = into > 0.0f ? 1 : 0;
  const float out = glm::dot(direction, outwardAlong(portal, left));
  if (!(reach.outwardMin[side] <= out && out <= reach.outwardMax[side])) return -1;
  const Aabb& box = graph.sectors[side == 1 ? portal.toSector : portal.fromSector].bounds;
  const glm::vec2 low = groundOf(box.min), high = groundOf(box.max);
  const glm::vec2 halfCell(0.5f * graph.cellSize);
  const float inBox = runInside(from, direction, length, low, high);
  return runBeforeMeeting(from, direction, inBox, low + halfCell, high - halfCell) <= reach.length
             ? side
             : -1;
}

SegmentPart reachSees(const NavGraph& graph, uint32_t portalIndex, bool left, const glm::vec2& from,
                      const glm::vec2& to) {
  // An end of the part is found this close to the edge of what the reach
  // proves, in at most this many halvings. [metres]
  constexpr float kNudge = 1e-4f;
  constexpr int kHalvings = 32;
  const Portal& portal = graph.portals[portalIndex];
  const PortalEndReach& reach = graph.reach[portalEndIndex(portalIndex, left)];
  if (!(reach.outwardMin[1] <= reach.outwardMax[1])) return {1.0f, 0.0f};
  // A point (the goal, a one-cell gate): the funnel's own test.
  if (from == to) {
    return reachLeavesInto(graph, portal, reach, left, from) == 1 ? SegmentPart{0.0f, 1.0f}
                                                                  : SegmentPart{1.0f, 0.0f};
  }
  const glm::vec2 out = outwardAlong(portal, left), walk = walkDirection(portal);
  // The directions d with outwardMin <= dot(d, out) <= outwardMax on the walk's side.
  const auto direction = [&](float along) {
    const float c = std::clamp(along, -1.0f, 1.0f);
    return c * out + std::sqrt(1.0f - c * c) * walk;
  };
  const glm::vec2 first = direction(reach.outwardMax[1]), last = direction(reach.outwardMin[1]);
  const float turning = cross2(out, walk) > 0.0f ? 1.0f : -1.0f;
  const glm::vec2 r = groundOf(reach.point);
  const glm::vec2 fromOffset = from - r, toOffset = to - r;
  const float length = glm::distance(from, to);
  SegmentPart seen = intersect(
      nonNegativePart(turning * cross2(first, fromOffset), turning * cross2(first, toOffset)),
      nonNegativePart(turning * cross2(fromOffset, last), turning * cross2(toOffset, last)));
  // A stretch may run at most the reach's length before it meets the
  // rectangle of the sector's cell centres (reachLeavesInto), on which the
  // segment lies: it sees what the directions into K, the part of that
  // rectangle within the length of its point, reach. K is convex, so those
  // directions form a wedge whose edges pass through two of K's corners: the
  // rectangle's corners within the circle and where its sides cross the
  // circle (the circle's arcs, centred on the point, add no direction). A
  // segment within the length of the point is seen all along.
  const float length2 = reach.length * reach.length;
  if (glm::dot(fromOffset, fromOffset) > length2 || glm::dot(toOffset, toOffset) > length2) {
    const Sector& sector = graph.sectors[portal.toSector];
    const glm::vec2 halfCell(0.5f * graph.cellSize);
    const glm::vec2 low = groundOf(sector.bounds.min) + halfCell;
    const glm::vec2 high = groundOf(sector.bounds.max) - halfCell;
    const glm::vec2 corners[4] = {low, {high.x, low.y}, high, {low.x, high.y}};
    // The wedge's edges: K lies on the walk's side of the point, where
    // turning clockwise or anticlockwise orders directions.
    bool any = false;
    glm::vec2 clockwise(0.0f), anticlockwise(0.0f);
    const auto take = [&](const glm::vec2& corner) {
      const glm::vec2 d = corner - r;
      if (!any || cross2(d, clockwise) > 0.0f) clockwise = d;
      if (!any || cross2(anticlockwise, d) > 0.0f) anticlockwise = d;
      any = true;
    };
    for (int i = 0; i < 4; ++i) {
      const glm::vec2 &p = corners[i], side = corners[(i + 1) % 4] - p, offset = p - r;
      if (glm::dot(offset, offset) <= length2) take(p);
      const float a = glm::dot(side, side), b = glm::dot(offset, side),
                  c = glm::dot(offset, offset) - length2;
      const float discriminant = b * b - a * c;
      if (!(a > 0.0f) || !(discriminant >= 0.0f)) continue;
      const float root = std::sqrt(discriminant);
      for (const float t : {(-b - root) / a, (-b + root) / a})
        if (t >= 0.0f && t <= 1.0f) take(p + side * t);
    }
    if (!any) return {1.0f, 0.0f};
    seen = intersect(seen,
                     nonNegativePart(cross2(clockwise, fromOffset), cross2(clockwise, toOffset)));
    seen = intersect(
        seen, nonNegativePart(cross2(fromOffset, anticlockwise), cross2(toOffset, anticlockwise)));
  }
  if (seen.empty()) return seen;
  // Both ends checked as the funnel's stretches will be. An end on the
  // wedge's edge that rounding puts outside (far along a segment met at a
  // grazing angle, by millimetres) moves in, by halves, to the last point
  // the reach proves: the part is one interval (K and the wedge are convex).
  const auto clear = [&](float t) {
    return reachLeavesInto(graph, portal, reach, left, pointOnSegment(from, to, t)) == 1;
  };
  const bool lowClear = clear(seen.low), highClear = clear(seen.high);
  if (lowClear && highClear) return seen;
  const float middle = 0.5f * (seen.low + seen.high);
  const float anchor = lowClear ? seen.low : highClear ? seen.high : middle;
  if (!clear(anchor)) return {1.0f, 0.0f};
  const auto lastClear = [&](float beyond) {
    float proven = anchor;
    for (int i = 0; i < kHalvings && std::abs(beyond - proven) * length > kNudge; ++i) {
      const float t = 0.5f * (proven + beyond);
      (clear(t) ? proven : beyond) = t;
    }
    return proven;
  };
  if (!lowClear) seen.low = lastClear(seen.low);
  if (!highClear) seen.high = lastClear(seen.high);
  return seen;
}

glm::vec2 gateTurnAt(const NavGraph& graph, const GateTurn& turn) {
  if (turn.atReach) return groundOf(graph.reach[portalEndIndex(turn.portal, turn.left)].point);
  const Portal& portal = graph.portals[turn.portal];
  return groundOf(turn.left ? portal.left : portal.right);
}

bool leavesTurnClear(const NavGraph& graph, const GateTurn& turn, const glm::vec2& other) {
  const Portal& portal = graph.portals[turn.portal];
  if (turn.atReach) {
    const PortalEndReach& reach = graph.reach[portalEndIndex(turn.portal, turn.left)];
    return reachLeavesInto(graph, portal, reach, turn.left, other) >= 0;
  }
  const glm::vec2 walked = other - gateTurnAt(graph, turn);
  const float length = glm::length(walked);
  return length > kSamePlace &&
         std::abs(glm::dot(walked / length, walkDirection(portal))) > kAlongTheLine;
}

bool turnCoversStretch(const NavGraph& graph, const GateTurn& turn, const glm::vec2& other) {
  if (!turn.atReach) return false;
  const PortalEndReach& reach = graph.reach[portalEndIndex(turn.portal, turn.left)];
  return leavesTurnClear(graph, turn, other) &&
         glm::distance(groundOf(reach.point), other) <= reach.length;
}

bool clearBetweenTurns(const NavGraph& graph, const GateTurn& a, const GateTurn& b) {
  const glm::vec2 atA = gateTurnAt(graph, a), atB = gateTurnAt(graph, b);
  return (leavesTurnClear(graph, a, atB) || turnCoversStretch(graph, b, atA)) &&
         (leavesTurnClear(graph, b, atA) || turnCoversStretch(graph, a, atB));
}

glm::vec3 computedGatePoint(const NavGraph& graph, const Portal& portal, bool left, bool entering) {
  const glm::vec2 at = gateGround(graph, portal, left, entering);
  return {at.x, gateHeight(graph, portal, at, entering), at.y};
}

std::vector<std::array<glm::vec3, 4>> gatePointsOf(const NavGraph& graph) {
  std::vector<std::array<glm::vec3, 4>> points(graph.portals.size());
  for (size_t p = 0; p < graph.portals.size(); ++p) {
    points[p].fill(glm::vec3(0.0f));
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Walk) continue;
    for (const bool entering : {false, true}) {
      for (const bool left : {true, false})
        points[p][detail::gateSlot(left, entering)] =
            computedGatePoint(graph, portal, left, entering);
    }
  }
  return points;
}

namespace {

// True when a reach of a walk portal out of the sector `portal` enters, or
// out of a sector that one leads to, answers alone for the stretch from the
// reach of `portal`'s end (the exact search turns so straight on through
// one portal: IntervalSearch::pushReachesPast).
bool coveredFromPortalsAhead(const NavGraph& graph, uint32_t portal, bool left) {
  const glm::vec2 at = gateTurnAt(graph, {portal, left, true});
  const auto covers = [&](uint32_t q) {
    for (const bool qLeft : {true, false}) {
      const size_t end = portalEndIndex(q, qLeft);
      if (end < graph.reach.size() && graph.reach[end].reaches() &&
          turnCoversStretch(graph, {q, qLeft, true}, at))
        return true;
    }
    return false;
  };
  const Sector& entered = graph.sectors[graph.portals[portal].toSector];
  for (uint32_t q = entered.firstPortal; q < entered.firstPortal + entered.portalCount; ++q) {
    if (covers(q)) return true;
    if (graph.portals[q].kind != PortalKind::Walk) continue;
    const Sector& beyond = graph.sectors[graph.portals[q].toSector];
    for (uint32_t r = beyond.firstPortal; r < beyond.firstPortal + beyond.portalCount; ++r) {
      if (covers(r)) return true;
    }
  }
  return false;
}

}  // namespace

uint8_t computedTurnsPastGates(const NavGraph& graph, uint32_t portalIndex) {
  const Portal& portal = graph.portals[portalIndex];
  if (portal.kind != PortalKind::Walk) return 0;
  uint8_t turns = 0;
  for (const bool left : {true, false}) {
    if (portalEndWidened(graph, portal, left))
      turns |= left ? turn_bits::kLeftEnd : turn_bits::kRightEnd;
    const size_t end = portalEndIndex(portalIndex, left);
    if (end >= graph.reach.size() || !graph.reach[end].reaches()) continue;
    const PortalEndReach& reach = graph.reach[end];
    // A reach that proves no way on into the sector it enters is worth a
    // turn only on the way to a reach there, or one sector on, that answers
    // for the stretch alone.
    if (reach.outwardMin[1] <= reach.outwardMax[1] ||
        coveredFromPortalsAhead(graph, portalIndex, left))
      turns |= left ? turn_bits::kLeftReach : turn_bits::kRightReach;
    for (const bool gateLeft : {true, false}) {
      const glm::vec2 gate = groundOf(gatePoint(graph, portalIndex, gateLeft, false));
      if (reachLeavesInto(graph, portal, reach, left, gate) == 0)
        turns |= turn_bits::gateEntersReach(left, gateLeft);
    }
  }
  return turns;
}

std::vector<uint8_t> turnsPastGatesOf(const NavGraph& graph) {
  std::vector<uint8_t> turns(graph.portals.size());
  for (uint32_t p = 0; p < graph.portals.size(); ++p)
    turns[p] = computedTurnsPastGates(graph, p);
  return turns;
}

}  // namespace nav
