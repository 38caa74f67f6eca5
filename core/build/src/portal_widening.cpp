// Why the sweeps are enough for what widening adds. A path leaves a widened
// end E through one of the two sectors, towards a point on another of that
// sector's portals or a start or goal among its cell centres, so its stretch
// in the sector lies in a triangle of E and two turn points: that portal's
// ends, or two corners of the cell centres. The triangle's edges are clear:
// the two from E are swept here, and the third is a portal (covered by the
// cells' steps across it) or runs among the cell centres. The unit's footprint
// (a disc or a square) centred in the triangle reaches outside it only within
// a footprint of an edge, which is clear. Inside it, the triangle lies in the
// sector's box, whose every point is within half a cell along both axes of a
// cell centre; while that lies inside the centre's footprint, which holds no
// geometry, the box holds none either. Hence the cell size limit below. The
// funnel's other corners sit on gates (funnelLegs in funnel.h), at cell
// centres, so with the two sweeps to the cell centres' far corners the whole
// hull of E and the sector's cell centres is clear: a corner moved out to E
// (corner_reach.h) may leave it in any direction into either sector.
#include "portal_widening.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <optional>
#include <vector>

#include "candidate_blocks.h"
#include "nav/flood_fill.h"
#include "nav/stand_test.h"
#include "worker_threads.h"

namespace nav {
namespace {

// As the flood fill: the unit's body starts a little above its ground.
constexpr float kGroundClearance = 0.02f;
// A widened end stands on ground no further than this from the portal's height. [metres]
constexpr float kGroundTolerance = 0.05f;
// How far from a sector's heights (NavGraph::heightAt) its ground is looked for. [metres]
constexpr float kPlaneReach = 0.5f;
// A height not looked up yet.
constexpr float kUnknown = std::numeric_limits<float>::infinity();
// Widths tried for each end, longest first, as fractions of half a cell.
constexpr float kFractions[] = {1.0f, 2.0f / 3.0f, 1.0f / 3.0f};
// A reach shorter than this is no reach: the end is already there. [metres]
constexpr float kShortestReach = 1e-3f;
// Directions tried from a reach into a sector, evenly in angle over the half
// plane (the first and last along the portal line are left out), and the
// bisections that then narrow each edge of the clear range.
constexpr int kReachDirections = 8;
constexpr int kReachRefinements = 4;

// How far a stretch from a reach may run outside the cell centres, for a
// footprint (a disc, or a square: centrally symmetric) of this half width
// whose farthest point is `rim` from its centre (half, or half sqrt 2). A
// geometry point g touches the footprint swept along a ray when the
// footprint centred on g meets the ray. Take the footprint centred on a
// point p of a stretch between two neighbouring clear directions, at most
// `length` out, and g in it (at most length + rim out). If g lies outside the
// wedge, the segment pg (inside g's footprint) crosses one of the two rays.
// If inside, g is within (length + rim) sin(step / 2) of one of them, and the
// disc of radius half round g (inside its footprint) meets that ray while
// that is at most half. Either way the ray's sweep, for length + rim, met g.
float reachLength(float half, float rim) {
  return half / std::sin(0.5f * std::numbers::pi_v<float> / float(kReachDirections)) - rim;
}

// The farthest point of the unit's footprint from its centre.
float footprintRim(const UnitProfile& unit, float half) {
  return unit.shape == UnitShape::Round ? half : half * std::numbers::sqrt2_v<float>;
}

class Widener {
 public:
  Widener(NavGraph& graph, const CollisionWorld& world, const std::vector<bool>& walkableTriangles,
          const GroundRaster* ground)
      : m_graph(graph),
        m_world(world),
        m_walkableTriangles(walkableTriangles),
        m_support(ground ? std::optional<FootprintSupport>(std::in_place, *ground, graph.unit)
                         : std::nullopt),
        m_halfFootprint(testedHalfFootprint(graph.unit)),
        m_halfCell(graph.cellSize * 0.5f),
        m_footprintRim(footprintRim(graph.unit, m_halfFootprint)),
        m_reachLength(reachLength(m_halfFootprint, m_footprintRim)),
        m_pieceRise(std::clamp(graph.unit.stepHeight * 0.5f, 0.01f, 0.1f)),
        m_nearSize(1.5f * m_halfCell + 2.0f * m_footprintRim,
                   graph.unit.height + 2.0f * std::max(graph.unit.stepHeight, kPlaneReach),
                   1.5f * m_halfCell + 2.0f * m_footprintRim),
        m_portalsAt(graph.sectors.size()),
        m_endGround(graph.portals.size() * 2, kUnknown),
        m_cornerGround(graph.sectors.size(), {kUnknown, kUnknown, kUnknown, kUnknown}) {
    for (uint32_t p = 0; p < graph.portals.size(); ++p) {
      const Portal& portal = graph.portals[p];
      m_portalsAt[portal.fromSector].push_back(p);
      if (portal.oneWay() || portal.kind != PortalKind::Walk)
        m_portalsAt[portal.toSector].push_back(p);
    }
  }

