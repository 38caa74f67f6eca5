#include "nav/smoothing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nav {
namespace {

// Slack for points on a rectangle's edge, far below any cell size. [metres]
constexpr float kEdgeSlack = 1e-4f;
// Halvings of a stretch's control arms before it falls back to the straight line.
constexpr int kMaxShrinks = 4;
// Subdivisions while proving a stretch inside (at most 2^depth pieces).
constexpr int kMaxProofDepth = 8;

// An axis-aligned rectangle in the ground plane (x, z).
struct Box {
  glm::vec2 min, max;
  bool contains(const glm::vec2& p) const {
    return p.x >= min.x - kEdgeSlack && p.x <= max.x + kEdgeSlack && p.y >= min.y - kEdgeSlack &&
           p.y <= max.y + kEdgeSlack;
  }
};

Box groundBox(const Sector& sector) {
  return {groundOf(sector.bounds.min), groundOf(sector.bounds.max)};
}

// Where a walk portal lets the unit through: the portal (its cells' centres,
// or beyond where widened) and half a cell more at each end, as far as both
// sectors reach along the shared edge. It lies in the two rectangles' union
// and, unlike the union, is convex.
Box opening(const NavGraph& graph, const Portal& portal) {
  const Box from = groundBox(graph.sectors[portal.fromSector]);
  const Box to = groundBox(graph.sectors[portal.toSector]);
  Box box{glm::min(from.min, to.min), glm::max(from.max, to.max)};
  const bool crossesX =
      portal.direction == Direction::PlusX || portal.direction == Direction::MinusX;
  const int lateral = crossesX ? 1 : 0;
  const float half = graph.cellSize * 0.5f;
  const float a = groundOf(portal.left)[lateral], b = groundOf(portal.right)[lateral];
  box.min[lateral] = std::max({std::min(a, b) - half, from.min[lateral], to.min[lateral]});
  box.max[lateral] = std::min({std::max(a, b) + half, from.max[lateral], to.max[lateral]});
  return box;
}

// Distance along `direction` from `origin` to where the ray leaves `box`.
float exitDistance(const Box& box, const glm::vec2& origin, const glm::vec2& direction) {
  float t = std::numeric_limits<float>::infinity();
  for (int axis = 0; axis < 2; ++axis) {
    if (direction[axis] > 0.0f) t = std::min(t, (box.max[axis] - origin[axis]) / direction[axis]);
    if (direction[axis] < 0.0f) t = std::min(t, (box.min[axis] - origin[axis]) / direction[axis]);
  }
  return t;
}

// A cubic Bezier in the ground plane.
struct Cubic {
  glm::vec2 p0, c1, c2, p3;

