#include "corner_reach.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "nav/portal_ends.h"

namespace nav {
namespace {

// How far past a portal's end a stretch may cross it and still count as
// within: rounding, not ground. [metres]
constexpr float kCrossingSlack = 1e-4f;

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

// Where the stretch from a to b meets the line of a portal with two distinct
// ends, as a fraction from its left end to its right (below 0: past the left).
float crossingAlong(const glm::vec3& from, const glm::vec3& to, const FunnelPortal& portal) {
  const glm::vec2 a = groundOf(from), walk = groundOf(to) - a;
  const glm::vec2 l = groundOf(portal.left), span = groundOf(portal.right) - l;
  const float denominator = cross2(walk, span);
  if (!(std::abs(denominator) > 1e-12f)) return 0.5f;
  return cross2(walk, a - l) / denominator;
}

// The funnel works in the ground plane, and so does a corner's move.
float groundDistance(const glm::vec3& a, const glm::vec3& b) {
  return glm::distance(groundOf(a), groundOf(b));
}

// Where a corner at a portal's end may move: out to the end's reach, for
// stretches leaving in the directions proven clear, or to the end itself when
// widening moved it off the cells (funnelLegs' gates turn at the cells), for
// stretches leaving in any direction (portal_ends.h, GateTurn).
struct Reaching {
  glm::vec3 point{0.0f};
  GateTurn turn;
  /// Null for no place: the corner stays.
  const NavGraph* graph = nullptr;