  // Widens every end it can, then gives the others their reach; empty when
  // cancelled. The same result for any number of threads.
  std::optional<size_t> run(int threads, const BuildControl* control) {
    std::atomic<bool> stopped = false;
    WorkerThreads workers(threads);
    m_near.resize(size_t(workers.threads()));
    // Runs work(p, near) for every p of `portals`, a few at a time on each
    // thread with blocks of its own; false when cancelled.
    const auto inParallel = [&](const std::vector<uint32_t>& portals, auto&& work) {
      // A pair's widening takes about a tenth of a millisecond on a city.
      constexpr size_t kPortalsPerChunk = 4;
      workers.forChunks(portals.size(), kPortalsPerChunk,
                        [&](size_t first, size_t last, size_t slot) {
                          std::unique_ptr<CandidateBlocks>& near = m_near[slot];
                          if (!near) near = makeNearBlocks();
                          for (size_t i = first; i < last && !stopped; ++i)
                            work(portals[i], *near);
                          if (control && control->cancelRequested.load(std::memory_order_relaxed))
                            stopped = true;
                        });
      return !stopped;
    };
    std::vector<uint32_t> pairs, walks;
    for (uint32_t p = 0; p < m_graph.portals.size(); ++p) {
      if (m_graph.portals[p].kind == PortalKind::Walk) walks.push_back(p);
      if (widened(p)) pairs.push_back(p);
    }
    // Every end's ground, so that threads only read what another may need: a
    // one-way portal is a turn point in both its sectors.
    const auto knowGrounds = [&](uint32_t p, CandidateBlocks& near) {
      endOnGround(p, true, near);
      endOnGround(p, false, near);
    };
    if (!inParallel(walks, knowGrounds)) return std::nullopt;
    // A pair's move is checked against the ends of the portals at its two
    // sectors as they are then. Waves: each pair, in portal order, joins the
    // first wave in which neither of its sectors has a pair yet; the pairs of
    // one wave share no sector, so they neither move nor cache what another
    // reads, and waves go one after the other. The result is the same for any
    // number of threads.
    std::vector<std::vector<uint32_t>> wavesAt(m_graph.sectors.size());
    std::vector<std::vector<uint32_t>> waves;
    for (const uint32_t p : pairs) {
      const Portal& portal = m_graph.portals[p];
      std::vector<uint32_t>& from = wavesAt[portal.fromSector];
      std::vector<uint32_t>& to = wavesAt[portal.toSector];
      uint32_t wave = 0;
      while (std::find(from.begin(), from.end(), wave) != from.end() ||
             std::find(to.begin(), to.end(), wave) != to.end())
        ++wave;
      if (wave == waves.size()) waves.emplace_back();
      waves[wave].push_back(p);
      from.push_back(wave);
      to.push_back(wave);
    }
    // Where an end could not move for every path, it may still for some: its
    // reach. A reach asks only of its own pair's ends and of the level, so it
    // is worked out as soon as the pair has moved, on the stands just tried.
    m_graph.reach.assign(m_graph.portals.size() * 2, PortalEndReach{});
    std::vector<uint8_t> movedEnds(m_graph.portals.size(), 0);
    for (const std::vector<uint32_t>& wave : waves) {
      const bool done = inParallel(wave, [&](uint32_t p, CandidateBlocks& near) {
        TriedStands left, right;
        movedEnds[p] =
            uint8_t(int(widenEnd(p, true, left, near)) + int(widenEnd(p, false, right, near)));
        reachEnd(p, true, left, near);
        reachEnd(p, false, right, near);
      });
      if (!done) return std::nullopt;
    }
    return size_t(std::accumulate(movedEnds.begin(), movedEnds.end(), size_t(0)));
  }

