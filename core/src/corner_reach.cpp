#include "nav/corner_reach.h"

#include <algorithm>
#include <cmath>

namespace nav {
namespace {

// A stretch shorter than this leaves in no direction. [metres]
constexpr float kSamePlace = 1e-4f;
// How far past a portal's end a stretch may cross it and still count as
// within: rounding, not ground. [metres]
constexpr float kCrossingSlack = 1e-4f;
// A stretch this close to running along the portal's line leaves into neither sector.
constexpr float kAlongTheLine = 1e-6f;

// True when the stretch from a to b passes through the portal: it meets the
// portal's line between the portal's ends, or passes a one-point portal.
bool passesThrough(const glm::vec3& from, const glm::vec3& to, const FunnelPortal& portal) {
  const glm::vec2 a = groundOf(from), b = groundOf(to);
  const glm::vec2 l = groundOf(portal.left), span = groundOf(portal.right) - l;
  const glm::vec2 walk = b - a;
  // Walk portals lie along x or z, where this is their length (else it is more: stricter).
  const float spanLength = std::abs(span.x) + std::abs(span.y);
  if (!(spanLength > kCrossingSlack)) {
    // The distance from the point to the stretch.
    const float walkLength2 = glm::dot(walk, walk);
    const float t =
        walkLength2 > 0.0f ? std::clamp(glm::dot(l - a, walk) / walkLength2, 0.0f, 1.0f) : 0.0f;
    return glm::distance(a + walk * t, l) <= kCrossingSlack;
  }
  const float denominator = cross2(walk, span);
  if (!(std::abs(denominator) > 1e-12f)) return false;
  const float along = cross2(walk, a - l) / denominator;
  const float slack = kCrossingSlack / spanLength;
  return along >= -slack && along <= 1.0f + slack;
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

// The funnel works in the ground plane, and so does a corner's move.
float groundDistance(const glm::vec3& a, const glm::vec3& b) {
  return glm::distance(groundOf(a), groundOf(b));
}

// A corner at a portal's end that may move: the end's reach and its directions.
struct Reaching {
  const PortalEndReach* reach = nullptr;
  /// The sectors the portal joins: from [0] and to [1].
  const Sector* sectors[2] = {nullptr, nullptr};
  float halfCell = 0.0f;
  glm::vec2 walk{0.0f}, outward{0.0f};

  // True when a stretch from the reach point to `other` leaves in a direction
  // proven clear and runs no further than proven outside the cell centres.
  bool leavesClear(const glm::vec3& other) const {
    const glm::vec2 from = groundOf(reach->point);
    glm::vec2 direction = groundOf(other) - from;
    const float length = glm::length(direction);
    if (!(length > kSamePlace)) return false;
    direction /= length;
    const float into = glm::dot(direction, walk);
    if (std::abs(into) <= kAlongTheLine) return false;
    const int side = into > 0.0f ? 1 : 0;
    const float out = glm::dot(direction, outward);
    if (!(reach->outwardMin[side] <= out && out <= reach->outwardMax[side])) return false;
    const Aabb& box = sectors[side]->bounds;
    const glm::vec2 low = groundOf(box.min), high = groundOf(box.max);
    const float inBox = runInside(from, direction, length, low, high);
    return runBeforeMeeting(from, direction, inBox, low + halfCell, high - halfCell) <=
           reach->length;
  }
};

// The reach of the portal end a corner sits at, if it has one: the corner is
// the portal's left or right end (for a one-point portal, the side the path turns to).
Reaching reachingAt(const NavGraph& graph, const FunnelPortal& portal, uint32_t graphPortal,
                    const glm::vec3& before, const glm::vec3& corner, const glm::vec3& after) {
  Reaching reaching;
  if (graphPortal == kNoPortal || graphPortal >= graph.portals.size()) return reaching;
  const bool atLeft = corner == portal.left, atRight = corner == portal.right;
  if (!atLeft && !atRight) return reaching;
  // triArea2 < 0: `after` lies to the left of the walk to the corner, which the path turns to.
  const bool left = atLeft && atRight ? triArea2(before, corner, after) < 0.0f : atLeft;
  const size_t index = portalEndIndex(graphPortal, left);
  if (index >= graph.reach.size() || !graph.reach[index].reaches()) return reaching;
  const Portal& walked = graph.portals[graphPortal];
  reaching.reach = &graph.reach[index];
  reaching.sectors[0] = &graph.sectors[walked.fromSector];
  reaching.sectors[1] = &graph.sectors[walked.toSector];
  reaching.halfCell = 0.5f * graph.cellSize;
  reaching.walk = walkDirection(walked);
  reaching.outward = outwardAlong(walked, left);
  return reaching;
}

}  // namespace

size_t reachCorners(const NavGraph& graph, std::span<const FunnelPortal> leg,
                    std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
                    std::span<const uint32_t> cornerPortals, std::vector<uint32_t>* moved) {
  if (graph.reach.empty() || corners.size() < 3 || leg.size() != legPortals.size() ||
      cornerPortals.size() != corners.size()) {
    return 0;
  }
  size_t count = 0;
  // The corner before the one at hand, with its reach if it moved.
  Reaching before;
  for (size_t k = 1; k + 1 < corners.size(); ++k) {
    const uint32_t at = cornerPortals[k], beforeAt = cornerPortals[k - 1],
                   afterAt = cornerPortals[k + 1];
    if (!(beforeAt < at && at < afterAt && afterAt < leg.size())) return count;
    const glm::vec3 previous = corners[k - 1], corner = corners[k], next = corners[k + 1];
    const Reaching here = reachingAt(graph, leg[at], legPortals[at], previous, corner, next);
    bool reaches = here.reach != nullptr;
    if (reaches) {
      const glm::vec3& point = here.reach->point;
      reaches = here.leavesClear(previous) && here.leavesClear(next) &&
                (before.reach == nullptr || before.leavesClear(point)) &&
                groundDistance(previous, point) + groundDistance(point, next) <
                    groundDistance(previous, corner) + groundDistance(corner, next);
      for (size_t j = beforeAt + 1; reaches && j < at; ++j)
        reaches = passesThrough(previous, point, leg[j]);
      for (size_t j = at + 1; reaches && j < afterAt; ++j)
        reaches = passesThrough(point, next, leg[j]);
    }
    if (reaches) {
      corners[k] = here.reach->point;
      ++count;
      if (moved) moved->push_back(uint32_t(k));
    }
    before = reaches ? here : Reaching{};
  }
  return count;
}

}  // namespace nav
