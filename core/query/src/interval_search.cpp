#include "nav/interval_search.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "nav/portal_ends.h"
#include "nav/root_dominance.h"

namespace nav {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr uint32_t kNoNode = 0xffffffffu;
// Lengths below this are points: portal coordinates sit on a grid of sixths of a
// cell, and a ray through a corner tens of metres away misses it by rounding.
constexpr float kPoint = 1e-4f;
// A ray's rounding grows with its length: its direction comes from points
// stored in floats, often a cell or two from its root, so tens of metres on
// it misses a point on its line by up to this much a metre (0.23 mm 31 m
// from the root on terrain 1132 turned -21, where a diagonal runs through
// many gates' ends).
constexpr float kRayRounding = 2e-5f;
// A point this close to a line is on it.
constexpr float kOnLine = 1e-4f;
// A root reached again at most this much dearer is kept: rounding, not a worse way.
constexpr float kCostSlack = 1e-4f;
// How close trimCovered finds where two roots' costs cross along a portal:
// cutting short of it is safe, and a finer cut rarely prunes more. [metres]
constexpr float kCrossingStep = 0.01f;
// How many sectors past a portal whose gate a reach's point does not see
// pushReachesPast looks for reaches that answer for the stretch: the
// funnel's corner reach moves a corner so across any number, and past a few
// the stretch seldom keeps to the gates.
constexpr int kSectorsPast = 4;
// Expanded intervals of a portal that a new one is compared with, newest
// first: one is mostly covered by an interval expanded shortly before, and a
// long chain would cost more than the nodes it prunes.
constexpr int kExpandedChecked = 8;

using Range = IntervalSearch::Range;

// A turn past the gates as a bit of turnsPastGates.
uint8_t turnBit(EndTurn turn) {
  switch (turn) {
    case EndTurn::LeftEnd:
      return turn_bits::kLeftEnd;
    case EndTurn::RightEnd:
      return turn_bits::kRightEnd;
    case EndTurn::LeftReach:
      return turn_bits::kLeftReach;
    case EndTurn::RightReach:
      return turn_bits::kRightReach;
    case EndTurn::None:
      break;
  }
  return 0;
}

float sign(float x) {
  return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
}

// The points a segment from `apex` through [a, b] (each end kPoint further
// out along it, for rounding) may reach.
class Wedge {
 public:
  Wedge(const glm::vec2& apex, glm::vec2 a, glm::vec2 b) : m_apex(apex) {
    const glm::vec2 span = b - a;
    const float length = glm::length(span);
    if (length > 0.0f) {
      a -= span * (kPoint / length);
      b += span * (kPoint / length);
    }
    m_toA = a - apex;
    m_toB = b - apex;
    m_side = cross2(m_toA, m_toB) >= 0.0f ? 1.0f : -1.0f;
  }
  // Past neither side's line.
  bool holds(const glm::vec2& x) const { return pastA(x) <= 0.0f && pastB(x) <= 0.0f; }
  // False only when [u, v] lies wholly past one side's line: it cannot meet the wedge.
  bool mayMeet(const glm::vec2& u, const glm::vec2& v) const {
    return !(pastA(u) > 0.0f && pastA(v) > 0.0f) && !(pastB(u) > 0.0f && pastB(v) > 0.0f);
  }