 private:
  // Whether portal p is the first of a walk pair both ways, whose ends widening moves.
  bool widened(uint32_t p) const {
    const Portal& portal = m_graph.portals[p];
    return portal.kind == PortalKind::Walk && !portal.oneWay() && portal.reverse >= p;
  }

  // Along a portal, going out past one of its ends.
  struct Outward {
    /// Walking direction of the crossing, and outward along the portal past the end.
    glm::vec2 walk, out;
    /// The ground axis along the portal (0: x, 1: z), and how far along it both
    /// sectors' boxes reach.
    int lateral;
    float low, high;
  };

  Outward outwardOf(const Portal& portal, bool left) const {
    Outward o;
    o.walk = walkDirection(portal);
    o.out = outwardAlong(portal, left);
    o.lateral = o.walk.x != 0.0f ? 1 : 0;
    const Aabb& from = m_graph.sectors[portal.fromSector].bounds;
    const Aabb& to = m_graph.sectors[portal.toSector].bounds;
    o.low = std::max(groundOf(from.min)[o.lateral], groundOf(to.min)[o.lateral]);
    o.high = std::min(groundOf(from.max)[o.lateral], groundOf(to.max)[o.lateral]);
    return o;
  }

  // The end moved out by `fraction` of half a cell, kept within both sectors:
  // a full half cell lands on the edge exactly, not a rounding beyond it.
  glm::vec3 movedOut(const glm::vec3& end, const Outward& o, float fraction) const {
    glm::vec2 at = groundOf(end) + o.out * (fraction * m_halfCell);
    at[o.lateral] = std::clamp(at[o.lateral], o.low, o.high);
    return {at.x, end.y, at.y};
  }

  // Where the unit stood, or not, at the widths tried for one end.
  struct TriedStands {
    struct Stand {
      glm::vec3 at;
      std::optional<glm::vec3> ground;
    };
    std::array<Stand, std::size(kFractions)> stands;
    size_t count = 0;
  };

  // standing(at), remembered in `tried`: the reach of an end that did not move
  // tries the points its widening tried.
  std::optional<glm::vec3> standing(const glm::vec3& at, TriedStands& tried,
                                    CandidateBlocks& near) const {
    for (size_t i = 0; i < tried.count; ++i) {
      if (tried.stands[i].at == at) return tried.stands[i].ground;
    }
    const std::optional<glm::vec3> ground = standing(at, near);
    if (tried.count < tried.stands.size()) tried.stands[tried.count++] = {at, ground};
    return ground;
  }

  // Moves one end of portal p (its left end, or its right) and the same end of
  // its reverse, if the unit fits there. True when it moved.
  bool widenEnd(uint32_t p, bool left, TriedStands& tried, CandidateBlocks& near) {
    Portal& portal = m_graph.portals[p];
    const glm::vec3 end = left ? portal.left : portal.right;
    const Outward outward = outwardOf(portal, left);
    std::optional<Blocker> blocker;
    for (const float fraction : kFractions) {
      const glm::vec3 at = movedOut(end, outward, fraction);
      if (!fits(p, left, at, blocker, tried, near)) continue;
      Portal& back = m_graph.portals[portal.reverse];
      // The reverse sees the same edge from the other side: its right end is this left end.
      glm::vec3& mirror = left ? back.right : back.left;
      (left ? portal.left : portal.right) = at;
      mirror = glm::vec3(at.x, mirror.y, at.z);
      m_endGround[portalEndIndex(p, left)] = kUnknown;
      m_endGround[portalEndIndex(portal.reverse, !left)] = kUnknown;
      return true;
    }
    return false;
  }

  // Where the unit stands at `at`, supported as in the fill, on ground near the
  // portal's height: the ground point, or none.
  std::optional<glm::vec3> standing(const glm::vec3& at, CandidateBlocks& near) const {
    const StandResult stand =
        tryStandNear(m_world, m_graph.unit, groundOf(at), at.y, kGroundTolerance,
                     m_walkableTriangles, m_support ? &*m_support : nullptr, &near);
    if (!stand.ok) return std::nullopt;
    return glm::vec3(at.x, stand.y, at.z);
  }