  bool moves() const { return graph != nullptr; }
  bool leavesClear(const glm::vec3& other) const {
    return leavesTurnClear(*graph, turn, groundOf(other));
  }
  bool coversAlone(const glm::vec3& other) const {
    return turnCoversStretch(*graph, turn, groundOf(other));
  }
};

// True when the stretch between two corners is proven clear: each end a
// corner the funnel left at a gate's end (null: the gates answer for it) or
// moved to a place whose sweeps answer for the stretch near it, unless the
// other end's answer for all of it.
bool stretchClear(const Reaching* a, const glm::vec3& from, const Reaching* b,
                  const glm::vec3& to) {
  const bool nearA = !a || a->leavesClear(to) || (b && b->coversAlone(from));
  const bool nearB = !b || b->leavesClear(from) || (a && a->coversAlone(to));
  return nearA && nearB;
}

// Where a corner at an end of leg portal j may move, furthest first: the
// corner is the portal's left or right end (for a one-point portal, the side
// the path turns to). Adds to `places`, up to its capacity.
void reachingAt(const NavGraph& graph, const FunnelPortal& portal, uint32_t graphPortal,
                const glm::vec3& before, const glm::vec3& corner, const glm::vec3& after,
                std::span<Reaching> places, size_t& count) {
  if (graphPortal == kNoPortal || graphPortal >= graph.portals.size()) return;
  const bool atLeft = corner == portal.left, atRight = corner == portal.right;
  if (!atLeft && !atRight) return;
  // triArea2 < 0: `after` lies to the left of the walk to the corner, which the path turns to.
  const bool left = atLeft && atRight ? triArea2(before, corner, after) < 0.0f : atLeft;
  const Portal& walked = graph.portals[graphPortal];
  const size_t index = portalEndIndex(graphPortal, left);
  if (count < places.size() && index < graph.reach.size() && graph.reach[index].reaches())
    places[count++] = {graph.reach[index].point, {graphPortal, left, true}, &graph};
  const glm::vec3& end = left ? walked.left : walked.right;
  if (count < places.size() && end != corner && portalEndWidened(graph, walked, left))
    places[count++] = {end, {graphPortal, left, false}, &graph};
}

// Places a corner may move to per portal end, and ends a corner may sit at
// (where the gates of portals in a row share a cell centre).
constexpr size_t kMaxPlaces = 4;

// The places corner k may move to (reachingAt over the leg portals it may sit at).
size_t placesOf(const NavGraph& graph, std::span<const FunnelPortal> leg,
                std::span<const uint32_t> legPortals, std::span<const glm::vec3> corners,
                std::span<const uint32_t> cornerPortals, size_t k, std::span<Reaching> places) {
  size_t count = 0;
  // The corner turns at leg portal cornerPortals[k]; the gates of the portals
  // either side may share the point (a cell centre at a sector's corner).
  const uint32_t at = cornerPortals[k];
  const uint32_t first = std::max(cornerPortals[k - 1] + 1, at > 0 ? at - 1 : 0);
  const uint32_t last = std::min(cornerPortals[k + 1] - 1, at + 1);
  for (uint32_t j = first; j <= last; ++j)
    reachingAt(graph, leg[j], legPortals[j], corners[k - 1], corners[k], corners[k + 1], places,
               count);
  return count;
}

// reachCorners, merging a corner pair at one end's two gates when
// `cornerPortals` may change (`mutablePortals`, whose data it is).
size_t reach(const NavGraph& graph, std::span<const FunnelPortal> leg,
             std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
             std::span<const uint32_t> cornerPortals, std::vector<uint32_t>* mutablePortals,
             std::vector<uint32_t>* moved) {
  if (corners.size() < 3 || leg.size() != legPortals.size() ||
      cornerPortals.size() != corners.size()) {
    return 0;
  }
  for (size_t k = 0; k + 1 < cornerPortals.size(); ++k) {
    if (!(cornerPortals[k] < cornerPortals[k + 1] && cornerPortals[k + 1] < leg.size())) return 0;
  }
  // The first leg portal in (first, last) the stretch from a to b does not
  // pass through, but for the gates of the places' own portals (a place
  // answers for the stretches near its end, where the gates kept paths off
  // the untested half cells); `last` when it passes them all.
  const auto firstMissed = [&](const glm::vec3& a, const glm::vec3& b, uint32_t first,
                               uint32_t last, const Reaching& p, const Reaching& q) {
    for (uint32_t j = first + 1; j < last; ++j) {
      if ((p.moves() && legPortals[j] == p.turn.portal) ||
          (q.moves() && legPortals[j] == q.turn.portal))
        continue;
      if (!passesThrough(a, b, leg[j])) return j;
    }
    return last;
  };
  const auto passes = [&](const glm::vec3& a, const glm::vec3& b, uint32_t first, uint32_t last,
                          const Reaching& p, const Reaching& q) {
    return firstMissed(a, b, first, last, p, q) == last;
  };
  // The leg portal a corner turned at, when the place it moves to is another
  // portal's (their gates shared the corner): one of its stretches passes it.
  const auto passesOwn = [&](const glm::vec3& a, const glm::vec3& point, const glm::vec3& b,
                             uint32_t at, const Reaching& place) {
    return legPortals[at] == place.turn.portal || passesThrough(a, point, leg[at]) ||
           passesThrough(point, b, leg[at]);
  };
  const Reaching none;
  size_t count = 0;
  // The corner before the one at hand, where it moved to, if it did.
  Reaching before;
  for (size_t k = 1; k + 1 < corners.size(); ++k) {
    const glm::vec3 previous = corners[k - 1], corner = corners[k];
    const uint32_t beforeAt = cornerPortals[k - 1], at = cornerPortals[k];
    Reaching places[kMaxPlaces];
    const size_t candidates = placesOf(graph, leg, legPortals, corners, cornerPortals, k, places);
    const Reaching* chosen = nullptr;
    size_t chosenLast = k;
    // True when the corner may move to `place`, the corners after it up to
    // `last` dropped.
    const auto fits = [&](const Reaching& place, size_t last) {
      const glm::vec3 next = corners[last + 1];
      float walked = groundDistance(previous, corner);
      for (size_t i = k; i <= last; ++i)
        walked += groundDistance(corners[i], corners[i + 1]);
      const glm::vec3& point = place.point;
      // The cheap tests first: most moves do not shorten the path.
      return groundDistance(previous, point) + groundDistance(point, next) < walked &&
             stretchClear(before.moves() ? &before : nullptr, previous, &place, point) &&
             stretchClear(&place, point, nullptr, next) &&
             passes(previous, point, beforeAt, at, place, before) &&
             passes(point, next, at, cornerPortals[last + 1], place, none) &&
             passesOwn(previous, point, next, at, place);
    };
    for (size_t c = 0; c < candidates && !chosen; ++c) {
      const Reaching& place = places[c];
      // Turning at both gates of the end (funnelLegs) is one turn where it
      // moves. Where the way on from there misses a portal the second gate
      // kept it to (the first gate of the next portal, one cell on), the
      // first turn may still move alone.
      bool bothGates = false;
      if (mutablePortals && k + 2 < corners.size()) {
        const uint32_t nextAt = cornerPortals[k + 1];
        const FunnelPortal& gate = leg[nextAt];
        bothGates = legPortals[nextAt] == place.turn.portal &&
                    corners[k + 1] == (place.turn.left ? gate.left : gate.right);
      }
      if (bothGates && fits(place, k + 1)) {
        chosen = &place;
        chosenLast = k + 1;
      } else if (fits(place, k)) {
        chosen = &place;
        chosenLast = k;
      }
    }
    // True when the way from the corner before through a and b to the next
    // is shorter than through the corner, in the ground plane (as every
    // move) and in 3D (an added turn may stand higher than the corner).
    const auto shorterThrough = [&](const glm::vec3& a, const glm::vec3& b) {
      const glm::vec3& next = corners[k + 1];
      return groundDistance(previous, a) + groundDistance(a, b) + groundDistance(b, next) <
                 groundDistance(previous, corner) + groundDistance(corner, next) &&
             glm::distance(previous, a) + glm::distance(a, b) + glm::distance(b, next) <
                 glm::distance(previous, corner) + glm::distance(corner, next);
    };
    // Moves the corner to `point` and adds a turn at `turn`, corner `addedAt`
    // (k or k + 1), on leg portal `j`.
    const auto moveWithTurn = [&](const glm::vec3& point, size_t addedAt, const glm::vec3& turn,
                                  uint32_t j) {
      corners[k] = point;
      corners.insert(corners.begin() + std::ptrdiff_t(addedAt), turn);
      mutablePortals->insert(mutablePortals->begin() + std::ptrdiff_t(addedAt), j);
      cornerPortals = *mutablePortals;
      ++count;
    };
    // A move whose way in or on passes a gate on the wrong side may still
    // turn at that gate's end on the way (the exact search's paths do): the
    // corner moves, and one more is added there.
    bool turnAdded = false;
    for (size_t c = 0; c < candidates && !chosen && mutablePortals; ++c) {
      const Reaching& place = places[c];
      const glm::vec3& point = place.point;
      const glm::vec3 next = corners[k + 1];
      const uint32_t nextAt = cornerPortals[k + 1];
      // The gate missed on the way on, else the last one missed on the way in.
      uint32_t j = firstMissed(point, next, at, nextAt, place, none);
      const bool onTheWayOn = j != nextAt;
      if (!onTheWayOn) {
        j = at;
        for (uint32_t i = beforeAt + 1; i < at; ++i) {
          if (!(before.moves() && legPortals[i] == before.turn.portal) &&
              !(legPortals[i] == place.turn.portal) && !passesThrough(previous, point, leg[i]))
            j = i;
        }
        if (j == at) continue;
      }
      const FunnelPortal& gate = leg[j];
      const float along =
          onTheWayOn ? crossingAlong(point, next, gate) : crossingAlong(previous, point, gate);
      const glm::vec3 end =
          sameGroundPoint(gate.left, gate.right) || along < 0.5f ? gate.left : gate.right;
      if (!(onTheWayOn ? shorterThrough(point, end) : shorterThrough(end, point))) continue;
      const Reaching* movedBefore = before.moves() ? &before : nullptr;
      const bool clear = onTheWayOn ? stretchClear(movedBefore, previous, &place, point) &&
                                          stretchClear(&place, point, nullptr, end) &&
                                          passes(previous, point, beforeAt, at, place, before) &&
                                          passes(point, end, at, j, place, none) &&
                                          passes(end, next, j, nextAt, none, none) &&
                                          passesOwn(previous, point, end, at, place)
                                    : stretchClear(movedBefore, previous, nullptr, end) &&
                                          stretchClear(nullptr, end, &place, point) &&
                                          stretchClear(&place, point, nullptr, next) &&
                                          passes(previous, end, beforeAt, j, before, none) &&
                                          passes(end, point, j, at, none, place) &&
                                          passes(point, next, at, nextAt, place, none) &&
                                          passesOwn(end, point, next, at, place);
      if (!clear) continue;
      const size_t movedAt = onTheWayOn ? k : k + 1;
      moveWithTurn(point, onTheWayOn ? k + 1 : k, end, j);
      if (moved) moved->push_back(uint32_t(movedAt));
      before = place;
      // The next corner to look at follows the moved one (and the turn added after it).
      k = movedAt;
      turnAdded = true;
      break;
    }
    if (turnAdded) continue;
    // A move to a reach that does not prove the way on to the next corner may
    // still turn on the first gate it crosses in the sector it enters, at
    // the point of that gate nearest the straight way which the reach sees
    // (reachSees: the exact search turns there too).
    for (size_t c = 0; c < candidates && !chosen && !turnAdded && mutablePortals; ++c) {
      const Reaching& place = places[c];
      if (!place.turn.atReach) continue;
      const glm::vec3& point = place.point;
      const glm::vec3 next = corners[k + 1];
      const uint32_t nextAt = cornerPortals[k + 1];
      uint32_t j = at + 1;
      while (j < nextAt && legPortals[j] == place.turn.portal)
        ++j;
      if (j >= nextAt || legPortals[j] == kNoPortal) continue;
      // The cheaper tests first: the way in must hold, and the way on be
      // what the reach does not prove.
      const Reaching* movedBefore = before.moves() ? &before : nullptr;
      if (!stretchClear(movedBefore, previous, &place, point) ||
          !passes(previous, point, beforeAt, at, place, before) ||
          stretchClear(&place, point, nullptr, next))
        continue;
      const FunnelPortal& gate = leg[j];
      const SegmentPart seen = reachSees(graph, place.turn.portal, place.turn.left,
                                         groundOf(gate.left), groundOf(gate.right));
      if (seen.empty()) continue;
      const float along = std::clamp(crossingAlong(point, next, gate), seen.low, seen.high);
      // On the ground of the sector entered, as its cells are: between two
      // cell centres far apart the ground need not be straight.
      glm::vec3 inside = glm::mix(gate.left, gate.right, along);
      inside.y = graph.heightAt(graph.sectors[graph.portals[place.turn.portal].toSector], inside.x,
                                inside.z);
      if (!shorterThrough(point, inside) || !stretchClear(&place, point, nullptr, inside) ||
          !passes(point, inside, at, j, place, none) ||
          !passes(inside, next, j, nextAt, none, none) ||
          !passesOwn(previous, point, inside, at, place))
        continue;
      moveWithTurn(point, k + 1, inside, j);
      if (moved) moved->push_back(uint32_t(k));
      // The turn inside the gate is the next corner: it stays, and the
      // gates answer for the way on from it.
      ++k;
      before = Reaching{};
      turnAdded = true;
    }
    if (turnAdded) continue;
    if (!chosen && candidates > 0 && k + 2 < corners.size()) {
      // Two corners on one side of a narrow sector may each need the other
      // moved first: move them together.
      const glm::vec3 next = corners[k + 2];
      const float walked = groundDistance(previous, corner) +
                           groundDistance(corner, corners[k + 1]) +
                           groundDistance(corners[k + 1], next);
      // The next corner's places, looked up once a first corner's place may serve.
      Reaching after[kMaxPlaces];
      std::optional<size_t> afterCandidates;
      for (size_t c = 0; c < candidates && !chosen; ++c) {
        const Reaching& p = places[c];
        // Through any second place the way is no shorter than straight from
        // p to the corner after (rounding allowed for): the cheapest test first.
        constexpr float kRounding = 1e-5f;
        if (!(groundDistance(previous, p.point) + groundDistance(p.point, next) <
              walked * (1.0f + kRounding)) ||
            !stretchClear(before.moves() ? &before : nullptr, previous, &p, p.point) ||
            !passes(previous, p.point, beforeAt, at, p, before))
          continue;
        if (!afterCandidates)
          afterCandidates = placesOf(graph, leg, legPortals, corners, cornerPortals, k + 1, after);
        for (size_t d = 0; d < *afterCandidates && !chosen; ++d) {
          const Reaching& q = after[d];
          if (p.turn.portal == q.turn.portal && p.turn.left == q.turn.left) continue;
          if (groundDistance(previous, p.point) + groundDistance(p.point, q.point) +
                      groundDistance(q.point, next) <
                  walked &&
              stretchClear(&p, p.point, &q, q.point) && stretchClear(&q, q.point, nullptr, next) &&
              passes(p.point, q.point, at, cornerPortals[k + 1], p, q) &&
              passes(q.point, next, cornerPortals[k + 1], cornerPortals[k + 2], q, none) &&
              passesOwn(previous, p.point, q.point, at, p) &&
              passesOwn(p.point, q.point, next, cornerPortals[k + 1], q)) {
            corners[k] = p.point;
            corners[k + 1] = q.point;
            count += 2;
            if (moved) {
              moved->push_back(uint32_t(k));
              moved->push_back(uint32_t(k + 1));
            }
            before = q;
            chosen = &p;
          }
        }
      }
      if (chosen) {
        ++k;
        continue;
      }
    }
    if (chosen) {
      corners[k] = chosen->point;
      if (chosenLast > k) {
        corners.erase(corners.begin() + std::ptrdiff_t(k + 1));
        mutablePortals->erase(mutablePortals->begin() + std::ptrdiff_t(k + 1));
        cornerPortals = *mutablePortals;
      }
      ++count;
      if (moved) moved->push_back(uint32_t(k));
    }
    before = chosen ? *chosen : Reaching{};
  }
  return count;
}

}  // namespace

size_t reachCorners(const NavGraph& graph, std::span<const FunnelPortal> leg,
                    std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
                    std::span<const uint32_t> cornerPortals, std::vector<uint32_t>* moved) {
  return reach(graph, leg, legPortals, corners, cornerPortals, nullptr, moved);
}

size_t reachCorners(const NavGraph& graph, std::span<const FunnelPortal> leg,
                    std::span<const uint32_t> legPortals, std::vector<glm::vec3>& corners,
                    std::vector<uint32_t>& cornerPortals, std::vector<uint32_t>* moved) {
  return reach(graph, leg, legPortals, corners, cornerPortals, &cornerPortals, moved);
}

}  // namespace nav
