#include "smoothing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "nav/portal_ends.h"

namespace nav {
namespace {

// Slack for points on a region's edge, far below any cell size. [metres]
constexpr float kEdgeSlack = 1e-4f;
// Halvings of a stretch's control arms before it falls back to the straight line.
constexpr int kMaxShrinks = 4;
// Cuts deep while placing a stretch's curve in its sectors (at most 2^depth
// pieces): thin sectors, one cell wide, need pieces shorter than a cell.
constexpr int kMaxProofDepth = 12;

// A convex region of the ground plane (x, z): a sector's rectangle or
// polygon, or the opening between two sectors. Its corners go round it either
// way; two corners make a segment.
class Region {
 public:
  explicit Region(std::vector<glm::vec2> corners) : m_corners(std::move(corners)) {
    // The winding: +1 when the corners turn with cross2 > 0.
    float area = 0.0f;
    for (size_t k = 0; k < m_corners.size(); ++k)
      area += cross2(m_corners[k], m_corners[(k + 1) % m_corners.size()]);
    m_winding = area < 0.0f ? -1.0f : 1.0f;
  }

  bool contains(const glm::vec2& p) const {
    if (m_corners.size() == 2) {
      const glm::vec2 a = m_corners[0], ab = m_corners[1] - a;
      const float length2 = glm::dot(ab, ab);
      const float t = length2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / length2, 0.0f, 1.0f) : 0.0f;
      return glm::distance(a + ab * t, p) <= kEdgeSlack;
    }
    for (size_t k = 0; k < m_corners.size(); ++k) {
      const glm::vec2 a = m_corners[k], edge = m_corners[(k + 1) % m_corners.size()] - a;
      if (m_winding * cross2(edge, p - a) < -kEdgeSlack * glm::length(edge)) return false;
    }
    return true;
  }

  // Distance along `direction` from `origin` to where the ray leaves the region.
  float exitDistance(const glm::vec2& origin, const glm::vec2& direction) const {
    float t = std::numeric_limits<float>::infinity();
    for (size_t k = 0; k < m_corners.size(); ++k) {
      const glm::vec2 a = m_corners[k], edge = m_corners[(k + 1) % m_corners.size()] - a;
      // Inside is where m_winding * cross2(edge, p - a) >= 0.
      const float towards = m_winding * cross2(edge, direction);
      if (towards < 0.0f) t = std::min(t, m_winding * cross2(edge, origin - a) / -towards);
    }
    return t;
  }

 private:
  std::vector<glm::vec2> m_corners;
  float m_winding = 1.0f;
};

Region rectangle(const glm::vec2& min, const glm::vec2& max) {
  return Region({min, {max.x, min.y}, max, {min.x, max.y}});
}

Region groundRegion(const NavGraph& graph, const Sector& sector) {
  if (!sector.polygonal()) return rectangle(groundOf(sector.bounds.min), groundOf(sector.bounds.max));
  std::vector<glm::vec2> corners;
  for (const glm::vec3& corner : graph.cornersOf(sector))
    corners.push_back(groundOf(corner));
  return Region(std::move(corners));
}

// The unit normal of a walk portal's line, pointing the way it is crossed.
glm::vec2 crossingNormal(const NavGraph& graph, const Portal& portal) {
  if (!graph.sectors[portal.fromSector].polygonal()) return walkDirection(portal);
  // Walking along n, the left end lies to the left: cross2(n, left - right) < 0.
  const glm::vec2 e = groundOf(portal.left) - groundOf(portal.right);
  return unitOrZero(glm::vec2(-e.y, e.x));
}

// Where a walk portal lets the unit through. Between rectangles: the portal
// (its cells' centres, or beyond where widened) and half a cell more at each
// end, as far as both sectors reach along the shared edge; it lies in the
// two rectangles' union and, unlike the union, is convex. Between polygons:
// the edge they share.
Region opening(const NavGraph& graph, const Portal& portal) {
  if (graph.sectors[portal.fromSector].polygonal())
    return Region({groundOf(portal.left), groundOf(portal.right)});
  const Aabb& from = graph.sectors[portal.fromSector].bounds;
  const Aabb& to = graph.sectors[portal.toSector].bounds;
  glm::vec2 min = glm::min(groundOf(from.min), groundOf(to.min));
  glm::vec2 max = glm::max(groundOf(from.max), groundOf(to.max));
  const int lateral = walkDirection(portal).x != 0.0f ? 1 : 0;
  const float half = graph.cellSize * 0.5f;
  const float a = groundOf(portal.left)[lateral], b = groundOf(portal.right)[lateral];
  min[lateral] = std::max({std::min(a, b) - half, groundOf(from.min)[lateral],
                           groundOf(to.min)[lateral]});
  max[lateral] = std::min({std::max(a, b) + half, groundOf(from.max)[lateral],
                           groundOf(to.max)[lateral]});
  return rectangle(min, max);
}

// A cubic Bezier in the ground plane.
struct Cubic {
  glm::vec2 p0, c1, c2, p3;