  // The reach of one end of portal p that widening left short of a full half
  // cell (PortalEndReach): as far out as the unit stands and some directions
  // are clear, written for p and, mirrored, for its reverse.
  void reachEnd(uint32_t p, bool left, TriedStands& tried, CandidateBlocks& near) {
    const Portal& portal = m_graph.portals[p];
    const glm::vec3 end = left ? portal.left : portal.right;
    const Outward outward = outwardOf(portal, left);
    std::optional<glm::vec3> previous;
    for (const float fraction : kFractions) {
      const glm::vec3 at = movedOut(end, outward, fraction);
      if (glm::distance(groundOf(at), groundOf(end)) < kShortestReach) return;
      // Clamped to the sectors' edge, a shorter width can land where a longer one did.
      if (previous && *previous == at) continue;
      previous = at;
      const std::optional<glm::vec3> ground = standing(at, tried, near);
      if (!ground || !sweepIsClear(*ground, endOnGround(p, !left, near), near)) continue;
      PortalEndReach reach;
      reach.point = at;
      reach.length = m_reachLength;
      const uint32_t sectors[2] = {portal.fromSector, portal.toSector};
      for (int side = 0; side < 2; ++side) {
        const glm::vec2 into = side == 0 ? -outward.walk : outward.walk;
        clearRange(*ground, outward.out, into, sectors[side], reach.outwardMin[side],
                   reach.outwardMax[side], near, portal.left == portal.right);
      }
      if (!reach.reaches()) continue;
      m_graph.reach[portalEndIndex(p, left)] = reach;
      // The reverse crosses from the other sector, and its right end is this left end.
      const Portal& back = m_graph.portals[portal.reverse];
      PortalEndReach& mirror = m_graph.reach[portalEndIndex(portal.reverse, !left)];
      mirror.point = glm::vec3(at.x, (left ? back.right : back.left).y, at.z);
      mirror.length = reach.length;
      for (int side = 0; side < 2; ++side) {
        mirror.outwardMin[side] = reach.outwardMin[1 - side];
        mirror.outwardMax[side] = reach.outwardMax[1 - side];
      }
      return;
    }
  }

  // The directions from `ground` into sector s whose stretches are clear, as
  // the range of their dot products with `out`. Directions are tried by angle
  // from `out` (0) through `into` (a right angle) round to -out; the range is
  // the run of clear ones around `into`, its edges narrowed by bisection.
  // Where `into` itself is blocked (a wall's end just beside the way straight
  // in) the longest run elsewhere serves: the wedge argument (reachLength)
  // holds between any two neighbouring clear directions. Not at a one-point
  // portal (a one-cell sector's side): the exact search's turns there, with
  // such a run, came out longer than the default search's paths
  // (navscope_check_exact, terrain 1, round unit: 5 of 1,000 pairs).
  void clearRange(const glm::vec3& ground, const glm::vec2& out, const glm::vec2& into, uint32_t s,
                  float& outwardMin, float& outwardMax, CandidateBlocks& near,
                  bool onePoint) const {
    const auto clearAt = [&](float angle) {
      return rayIsClear(ground, std::cos(angle) * out + std::sin(angle) * into, s, near);
    };
    const float step = std::numbers::pi_v<float> / float(kReachDirections);
    const int middle = kReachDirections / 2;
    int first = middle, last = middle;
    if (clearAt(float(middle) * step)) {
      while (first > 1 && clearAt(float(first - 1) * step))
        --first;
      while (last < kReachDirections - 1 && clearAt(float(last + 1) * step))
        ++last;
    } else if (onePoint || !longestClearRun(clearAt, step, first, last)) {
      return;
    }
    // Each edge: a clear angle and the blocked (or untried) one past it.
    float lowClear = float(first) * step, lowBlocked = float(first - 1) * step;
    float highClear = float(last) * step, highBlocked = float(last + 1) * step;
    for (int i = 0; i < kReachRefinements; ++i) {
      const float low = 0.5f * (lowClear + lowBlocked), high = 0.5f * (highClear + highBlocked);
      (clearAt(low) ? lowClear : lowBlocked) = low;
      (clearAt(high) ? highClear : highBlocked) = high;
    }
    // The dot product with `out` is the cosine of the angle, falling as it grows.
    outwardMin = std::cos(highClear);
    outwardMax = std::cos(lowClear);
  }

