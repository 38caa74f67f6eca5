#include "nav/funnel.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "corner_reach.h"
#include "nav/portal_ends.h"

namespace nav {

const char* toString(FunnelEvent event) {
  switch (event) {
    case FunnelEvent::Start:
      return "start";
    case FunnelEvent::TightenLeft:
      return "tighten left";
    case FunnelEvent::TightenRight:
      return "tighten right";
    case FunnelEvent::Skip:
      return "skip";
    case FunnelEvent::CornerLeft:
      return "corner left";
    case FunnelEvent::CornerRight:
      return "corner right";
    case FunnelEvent::Restart:
      return "restart";
    case FunnelEvent::Reach:
      return "reach";
    case FunnelEvent::Goal:
      return "goal";
  }
  return "unknown";
}

namespace {

// In over `in` and straight back out over `out` on the same line: where the
// two overlap, as one portal keeping the first one's sides, or, past a gap
// between them (a wall's end), each one's end nearest the other.
std::vector<FunnelPortal> alongTheEdge(const Portal& in, const Portal& out) {
  const auto [low, high] = overlapAlongTheEdge(in, out);
  if (low <= high) {
    const glm::vec3 a = pointAlongTheEdge(in, low), b = pointAlongTheEdge(in, high);
    const bool aIsLeft =
        coordinateAlongTheEdge(in, in.left) <= coordinateAlongTheEdge(in, in.right);
    return {aIsLeft ? FunnelPortal{a, b} : FunnelPortal{b, a}};
  }
  // Past the gap, pointAlongTheEdge clamps to each portal's nearer end.
  const glm::vec3 from = pointAlongTheEdge(in, low), to = pointAlongTheEdge(out, high);
  return {{from, from}, {to, to}};
}

// Gates (FunnelInput::Gates). A walk portal lies on its sectors' shared edge,
// half a cell past the last cell centres on either side, and ends at cell
// centres unless widening moved the end. The fill proved the unit clear at
// its cells and on the steps between neighbouring cells; when cells cover
// their sectors (cellsCoverSectors), that makes the rectangle of a sector's
// cell centres clear, and the strip between a portal's two rows of cells.
// The half cell past a sector's last cells was never tested where no portal
// leads on, and a path turning at a portal's end on the edge crosses it
// wherever one of the two sectors reaches past that end: the unit's footprint
// then reaches up to half a cell further than any cell's did (the showcase's
// first path touched on 4 of 12 stretches, 7.4 cm deep). So a path crosses
// each walk portal through two gates: the portal's ends as they were before
// widening, moved back onto the last cells of the sector it leaves, then onto
// the first cells of the one it enters.
//
// Why that keeps the unit clear: a sector's box holds no geometry (each of
// its points lies in a cell centre's footprint), so a convex polygon inside
// one box, or two boxes side by side, whose edges are each clear is clear
// inside: a footprint centred in it reaches out of it only within a footprint
// of an edge. Between a portal's two gates the path stays in the strip
// between them (edges: steps between two cells, rows of cells); between one
// portal's entering gate and the next one's leaving gate in a sector, in the
// rectangle of the sector's cell centres, on whose sides both gates lie. The
// gates of one sector are on the sides of one rectangle, so the funnel's
// channel stays convex between any two of them. corner_reach.h then moves a
// corner at a gate out to a widened end (widening swept from there to the
// sectors' cell corners, so the hull of the end and the cells is clear) or to
// its end's reach, where the stretches' own directions were swept.

// The point of a portal end a path crosses at on one side of the portal (the
// sector it leaves, or the one it enters): gatePoint (portal_ends.h). A
// corner there that widening or a reach lets out further moves out
// afterwards (corner_reach.h).
FunnelPortal gate(const NavGraph& graph, uint32_t portal, bool entering) {
  return {gatePoint(graph, portal, true, entering), gatePoint(graph, portal, false, entering)};
}

// True when the graph's walk portals are crossed through gates: its cells cover its sectors.
bool gated(const NavGraph& graph) {
  return cellsCoverSectors(graph.unit, graph.cellSize);
}

// The corridor's legs (as funnelLegs) and, per leg portal, the graph portal it
// is (kNoPortal for points: the start, the goal, where a leg is bridged, or
// made up along an edge). Legs [0, count) are this corridor's; the arrays past
// them are kept for their capacity.
struct Legs {
  std::vector<std::vector<FunnelPortal>> portals;
  std::vector<std::vector<uint32_t>> graphPortals;
  size_t count = 0;