 private:
  float pastA(const glm::vec2& x) const { return -m_side * cross2(m_toA, x - m_apex); }
  float pastB(const glm::vec2& x) const { return -m_side * cross2(x - m_apex, m_toB); }
  glm::vec2 m_apex, m_toA, m_toB;
  float m_side;
};

// The shortest way from `root` to `goal` that touches the segment [a, b].
float throughSegment(const glm::vec2& root, const glm::vec2& a, const glm::vec2& b,
                     const glm::vec2& goal) {
  const glm::vec2 touch = glm::mix(a, b, touchingPoint(a, b, root, goal));
  return glm::distance(root, touch) + glm::distance(touch, goal);
}

// True when the segment [a, b] meets the box [low, high] (ground plane, closed).
bool segmentMeetsBox(const glm::vec2& a, const glm::vec2& b, const glm::vec2& low,
                     const glm::vec2& high) {
  float enter = 0.0f, leave = 1.0f;
  const glm::vec2 walk = b - a;
  for (int axis = 0; axis < 2; ++axis) {
    if (walk[axis] == 0.0f) {
      if (a[axis] < low[axis] || a[axis] > high[axis]) return false;
      continue;
    }
    const float t0 = (low[axis] - a[axis]) / walk[axis];
    const float t1 = (high[axis] - a[axis]) / walk[axis];
    enter = std::max(enter, std::min(t0, t1));
    leave = std::min(leave, std::max(t0, t1));
  }
  return enter <= leave;
}

// Where a place's search through the root table starts.
size_t rootSlotOf(uint32_t x, uint32_t y, uint32_t z, size_t mask) {
  const uint64_t mixed =
      ((uint64_t(x) << 32 | z) ^ (uint64_t(y) * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
  return size_t(mixed >> 32) & mask;
}

}  // namespace

void IntervalSearch::growRootSlots() {
  constexpr size_t kFewestSlots = 64;
  const size_t slots = std::max(kFewestSlots, 2 * (m_rootSlotMask + 1));
  m_rootSlotMask = slots - 1;
  m_rootSlots.startQuery(slots);
  for (uint32_t key = 0; key < m_rootPlaces.size(); ++key) {
    const RootPlace& place = m_rootPlaces[key];
    size_t i = rootSlotOf(place.x, place.y, place.z, m_rootSlotMask);
    while (m_rootSlots.seen(uint32_t(i)))
      i = (i + 1) & m_rootSlotMask;
    m_rootSlots.touch(uint32_t(i), {place, key});
  }
}

uint32_t IntervalSearch::rootKeyAt(const glm::vec3& at) {
  if (m_gated) return 0;
  RootPlace place;
  std::memcpy(&place.x, &at.x, sizeof place.x);
  std::memcpy(&place.y, &at.y, sizeof place.y);
  std::memcpy(&place.z, &at.z, sizeof place.z);
  if (2 * (m_rootPlaces.size() + 1) > m_rootSlotMask + 1) growRootSlots();
  size_t i = rootSlotOf(place.x, place.y, place.z, m_rootSlotMask);
  while (m_rootSlots.seen(uint32_t(i))) {
    if (m_rootSlots[uint32_t(i)].place == place) return m_rootSlots[uint32_t(i)].key;
    i = (i + 1) & m_rootSlotMask;
  }
  const uint32_t key = uint32_t(m_rootPlaces.size());
  m_rootSlots.touch(uint32_t(i), {place, key});
  m_rootPlaces.push_back(place);
  m_rootCost.push_back(kInfinity);
  return key;
}

glm::vec3 IntervalSearch::crossingEnd(uint32_t portal, bool left, bool entering) const {
  if (m_gated) return gatePoint(*m_query.graph, portal, left, entering);
  const Portal& p = m_query.graph->portals[portal];
  return left ? p.left : p.right;
}

uint32_t IntervalSearch::cornerKey(uint32_t portal, bool left) {
  if (m_gated) return 0;
  const uint32_t slot = portal * 2 + (left ? 0u : 1u);
  if (!m_cornerKeys.seen(slot)) {
    const Portal& p = m_query.graph->portals[portal];
    glm::vec3 at = left ? p.left : p.right;
    if (p.reverse != kNoPortal && p.reverse < portal) {
      // A walk portal's left end is its reverse's right end, perhaps at the
      // other side's height: the first of the two stands for both.
      const Portal& first = m_query.graph->portals[p.reverse];
      at = left ? first.right : first.left;
    }
    m_cornerKeys.touch(slot, rootKeyAt(at));
  }
  return m_cornerKeys[slot];
}

// Root-level pruning, as Polyanya's: where every root is a corner of one
// free space that paths wrap around, a dearer way to a root leads nowhere the
// cheaper one does not. Through gates that fails: a sector one cell across
// holds its cell centres on a line, a one-cell portal's gates are points,
// and a shortest path squeezing past a root there may need the dearer way in
// (test_exact_search.cpp, NoLongerThanAnyPullThroughGatesOnTurnedRooms...).
// There every root is kept.
bool IntervalSearch::claimRoot(uint32_t key, float cost) {
  if (m_gated) return true;
  float& best = m_rootCost[key];
  if (cost > best + kCostSlack) return false;
  best = std::min(best, cost);
  return true;
}

bool IntervalSearch::reachedCheaper(const Node& node) const {
  if (node.turn != EndTurn::None)
    return node.cost > m_endTurnCost[endTurnSlot(node.crossed, node.turn)] + kCostSlack;
  return !m_gated && node.cost > m_rootCost[node.rootKey] + kCostSlack;
}

std::pair<glm::vec2, glm::vec2> IntervalSearch::enteringLine(uint32_t portal) const {
  const glm::vec2 from = groundOf(crossingEnd(portal, true, true));
  const glm::vec2 span = groundOf(crossingEnd(portal, false, true)) - from;
  const float length = glm::length(span);
  return {from, length > 0.0f ? span / length : glm::vec2(0.0f)};
}

std::pair<float, float> IntervalSearch::placeOnPortal(const Node& node) const {
  const auto [from, along] = enteringLine(node.crossed);
  return {glm::dot(node.left - from, along), glm::dot(node.right - from, along)};
}

uint32_t IntervalSearch::newestExpanded(uint32_t portal) const {
  return m_newestExpanded.seen(portal) ? m_newestExpanded[portal] : kNoNode;
}

bool IntervalSearch::covered(const Node& node) const {
  // The intervals expanded on its portal before it was queued cut it then.
  if (newestExpanded(node.crossed) == node.newestWhenQueued) return false;
  Node rest = node;
  return trimCovered(rest, node.newestWhenQueued);
}

bool IntervalSearch::trimCovered(Node& node, uint32_t oldest) const {
  if (!m_newestExpanded.seen(node.crossed)) return false;
  // Named, not bound: the cut below captures them (clang 14 cannot capture bindings).
  const std::pair<glm::vec2, glm::vec2> line = enteringLine(node.crossed);
  const glm::vec2 from = line.first, along = line.second;
  float low = glm::dot(node.left - from, along), high = glm::dot(node.right - from, along);
  if (high - low <= kPoint) {
    // A point (on a one-cell portal's point gate, or at a portal's end): held
    // where an interval expanded over it reaches it no dearer.
    const float cost = node.cost + glm::distance(node.root, node.left) * m_query.metre;
    int checked = 0;
    for (uint32_t i = m_newestExpanded[node.crossed]; i != oldest && checked < kExpandedChecked;
         i = m_expanded[i].next, ++checked) {
      const ExpandedInterval& before = m_expanded[i];
      if (before.low <= low + kPoint && before.high >= high - kPoint &&
          before.cost + glm::distance(before.root, node.left) * m_query.metre <= cost + kCostSlack)
        return true;
    }
    return false;
  }
  bool trimmed = false;
  int checked = 0;
  for (uint32_t i = m_newestExpanded[node.crossed]; i != oldest && checked < kExpandedChecked;
       i = m_expanded[i].next, ++checked) {
    const ExpandedInterval& before = m_expanded[i];
    const auto heldUpTo = [&](float start, float end) {
      return noDearerUpTo({before.root, before.cost}, {node.root, node.cost}, m_query.metre, from,
                          along, start, end, {kCostSlack, kCrossingStep});
    };
    // An interval short of an end by more than kPoint does not reach it (add()
    // snaps closer ones onto it), so holding within kPoint is holding.
    const bool fromLow = before.low <= low + kPoint, toHigh = before.high >= high - kPoint;
    if (!fromLow && !toHigh) continue;
    // The covered end is cut off; the new end is no portal end, where no path turns.
    if (fromLow && before.high > low) {
      const float cut = heldUpTo(low, std::min(high, before.high));
      if (cut >= high - kPoint) return true;
      if (cut > low) {
        low = cut;
        node.leftTurns = false;
        trimmed = true;
      }
    } else if (toHigh && before.low < high) {
      const float cut = heldUpTo(high, std::max(low, before.low));
      if (cut <= low + kPoint) return true;
      if (cut < high) {
        high = cut;
        node.rightTurns = false;
        trimmed = true;
      }
    }
    if (high - low <= kPoint) return true;
  }
  if (trimmed) {
    node.left = from + along * low;
    node.right = from + along * high;
  }
  return false;
}

void IntervalSearch::markExpanded(const Node& node) {
  const auto [low, high] = placeOnPortal(node);
  uint32_t& newest = m_newestExpanded.touch(node.crossed, kNoNode);
  m_expanded.push_back({node.root, low, high, node.cost, newest});
  newest = uint32_t(m_expanded.size() - 1);
}

void IntervalSearch::init(const IntervalQuery& query) {
  m_query = query;
  m_goal = groundOf(query.goal);
  m_nodes.clear();
  m_open.clear();
  m_pointsExpanded.clear();
  m_rootPlaces.clear();
  m_rootSlots.startQuery(m_rootSlotMask + 1);
  m_rootCost.clear();
  m_cornerKeys.startQuery(2 * query.graph->portals.size());
  m_endTurnCost.startQuery(4 * query.graph->portals.size());
  m_gated = cellsCoverSectors(query.graph->unit, query.graph->cellSize);
  m_newestExpanded.startQuery(query.graph->portals.size());
  m_expanded.clear();
  m_longestReach = -1.0f;
  m_expansions = 0;
  m_reached = kNoNode;
  confine();
  Node& start = newNode();
  start.root = groundOf(query.start);
  // The start is a root like a corner: intervals it sees are compared by it.
  start.rootKey = rootKeyAt(query.start);
  claimRoot(start.rootKey, 0.0f);
  start.crossed = kNoPortal;
  start.sector = query.startSector;
  start.parent = kNoNode;
  start.isPoint = true;
  queueNewest();
}

// The interval's ends lie a hair inside what a reach proves (reachSees),
// so a goal on that edge (a cell centre in line with a corner of the cells)
// may fall outside the cone of an interval rooted at the reach's point.
float IntervalSearch::costToGoal(const Node& node) const {
  const float cost = costTo(node, m_goal);
  if (cost < kInfinity || !node.reachRoot || node.rootTurn != node.parent) return cost;
  const NavGraph& graph = *m_query.graph;
  const Node& turn = m_nodes[node.rootTurn];
  if (reachSees(graph, turn.crossed, turn.turn == EndTurn::LeftReach, m_goal, m_goal).empty())
    return cost;
  // Straight through both of the portal's gates.
  for (const bool entering : {false, true}) {
    const glm::vec2 a = groundOf(crossingEnd(node.crossed, true, entering));
    const glm::vec2 b = groundOf(crossingEnd(node.crossed, false, entering));
    if (!segmentMeetsBox(node.root, m_goal, glm::min(a, b) - kPoint, glm::max(a, b) + kPoint))
      return cost;
  }
  return node.cost + glm::distance(node.root, m_goal) * m_query.metre;
}

float IntervalSearch::heuristic(const Node& node) const {
  if (node.isGoal) return 0.0f;
  const float distance = node.isPoint ? glm::distance(node.root, m_goal)
                                      : throughSegment(node.root, node.left, node.right, m_goal);
  return distance * m_query.heuristicMetre * m_query.heuristicScale;
}

void IntervalSearch::queueNewest() {
  Node& node = m_nodes.back();
  // Not even queued when an interval expanded already covers it.
  if (!(node.cost < kInfinity) || (!node.isPoint && !node.isGoal && trimCovered(node, kNoNode))) {
    m_nodes.pop_back();
    return;
  }
  if (!node.isPoint && !node.isGoal) node.newestWhenQueued = newestExpanded(node.crossed);
  node.estimate = node.cost + heuristic(node);
  m_open.push({node.estimate, node.cost, uint32_t(m_nodes.size() - 1)});
  if (m_query.traced && !node.isGoal) {
    traceNode(SearchEvent::Kind::Open, node);
  }
}

void IntervalSearch::traceNode(SearchEvent::Kind kind, const Node& node) const {
  const glm::vec2 left = node.isPoint ? node.root : node.left;
  const glm::vec2 right = node.isPoint ? node.root : node.right;
  m_query.rules->trace(kind, node.crossed, node.cost, node.estimate, left, right);
}

uint64_t IntervalSearch::pointKey(uint32_t sector, const glm::vec2& point) {
  uint32_t x, z;
  std::memcpy(&x, &point.x, sizeof x);
  std::memcpy(&z, &point.y, sizeof z);
  return (uint64_t(sector) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(x) << 32 | z);
}

uint32_t IntervalSearch::cameFrom(const Node& node) const {
  const bool walked = node.crossed != kNoPortal && node.crossed < m_query.firstJumpNode &&
                      m_query.graph->portals[node.crossed].kind == PortalKind::Walk;
  return walked ? m_query.graph->portals[node.crossed].fromSector : kNoSector;
}

// With the start and the goal in one dead-end region, the way never goes past
// the sector the region hangs off: it would come back through that convex
// sector, which crosses straight no dearer, unless a device beyond (at a
// metre a metre) is cheaper than walking.
void IntervalSearch::confine() {
  const NavGraph& graph = *m_query.graph;
  const DeadEndRegions& regions = graph.deadEnds;
  m_region = kNoSector;
  if (!m_query.jumps.empty()) return;
  const uint32_t head = regions.smallestHolding(m_query.startSector, m_query.goalSector);
  if (head == kNoSector) return;
  const bool noShortcut = !regions.islandContents(head).devices || m_query.metre <= 1.0f;
  if (graph.sectors[regions.hangsOff(head)].kind == SectorKind::Ground && noShortcut)
    m_region = head;
}

bool IntervalSearch::leavesRegion(uint32_t sector) const {
  return m_region != kNoSector && m_query.graph->deadEnds.beyond(m_region, sector);
}

bool IntervalSearch::walksOn(uint32_t portal, uint32_t from, uint32_t back) const {
  const Portal& next = m_query.graph->portals[portal];
  return next.kind == PortalKind::Walk && next.toSector != back && opens(next.toSector) &&
         !leavesRegion(next.toSector) && !deadEnd(portal, from);
}

bool IntervalSearch::deadEnd(uint32_t portal, uint32_t from) const {
  const NavGraph& graph = *m_query.graph;
  // Most portals lead into neither: two lookups tell.
  const uint32_t head = graph.deadEnds.regionEntered(portal);
  const bool onlyBack = graph.leadsOnlyBackTo(graph.portals[portal].toSector, from);
  return (head != kNoSector || onlyBack) && skipped(portal, from, head, onlyBack);
}

bool IntervalSearch::skipped(uint32_t portal, uint32_t from, uint32_t head, bool onlyBack) const {
  const NavGraph& graph = *m_query.graph;
  const uint32_t sector = graph.portals[portal].toSector;
  if (sector == m_query.goalSector || graph.sectors[from].kind != SectorKind::Ground) return false;
  if (head != kNoSector) {
    const DeadEndRegions& regions = graph.deadEnds;
    const auto inside = [&](uint32_t s) { return regions.holds(head, s); };
    // A device costs at least a metre a metre of its flight: no shortcut unless walking costs more.
    const bool noShortcut = !regions.contents(head).devices || m_query.metre <= 1.0f;
    if (!inside(m_query.startSector) && !inside(m_query.goalSector) && noShortcut &&
        !anyTakesOffIn(m_query.jumps, inside))
      return true;
  }
  return onlyBack && !anyTakesOffIn(m_query.jumps, [&](uint32_t s) { return s == sector; });
}

// The goal is a node too: the search ends when it is popped, so the cheapest way there wins.
void IntervalSearch::pushGoal(float cost, uint32_t parent) {
  Node& goal = newNode();
  goal.cost = cost;
  goal.crossed = kNoPortal;
  goal.sector = m_query.goalSector;
  goal.parent = parent;
  goal.isGoal = true;
  queueNewest();
}

SearchStep IntervalSearch::step() {
  while (!m_open.empty()) {
    const uint32_t index = m_open.pop().node;
    const Node node = m_nodes[index];
    if (node.isGoal) {
      m_reached = index;
      return SearchStep::Reached;
    }
    // Pruned late: its root or turn was reached cheaper since this node was
    // queued, or an interval holding this one was expanded.
    if (reachedCheaper(node) || (!node.isPoint && covered(node))) {
      if (m_query.traced) traceNode(SearchEvent::Kind::Drop, node);
      continue;
    }
    if (!node.isPoint && !node.reachRoot) markExpanded(node);
    if (m_expansions >= m_query.maxExpansions) return SearchStep::Exhausted;
    ++m_expansions;
    if (m_query.traced) {
      traceNode(SearchEvent::Kind::Close, node);
    }
    expand(node, index);
    return SearchStep::Searching;
  }
  return SearchStep::NoWay;
}

float IntervalSearch::costTo(const Node& node, const glm::vec2& point, glm::vec2* from) const {
  const float metre = m_query.metre;
  if (from) *from = node.root;
  if (node.isPoint) return node.cost + glm::distance(node.root, point) * metre;
  const glm::vec2 &r = node.root, &a = node.left, &b = node.right;
  const float s = sign(cross2(a - r, b - r));
  // Outside the cone by more than rounding (a cross product is the distance
  // from the edge's line times the edge's length): a point on an edge, such as
  // a goal in line with the corner the edge passes, is inside.
  if (s * cross2(a - r, point - r) < -kOnLine * glm::distance(a, r)) {
    if (from) *from = a;
    return node.leftTurns ? node.cost + (glm::distance(r, a) + glm::distance(a, point)) * metre
                          : kInfinity;
  }
  if (s * cross2(point - r, b - r) < -kOnLine * glm::distance(b, r)) {
    if (from) *from = b;
    return node.rightTurns ? node.cost + (glm::distance(r, b) + glm::distance(b, point)) * metre
                           : kInfinity;
  }
  return node.cost + glm::distance(r, point) * metre;
}

void IntervalSearch::pushTeleports(const Node& node, uint32_t index) {
  const NavGraph& graph = *m_query.graph;
  // Most levels have neither: no sector's portals need a second look.
  if (graph.deviceLinks.empty() && m_query.jumps.empty()) return;
  const uint32_t sector = node.sector;
  auto tryNode = [&](uint32_t teleport, const Portal& portal) {
    if (!opens(portal.toSector)) return;
    const float extra = m_query.rules->teleportCost(teleport);
    if (!(extra < kInfinity)) return;
    const glm::vec2 in = groundOf(graph.entryPoint(portal));
    const float reach = costTo(node, in);
    const uint32_t key = rootKeyAt(graph.exitPoint(portal));
    Node& exit = newNode();
    exit.root = groundOf(graph.exitPoint(portal));
    exit.cost = reach + extra;
    exit.rootKey = key;
    exit.crossed = teleport;
    exit.sector = portal.toSector;
    exit.parent = index;
    exit.isPoint = true;
    if (exit.cost < kInfinity && claimRoot(key, exit.cost))
      queueNewest();
    else
      m_nodes.pop_back();
  };
  const Sector& s = graph.sectors[sector];
  for (uint32_t p = s.firstPortal; p < s.firstPortal + s.portalCount; ++p) {
    if (graph.portals[p].kind == PortalKind::Device && !leavesRegion(graph.portals[p].toSector))
      tryNode(p, graph.portals[p]);
  }
  for (size_t k = 0; k < m_query.jumps.size(); ++k) {
    const Portal& portal = m_query.jumps[k].portal;
    if (portal.fromSector == sector) tryNode(m_query.firstJumpNode + uint32_t(k), portal);
  }
}

// True when `point` lies on the root's side of an interval node's line, by
// more than rounding: back on the side the node came in by.
bool IntervalSearch::behindInterval(const Node& node, const glm::vec2& point) const {
  const glm::vec2 &r = node.root, &a = node.left, &b = node.right;
  const float rootSide = cross2(b - a, r - a), pointSide = cross2(b - a, point - a);
  return rootSide * pointSide > 0.0f && std::abs(pointSide) > kOnLine * glm::distance(a, b);
}

// The ways to `point` of the node's sector: costTo's, or, for a point back
// on the side an interval node came in by, past either turning end of the
// interval, which lie on the sector's cells.
size_t IntervalSearch::approaches(const Node& node, const glm::vec2& point,
                                  Approach (&ways)[2]) const {
  if (node.isPoint || !behindInterval(node, point)) {
    glm::vec2 from;
    const float cost = costTo(node, point, &from);
    ways[0] = {cost, from};
    return cost < kInfinity ? 1 : 0;
  }
  size_t count = 0;
  const float metre = m_query.metre;
  for (const bool left : {true, false}) {
    if (!(left ? node.leftTurns : node.rightTurns)) continue;
    const glm::vec2& end = left ? node.left : node.right;
    ways[count++] = {
        node.cost + (glm::distance(node.root, end) + glm::distance(end, point)) * metre, end};
  }
  return count;
}

// Widening proved the hull of a moved end and either sector's cells clear
// (portal_widening.h): a way that reaches a point of the cells reaches the
// end in a straight line from there. The start sees all of its sector;
// another point root (an exit, another moved end, not a turn at a reach's
// point, which sees only what its reach proves) reaches the end when their
// segment meets the cells; an interval node's root when the end lies in its
// cone, else past a turning end of its interval, which is on the cells.
// From another turn past the gates the end is reached as corner reach moves
// corners (clearBetweenTurns). Any of them may come past an end of the
// portal's leaving gate instead, a point of the cells where the funnel turns.
float IntervalSearch::costToWidenedEnd(const Node& node, uint32_t portal, bool left, float known,
                                       ReachWay& entry) const {
  const NavGraph& graph = *m_query.graph;
  const GateTurn turn{portal, left, false};
  const glm::vec2 end = gateTurnAt(graph, turn);
  const float straight = node.cost + glm::distance(node.root, end) * m_query.metre;
  entry = ReachWay::Straight;
  float best = kInfinity;
  if (!node.isPoint) {
    Approach ways[2];
    for (size_t i = 0, count = approaches(node, end, ways); i < count; ++i)
      best = std::min(best, ways[i].cost);
  } else if (node.crossed == kNoPortal ||
             (node.turn != EndTurn::None &&
              clearBetweenTurns(graph, gateTurnOf(node.crossed, node.turn), turn))) {
    best = straight;
  } else if (node.turn != EndTurn::LeftReach && node.turn != EndTurn::RightReach) {
    const Sector& sector = graph.sectors[node.sector];
    const glm::vec2 halfCell(0.5f * graph.cellSize);
    // A root on the cells' edge (a gate's end) meets them, whatever the rounding.
    if (segmentMeetsBox(node.root, end, groundOf(sector.bounds.min) + halfCell - kPoint,
                        groundOf(sector.bounds.max) - halfCell + kPoint))
      best = straight;
  }
  // Straight from the root is as cheap as a way in gets.
  if (best <= straight) return best;
  for (const bool gateLeft : {true, false}) {
    const float cost = costPastGateEnd(node, portal, gateLeft, end, best, known);
    if (!(cost < best)) continue;
    best = cost;
    entry = gateLeft ? ReachWay::PastLeftGateEnd : ReachWay::PastRightGateEnd;
  }
  return best;
}

// The leaving gate's end lies on the cells of the node's sector, which every
// point root but a turn at a reach's point sees.
float IntervalSearch::costPastGateEnd(const Node& node, uint32_t portal, bool gateLeft,
                                      const glm::vec2& at, float best, float known) const {
  const glm::vec2 gate = groundOf(crossingEnd(portal, gateLeft, false));
  // The straight way through the gate's end is the cheapest past it.
  const float cheapest =
      node.cost + (glm::distance(node.root, gate) + glm::distance(gate, at)) * m_query.metre;
  if (!(cheapest < best && cheapest <= known + kCostSlack)) return kInfinity;
  if ((node.turn == EndTurn::LeftReach || node.turn == EndTurn::RightReach) &&
      reachSees(*m_query.graph, node.crossed, node.turn == EndTurn::LeftReach, gate, gate).empty())
    return kInfinity;
  const float last = glm::distance(gate, at) * m_query.metre;
  float cost = kInfinity;
  Approach ways[2];
  for (size_t i = 0, count = approaches(node, gate, ways); i < count; ++i)
    cost = std::min(cost, ways[i].cost + last);
  return cost;
}

bool IntervalSearch::pushEndTurns(const Node& node, uint32_t index, uint32_t portal) {
  if (!m_gated) return true;
  const uint8_t turns = turnsPastGates(*m_query.graph, portal);
  if (turns == 0) return true;
  const NavGraph& graph = *m_query.graph;
  bool straight = true;
  for (const EndTurn turn :
       {EndTurn::LeftEnd, EndTurn::RightEnd, EndTurn::LeftReach, EndTurn::RightReach}) {
    if (!(turns & turnBit(turn))) continue;
    const bool reach = turn == EndTurn::LeftReach || turn == EndTurn::RightReach;
    const bool left = turn == EndTurn::LeftEnd || turn == EndTurn::LeftReach;
    const glm::vec2 at = groundOf(endTurnPoint(graph, portal, turn));
    // The same turn (its point, its sector and what it sees) reached for
    // less already sees all this one would. The straight way is the
    // cheapest there is: past that, the way in is not worked out.
    const uint32_t slot = endTurnSlot(portal, turn);
    float& known =
        m_endTurnCost.seen(slot) ? m_endTurnCost[slot] : m_endTurnCost.touch(slot, kInfinity);
    const float straightCost = node.cost + glm::distance(node.root, at) * m_query.metre;
    if (straightCost > known + kCostSlack) continue;
    ReachWay entry = ReachWay::Straight;
    ApproachEnd from = ApproachEnd::Root;
    float cost = reach ? costToReach(node, portal, left, known, turns, entry, from)
                       : costToWidenedEnd(node, portal, left, known, entry);
    if (!(cost <= straightCost + kCostSlack)) straight = false;
    ReachWay exit = ReachWay::Straight;
    if (!(cost <= straightCost + kCostSlack) &&
        (node.turn == EndTurn::LeftEnd || node.turn == EndTurn::RightEnd)) {
      const float past = costPastEnteringGateEnd(node, portal, turn, std::min(cost, known), exit);
      if (exit != ReachWay::Straight) {
        cost = past;
        entry = ReachWay::Straight;
        from = ApproachEnd::Root;
      }
    }
    if (!(cost <= known + kCostSlack)) continue;
    known = std::min(known, cost);
    uint32_t parent = index;
    if (exit != ReachWay::Straight) {
      // The point on the way, where the funnel turns (Corridor::reachExits):
      // a node of the path that the search never expands, as the turn's
      // point sees all it would.
      Node& point = newNode();
      point = node;
      point.root = groundOf(crossingEnd(node.crossed, exit == ReachWay::PastLeftGateEnd, true));
      point.cost = node.cost + glm::distance(node.root, point.root) * m_query.metre;
      point.parent = index;
      point.turn = EndTurn::None;
      point.exit = exit;
      parent = uint32_t(m_nodes.size() - 1);
    }
    Node& next = newTurnNode(at, cost, portal, turn, parent);
    next.entry = entry;
    next.entryFrom = from;
    queueNewest();
  }
  return straight;
}

// A reach proves the stretches that leave its point in its directions clear
// (reachLeavesInto): the way in must leave it, backwards, into the sector the
// node stands in. It comes straight from the node's root through its cone,
// past a turning end of its interval, or from the start or a point on the
// cells, or past an end of the portal's gate on the node's side, where the
// funnel may turn. From another turn past the gates it comes straight as
// corner reach moves corners (clearBetweenTurns), or past a gate's end.
float IntervalSearch::costToReach(const Node& node, uint32_t portal, bool left, float known,
                                  uint8_t turns, ReachWay& entry, ApproachEnd& from) const {
  const NavGraph& graph = *m_query.graph;
  const GateTurn turn{portal, left, true};
  const glm::vec2 at = gateTurnAt(graph, turn);
  const float metre = m_query.metre;
  const Portal& crossed = graph.portals[portal];
  const PortalEndReach& reach = graph.reach[portalEndIndex(portal, left)];
  float best = kInfinity;
  if (node.turn != EndTurn::None) {
    // pushEndTurns has weighed the straight way's cost against `known`.
    if (clearBetweenTurns(graph, gateTurnOf(node.crossed, node.turn), turn))
      best = node.cost + glm::distance(node.root, at) * metre;
  } else {
    // From a turn further back, straight through the node's cone, as from one beside it.
    if (!node.isPoint && node.rootTurn != kNoNode) {
      const Node& rootTurn = m_nodes[node.rootTurn];
      glm::vec2 via;
      const float cost = costTo(node, at, &via);
      if (via == node.root && cost <= known + kCostSlack &&
          clearBetweenTurns(graph, gateTurnOf(rootTurn.crossed, rootTurn.turn), turn)) {
        best = cost;
        entry = ReachWay::Straight;
        from = ApproachEnd::Root;
      }
    }
    Approach ways[2];
    for (size_t i = 0, count = approaches(node, at, ways); i < count; ++i) {
      // The reach's test is the dearer part: not for a point reached cheaper before.
      const Approach& way = ways[i];
      if (way.cost < best && way.cost <= known + kCostSlack &&
          reachLeavesInto(graph, crossed, reach, left, way.from) == 0) {
        best = way.cost;
        entry = ReachWay::Straight;
        from = node.isPoint             ? ApproachEnd::Root
               : way.from == node.left  ? ApproachEnd::LeftEnd
               : way.from == node.right ? ApproachEnd::RightEnd
                                        : ApproachEnd::Root;
      }
    }
  }
  // Straight from the root is as cheap as a way in gets.
  if (best <= node.cost + glm::distance(node.root, at) * metre) return best;
  // Where the reach does not prove the straight way from the root, it may
  // prove the way from a turning end of the interval, a point on the cells.
  for (const bool endLeft : {true, false}) {
    if (node.isPoint || node.turn != EndTurn::None || !(endLeft ? node.leftTurns : node.rightTurns))
      continue;
    const glm::vec2& end = endLeft ? node.left : node.right;
    const float cost = node.cost + (glm::distance(node.root, end) + glm::distance(end, at)) * metre;
    if (!(cost < best && cost <= known + kCostSlack) ||
        reachLeavesInto(graph, crossed, reach, left, end) != 0)
      continue;
    best = cost;
    entry = ReachWay::Straight;
    from = endLeft ? ApproachEnd::LeftEnd : ApproachEnd::RightEnd;
  }
  for (const bool gateLeft : {true, false}) {
    if (!(turns & turn_bits::gateEntersReach(left, gateLeft))) continue;
    const float cost = costPastGateEnd(node, portal, gateLeft, at, best, known);
    if (!(cost < best && cost <= known + kCostSlack)) continue;
    best = cost;
    entry = gateLeft ? ReachWay::PastLeftGateEnd : ReachWay::PastRightGateEnd;
  }
  return best;
}

IntervalSearch::Node& IntervalSearch::newTurnNode(const glm::vec2& at, float cost, uint32_t portal,
                                                  EndTurn turn, uint32_t parent) {
  Node& next = newNode();
  next.root = at;
  next.cost = cost;
  next.crossed = portal;
  next.sector = m_query.graph->portals[portal].toSector;
  next.parent = parent;
  next.isPoint = true;
  next.turn = turn;
  return next;
}

uint32_t IntervalSearch::endTurnSlot(uint32_t portal, EndTurn turn) {
  const bool reach = turn == EndTurn::LeftReach || turn == EndTurn::RightReach;
  const bool left = turn == EndTurn::LeftEnd || turn == EndTurn::LeftReach;
  return portal * 4 + (reach ? 2u : 0u) + (left ? 0u : 1u);
}

void IntervalSearch::expandPoint(const Node& node, uint32_t index) {
  const NavGraph& graph = *m_query.graph;
  const uint32_t sector = node.sector;
  const glm::vec2& root = node.root;
  const float cost = node.cost;
  // A turn at a reach's point sees only what its reach proves clear.
  const bool reached = node.turn == EndTurn::LeftReach || node.turn == EndTurn::RightReach;
  // Where sectors meet at a point, crossing from one to the next there costs
  // nothing: each (sector, point) that sees all of its sector is expanded
  // once, at its lowest cost. A reach's turn is kept apart (pushEndTurns).
  if (!reached) {
    const auto [seen, fresh] = m_pointsExpanded.try_emplace(pointKey(sector, root), cost);
    if (!fresh) {
      if (cost >= seen->second - kCostSlack) return;
      seen->second = cost;
    }
  }
  const auto sees = [&](const glm::vec2& from, const glm::vec2& to) {
    return reached ? reachSees(graph, node.crossed, node.turn == EndTurn::LeftReach, from, to)
                   : Range{0.0f, 1.0f};
  };
  // Whether the node sees all of every way on, and reaches every turn past
  // the gates straight: a turn at a reach's point then gains nothing from
  // turning again at its entering gate's ends.
  bool seesAll = true;
  if (sector == m_query.goalSector) {
    if (!sees(m_goal, m_goal).empty())
      pushGoal(cost + glm::distance(root, m_goal) * m_query.metre, index);
    else
      seesAll = false;
  }
  const uint32_t back = cameFrom(node);
  const Sector& s = graph.sectors[sector];
  for (uint32_t p = s.firstPortal; p < s.firstPortal + s.portalCount; ++p) {
    if (!walksOn(p, sector, back)) continue;
    const Range visible =
        sees(groundOf(crossingEnd(p, true, false)), groundOf(crossingEnd(p, false, false)));
    if (!(visible.low == 0.0f && visible.high == 1.0f)) seesAll = false;
    const uint32_t turnNode = node.turn != EndTurn::None ? index : kNoNode;
    if (!visible.empty())
      cross(p, visible, {root, cost, node.rootKey, reached, turnNode}, index, true);
    else if (reached)
      pushReachesPast(node, index, p);
    if (!pushEndTurns(node, index, p)) seesAll = false;
  }
  if (!reached)
    pushTeleports(node, index);
  else if (!seesAll)
    pushReachExits(node, index);
}

// The way on from a reach's point may turn at an end of the portal's
// entering gate, on the cells, where corner reach keeps the funnel's corner.
// A turn at a reach's point that sees none of a portal's gate may still go
// straight through it, and on through the sectors beyond, to a reach of a
// portal out of one of them, where clearBetweenTurns lets corner reach move
// corners so (that reach answering for the whole stretch) and the stretch
// passes every crossed portal's gates. Each crossing is a node of its own,
// never expanded, that the corridor goes through.
void IntervalSearch::pushReachesPast(const Node& node, uint32_t index, uint32_t portal) {
  const NavGraph& graph = *m_query.graph;
  const GateTurn from = gateTurnOf(node.crossed, node.turn);
  // The stretch passes both of the portal's gates, so it keeps to both wedges.
  const auto wedgeThrough = [&](uint32_t p, bool entering) {
    return Wedge(node.root, groundOf(crossingEnd(p, true, entering)),
                 groundOf(crossingEnd(p, false, entering)));
  };
  const Wedge leaving = wedgeThrough(portal, false), entering = wedgeThrough(portal, true);
  // The reach's point sees none of the gate, so it proves no stretch through
  // it: the reach at the far end must answer for all of it, and no reach is
  // longer than the longest.
  if (m_longestReach < 0.0f) {
    m_longestReach = 0.0f;
    for (const PortalEndReach& reach : graph.reach)
      m_longestReach = std::max(m_longestReach, reach.length);
  }
  const auto mayPass = [&](uint32_t q) {
    const glm::vec2 a = groundOf(crossingEnd(q, true, false));
    const glm::vec2 b = groundOf(crossingEnd(q, false, false));
    return leaving.mayMeet(a, b) && entering.mayMeet(a, b) &&
           glm::distance(node.root, closestOnSegment(a, b, node.root)) <= m_longestReach + kPoint;
  };
  // Breadth first, each sector once: the sector and the one it was entered from.
  m_sectorPastSeen.startQuery(graph.sectors.size());
  m_sectorPastSeen.claim(graph.portals[portal].toSector);
  m_sectorsPast.assign(1, {graph.portals[portal].toSector, graph.portals[portal].fromSector});
  size_t levelEnd = 1;
  int level = 0;
  for (size_t k = 0; k < m_sectorsPast.size(); ++k) {
    if (k == levelEnd) {
      ++level;
      levelEnd = m_sectorsPast.size();
    }
    const auto [beyond, back] = m_sectorsPast[k];
    const Sector& sector = graph.sectors[beyond];
    for (uint32_t q = sector.firstPortal; q < sector.firstPortal + sector.portalCount; ++q) {
      if (!walksOn(q, beyond, back)) continue;
      const Portal& next = graph.portals[q];
      if (level + 1 < kSectorsPast && mayPass(q) && m_sectorPastSeen.claim(next.toSector))
        m_sectorsPast.emplace_back(next.toSector, beyond);
      const uint8_t turns = turnsPastGates(graph, q);
      for (const EndTurn turn : {EndTurn::LeftReach, EndTurn::RightReach}) {
        if (!(turns & turnBit(turn))) continue;
        const GateTurn to = gateTurnOf(q, turn);
        const glm::vec2 at = gateTurnAt(graph, to);
        if (!leaving.holds(at) || !entering.holds(at) ||
            glm::distance(node.root, at) > graph.reach[portalEndIndex(q, to.left)].length)
          continue;
        const float cost = node.cost + glm::distance(node.root, at) * m_query.metre;
        const uint32_t slot = endTurnSlot(q, turn);
        if (m_endTurnCost.seen(slot) && !(cost < m_endTurnCost[slot] - kCostSlack)) continue;
        if (!clearBetweenTurns(graph, from, to) || !crossedOnTheWay(node.root, at, portal, beyond))
          continue;
        m_endTurnCost.touch(slot, cost) = cost;
        uint32_t parent = index;
        for (const uint32_t crossed : m_crossed) {
          Node& crossing = newNode();
          crossing.root = node.root;
          crossing.cost = node.cost;
          crossing.crossed = crossed;
          crossing.sector = graph.portals[crossed].toSector;
          crossing.parent = parent;
          crossing.isPoint = true;
          parent = uint32_t(m_nodes.size() - 1);
        }
        newTurnNode(at, cost, q, turn, parent);
        queueNewest();
      }
    }
  }
}

bool IntervalSearch::crossedOnTheWay(const glm::vec2& root, const glm::vec2& at, uint32_t first,
                                     uint32_t last) {
  const NavGraph& graph = *m_query.graph;
  const auto passes = [&](uint32_t portal) {
    for (const bool entering : {false, true}) {
      const glm::vec2 a = groundOf(crossingEnd(portal, true, entering));
      const glm::vec2 b = groundOf(crossingEnd(portal, false, entering));
      if (!segmentMeetsBox(root, at, glm::min(a, b) - kPoint, glm::max(a, b) + kPoint))
        return false;
    }
    return true;
  };
  m_crossed.clear();
  uint32_t portal = first;
  for (int step = 0; step < kSectorsPast; ++step) {
    if (!passes(portal)) return false;
    m_crossed.push_back(portal);
    const uint32_t back = graph.portals[portal].fromSector;
    const uint32_t here = graph.portals[portal].toSector;
    if (here == last) return true;
    const Sector& sector = graph.sectors[here];
    portal = kNoPortal;
    for (uint32_t q = sector.firstPortal; q < sector.firstPortal + sector.portalCount; ++q) {
      const Portal& next = graph.portals[q];
      if (next.kind == PortalKind::Walk && next.toSector != back && opens(next.toSector) &&
          passes(q)) {
        portal = q;
        break;
      }
    }
    if (portal == kNoPortal) return false;
  }
  return false;
}

// A widened end's turn: the way to a turn past the gates of a portal out of
// its sector may go by an end of the node's own entering gate, a point on the
// cells, where their straight way is not proven (both on one edge of the
// sector, whose cells their hulls do not meet), as corner reach goes.
float IntervalSearch::costPastEnteringGateEnd(const Node& node, uint32_t portal, EndTurn turn,
                                              float best, ReachWay& exit) const {
  const NavGraph& graph = *m_query.graph;
  const bool reach = turn == EndTurn::LeftReach || turn == EndTurn::RightReach;
  const bool left = turn == EndTurn::LeftEnd || turn == EndTurn::LeftReach;
  const glm::vec2 at = groundOf(endTurnPoint(graph, portal, turn));
  exit = ReachWay::Straight;
  for (const bool gateLeft : {true, false}) {
    const glm::vec2 gate = groundOf(crossingEnd(node.crossed, gateLeft, true));
    const float cost =
        node.cost + (glm::distance(node.root, gate) + glm::distance(gate, at)) * m_query.metre;
    if (!(cost < best)) continue;
    if (reach && reachLeavesInto(graph, graph.portals[portal],
                                 graph.reach[portalEndIndex(portal, left)], left, gate) != 0)
      continue;
    best = cost;
    exit = gateLeft ? ReachWay::PastLeftGateEnd : ReachWay::PastRightGateEnd;
  }
  return best;
}

void IntervalSearch::pushReachExits(const Node& node, uint32_t index) {
  const NavGraph& graph = *m_query.graph;
  const bool left = node.turn == EndTurn::LeftReach;
  const Portal& portal = graph.portals[node.crossed];
  const PortalEndReach& reach = graph.reach[portalEndIndex(node.crossed, left)];
  for (const bool gateLeft : {true, false}) {
    const glm::vec2 gate = groundOf(crossingEnd(node.crossed, gateLeft, true));
    if (reachLeavesInto(graph, portal, reach, left, gate) != 1) continue;
    Node& exit = newNode();
    exit = node;
    exit.root = gate;
    exit.cost = node.cost + glm::distance(node.root, gate) * m_query.metre;
    exit.parent = index;
    exit.turn = EndTurn::None;
    exit.entry = ReachWay::Straight;
    exit.exit = gateLeft ? ReachWay::PastLeftGateEnd : ReachWay::PastRightGateEnd;
    exit.reachRoot = false;
    queueNewest();
  }
}

float IntervalSearch::rounding(const glm::vec2& root, const glm::vec2& from, const glm::vec2& to) {
  return kPoint + kRayRounding * std::max(glm::distance(root, from), glm::distance(root, to));
}

bool IntervalSearch::settle(Range& range, float length, float rounding) {
  if (range.empty()) return false;
  // A ray that passes a segment's end within rounding passes through it: the
  // range keeps the end (where the path may turn), and the sliver beyond is nothing.
  if (range.low * length <= rounding) range.low = 0.0f;
  if ((1.0f - range.high) * length <= rounding) range.high = 1.0f;
  if (length > kPoint && (range.high - range.low) * length <= rounding) {
    // Seen only at one of its own ends: the way may pass through that point
    // (a corner where sectors meet, the walls beside it), as a point range
    // there; a sliver anywhere else is nothing.
    if (range.low == 0.0f) {
      range.high = 0.0f;
    } else if (range.high == 1.0f) {
      range.low = 1.0f;
    } else {
      return false;
    }
  }
  return true;
}

template <class Reach>
void IntervalSearch::project(const Cone& cone, Corner (&corners)[2], const glm::vec2& from,
                             const glm::vec2& to, Reach&& reach) {
  const glm::vec2 &r = cone.way.root, &a = corners[0].at, &b = corners[1].at;
  // Per side of the cone (the ray through a, the ray through b), how far inside
  // it the segment's two ends are.
  float inside[2][2] = {{cone.side * cross2(a - r, from - r), cone.side * cross2(a - r, to - r)},
                        {cone.side * cross2(from - r, b - r), cone.side * cross2(to - r, b - r)}};
  // An end within rounding of a side's line lies on it: a way straight
  // through the interval's end reaches it. (settle does the same for an end
  // of a segment that crosses the line; a segment along the line, or a
  // one-cell portal's point gate, crosses nothing and would be lost.)
  for (int side = 0; side < 2; ++side) {
    const glm::vec2 edge = (side == 0 ? a : b) - r;
    for (float& value : inside[side]) {
      if (value < 0.0f && value * value <= kPoint * kPoint * glm::dot(edge, edge)) value = 0.0f;
    }
  }
  reach(intersect(nonNegativePart(inside[0][0], inside[0][1]),
                  nonNegativePart(inside[1][0], inside[1][1])),
        cone.way);
  // Reaches `outside` turning at `corner`, claimed as a root the first time.
  const auto turnAt = [&](Corner& corner, const Range& outside) {
    if (!corner.open || outside.empty()) return;
    if (!corner.claimed) {
      corner.cost = cone.way.cost + glm::distance(cone.way.root, corner.at) * m_query.metre;
      corner.key = cornerKey(corner.portal, corner.left);
      corner.open = claimRoot(corner.key, corner.cost);
      corner.claimed = true;
    }
    if (corner.open) reach(outside, Way{corner.at, corner.cost, corner.key});
  };
  for (int side = 0; side < 2; ++side)
    turnAt(corners[side], negativePart(inside[side][0], inside[side][1]));
  // Past what a reach's point sees lies no wall: where that side's end is no
  // corner, the way turns at the other end, a corner on the cells, which sees
  // all of the strip.
  if (!cone.way.reachRoot) return;
  for (int side = 0; side < 2; ++side) {
    if (!corners[side].open)
      turnAt(corners[1 - side], negativePart(inside[side][0], inside[side][1]));
  }
}

void IntervalSearch::cross(uint32_t portal, Range range, const Way& way, uint32_t parent,
                           bool rootInSector) {
  const glm::vec2 from = groundOf(crossingEnd(portal, true, false));
  const glm::vec2 to = groundOf(crossingEnd(portal, false, false));
  if (!settle(range, glm::distance(from, to), rounding(way.root, from, to))) return;
  if (!m_gated) return pushInterval(portal, range, way, parent);
  if (hasWayBackAtAPoint(*m_query.graph, portal) && !way.reachRoot)
    pushBackOverTheSameEdge(portal, from, to, range, way, parent, rootInSector);
  // Through gates: the range lies on the leaving gate; the strip between it and
  // the entering gate is a rectangle whose only way on is that gate. A turn at
  // a reach's point sees only the part its reach proves: the way may turn at
  // that part's ends, which see all of the strip.
  const bool viewEnds = way.reachRoot && rootInSector;
  Corner corners[2] = {
      {pointOnSegment(from, to, range.low), portal, true, range.low == 0.0f || viewEnds},
      {pointOnSegment(from, to, range.high), portal, false, range.high == 1.0f || viewEnds}};
  const glm::vec2 &r = way.root, &a = corners[0].at, &b = corners[1].at;
  const float across = cross2(a - r, b - r);
  const float spanLength = glm::distance(a, b);
  // A point of the sector on or past the gate's line (a turn past the gates
  // of a portal on the same side of the sector) stands in the strip or beside it.
  const bool past =
      rootInSector && glm::dot(walkDirection(m_query.graph->portals[portal]), a - r) <= kPoint;
  if (past || spanLength <= kPoint || std::abs(across) <= kOnLine * spanLength) {
    // A point range, one in line with the root, or a root past it: the way on
    // starts where the root stands on it, or at its nearer end; from there
    // all the strip is seen.
    const float along =
        spanLength > kPoint ? glm::dot(r - a, b - a) / (spanLength * spanLength) : -1.0f;
    if (along > 0.0f && along < 1.0f) return pushInterval(portal, {0.0f, 1.0f}, way, parent);
    const Corner& nearer =
        corners[spanLength <= kPoint || glm::distance(r, a) <= glm::distance(r, b) ? 0 : 1];
    const uint32_t key =
        nearer.open
            ? cornerKey(portal, nearer.left)
            : rootKeyAt(glm::vec3(nearer.at.x, crossingEnd(portal, true, false).y, nearer.at.y));
    const float cost = way.cost + glm::distance(r, nearer.at) * m_query.metre;
    if (!claimRoot(key, cost)) return;
    return pushInterval(portal, {0.0f, 1.0f}, Way{nearer.at, cost, key}, parent);
  }
  const Cone cone{way, sign(across)};
  project(cone, corners, groundOf(crossingEnd(portal, true, true)),
          groundOf(crossingEnd(portal, false, true)), [&](Range entering, const Way& through) {
            pushInterval(portal, entering, through, parent);
          });
}

// A corridor in over a walk portal and straight back out over the same line
// into a sector beside the one it left, the two portals meeting at one point
// (sectors beside each other, not joined): the funnel pulls it from the first
// one's leaving gate to that point on the line, and from there through the
// second one's entering gate (addBackAlongTheEdge in funnel.cpp), never into
// the sector between, whose cells the search would walk through. So the
// search goes that way too: to the point straight from the way's root
// through the range, or past an end of the range that is the gate's own;
// the point then sees all of the entering gate. The corridor names both
// portals: a node for the first, never expanded, links the way out to the
// node that crossed it. Not followed: a way from a turn at a reach's point
// (the funnel pulls it through what the reach sees, not the gate), one whose
// root stands past a gate wider than a point, and one whose portal in pairs
// with the portal before it, as the funnel would take them.
void IntervalSearch::pushBackOverTheSameEdge(uint32_t portal, const glm::vec2& from,
                                             const glm::vec2& to, Range range, const Way& way,
                                             uint32_t parent, bool rootInSector) {
  const NavGraph& graph = *m_query.graph;
  const Portal& in = graph.portals[portal];
  const glm::vec2 &r = way.root, a = pointOnSegment(from, to, range.low),
                  b = pointOnSegment(from, to, range.high);
  if (rootInSector && glm::dot(walkDirection(in), a - r) < -kPoint && glm::distance(a, b) > kPoint)
    return;
  const uint32_t before = m_nodes[parent].crossed;
  if (before != kNoPortal && before < graph.portals.size() &&
      backOverTheSameEdge(graph, graph.portals[before], in))
    return;
  const Sector& between = graph.sectors[in.toSector];
  uint32_t link = kNoNode;
  for (uint32_t p = between.firstPortal; p < between.firstPortal + between.portalCount; ++p) {
    const Portal& out = graph.portals[p];
    if (!wayBackAtAPoint(graph, in, out) || !walksOn(p, in.toSector, in.fromSector)) continue;
    const glm::vec3 point = pointAlongTheEdge(in, overlapAlongTheEdge(in, out).first);
    const float cost =
        costPastRange(way, a, b, range.low == 0.0f, range.high == 1.0f, groundOf(point));
    if (!(cost < kInfinity)) continue;
    const uint32_t key = rootKeyAt(point);
    if (!claimRoot(key, cost)) continue;
    if (link == kNoNode) {
      link = uint32_t(m_nodes.size());
      Node& through = newNode();
      through.root = r;
      through.left = through.right = groundOf(point);
      through.cost = way.cost;
      through.rootKey = way.rootKey;
      through.crossed = portal;
      through.sector = in.toSector;
      through.parent = parent;
    }
    pushInterval(p, {0.0f, 1.0f}, Way{groundOf(point), cost, key}, link);
  }
}

// Straight when `at` lies between the rays from the root through the
// segment's ends, else past the end on its side where that end is open.
float IntervalSearch::costPastRange(const Way& way, const glm::vec2& a, const glm::vec2& b,
                                    bool aOpen, bool bOpen, const glm::vec2& at) const {
  const glm::vec2& r = way.root;
  const float metre = m_query.metre;
  const auto past = [&](const glm::vec2& end) {
    return way.cost + (glm::distance(r, end) + glm::distance(end, at)) * metre;
  };
  const float reach = glm::distance(r, at);
  const float span = glm::distance(a, b);
  const float across = cross2(a - r, b - r);
  if (span <= kPoint || std::abs(across) <= kOnLine * span) {
    // A point, or a segment in line with the root: from where the root
    // stands on it, or through its nearer end (as cross() goes on).
    const float along = span > kPoint ? glm::dot(r - a, b - a) / (span * span) : -1.0f;
    if (along > 0.0f && along < 1.0f) return way.cost + reach * metre;
    return past(glm::distance(r, a) <= glm::distance(r, b) ? a : b);
  }
  const float side = sign(across);
  if (cross2(a - r, at - r) * side < -kOnLine * reach) return aOpen ? past(a) : kInfinity;
  if (cross2(at - r, b - r) * side < -kOnLine * reach) return bOpen ? past(b) : kInfinity;
  return way.cost + reach * metre;
}

void IntervalSearch::pushInterval(uint32_t portal, Range range, const Way& way, uint32_t parent) {
  const glm::vec2 from = groundOf(crossingEnd(portal, true, true));
  const glm::vec2 to = groundOf(crossingEnd(portal, false, true));
  if (!settle(range, glm::distance(from, to), rounding(way.root, from, to))) return;
  Node& next = newNode();
  next.root = way.root;
  next.left = pointOnSegment(from, to, range.low);
  next.right = pointOnSegment(from, to, range.high);
  next.cost = way.cost;
  next.rootKey = way.rootKey;
  next.reachRoot = way.reachRoot;
  next.rootTurn = way.turnNode;
  next.crossed = portal;
  next.sector = m_query.graph->portals[portal].toSector;
  next.parent = parent;
  next.leftTurns = range.low == 0.0f;
  next.rightTurns = range.high == 1.0f;
  queueNewest();
}

void IntervalSearch::expand(const Node& node, uint32_t index) {
  const NavGraph& graph = *m_query.graph;
  const float metre = m_query.metre;
  if (node.isPoint) return expandPoint(node, index);

  const glm::vec2 &r = node.root, &a = node.left, &b = node.right;
  const Portal& entered = graph.portals[node.crossed];
  // A point interval, or one in line with its root: the way on starts where the
  // root stands on it, or at its nearer end; from there all of the sector is seen.
  const float across = cross2(a - r, b - r);
  const float spanLength = glm::distance(a, b);
  // Portal coordinates lie on a grid of sixths of a cell: a root this close to
  // the interval's line is on it, up to rounding.
  const bool inLine = std::abs(across) <= kOnLine * spanLength;
  if (spanLength <= kPoint || inLine) {
    // A root on the interval itself crosses it where it stands.
    const float along =
        spanLength > kPoint ? glm::dot(r - a, b - a) / (spanLength * spanLength) : -1.0f;
    Node point = node;
    point.isPoint = true;
    if (along > 0.0f && along < 1.0f) return expandPoint(point, index);
    // A point interval lies at the end its flag names (settle); else the
    // way goes to the nearer end.
    const bool right =
        spanLength <= kPoint ? !node.leftTurns : glm::distance(r, b) < glm::distance(r, a);
    const bool turns = right ? node.rightTurns : node.leftTurns;
    point.root = right ? b : a;
    point.rootTurn = kNoNode;
    point.cost = node.cost + glm::distance(r, point.root) * metre;
    // Passing straight through an end that is no corner, the way still
    // stands there: keyed by the point, on the crossing's height.
    const glm::vec3 end = crossingEnd(node.crossed, !right, true);
    point.rootKey = turns ? cornerKey(node.crossed, !right)
                          : rootKeyAt(glm::vec3(point.root.x, end.y, point.root.y));
    if (!claimRoot(point.rootKey, point.cost)) return;
    return expandPoint(point, index);
  }

  if (node.sector == m_query.goalSector) pushGoal(costToGoal(node), index);

  // Turning at an end of the interval that is the crossing's own (a wall
  // corner) reaches what the root cannot see past it. The end becomes a root
  // the first time a portal needs it, unless it was reached cheaper before.
  Corner turns[2] = {{a, node.crossed, true, node.leftTurns},
                     {b, node.crossed, false, node.rightTurns}};
  const Cone cone{{r, node.cost, node.rootKey, node.reachRoot, node.rootTurn}, sign(across)};

  const Sector& sector = graph.sectors[node.sector];
  for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
    // Straight back into the sector the node came from is never shorter than
    // staying in it (it is convex), nor is a dead end. Other portals on the
    // side the node came in by lie outside the interval: reached by turning at its end.
    if (!walksOn(p, node.sector, entered.fromSector)) continue;
    project(cone, turns, groundOf(crossingEnd(p, true, false)),
            groundOf(crossingEnd(p, false, false)),
            [&](Range range, const Way& way) { cross(p, range, way, index, false); });
    pushEndTurns(node, index, p);
  }
  pushTeleports(node, index);
}

void IntervalSearch::corridorNodes(std::vector<uint32_t>& nodes, std::vector<EndTurn>& turns,
                                   std::vector<ReachWay>& entries, std::vector<ReachWay>& exits,
                                   std::vector<ReachWay>& gateTurns) const {
  nodes.clear();
  turns.clear();
  entries.clear();
  exits.clear();
  gateTurns.clear();
  if (m_reached == kNoNode) return;
  // The interval ends a reach's point was entered from straight: node index,
  // and which end.
  std::vector<std::pair<uint32_t, ReachWay>> turnedAt;
  for (uint32_t i = m_reached; i != kNoNode; i = m_nodes[i].parent) {
    const Node& node = m_nodes[i];
    if ((node.turn != EndTurn::LeftReach && node.turn != EndTurn::RightReach) ||
        node.entry != ReachWay::Straight || node.parent == kNoNode)
      continue;
    uint32_t from = node.parent;
    if (m_nodes[from].isPoint) continue;
    if (node.entryFrom != ApproachEnd::Root) {
      turnedAt.emplace_back(from, node.entryFrom == ApproachEnd::LeftEnd
                                      ? ReachWay::PastLeftGateEnd
                                      : ReachWay::PastRightGateEnd);
      continue;
    }
    // From the root: the end of the interval where the path turned to it.
    const glm::vec2 root = m_nodes[from].root;
    while (from != kNoNode && !m_nodes[from].isPoint && m_nodes[from].root == root)
      from = m_nodes[from].parent;
    if (from == kNoNode || m_nodes[from].isPoint) continue;
    // An end of that interval's gate, where the funnel may turn (in the last
    // bit the root may differ from the gate's end).
    const uint32_t portal = m_nodes[from].crossed;
    if (glm::distance(groundOf(crossingEnd(portal, true, true)), root) <= kPoint)
      turnedAt.emplace_back(from, ReachWay::PastLeftGateEnd);
    else if (glm::distance(groundOf(crossingEnd(portal, false, true)), root) <= kPoint)
      turnedAt.emplace_back(from, ReachWay::PastRightGateEnd);
  }
  // A turn's exit node stands in the sector its parent entered: no portal of its own.
  ReachWay exit = ReachWay::Straight;
  for (uint32_t i = m_nodes[m_reached].parent; i != kNoNode && m_nodes[i].crossed != kNoPortal;
       i = m_nodes[i].parent) {
    if (m_nodes[i].exit != ReachWay::Straight) {
      exit = m_nodes[i].exit;
      continue;
    }
    nodes.push_back(m_nodes[i].crossed);
    turns.push_back(m_nodes[i].turn);
    entries.push_back(m_nodes[i].entry);
    exits.push_back(exit);
    ReachWay gateTurn = ReachWay::Straight;
    for (const auto& [node, end] : turnedAt) {
      if (node == i) gateTurn = end;
    }
    gateTurns.push_back(gateTurn);
    exit = ReachWay::Straight;
  }
  std::reverse(nodes.begin(), nodes.end());
  std::reverse(turns.begin(), turns.end());
  std::reverse(entries.begin(), entries.end());
  std::reverse(exits.begin(), exits.end());
  std::reverse(gateTurns.begin(), gateTurns.end());
}

float IntervalSearch::cost() const {
  return m_reached == kNoNode ? kInfinity : m_nodes[m_reached].cost;
}

}  // namespace nav