  // The longest run of clear directions other than the middle one (blocked)
  // into [first, last]; on a tie, the run nearer the middle. False when none is clear.
  template <typename ClearAt>
  static bool longestClearRun(const ClearAt& clearAt, float step, int& first, int& last) {
    const int middle = kReachDirections / 2;
    int bestLength = 0, bestDistance = 0;
    int runStart = 0;
    for (int i = 1; i <= kReachDirections; ++i) {
      const bool clear = i < kReachDirections && i != middle && clearAt(float(i) * step);
      if (clear) {
        if (runStart == 0) runStart = i;
        continue;
      }
      if (runStart == 0) continue;
      const int length = i - runStart;
      const int distance = runStart > middle ? runStart - middle : middle - (i - 1);
      if (length > bestLength || (length == bestLength && distance < bestDistance)) {
        bestLength = length;
        bestDistance = distance;
        first = runStart;
        last = i - 1;
      }
      runStart = 0;
    }
    return bestLength > 0;
  }

  // The stretch from `ground` in `direction` into sector s, as far as a
  // stretch from a reach is let run outside the cell centres (m_reachLength)
  // and the footprint's rim more (see reachLength), past the sector's edge
  // too: a stretch between two neighbouring rays may run along that edge
  // further than the ray nearer it stays inside, and the wedge argument
  // needs each ray swept as far as the stretch runs.
  bool rayIsClear(const glm::vec3& ground, const glm::vec2& direction, uint32_t s,
                  CandidateBlocks& near) const {
    const Sector& sector = m_graph.sectors[s];
    const glm::vec2 end = groundOf(ground) + direction * (m_reachLength + m_footprintRim);
    const float plane = m_graph.heightAt(sector, end.x, end.y);
    const StandResult stand = tryStand(m_world, m_graph.unit, end, plane - kPlaneReach,
                                       plane + kPlaneReach, m_walkableTriangles, nullptr, &near);
    return sweepIsClear(ground, glm::vec3(end.x, stand.ok ? stand.y : plane, end.y), near);
  }

  // A turn point whose sweep was blocked, in its sector.
  struct Blocker {
    glm::vec3 point;
    uint32_t sector;
  };

  // Whether the unit fits at `at`, moved out from an end of portal p: it
  // stands there, and what it sweeps to every turn point of both sectors
  // touches nothing. `blocker`, from a try further out, is swept first (it
  // most likely blocks again) and is set to the turn point that blocked.
  bool fits(uint32_t p, bool left, const glm::vec3& at, std::optional<Blocker>& blocker,
            TriedStands& tried, CandidateBlocks& near) const {
    const std::optional<glm::vec3> standingAt = standing(at, tried, near);
    if (!standingAt) return false;
    const glm::vec3& ground = *standingAt;
    const Portal& portal = m_graph.portals[p];
    if (!sweepIsClear(ground, endOnGround(p, !left, near), near)) return false;
    if (blocker && !sweepOutsideCellsIsClear(ground, blocker->point, blocker->sector, near))
      return false;
    for (const uint32_t sector : {portal.fromSector, portal.toSector}) {
      const bool clear = allTurnPoints(sector, p, near, [&](const glm::vec3& point) {
        if (sweepOutsideCellsIsClear(ground, point, sector, near)) return true;
        blocker = Blocker{point, sector};
        return false;
      });
      if (!clear) return false;
    }
    return true;
  }

  // Where a sweep crosses the rectangle of a sector's cell centres, every
  // footprint on it lies among the cells' own (cells are at most a footprint
  // apart), which hold no geometry: only the rest needs sweeping, a short
  // stretch at each end for the long ways across big sectors.
  bool sweepOutsideCellsIsClear(const glm::vec3& from, const glm::vec3& to, uint32_t s,
                                CandidateBlocks& near) const {
    const Aabb& bounds = m_graph.sectors[s].bounds;
    const glm::vec2 low = groundOf(bounds.min) + m_halfCell,
                    high = groundOf(bounds.max) - m_halfCell;
    const glm::vec2 start = groundOf(from), along = groundOf(to) - start;
    // The part of the segment inside the rectangle: [enter, leave] (slab clipping).
    float enter = 0.0f, leave = 1.0f;
    for (int axis = 0; axis < 2 && enter <= leave; ++axis) {
      if (along[axis] == 0.0f) {
        if (start[axis] < low[axis] || start[axis] > high[axis]) leave = -1.0f;
        continue;
      }
      const float t0 = (low[axis] - start[axis]) / along[axis];
      const float t1 = (high[axis] - start[axis]) / along[axis];
      enter = std::max(enter, std::min(t0, t1));
      leave = std::min(leave, std::max(t0, t1));
    }
    if (!(enter < leave)) return sweepIsClear(from, to, near);
    return (enter <= 0.0f || sweepIsClear(from, glm::mix(from, to, enter), near)) &&
           (leave >= 1.0f || sweepIsClear(glm::mix(from, to, leave), to, near));
  }