  glm::vec2 at(float t) const {
    const float u = 1.0f - t;
    return u * u * u * p0 + 3.0f * u * u * t * c1 + 3.0f * u * t * t * c2 + t * t * t * p3;
  }
};

// A cubic lies in the convex hull of its control points, and a region is
// convex: all four in one region puts the curve in it.
bool hullIn(const Cubic& curve, const Region& region) {
  return region.contains(curve.p0) && region.contains(curve.c1) && region.contains(curve.c2) &&
         region.contains(curve.p3);
}

// The cubic cut in two at t (de Casteljau).
std::pair<Cubic, Cubic> cutAt(const Cubic& curve, float t) {
  const glm::vec2 a = glm::mix(curve.p0, curve.c1, t), b = glm::mix(curve.c1, curve.c2, t);
  const glm::vec2 c = glm::mix(curve.c2, curve.p3, t), d = glm::mix(a, b, t), e = glm::mix(b, c, t);
  const glm::vec2 cut = glm::mix(d, e, t);
  return {{curve.p0, a, d, cut}, {cut, e, c, curve.p3}};
}

// Where the cubic crosses the line through `point` across `normal`, when its
// ends lie on either side of it, off it (one crossing of perhaps several);
// else 0.5.
float crossingOf(const Cubic& curve, const glm::vec2& point, const glm::vec2& normal) {
  constexpr int kHalvings = 30;
  const auto side = [&](const glm::vec2& p) { return glm::dot(p - point, normal); };
  const float start = side(curve.p0), end = side(curve.p3);
  if (!(start < -kEdgeSlack && end > kEdgeSlack) && !(start > kEdgeSlack && end < -kEdgeSlack))
    return 0.5f;
  float low = 0.0f, high = 1.0f;
  for (int i = 0; i < kHalvings; ++i) {
    const float middle = 0.5f * (low + high);
    if ((side(curve.at(middle)) < 0.0f) == (start < 0.0f))
      low = middle;
    else
      high = middle;
  }
  return 0.5f * (low + high);
}

// Walking between the start, device and waypath ends and the goal.
struct WalkLeg {
  glm::vec3 from{0.0f}, to{0.0f};
  std::vector<uint32_t> sectors;
  /// Walk portals; portals[k] joins sectors[k] and sectors[k + 1].
  std::vector<uint32_t> portals;
};

// The corridor split as funnelLegs splits it, keeping only the walk legs: a
// device, or a waypath ridden from getting on to getting off, ends one.
std::vector<WalkLeg> walkLegs(const NavGraph& graph, const Corridor& corridor) {
  const size_t count = corridor.portals.size();
  if (corridor.sectors.size() != count + 1) return {};
  for (uint32_t sector : corridor.sectors) {
    if (sector >= graph.sectors.size()) return {};
  }
  for (uint32_t portal : corridor.portals) {
    if (!corridor.knows(graph, portal)) return {};
  }
  std::vector<WalkLeg> legs;
  legs.push_back({corridor.start, corridor.goal, {corridor.sectors[0]}, {}});
  for (size_t i = 0; i < count; ++i) {
    const Portal& portal = corridor.portal(graph, i);
    if (portal.kind == PortalKind::Walk) {
      legs.back().portals.push_back(corridor.portals[i]);
      legs.back().sectors.push_back(corridor.sectors[i + 1]);
      continue;
    }
    size_t out = i;
    if (portal.kind == PortalKind::Waypath &&
        graph.sectors[portal.toSector].kind == SectorKind::Waypath && i + 1 < count)
      out = i + 1;  // the getting-off portal
    legs.back().to = graph.entryPoint(portal);
    legs.push_back({graph.exitPoint(corridor.portal(graph, out)),
                    corridor.goal,
                    {corridor.sectors[out + 1]},
                    {}});
    i = out;
  }
  return legs;
}

// A piece of a stretch's curve, from parameter t0 to t1, inside one box (see
// LegSmoother::box).
struct Piece {
  float t0, t1;
  uint32_t box;
};

// Curves one walk leg. Its sectors and the openings between them are convex
// regions ("boxes") in the order the corridor passes them: box 2k is sector
// k's rectangle or polygon, box 2k + 1 the opening of walk portal k (between
// sectors k and k + 1). A curve
// is placed when it runs through boxes in that order, passing from one to a
// later one only at a point inside every box between (so through the
// openings), and every point it gives is assigned the sector it stands in,
// never an earlier one than the point before: its height is that sector's
// ground. Rectangles alone are not enough: sectors at different heights
// overlap on the ground plane (a bridge deck over a road), and a curve inside
// the road's rectangle is off the deck.
class LegSmoother {
 public:
  LegSmoother(const NavGraph& graph, const WalkLeg& leg, const SmoothingOptions& options)
      : m_graph(graph),
        m_leg(leg),
        m_samples(std::max(options.samplesPerSegment, 1u)),
        m_reach(std::clamp(options.controlReach, 0.0f, 0.5f)),
        m_gated(cellsCoverSectors(graph.unit, graph.cellSize)) {
    for (uint32_t sector : leg.sectors)
      m_rects.push_back(groundRegion(graph, graph.sectors[sector]));
    for (uint32_t portal : leg.portals)
      m_openings.push_back(opening(graph, graph.portals[portal]));
  }