  void startLeg() {
    if (portals.size() == count) {
      portals.emplace_back();
      graphPortals.emplace_back();
    }
    portals[count].clear();
    graphPortals[count].clear();
    ++count;
  }
  // Built in place from its two ends: a portal built in a temporary and
  // copied in stalls on the store buffer.
  void add(const glm::vec3& left, const glm::vec3& right, uint32_t graphPortal) {
    FunnelPortal& added = portals[count - 1].emplace_back();
    added.left = left;
    added.right = right;
    graphPortals[count - 1].push_back(graphPortal);
  }
  void add(const FunnelPortal& portal, uint32_t graphPortal) {
    add(portal.left, portal.right, graphPortal);
  }
  /// A walk portal's gate on the side it leaves or enters (gate()).
  void addGate(const NavGraph& graph, uint32_t portal, bool entering) {
    add(gatePoint(graph, portal, true, entering), gatePoint(graph, portal, false, entering),
        portal);
  }
};

// The part of walk portal p's leaving gate a turn at a reach's point sees
// (reachSees), the way the exact search crosses it from there; the whole
// gate where it sees none (the way on turns at the next portal instead). Its
// ends stand on the ground of the sector p leaves, which need not be a
// plane along a long gate.
FunnelPortal seenFrom(const NavGraph& graph, const GateTurn& reach, uint32_t p) {
  const FunnelPortal whole = gate(graph, p, false);
  const glm::vec2 from = groundOf(whole.left), to = groundOf(whole.right);
  const SegmentPart part = reachSees(graph, reach.portal, reach.left, from, to);
  if (part.empty()) return whole;
  const Sector& sector = graph.sectors[graph.portals[p].fromSector];
  const auto at = [&](float t) {
    const glm::vec2 ground = pointOnSegment(from, to, t);
    return glm::vec3(ground.x, graph.heightAt(sector, ground.x, ground.y), ground.y);
  };
  return {at(part.low), at(part.high)};
}

// A walk portal as funnel portals: the portal itself, or its two gates. A
// one-way portal (off a ledge, into a fall, down onto the landing) keeps the
// portal itself between them, which adds nothing to what the gates allow but
// a point at its height where the path crosses it, so that the path followed
// at portal heights drops at the edge, not before.
// Where the exact search turned past the gates, at a widened end or an end's
// reach, the path goes through that point alone: the hull of a widened end and
// either sector's cells is clear (portal_widening.h), and so are the
// stretches the search let leave a reach's point (reachLeavesInto). The way
// into the turn comes as the search came (`entry`): straight, or past an end
// of the portal's leaving gate; from the turn it goes on (`exit`)
// straight, or past an end of its entering gate. Where the search turned at
// an end of the entering gate to come straight into a later reach's point in
// a direction its reach proves (`enteringTurn`), the path turns there too.
// Straight on from the reach's point at the portal before (`cameFrom`), the
// way crosses what that reach sees.
void addWalk(const NavGraph& graph, uint32_t p, bool gates, EndTurn turn, ReachWay entry,
             ReachWay exit, ReachWay enteringTurn, const std::optional<GateTurn>& cameFrom,
             Legs& legs) {
  const Portal& portal = graph.portals[p];
  if (!gates) {
    legs.add({portal.left, portal.right}, p);
    return;
  }
  if (turn != EndTurn::None) {
    if (entry != ReachWay::Straight) {
      const glm::vec3 end = gatePoint(graph, p, entry == ReachWay::PastLeftGateEnd, false);
      legs.add({end, end}, p);
    }
    const glm::vec3 at = endTurnPoint(graph, p, turn);
    legs.add({at, at}, p);
    if (exit != ReachWay::Straight) {
      const glm::vec3 end = gatePoint(graph, p, exit == ReachWay::PastLeftGateEnd, true);
      legs.add({end, end}, p);
    }
    return;
  }
  if (cameFrom)
    legs.add(seenFrom(graph, *cameFrom, p), p);
  else
    legs.addGate(graph, p, false);
  if (portal.oneWay()) legs.add(portal.left, portal.right, p);
  if (enteringTurn != ReachWay::Straight) {
    const glm::vec3 end = gatePoint(graph, p, enteringTurn == ReachWay::PastLeftGateEnd, true);
    legs.add({end, end}, p);
  } else {
    legs.addGate(graph, p, true);
  }
}

// In over a walk portal and straight back out over the same line into
// another sector, through gates: in through the first's leaving gate, then
// along the line where the two overlap (inside both portals' strips), or,
// past the gap between them (a wall's end), from the first's entering gate's
// end nearest the second to the second's leaving gate's end nearest the
// first, and out through the second's entering gate. Straight on from a
// reach's point (`cameFrom`), the way crosses what that reach sees.
void addBackAlongTheEdge(const NavGraph& graph, uint32_t in, uint32_t out,
                         const std::optional<GateTurn>& cameFrom, Legs& legs) {
  const Portal& first = graph.portals[in];
  const Portal& second = graph.portals[out];
  if (cameFrom)
    legs.add(seenFrom(graph, *cameFrom, in), in);
  else
    legs.addGate(graph, in, false);
  const std::vector<FunnelPortal> edge = alongTheEdge(first, second);
  if (edge.size() == 1) {
    legs.add(edge.front(), kNoPortal);
  } else {
    // The gap's ends: which end of each portal they are.
    const auto endAt = [&](uint32_t p, const glm::vec3& point, bool entering) {
      const Portal& portal = graph.portals[p];
      const bool left =
          coordinateAlongTheEdge(portal, portal.left) == coordinateAlongTheEdge(portal, point);
      return gatePoint(graph, p, left, entering);
    };
    const glm::vec3 from = endAt(in, edge.front().left, true);
    const glm::vec3 to = endAt(out, edge.back().left, false);
    legs.add({from, from}, kNoPortal);
    legs.add({to, to}, kNoPortal);
  }
  legs.addGate(graph, out, true);
}

void legsOf(const NavGraph& graph, const Corridor& corridor, FunnelInput input, Legs& legs) {
  const bool gates = input == FunnelInput::Gates && gated(graph);
  legs.count = 0;
  legs.startLeg();
  auto point = [](const glm::vec3& p) { return FunnelPortal{p, p}; };
  legs.add(point(corridor.start), kNoPortal);
  // Ends the current leg at the bridge's first point, adds the bridge as a leg
  // of its own, and starts the next at its last point.
  auto bridge = [&](std::span<const FunnelPortal> through) {
    legs.add(through.front(), kNoPortal);
    legs.startLeg();
    for (const FunnelPortal& portal : through)
      legs.add(portal, kNoPortal);
    legs.startLeg();
    legs.add(through.back(), kNoPortal);
  };
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    const Portal& portal = corridor.portal(graph, i);
    if (portal.kind == PortalKind::Walk) {
      // A turn at a widened end on the way (the exact search's) is made
      // there, as on any walk portal.
      const bool doublesBack = i + 1 < corridor.portals.size() &&
                               backOverTheSameEdge(graph, portal, corridor.portal(graph, i + 1)) &&
                               corridor.endTurn(i) == EndTurn::None &&
                               corridor.endTurn(i + 1) == EndTurn::None;
      const EndTurn before = i > 0 ? corridor.endTurn(i - 1) : EndTurn::None;
      const bool afterReach = (before == EndTurn::LeftReach || before == EndTurn::RightReach) &&
                              corridor.reachExit(i - 1) == ReachWay::Straight;
      const std::optional<GateTurn> cameFrom =
          afterReach ? std::optional(gateTurnOf(corridor.portals[i - 1], before)) : std::nullopt;
      if (!doublesBack) {
        addWalk(graph, corridor.portals[i], gates, corridor.endTurn(i), corridor.reachEntry(i),
                corridor.reachExit(i), corridor.enteringGateTurn(i), cameFrom, legs);
        continue;
      }
      // In and straight back out over the same line: the path only touches the
      // sector beyond, along that line. Back into the same sector it need not
      // touch it at all; else the funnel, which needs portals that advance,
      // gets where the two overlap, or the two nearest ends.
      const Portal& back = corridor.portal(graph, i + 1);
      if (back.toSector != portal.fromSector) {
        if (gates) {
          addBackAlongTheEdge(graph, corridor.portals[i], corridor.portals[i + 1], cameFrom, legs);
        } else {
          for (const FunnelPortal& along : alongTheEdge(portal, back))
            legs.add(along, kNoPortal);
        }
      }
      ++i;
    } else if (portal.kind == PortalKind::Device || portal.kind == PortalKind::Jump) {
      const FunnelPortal device[] = {point(graph.entryPoint(portal)),
                                     point(graph.exitPoint(portal))};
      bridge(device);
    } else if (graph.sectors[portal.toSector].kind == SectorKind::Waypath &&
               i + 1 < corridor.portals.size()) {
      // Getting on at one point and off at another: ride the points between.
      const WaypathSpec& waypath = graph.waypaths[graph.sectors[portal.toSector].waypath];
      const Portal& getOff = corridor.portal(graph, i + 1);
      const uint32_t on = portal.link, off = getOff.link;
      std::vector<FunnelPortal> ride;
      for (uint32_t k = on;; k = on < off ? k + 1 : k - 1) {
        ride.push_back(point(k == on ? portal.left : k == off ? getOff.left : waypath.points[k]));
        if (k == off) break;
      }
      bridge(ride);
      ++i;  // the getting-off portal is part of the ride
    }
  }
  legs.add(point(corridor.goal), kNoPortal);
}

}  // namespace