  // Where the unit rests at ground point p, as the fill would have it (the
  // highest ground under its footprint), near height y; y itself if it cannot stand.
  float supportAt(glm::vec2 p, float y, CandidateBlocks& near) const {
    const UnitProfile& unit = m_graph.unit;
    const StandResult stand = tryStand(m_world, unit, p, y - unit.stepHeight, y + unit.stepHeight,
                                       m_walkableTriangles, nullptr, &near);
    return stand.ok ? stand.y : y;
  }

  // A portal's end at the unit's resting height (remembered: each is asked often).
  glm::vec3 endOnGround(uint32_t portal, bool left, CandidateBlocks& near) const {
    const Portal& at = m_graph.portals[portal];
    const glm::vec3& end = left ? at.left : at.right;
    float& ground = m_endGround[portalEndIndex(portal, left)];
    if (ground == kUnknown) ground = supportAt(groundOf(end), end.y, near);
    return {end.x, ground, end.z};
  }

  // The points a path through the sector can turn at, but for portal p's (and
  // its reverse's) own ends: the corners of its cell centres and the ends of
  // its other portals, until visit returns false. False when it did.
  template <class Visit>
  bool allTurnPoints(uint32_t s, uint32_t p, CandidateBlocks& near, Visit&& visit) const {
    const Sector& sector = m_graph.sectors[s];
    const glm::vec2 low = groundOf(sector.bounds.min) + m_halfCell;
    const glm::vec2 high = groundOf(sector.bounds.max) - m_halfCell;
    const std::array<glm::vec2, 4> corners = {low, high, glm::vec2(low.x, high.y),
                                              glm::vec2(high.x, low.y)};
    for (size_t c = 0; c < corners.size(); ++c) {
      // The sector's heights are its cells' resting heights; the ground the
      // unit finds there, near them.
      float& ground = m_cornerGround[s][c];
      if (ground == kUnknown) {
        const float plane = m_graph.heightAt(sector, corners[c].x, corners[c].y);
        const StandResult stand =
            tryStand(m_world, m_graph.unit, corners[c], plane - kPlaneReach, plane + kPlaneReach,
                     m_walkableTriangles, nullptr, &near);
        ground = stand.ok ? stand.y : plane;
      }
      if (!visit(glm::vec3(corners[c].x, ground, corners[c].y))) return false;
    }
    const uint32_t reverse = m_graph.portals[p].reverse;
    for (const uint32_t q : m_portalsAt[s]) {
      const Portal& portal = m_graph.portals[q];
      if (portal.kind != PortalKind::Walk) {
        const glm::vec3 point =
            portal.fromSector == s ? m_graph.entryPoint(portal) : m_graph.exitPoint(portal);
        if (!visit(glm::vec3(point.x, supportAt(groundOf(point), point.y, near), point.z)))
          return false;
        continue;
      }
      if (q == p || q == reverse) continue;
      if (!visit(endOnGround(q, true, near)) || !visit(endOnGround(q, false, near))) return false;
    }
    return true;
  }

  // Between two resting heights on a slope, the body's band moves with the
  // ground: swept in pieces (m_pieceRise), each from just above its higher end
  // (on a plane no ground under the sweep is higher) to a body's height above it.
  bool sweepIsClear(const glm::vec3& from, const glm::vec3& to, CandidateBlocks& near) const {
    const int pieces = std::max(1, int(std::ceil(std::abs(to.y - from.y) / m_pieceRise)));
    for (int i = 0; i < pieces; ++i) {
      if (!pieceIsClear(glm::mix(from, to, float(i) / float(pieces)),
                        glm::mix(from, to, float(i + 1) / float(pieces)), near))
        return false;
    }
    return true;
  }