  // Appends the curve through `corners` (the leg's, from its start to its end);
  // false, appending nothing, when they are not at the leg's portal ends.
  bool smooth(std::span<const glm::vec3> corners, std::vector<glm::vec3>& out) const {
    const size_t last = corners.size() - 1;
    // Where each corner is: at funnel portal 0 (the leg's start), k (walk
    // portal portals[k - 1]) or n + 1 (the leg's end), on which side of it.
    // Corners are met in portal order; one portal's two gates may both be
    // corners, the one the path leaves first.
    const uint32_t n = uint32_t(m_leg.portals.size());
    std::vector<CornerAt> at(corners.size(), CornerAt{0, Side::OnPortal});
    at[last] = {n + 1, Side::OnPortal};
    CornerAt previous = at[0];
    for (size_t i = 1; i < last; ++i) {
      std::optional<Side> side;
      uint32_t k = std::max(previous.portal, 1u);
      for (; k <= n; ++k) {
        side = sideOf(corners[i], k);
        if (side && (k > previous.portal || *side > previous.side)) break;
        side.reset();
      }
      if (!side) return false;
      at[i] = previous = {k, *side};
    }

    // Tangents: along the first and last stretches at the ends, the turn's
    // bisector at corners (none at a U-turn, which leaves a cusp).
    std::vector<glm::vec2> tangents(corners.size(), glm::vec2(0.0f));
    for (size_t i = 0; i < last; ++i) {
      const glm::vec2 along = unitOrZero(groundOf(corners[i + 1]) - groundOf(corners[i]));
      tangents[i] += along;
      tangents[i + 1] += along;
    }
    for (glm::vec2& tangent : tangents)
      tangent = unitOrZero(tangent);

    // The leg's sector the curve stands in so far: the start's is the first.
    uint32_t sector = 0;
    out.push_back(onGround(corners[0], sector));
    for (size_t i = 0; i < last; ++i)
      stretch(corners[i], corners[i + 1], tangents[i], tangents[i + 1], at[i], at[i + 1], sector,
              out);
    return true;
  }

 private:
  const Region& box(uint32_t index) const {
    return index % 2 == 0 ? m_rects[index / 2] : m_openings[index / 2];
  }

  // The point on the ground of the leg's sector `sector`.
  glm::vec3 onGround(const glm::vec3& p, uint32_t sector) const {
    return {p.x, m_graph.heightAt(m_graph.sectors[m_leg.sectors[sector]], p.x, p.z), p.z};
  }