  glm::vec2 at(float t) const {
    const float u = 1.0f - t;
    return u * u * u * p0 + 3.0f * u * u * t * c1 + 3.0f * u * t * t * c2 + t * t * t * p3;
  }
};

// A cubic lies in the convex hull of its control points, and a rectangle is
// convex: all four in one box puts the curve in it. Halving (de Casteljau)
// shrinks the hulls onto the curve until each fits a box, or gives up.
bool provenInside(const Cubic& curve, std::span<const Box> boxes, int depth) {
  for (const Box& box : boxes) {
    if (box.contains(curve.p0) && box.contains(curve.c1) && box.contains(curve.c2) &&
        box.contains(curve.p3))
      return true;
  }
  if (depth == 0) return false;
  const glm::vec2 a = (curve.p0 + curve.c1) * 0.5f, b = (curve.c1 + curve.c2) * 0.5f;
  const glm::vec2 c = (curve.c2 + curve.p3) * 0.5f, d = (a + b) * 0.5f, e = (b + c) * 0.5f;
  const glm::vec2 middle = (d + e) * 0.5f;
  return provenInside({curve.p0, a, d, middle}, boxes, depth - 1) &&
         provenInside({middle, e, c, curve.p3}, boxes, depth - 1);
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

class LegSmoother {
 public:
  LegSmoother(const NavGraph& graph, const WalkLeg& leg, const SmoothingOptions& options)
      : m_graph(graph),
        m_leg(leg),
        m_samples(std::max(options.samplesPerSegment, 1u)),
        m_reach(std::clamp(options.controlReach, 0.0f, 0.5f)) {
    for (uint32_t sector : leg.sectors)
      m_rects.push_back(groundBox(graph.sectors[sector]));
    for (uint32_t portal : leg.portals)
      m_openings.push_back(opening(graph, graph.portals[portal]));
  }

  // Appends the curve through `corners` (the leg's, from its start to its end);
  // false, appending nothing, when they are not at the leg's portal ends.
  bool smooth(std::span<const glm::vec3> corners, std::vector<glm::vec3>& out) const {
    const size_t last = corners.size() - 1;
    // Funnel portal of each corner: 0 the leg's start, k the walk portal
    // portals[k - 1], n + 1 the leg's end. Corners are met in portal order.
    const uint32_t n = uint32_t(m_leg.portals.size());
    std::vector<uint32_t> portalOf(corners.size(), 0);
    portalOf[last] = n + 1;
    uint32_t next = 1;
    for (size_t i = 1; i < last; ++i) {
      while (next <= n && !atPortalEnd(corners[i], next))
        ++next;
      if (next > n) return false;
      portalOf[i] = next++;
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

    out.push_back(corners[0]);
    for (size_t i = 0; i < last; ++i)
      stretch(corners[i], corners[i + 1], tangents[i], tangents[i + 1], portalOf[i],
              portalOf[i + 1], out);
    return true;
  }

 private:
  // At one of the portal's ends, or out past one on its line, within its
  // opening, where a corner moved to its end's reach (corner_reach.h). A
  // point between the ends is a crossing, not a corner.
  bool atPortalEnd(const glm::vec3& corner, uint32_t funnelPortal) const {
    const Portal& portal = m_graph.portals[m_leg.portals[funnelPortal - 1]];
    if (sameGroundPoint(corner, portal.left) || sameGroundPoint(corner, portal.right)) return true;
    const int across =
        portal.direction == Direction::PlusX || portal.direction == Direction::MinusX ? 0 : 1;
    const glm::vec2 at = groundOf(corner);
    const float a = groundOf(portal.left)[1 - across], b = groundOf(portal.right)[1 - across];
    const bool pastAnEnd = at[1 - across] < std::min(a, b) || at[1 - across] > std::max(a, b);
    return pastAnEnd && std::abs(at[across] - groundOf(portal.left)[across]) <= kEdgeSlack &&
           m_openings[funnelPortal - 1].contains(at);
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
      t = std::max(t, exitDistance(m_rects[size_t(k)], origin, direction));
      if (t >= wanted) return wanted;
      if (k == int(last)) return t;
      const glm::vec2 exit = origin + direction * t;
      const Box& through = m_openings[size_t(step > 0 ? k : k - 1)];
      if (!m_rects[size_t(k + step)].contains(exit) || !through.contains(exit)) return t;
    }
  }

  // Appends the samples of the stretch a -> b after a; a sits at funnel portal
  // `from`, b at `to` (see smooth).
  void stretch(const glm::vec3& a, const glm::vec3& b, const glm::vec2& tangentA,
               const glm::vec2& tangentB, uint32_t from, uint32_t to,
               std::vector<glm::vec3>& out) const {
    const uint32_t n = uint32_t(m_leg.portals.size());
    // The stretch runs through rectangles from..to-1; a neighbour on either
    // side and the openings at both ends let it graze a corner's edge.
    const uint32_t firstRect = from > 0 ? from - 1 : 0, lastRect = std::min(to, n);
    std::vector<Box> boxes(m_rects.begin() + firstRect, m_rects.begin() + lastRect + 1);
    for (uint32_t k = std::max(from, 1u); k <= std::min(to, n); ++k)
      boxes.push_back(m_openings[k - 1]);

    const glm::vec2 p0 = groundOf(a), p3 = groundOf(b);
    const float wanted = m_reach * glm::distance(p0, p3);
    const float armA = reachable(p0, tangentA, wanted, from, to - 1);
    const float armB = reachable(p3, -tangentB, wanted, to - 1, from);
    // Bent as far as can be proven inside, halving the arms as needed; else the
    // funnel's straight line, which is inside.
    Cubic curve{p0, p0, p3, p3};
    float scale = 1.0f;
    for (int attempt = 0; attempt <= kMaxShrinks; ++attempt, scale *= 0.5f) {
      const Cubic bent{p0, p0 + tangentA * armA * scale, p3 - tangentB * armB * scale, p3};
      if (provenInside(bent, boxes, kMaxProofDepth)) {
        curve = bent;
        break;
      }
    }

    for (uint32_t s = 1; s < m_samples; ++s) {
      const float t = float(s) / float(m_samples);
      const glm::vec2 p = curve.at(t);
      const float height = groundHeight(p, glm::mix(a.y, b.y, t), firstRect, lastRect);
      out.push_back({p.x, height, p.y});
    }
    out.push_back(b);
  }

  // The ground under p: of the stretch's sectors holding it, the one nearest
  // `expected` (where floors overlap); `expected` where none does.
  float groundHeight(const glm::vec2& p, float expected, uint32_t firstRect,
                     uint32_t lastRect) const {
    float best = expected, bestGap = std::numeric_limits<float>::infinity();
    for (uint32_t k = firstRect; k <= lastRect; ++k) {
      if (!m_rects[k].contains(p)) continue;
      const float height = m_graph.heightAt(m_graph.sectors[m_leg.sectors[k]], p.x, p.y);
      if (std::abs(height - expected) < bestGap) {
        best = height;
        bestGap = std::abs(height - expected);
      }
    }
    return best;
  }

  const NavGraph& m_graph;
  const WalkLeg& m_leg;
  uint32_t m_samples;
  float m_reach;
  std::vector<Box> m_rects;
  /// m_openings[k] joins m_rects[k] and m_rects[k + 1].
  std::vector<Box> m_openings;
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