  bool pieceIsClear(const glm::vec3& from, const glm::vec3& to, CandidateBlocks& near) const {
    const float top = std::max(from.y, to.y);
    const float low = top + kGroundClearance, high = top + m_graph.unit.height;
    thread_local std::vector<uint32_t> candidates;
    if (m_graph.unit.shape == UnitShape::Round) {
      const Stadium sweep{groundOf(from), groundOf(to), m_halfFootprint, low, high};
      near.candidatesInBox(sweep.bounds(), candidates);
      return !m_world.overlapsStadium(sweep, candidates);
    }
    const Prism sweep =
        Prism::sweptSquare(groundOf(from), groundOf(to), m_halfFootprint, low, high);
    near.candidatesInBox(sweep.bounds(), candidates);
    return !m_world.overlapsPrism(sweep, candidates);
  }

  // Blocks of 8 x 8 cells round the ends, each serving the queries whose boxes
  // start in it and are no bigger than m_nearSize.
  std::unique_ptr<CandidateBlocks> makeNearBlocks() const {
    constexpr float kBlockCells = 8.0f;
    return std::make_unique<CandidateBlocks>(
        m_world, m_world.bounds().min,
        glm::vec3(kBlockCells * m_graph.cellSize, m_graph.unit.height,
                  kBlockCells * m_graph.cellSize),
        m_nearSize);
  }

  NavGraph& m_graph;
  const CollisionWorld& m_world;
  const std::vector<bool>& m_walkableTriangles;
  /// Ground's support for the unit, when widened ends must stand on ground.
  std::optional<FootprintSupport> m_support;
  /// The disc's radius, or half the square's side.
  float m_halfFootprint;
  float m_halfCell;
  /// The footprint's farthest point from its centre, and how far a stretch
  /// from a reach may run outside the cell centres (reachLength).
  float m_footprintRim;
  float m_reachLength;
  /// Sweeps between turn points at different heights go in pieces rising at
  /// most this: the lowest part of the body a piece leaves out is a rise the
  /// unit would step onto anyway. [metres]
  float m_pieceRise;
  /// The biggest query box the blocks serve (larger ones walk the tree): the
  /// unit standing anywhere in the window a stand looks in, or a sweep of
  /// less than a cell.
  glm::vec3 m_nearSize;
  /// Per sector: its outgoing portals, and the one-way and non-walk portals into it.
  std::vector<std::vector<uint32_t>> m_portalsAt;
  /// Resting heights of portal ends (portalEndIndex) and of sectors' corner cells, found when first
  /// asked.
  mutable std::vector<float> m_endGround;
  mutable std::vector<std::array<float, 4>> m_cornerGround;
  /// Per thread slot (WorkerThreads): the triangles near the ends it works on.
  std::vector<std::unique_ptr<CandidateBlocks>> m_near;
};

}  // namespace

std::optional<size_t> widenPortals(NavGraph& graph, const CollisionWorld& world,
                                   const std::vector<bool>& walkableTriangles,
                                   const GroundRaster* ground, int threads,
                                   const BuildControl* control) {
  if (!cellsCoverSectors(graph.unit, graph.cellSize)) return 0;
  return Widener(graph, world, walkableTriangles, ground).run(std::clamp(threads, 1, 64), control);
}

void spanSharedEdges(NavGraph& graph) {
  for (Portal& portal : graph.portals) {
    if (portal.kind != PortalKind::Walk) continue;
    // The axis along the portal (x for a crossing along z, else z).
    const int lateral = kDirectionDx[int(portal.direction)] != 0 ? 2 : 0;
    const Aabb& from = graph.sectors[portal.fromSector].bounds;
    const Aabb& to = graph.sectors[portal.toSector].bounds;
    glm::vec3 low = portal.left, high = portal.right;
    low[lateral] = std::max(from.min[lateral], to.min[lateral]);
    high[lateral] = std::min(from.max[lateral], to.max[lateral]);
    // Left and right seen walking across (as compressCells orders them): a
    // portal one cell wide was a single point, which says nothing.
    const bool lowIsLeft = cross2(walkDirection(portal), groundOf(low) - groundOf(high)) <= 0.0f;
    portal.left = lowIsLeft ? low : high;
    portal.right = lowIsLeft ? high : low;
  }
}

}  // namespace nav