  // Where a corner at funnel portal k lies: where the path leaves sector
  // k - 1 (a gate of walk portal k on that side), on the portal, or where it
  // enters sector k (the gate on that side).
  enum class Side : int8_t { Leaving = -1, OnPortal = 0, Entering = 1 };
  struct CornerAt {
    uint32_t portal;
    Side side;
  };
  /// The leg's sector a corner stands in, as a stretch leaving it sees it.
  static uint32_t sectorLeaving(const CornerAt& corner) {
    return corner.side == Side::Leaving ? corner.portal - 1 : corner.portal;
  }
  /// The same, as a stretch arriving at it sees it.
  static uint32_t sectorArriving(const CornerAt& corner) {
    return corner.side == Side::Entering ? corner.portal : corner.portal - 1;
  }

  // Whether a corner lies at walk portal k (funnel portal k): at one of its
  // ends, or out past one on its line, up to half a cell, where a corner
  // moved to a widened end or its end's reach (corner_reach.h); through
  // gates, also at a gate's end, half a cell before or after the portal. A
  // point on the portal between its ends is a crossing, not a corner.
  std::optional<Side> sideOf(const glm::vec3& corner, uint32_t k) const {
    const Portal& portal = m_graph.portals[m_leg.portals[k - 1]];
    if (sameGroundPoint(corner, portal.left) || sameGroundPoint(corner, portal.right))
      return Side::OnPortal;
    // Coordinates along the portal's line and across it, from its left end.
    const glm::vec2 normal = crossingNormal(m_graph, portal);
    const glm::vec2 lineward(normal.y, -normal.x);
    const glm::vec2 at = groundOf(corner) - groundOf(portal.left);
    const float along = glm::dot(at, lineward), ahead = glm::dot(at, normal);
    const float half = m_graph.cellSize * 0.5f;
    const float a = 0.0f, b = glm::dot(groundOf(portal.right) - groundOf(portal.left), lineward);
    if (along < std::min(a, b) - half - kEdgeSlack || along > std::max(a, b) + half + kEdgeSlack)
      return std::nullopt;
    if (std::abs(ahead) <= kEdgeSlack) {
      if (along < std::min(a, b) || along > std::max(a, b)) return Side::OnPortal;
      return std::nullopt;
    }
    if (!m_gated || std::abs(std::abs(ahead) - half) > kEdgeSlack) return std::nullopt;
    return ahead < 0.0f ? Side::Leaving : Side::Entering;
  }

  // How far a control arm from `origin` along `direction` may reach, up to
  // `wanted`: through rectangles first..last of the leg, passing from one to
  // the next only through the opening between them. A cubic stays in its
  // control points' hull, so an arm through a wall would drag the curve after
  // it: the arm stops on the first wall it meets instead.
  float reachable(const glm::vec2& origin, const glm::vec2& direction, float wanted, uint32_t first,
                  uint32_t last) const {
    if (!(wanted > 0.0f)) return 0.0f;
    float t = 0.0f;
    const int step = last >= first ? 1 : -1;
    for (int k = int(first);; k += step) {
      t = std::max(t, m_rects[size_t(k)].exitDistance(origin, direction));
      if (t >= wanted) return wanted;
      if (k == int(last)) return t;
      const glm::vec2 exit = origin + direction * t;
      const Region& through = m_openings[size_t(step > 0 ? k : k - 1)];
      if (!m_rects[size_t(k + step)].contains(exit) || !through.contains(exit)) return t;
    }
  }

  // Splits the curve's piece from t0 to t1 into pieces each inside one box,
  // in order from box `at` (which holds its start) to at most `lastBox`,
  // cutting it in two at most `depth` times deep; `at` ends as the last
  // piece's box. Each piece takes the first box that holds it, so the curve
  // stays in a sector as long as it can.
  bool split(const Cubic& curve, float t0, float t1, uint32_t& at, uint32_t lastBox, int depth,
             std::vector<Piece>& pieces) const {
    // Going on in a later box starts where the curve is: inside every box
    // between, or it would jump over a wall or between floors.
    for (uint32_t index = at; index <= lastBox && box(index).contains(curve.p0); ++index) {
      if (hullIn(curve, box(index))) {
        pieces.push_back({t0, t1, index});
        at = index;
        return true;
      }
    }
    if (depth == 0) return false;
    // Cut where it crosses into the next sector, if it does: a curve that
    // crosses at the very end of an opening is inside it only on the portal's line.
    float cut = 0.5f;
    // The portal after box `at`: a rectangle's own, or the next past an opening.
    const uint32_t next = (at + 1) / 2;
    if (2 * (next + 1) <= lastBox) {
      const Portal& portal = m_graph.portals[m_leg.portals[next]];
      cut = crossingOf(curve, groundOf(portal.left), crossingNormal(m_graph, portal));
    }
    const auto [first, second] = cutAt(curve, cut);
    const float middle = glm::mix(t0, t1, cut);
    return split(first, t0, middle, at, lastBox, depth - 1, pieces) &&
           split(second, middle, t1, at, lastBox, depth - 1, pieces);
  }