std::vector<std::vector<FunnelPortal>> funnelLegs(const NavGraph& graph, const Corridor& corridor,
                                                  FunnelInput input) {
  Legs legs;
  legsOf(graph, corridor, input, legs);
  legs.portals.resize(legs.count);
  return std::move(legs.portals);
}

std::vector<FunnelPortal> funnelPortals(const NavGraph& graph, const Corridor& corridor) {
  std::vector<std::vector<FunnelPortal>> legs = funnelLegs(graph, corridor, FunnelInput::Gates);
  if (legs.size() == 1) return std::move(legs.front());
  std::vector<FunnelPortal> portals;
  for (const std::vector<FunnelPortal>& leg : legs)
    portals.insert(portals.end(), leg.begin(), leg.end());
  return portals;
}

float polylineLength(std::span<const glm::vec3> points) {
  double length = 0.0;
  for (size_t i = 1; i < points.size(); ++i)
    length += glm::distance(points[i - 1], points[i]);
  return float(length);
}

double groundPolylineLength(std::span<const glm::vec3> points) {
  double length = 0.0;
  for (size_t i = 1; i < points.size(); ++i)
    length += glm::distance(groundOf(points[i - 1]), groundOf(points[i]));
  return length;
}

namespace {

constexpr size_t kCornersReserved = 16;
// An apex this close to a portal is on it: rounding of the points that
// funnelLegs works out, far below any cell size. [metres]
constexpr float kOnPortal = 1e-4f;

class Funnel {
 public:
  Funnel(std::span<const FunnelPortal> portals, bool recordSteps, FunnelInput input,
         FunnelResult& result)
      : m_portals(portals), m_recordSteps(recordSteps), m_input(input), m_result(result) {}