  // The sector, no earlier than `atLeast`, that p stands in inside box
  // `index`; kNoSector when only an earlier one holds it.
  uint32_t sectorIn(uint32_t index, const glm::vec2& p, uint32_t atLeast) const {
    if (index % 2 == 0) return index / 2 >= atLeast ? index / 2 : kNoSector;
    // An opening lies in the two rectangles it joins.
    const uint32_t before = index / 2;
    if (before >= atLeast && m_rects[before].contains(p)) return before;
    return before + 1 >= atLeast && m_rects[before + 1].contains(p) ? before + 1 : kNoSector;
  }

  // Samples of `curve` after a up to b (at `to`) into `samples`, each on the
  // ground of its sector, `sector` (a's, on entry) ending as b's; false when
  // the curve is not inside the leg's sectors in order.
  bool placeCurve(const Cubic& curve, const glm::vec3& b, const CornerAt& to, uint32_t& sector,
                  std::vector<glm::vec3>& samples) const {
    const uint32_t n = uint32_t(m_leg.portals.size());
    // From a's sector, never beyond the one past b, ending in one b stands
    // in: on its portal, either of the two it joins (the leg's last holds
    // its end); at a gate, the gate's.
    const uint32_t endBox = 2 * sectorArriving(to);
    const uint32_t lastBox = to.side == Side::OnPortal ? 2 * std::min(to.portal, n) : endBox;
    std::vector<Piece> pieces;
    uint32_t at = 2 * sector;
    if (!split(curve, 0.0f, 1.0f, at, lastBox, kMaxProofDepth, pieces)) return false;
    // The last piece may lie in an opening or a rectangle before b's sector:
    // b itself passes on into every later box that holds it.
    while (at < endBox && box(at + 1).contains(groundOf(b)))
      ++at;
    if (at < endBox) return false;
    samples.clear();
    size_t piece = 0;
    uint32_t standing = sector;
    for (uint32_t s = 1; s <= m_samples; ++s) {
      const float t = float(s) / float(m_samples);
      while (piece + 1 < pieces.size() && pieces[piece].t1 < t)
        ++piece;
      const glm::vec2 p = s == m_samples ? groundOf(b) : curve.at(t);
      standing = sectorIn(s == m_samples ? at : pieces[piece].box, p, standing);
      if (standing == kNoSector) return false;  // back over a portal it crossed
      samples.push_back(onGround({p.x, 0.0f, p.y}, standing));
    }
    sector = standing;
    return true;
  }

  // Samples of the funnel's straight line from a (funnel portal `from`) to b
  // (`to`) into `samples`, as placeCurve: the cubic with both arms zero, which
  // runs along the line. The line crosses each portal between within it, so
  // it is in sector k from where it crosses portal k to where it crosses
  // portal k + 1.
  void placeLine(const glm::vec2& a, const glm::vec3& b, uint32_t first, uint32_t last,
                 uint32_t& sector, std::vector<glm::vec3>& samples) const {
    const glm::vec2 p3 = groundOf(b);
    // How far along the line (0 at a, 1 at b) it crosses each portal between
    // a's sector `first` and b's `last`.
    std::vector<float> crossings;
    float previous = 0.0f;
    for (uint32_t k = first + 1; k <= last; ++k) {
      const Portal& portal = m_graph.portals[m_leg.portals[k - 1]];
      const glm::vec2 normal = crossingNormal(m_graph, portal);
      // Along the portal's line (NaN) it is on both sides: crossed at once.
      const float f = glm::dot(groundOf(portal.left) - a, normal) / glm::dot(p3 - a, normal);
      previous = std::clamp(f >= previous ? f : previous, previous, 1.0f);
      crossings.push_back(previous);
    }
    const Cubic line{a, a, p3, p3};
    const glm::vec2 along = p3 - a;
    const float length2 = glm::dot(along, along);
    samples.clear();
    uint32_t crossed = 0;
    for (uint32_t s = 1; s < m_samples; ++s) {
      const glm::vec2 p = line.at(float(s) / float(m_samples));
      const float f = length2 > 0.0f ? glm::dot(p - a, along) / length2 : 0.0f;
      while (crossed < crossings.size() && crossings[crossed] < f)
        ++crossed;
      sector = std::max(sector, first + crossed);
      samples.push_back(onGround({p.x, 0.0f, p.y}, sector));
    }
    sector = std::max(sector, last);
    samples.push_back(onGround(b, sector));
  }