  void run() {
    m_result.clear();
    const size_t count = m_portals.size();
    if (count == 0) return;
    const glm::vec3 start = (m_portals.front().left + m_portals.front().right) * 0.5f;
    setApex(start, 0);
    // Paths seldom turn more often than this: one allocation for most.
    m_result.corners.reserve(kCornersReserved);
    m_result.cornerPortals.reserve(kCornersReserved);
    m_result.corners.push_back(start);
    m_result.cornerPortals.push_back(0);
    record(FunnelEvent::Start, 0);

    // A corner needs a side that moved since the apex was set (a side still
    // at the apex never crosses), so each corner moves the apex to a later
    // portal and the scan visits at most count^2 portals. The cap states that
    // bound in code, so no input (NaN included) can keep the loop going.
    const size_t maxVisits = count * count + count;
    size_t visits = 0;
    for (size_t i = 1; i < count && visits < maxVisits; ++i, ++visits) {
      const uint32_t portal = uint32_t(i);
      glm::vec3 left = m_portals[i].left;
      // Ends within rounding of each other (a gate one cell wide) are one
      // point: no side of it to see it from.
      glm::vec3 right = sameGroundPoint(left, m_portals[i].right) ? left : m_portals[i].right;
      bool moved = false;
      // An apex on the portal is already through it: a gate's row
      // (funnelLegs) runs through the cell centres a path starts or turns at.
      if (apexOnPortal(left, right)) {
        record(FunnelEvent::Skip, portal);
        continue;
      }
      // A portal on a line through the apex (the path doubling back along a
      // wall) has no inside to narrow towards: the path reaches it at its end
      // nearest the apex, so it acts as that single point. So does one a
      // fresh funnel sees from behind, when the apex stands beside it: a start
      // between a gate and its portal's edge (funnelLegs), off the cells.
      if (onLineThroughApex(left, right) ||
          (m_leftAtApex && m_rightAtApex && triArea2(m_apex, right, left) > 0.0f)) {
        const glm::vec2 apex = groundOf(m_apex);
        // Past it, within its span, the path is already through.
        const glm::vec2 l = groundOf(left), span = groundOf(right) - l;
        const float at = glm::dot(apex - l, span);
        if (at >= 0.0f && at <= glm::dot(span, span)) {
          record(FunnelEvent::Skip, portal);
          continue;
        }
        const bool leftNearer =
            glm::distance(apex, groundOf(left)) <= glm::distance(apex, groundOf(right));
        left = right = leftNearer ? left : right;
      }

      // A side at the apex is open (a fresh funnel); a portal end at the apex
      // constrains nothing, as the path already passes through it.
      if (!sameGroundPoint(m_apex, right) &&
          (m_rightAtApex || triArea2(m_apex, m_right, right) <= 0.0f)) {
        // The new right end is inside (left of) the right edge.
        if (m_leftAtApex || triArea2(m_apex, m_left, right) > 0.0f || onLineBeyond(m_left, right)) {
          m_right = right;
          m_rightAtApex = false;
          m_rightPortal = portal;
          moved = true;
          record(FunnelEvent::TightenRight, portal);
        } else {
          // It reached the left edge: the path turns at the left point.
          i = turnAt(m_left, m_leftPortal, FunnelEvent::CornerLeft, portal);
          continue;
        }
      }
      if (!sameGroundPoint(m_apex, left) &&
          (m_leftAtApex || triArea2(m_apex, m_left, left) >= 0.0f)) {
        // The new left end is inside (right of) the left edge.
        if (m_rightAtApex || triArea2(m_apex, m_right, left) < 0.0f ||
            onLineBeyond(m_right, left)) {
          m_left = left;
          m_leftAtApex = false;
          m_leftPortal = portal;
          moved = true;
          record(FunnelEvent::TightenLeft, portal);
        } else {
          i = turnAt(m_right, m_rightPortal, FunnelEvent::CornerRight, portal);
          continue;
        }
      }
      if (!moved) record(FunnelEvent::Skip, portal);
    }

    const uint32_t last = uint32_t(count - 1);
    const glm::vec3 goal = (m_portals.back().left + m_portals.back().right) * 0.5f;
    // A collinear goal has already been added as a corner.
    if (!samePoint(m_result.corners.back(), goal)) {
      m_result.corners.push_back(goal);
      m_result.cornerPortals.push_back(last);
    }
    setApex(goal, last);
    record(FunnelEvent::Goal, last);

    m_result.length = polylineLength(m_result.corners);
  }

 private:
  // A funnel (re)starts at `point`: both sides at the apex.
  void setApex(const glm::vec3& point, uint32_t portal) {
    m_apex = m_left = m_right = point;
    m_apexPortal = m_leftPortal = m_rightPortal = portal;
    m_leftAtApex = m_rightAtApex = true;
  }

  bool apexOnPortal(const glm::vec3& left, const glm::vec3& right) const {
    const glm::vec2 apex = groundOf(m_apex), l = groundOf(left), span = groundOf(right) - l;
    const float length2 = glm::dot(span, span);
    // Off the portal's line (the cross product is the span's length times the
    // distance from the line): most portals, at the cost of one product.
    const float off = cross2(span, apex - l);
    if (off * off > kOnPortal * kOnPortal * length2) return false;
    const float t =
        length2 > 0.0f ? std::clamp(glm::dot(apex - l, span) / length2, 0.0f, 1.0f) : 0.0f;
    const glm::vec2 d = l + span * t - apex;
    return glm::dot(d, d) <= kOnPortal * kOnPortal;
  }

  bool onLineThroughApex(const glm::vec3& left, const glm::vec3& right) const {
    if (sameGroundPoint(left, right)) return false;
    const glm::vec2 l = groundOf(left), span = groundOf(right) - l;
    // The apex within rounding of the portal's line (as apexOnPortal): points
    // worked out apart, tens of metres from the origin, differ in their last bits.
    const float off = cross2(span, groundOf(m_apex) - l);
    return off * off <= kOnPortal * kOnPortal * glm::dot(span, span);
  }