  // Appends the samples of the stretch a -> b after a; a sits at `from`, b
  // at `to` (see smooth), `sector` is a's and becomes b's.
  void stretch(const glm::vec3& a, const glm::vec3& b, const glm::vec2& tangentA,
               const glm::vec2& tangentB, const CornerAt& from, const CornerAt& to,
               uint32_t& sector, std::vector<glm::vec3>& out) const {
    const glm::vec2 p0 = groundOf(a), p3 = groundOf(b);
    const float wanted = m_reach * glm::distance(p0, p3);
    const uint32_t first = sectorLeaving(from), last = sectorArriving(to);
    const float armA = reachable(p0, tangentA, wanted, first, last);
    const float armB = reachable(p3, -tangentB, wanted, last, first);
    // Bent as far as can be shown inside, halving the arms as needed; else the
    // funnel's straight line, which is inside.
    std::vector<glm::vec3> samples;
    float scale = 1.0f;
    for (int attempt = 0; attempt <= kMaxShrinks; ++attempt, scale *= 0.5f) {
      const Cubic bent{p0, p0 + tangentA * armA * scale, p3 - tangentB * armB * scale, p3};
      uint32_t standing = sector;
      if (placeCurve(bent, b, to, standing, samples)) {
        sector = standing;
        out.insert(out.end(), samples.begin(), samples.end());
        return;
      }
    }
    placeLine(p0, b, first, last, sector, samples);
    out.insert(out.end(), samples.begin(), samples.end());
  }

  const NavGraph& m_graph;
  const WalkLeg& m_leg;
  uint32_t m_samples;
  float m_reach;
  /// Paths cross walk portals through gates (funnel.cpp): corners may lie on them.
  bool m_gated;
  std::vector<Region> m_rects;
  /// m_openings[k] joins m_rects[k] and m_rects[k + 1].
  std::vector<Region> m_openings;
};

}  // namespace

std::vector<glm::vec3> smoothPath(const NavGraph& graph, const Corridor& corridor,
                                  std::span<const glm::vec3> corners,
                                  const SmoothingOptions& options) {
  std::vector<glm::vec3> out;
  auto add = [&out](const glm::vec3& p) {
    if (out.empty() || !samePoint(out.back(), p)) out.push_back(p);
  };
  auto find = [&corners](size_t from, const glm::vec3& p) {
    while (from < corners.size() && !samePoint(corners[from], p))
      ++from;
    return from;
  };
  size_t next = 0;  // corners before `next` are out
  for (const WalkLeg& leg : walkLegs(graph, corridor)) {
    const size_t first = find(next > 0 ? next - 1 : 0, leg.from);
    const size_t last = find(first, leg.to);
    if (last >= corners.size()) break;
    // A device's entry and exit, or the waypath points ridden, as they are.
    for (; next < first; ++next)
      add(corners[next]);
    std::vector<glm::vec3> curve;
    const std::span<const glm::vec3> legCorners = corners.subspan(first, last - first + 1);
    if (!LegSmoother(graph, leg, options).smooth(legCorners, curve))
      curve.assign(legCorners.begin(), legCorners.end());
    for (const glm::vec3& p : curve)
      add(p);
    next = last + 1;
  }
  for (; next < corners.size(); ++next)
    add(corners[next]);
  return out;
}

}  // namespace nav