  // Whether p lies on the line from the apex through the other side's point
  // q, further out than q, in a funnel through plain portals: the funnel then
  // closes to that line and the path runs straight along it, where the strict
  // test turns at q and leaves a corner on a straight line (a diagonal
  // through a grid's vertices). Through gates such a corner stays: corner
  // reach may move it out (corner_reach.h).
  bool onLineBeyond(const glm::vec3& q, const glm::vec3& p) const {
    if (m_input == FunnelInput::Gates || !onLineThroughApex(q, p)) return false;
    const glm::vec2 a = groundOf(q) - groundOf(m_apex), b = groundOf(p) - groundOf(m_apex);
    return glm::dot(a, b) > glm::dot(a, a);
  }

  // Makes `corner` the new apex and returns the index the scan continues after.
  size_t turnAt(glm::vec3 corner, uint32_t cornerPortal, FunnelEvent event, uint32_t portal) {
    m_result.corners.push_back(corner);
    m_result.cornerPortals.push_back(cornerPortal);
    record(event, portal);
    setApex(corner, cornerPortal);
    record(FunnelEvent::Restart, portal);
    return cornerPortal;
  }

  void record(FunnelEvent event, uint32_t portal) {
    if (!m_recordSteps) return;
    m_result.steps.push_back({event, portal, m_apex, m_left, m_right, m_apexPortal, m_leftPortal,
                              m_rightPortal, uint32_t(m_result.corners.size())});
  }

  std::span<const FunnelPortal> m_portals;
  bool m_recordSteps;
  FunnelInput m_input;
  FunnelResult& m_result;
  glm::vec3 m_apex{0.0f}, m_left{0.0f}, m_right{0.0f};
  uint32_t m_apexPortal = 0, m_leftPortal = 0, m_rightPortal = 0;
  /// Whether a side stands at the apex (sameGroundPoint): kept, not worked
  /// out, as the scan asks at every portal. A side moves only to a point off the apex.
  bool m_leftAtApex = true, m_rightAtApex = true;
};

}  // namespace

std::vector<glm::vec3> followPortalHeights(const FunnelResult& funnel,
                                           std::span<const FunnelPortal> portals) {
  const std::vector<glm::vec3>& corners = funnel.corners;
  std::vector<glm::vec3> path;
  if (corners.empty() || funnel.cornerPortals.size() != corners.size()) return path;
  path.push_back(corners.front());
  auto add = [&path](const glm::vec3& p) {
    if (!samePoint(path.back(), p)) path.push_back(p);
  };
  size_t corner = 0;  // the path is on the segment corners[corner] -> corners[corner + 1]
  for (size_t i = 1; i + 1 < portals.size() && corner + 1 < corners.size(); ++i) {
    const FunnelPortal& portal = portals[i];
    const glm::vec3& next = corners[corner + 1];
    // Corners are met in portal order: at their portal's end (where two
    // portals share an end, the first), or out on its line at the end's reach.
    if (corner + 2 < corners.size() &&
        (funnel.cornerPortals[corner + 1] == i || sameGroundPoint(next, portal.left) ||
         sameGroundPoint(next, portal.right))) {
      add(next);
      ++corner;
      continue;
    }
    // Where the segment crosses the portal's line, as a fraction along the portal.
    const glm::vec2 a = groundOf(corners[corner]), b = groundOf(next);
    const glm::vec2 l = groundOf(portal.left), r = groundOf(portal.right);
    const float denominator = cross2(b - a, r - l);
    float along = 0.5f;
    if (std::abs(denominator) > 1e-12f)
      along = std::clamp(cross2(b - a, a - l) / denominator, 0.0f, 1.0f);
    add(glm::mix(portal.left, portal.right, along));
  }
  add(corners.back());
  return path;
}

namespace {

// Pulls one leg and, unless told to keep them, moves its corners out to
// their portal ends' reach; each move is a Reach step, before the Goal step.
void pullLeg(const NavGraph& graph, std::span<const FunnelPortal> leg,
             std::span<const uint32_t> graphPortals, bool recordSteps, CornerReach reach,
             FunnelResult& pulled) {
  stringPull(leg, pulled, recordSteps, gated(graph) ? FunnelInput::Gates : FunnelInput::Portals);
  if (reach == CornerReach::Keep) return;
  std::vector<uint32_t> moves;  // filled (and allocated) only when recording
  const size_t moved = reachCorners(graph, leg, graphPortals, pulled.corners, pulled.cornerPortals,
                                    recordSteps ? &moves : nullptr);
  if (moved == 0) return;
  pulled.reachedCorners = moved;
  pulled.length = polylineLength(pulled.corners);
  if (!recordSteps) return;
  FunnelStep goal = pulled.steps.back();
  goal.cornerCount = uint32_t(pulled.corners.size());
  pulled.steps.pop_back();
  for (const uint32_t move : moves) {
    // The moved corner is the apex, between the corners before and after it.
    const uint32_t portal = pulled.cornerPortals[move];
    pulled.steps.push_back({FunnelEvent::Reach, portal, pulled.corners[move],
                            pulled.corners[move - 1], pulled.corners[move + 1], portal,
                            pulled.cornerPortals[move - 1], pulled.cornerPortals[move + 1],
                            move + 1});
  }
  pulled.steps.push_back(goal);
}

}  // namespace

FunnelResult pullCorridor(const NavGraph& graph, const Corridor& corridor, bool recordSteps) {
  FunnelResult result;
  pullCorridor(graph, corridor, result, recordSteps);
  return result;
}

void pullCorridor(const NavGraph& graph, const Corridor& corridor, FunnelResult& result,
                  bool recordSteps, CornerReach reach) {
  // Per thread, kept for their capacity, as findPath keeps its solver.
  thread_local Legs legs;
  legsOf(graph, corridor, FunnelInput::Gates, legs);
  if (legs.count == 1) {
    pullLeg(graph, legs.portals.front(), legs.graphPortals.front(), recordSteps, reach, result);
    return;
  }
  result.clear();
  thread_local FunnelResult pulled;
  uint32_t offset = 0;
  for (size_t l = 0; l < legs.count; ++l) {
    const std::vector<FunnelPortal>& leg = legs.portals[l];
    pullLeg(graph, leg, legs.graphPortals[l], recordSteps, reach, pulled);
    const uint32_t cornersBefore = uint32_t(result.corners.size());
    for (size_t c = 0; c < pulled.corners.size(); ++c) {
      // A leg starts where the previous one ended.
      if (!result.corners.empty() && samePoint(result.corners.back(), pulled.corners[c])) continue;
      result.corners.push_back(pulled.corners[c]);
      result.cornerPortals.push_back(pulled.cornerPortals[c] + offset);
    }
    for (FunnelStep step : pulled.steps) {
      step.portal += offset;
      step.apexPortal += offset;
      step.leftPortal += offset;
      step.rightPortal += offset;
      step.cornerCount += cornersBefore > 0 ? cornersBefore - 1 : 0;
      result.steps.push_back(step);
    }
    result.reachedCorners += pulled.reachedCorners;
    offset += uint32_t(leg.size());
  }
  result.length = polylineLength(result.corners);
}

// The simple stupid funnel algorithm (Mononen, as used by Detour's
// findStraightPath), in the ground plane: triArea2 < 0 means "left of".
FunnelResult stringPull(std::span<const FunnelPortal> portals, bool recordSteps,
                        FunnelInput input) {
  FunnelResult result;
  stringPull(portals, result, recordSteps, input);
  return result;
}

void stringPull(std::span<const FunnelPortal> portals, FunnelResult& result, bool recordSteps,
                FunnelInput input) {
  Funnel(portals, recordSteps, input, result).run();
}

}  // namespace nav
