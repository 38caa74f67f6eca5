#include "nav/portal_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "format_number.h"

namespace nav {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// The point of the portal that makes the way from `from` to `to` through it
// shortest in the ground plane.
glm::vec3 crossing(const Portal& portal, const glm::vec3& from, const glm::vec3& to) {
  return glm::mix(
      portal.left, portal.right,
      touchingPoint(groundOf(portal.left), groundOf(portal.right), groundOf(from), groundOf(to)));
}

}  // namespace

void PortalSearch::init(const PortalQuery& query) {
  m_query = query;
  const NavGraph& graph = *query.graph;
  m_startNode = uint32_t(graph.portals.size());
  m_goalNode = m_startNode + 1;
  const size_t nodeCount = firstJumpNode() + query.jumps.size();
  m_nodes.startQuery(nodeCount);
  if (query.turningRadius > 0.0f && m_headings.size() < nodeCount) m_headings.resize(nodeCount);
  m_pullsString = query.portalPoint == PortalPoint::Crossing && query.turningRadius == 0.0f;
  m_visits.startQuery(graph.sectors.size());
  m_expansions = 0;
  m_open.clear();
  m_blockedBy.clear();
  m_skipped.clear();
  m_leftRegion = false;
  m_skipsDeadEnds = query.skipDeadEnds && query.turningRadius == 0.0f;
  m_closest = m_startNode;
  m_closestDistance = glm::distance(query.start.point, query.goal.point);
  confine();
  // The unit stands at the start facing any way it likes.
  relax(m_startNode, kNoPortal, 0.0f, estimateThrough(query.start.point, 0.0f), query.start.point,
        Heading{{0.0f, 0.0f}, 0.0f, true},
        PulledString::startingAt(query.start.point, 0.0f, query.startSectorCost));
}

SearchStep PortalSearch::step() {
  while (!m_open.empty()) {
    const OpenEntry entry = m_open.pop();
    const Node& node = m_nodes[entry.node];
    // Lazy deletion: an entry is stale once its node was closed or reached another way.
    if (node.state == NodeState::Closed || entry.cost != node.costSoFar) continue;
    // Stopping when the goal is popped, not when first seen, keeps the path optimal.
    if (entry.node == m_goalNode) return SearchStep::Reached;
    if (dominated(sectorOf(entry.node), node.point, entry.cost)) {
      m_nodes[entry.node].state = NodeState::Closed;
      if (m_query.traced) {
        trace(SearchEvent::Kind::Drop, entry.node, entry.cost, entry.estimate, node.point);
      }
      continue;
    }
    if (m_expansions >= m_query.maxExpansions) return SearchStep::Exhausted;
    expand(entry);
    return SearchStep::Searching;
  }
  return SearchStep::NoWay;
}

void PortalSearch::corridorNodes(bool reached, std::vector<uint32_t>& nodes) const {
  nodes.clear();
  for (uint32_t node = reached ? m_nodes[m_goalNode].parent : m_closest; node != m_startNode;
       node = m_nodes[node].parent) {
    nodes.push_back(node);
  }
  std::reverse(nodes.begin(), nodes.end());
}

float PortalSearch::cost(bool reached) const {
  if (reached) return m_nodes[m_goalNode].costSoFar;
  return m_closest == m_startNode ? 0.0f : m_nodes[m_closest].costSoFar;
}

uint32_t PortalSearch::closestSector() const {
  return sectorOf(m_closest);
}

void PortalSearch::trace(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                         const glm::vec3& point) const {
  m_query.rules->tracePoint(kind, node == m_startNode ? kNoPortal : node, cost, estimate, point);
}

// Closed nodes are reopened too, so a heuristic scale above 1 (inconsistent)
// still gives a valid, if not optimal, corridor. Callers keep NaN and
// infinite estimates out of the open list: none is below estimateNow.
void PortalSearch::relax(uint32_t node, uint32_t from, float cost, float estimate,
                         const glm::vec3& point, const Heading& heading,
                         const PulledString& string) {
  Node& target = m_nodes[node];
  if (m_nodes.claim(node)) {
    target.costSoFar = kInfinity;
    target.parent = target.previousVisit = kNoPortal;
    target.state = NodeState::Unseen;
  }
  const bool seen = target.state != NodeState::Unseen;
  target.costSoFar = cost;
  target.parent = from;
  target.point = point;
  target.state = NodeState::Open;
  if (m_query.turningRadius > 0.0f) m_headings[node] = heading;
  if (m_pullsString) target.string = string;
  m_open.push({estimate, cost, node});
  if (m_query.traced && node != m_goalNode) {
    trace(seen ? SearchEvent::Kind::Reopen : SearchEvent::Kind::Open, node, cost, estimate, point);
  }
}

const Portal& PortalSearch::nodePortal(uint32_t node) const {
  return node >= firstJumpNode() ? m_query.jumps[node - firstJumpNode()].portal
                                 : m_query.graph->portals[node];
}

bool PortalSearch::turn(const Heading& from, const glm::vec2& direction, float length,
                        Heading& after) const {
  // Shorter moves (touching a portal's end) keep the heading they had.
  constexpr float kNoMove = 1e-4f;
  // Headings this close count as straight on: rounding, not a turn.
  constexpr float kStraightCosine = 0.99995f;
  if (!(length > kNoMove)) {
    after = from;
    return true;
  }
  const glm::vec2 towards = direction / length;
  if (from.direction == glm::vec2(0.0f)) {
    after = {towards, length, from.free};
    return true;
  }
  const float cosine = std::clamp(glm::dot(from.direction, towards), -1.0f, 1.0f);
  if (cosine >= kStraightCosine) {
    after = {towards, from.straight + length, from.free};
    return true;
  }
  const float angle = std::acos(cosine);
  // The arc meets the two straights this far from the corner.
  const float tangent = m_query.turningRadius * std::tan(0.5f * angle);
  // The straight run after the turn, or below zero when the turn does not fit.
  float room = tangent <= std::min(from.straight, length) ? length : -1.0f;
  if (from.free) {
    const float along = alongFromStart(from.straight, angle);
    if (along <= length) room = std::max(room, length - along);
  }
  if (!(room >= 0.0f)) return false;
  after = {towards, room};
  return true;
}

// The straight from the start was the unit's choice: standing there facing
// any way, it may as well have left on an arc of the turning radius that
// meets the new straight's line. That arc is the circle through the start,
// `run` back from the corner, touching the line on the inside of the turn;
// the start must lie within its reach (its distance from the line, run sin
// angle, at most the diameter). Returns how far past the corner the arc meets
// the line (below zero: before it, and the unit runs straight from there), or
// infinity when it cannot. So a start a few centimetres from its first
// crossing (snapped onto the edge of a sliver sector beside the one it stands
// in, say) turns about as if it started on the crossing, not as if it had
// driven those centimetres and had no room left, while a start far back turns
// as the corner's straights allow.
float PortalSearch::alongFromStart(float run, float angle) const {
  const float radius = m_query.turningRadius;
  const float rise = run * std::sin(angle);
  if (!(rise <= 2.0f * radius)) return std::numeric_limits<float>::infinity();
  const float offset = radius - rise;
  return -run * std::cos(angle) + std::sqrt(std::max(0.0f, radius * radius - offset * offset));
}

bool PortalSearch::headingThrough(const Heading& at, const glm::vec3& point, uint32_t node,
                                  const Portal& portal, const glm::vec3& in, const glm::vec3& out,
                                  Heading& after) const {
  const glm::vec2 walk = groundOf(in) - groundOf(point);
  if (!turn(at, walk, glm::length(walk), after)) return false;
  if (portal.kind == PortalKind::Jump) {
    // Facing the jump's heading at takeoff, then flying straight on.
    const float heading = m_query.jumps[node - firstJumpNode()].spec.heading;
    const glm::vec2 facing{std::cos(heading), std::sin(heading)};
    const float flight = glm::length(groundOf(out) - groundOf(in));
    return turn(after, facing * flight, flight, after);
  }
  // A device or a waypath sets the unit down facing any way.
  if (portal.kind != PortalKind::Walk) after = {};
  return true;
}

void PortalSearch::noteClosed(const Sector& target) {
  const NavGraph& graph = *m_query.graph;
  if (m_blockedBy.empty() && target.kind == SectorKind::Ground &&
      target.surface < graph.surfaces.size()) {
    m_blockedBy = "the way crosses surface '" + graph.surfaces[target.surface].name +
                  "', closed to this query";
  }
}

// Relaxes the way from the node being expanded (entry, standing in `sector`
// where a metre costs `metre`) through `portal`, which is node `node`.
void PortalSearch::considerPortal(uint32_t node, const Portal& portal, const OpenEntry& entry,
                                  const Sector& sector, float metre, const PulledString& string) {
  const NavGraph& graph = *m_query.graph;
  const glm::vec3& point = m_nodes[entry.node].point;
  const bool walk = portal.kind == PortalKind::Walk;
  glm::vec3 in;
  // The cost from the expanded node to `in`, then out of the portal.
  float cost;
  if (!walk)
    in = graph.entryPoint(portal);
  else if (m_query.portalPoint == PortalPoint::Crossing)
    in = crossing(portal, point, m_query.goal.point);
  else if (m_query.portalPoint == PortalPoint::Centroid)
    in = graph.centroid(graph.sectors[portal.toSector]);
  else
    in = portal.midpoint();
  // Straight from the string's apex where it sees the way in, else from the node's point.
  if (m_pullsString && string.sees(in))
    cost = string.costTo(in) - entry.cost;
  else
    cost = glm::distance(point, in) * metre;
  const glm::vec3 out = walk ? in : graph.exitPoint(portal);
  if (sector.kind == SectorKind::Waypath) {
    // Ridden along the waypath from the point it was joined at, forwards only when one-way.
    const WaypathSpec& waypath = graph.waypaths[sector.waypath];
    const uint32_t from = nodePortal(entry.node).link, to = portal.link;
    if (from == to || (waypath.oneWay && to < from)) return;
    const std::vector<float>& along = m_query.costs->waypathLength(sector.waypath);
    cost = std::abs(along[to] - along[from]) * metre;
  }
  if (portal.kind == PortalKind::Device || portal.kind == PortalKind::Jump) {
    const float through = m_query.rules->teleportCost(node);
    if (!(through < kInfinity)) {
      const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
      if (m_blockedBy.empty()) {
        m_blockedBy = std::string(toString(device.kind)) + " '" + device.id +
                      "' is locked and needs key '" + device.key + "'";
      }
      return;
    }
    cost += through;
  }
  Heading heading;
  if (m_query.turningRadius > 0.0f) {
    // Off a waypath the unit may face any way.
    const Heading at = sector.kind == SectorKind::Waypath ? Heading{} : m_headings[entry.node];
    if (!headingThrough(at, point, node, portal, in, out, heading)) return noteTooSharp();
  }
  // Not even queued when the way the node is reached now estimates no more,
  // or the sector's first visit does better (the cheaper test first).
  const float reached = entry.cost + cost;
  const float estimate = estimateThrough(out, reached);
  if (!(estimate < estimateNow(node))) return;
  if (dominated(portal.toSector, out, reached)) return;
  relax(node, entry.node, reached, estimate, out, heading,
        PulledString::startingAt(out, reached, metre));
}

// considerPortal for a walk portal crossed on foot: the string pulled on
// through it, from its apex where that sees the crossing, else from the
// node's own point. The common case, kept apart from devices, waypaths, jumps
// and vehicles.
void PortalSearch::considerWalk(uint32_t node, const Portal& portal, const OpenEntry& entry,
                                float metre, const PulledString& string) {
  // Pulling the string costs more than seeing that no point of the portal
  // can beat the node's estimate.
  const glm::vec3& goal = m_query.goal.point;
  const float now = estimateNow(node);
  if (now < kInfinity) {
    const float nearest = glm::distance(closestOnSegment(portal.left, portal.right, goal), goal);
    const float below =
        string.costBelowSegment(portal.left, portal.right) + nearest * m_query.heuristicScale;
    if (!(below < now)) return;
  }
  const glm::vec3& point = m_nodes[entry.node].point;
  PulledString pulled = string;
  pulled.pullThrough(portal.left, portal.right, point, entry.cost);
  glm::vec3 in = crossing(portal, pulled.apex, goal);
  if (!pulled.sees(in)) {
    glm::vec3 restart = point;
    float restartCost = entry.cost;
    in = crossing(portal, point, goal);
    if (restartPoint(entry, string, in, metre, restart, restartCost))
      in = crossing(portal, restart, goal);
    pulled.startAt(restart, restartCost, metre);
    pulled.pullThrough(portal.left, portal.right, restart, restartCost);
  }
  // Costs add up step by step, as through every other portal.
  const float step = pulled.costTo(in) - entry.cost;
  const float reached = entry.cost + step;
  const float estimate = estimateThrough(in, reached);
  // Not even queued when the way the node is reached now estimates no more,
  // or the sector's first visit does better (the cheaper test first).
  if (!(estimate < now)) return;
  if (dominated(portal.toSector, in, reached)) return;
  relax(node, entry.node, reached, estimate, in, Heading{}, pulled);
}

// The node's point is where its string crossed its portal heading for the
// goal. A way on that turns back across that portal costs less from the
// point of the portal nearest the straight way to `target`, which the string
// reaches at its own cost, or, where the apex does not see that point, from
// the seen point nearest it; from the node's point the search would think
// such a way dearer than it is, and take a way round for it.
bool PortalSearch::restartPoint(const OpenEntry& entry, const PulledString& string,
                                const glm::vec3& target, float metre, glm::vec3& restart,
                                float& restartCost) const {
  if (entry.node == m_startNode || string.metre != metre) return false;
  const Portal& crossed = nodePortal(entry.node);
  if (crossed.kind != PortalKind::Walk) return false;
  glm::vec3 turn = crossing(crossed, string.apex, target);
  if (!string.sees(turn) && !string.nearestSeen(crossed.left, crossed.right, turn)) return false;
  const float cost = string.costTo(turn);
  if (!(cost + glm::distance(turn, target) * metre <
        restartCost + glm::distance(restart, target) * metre))
    return false;
  restart = turn;
  restartCost = cost;
  return true;
}

void PortalSearch::noteTooSharp() {
  if (m_blockedBy.empty()) {
    m_blockedBy = "the way needs a sharper turn than the turning radius of " +
                  formatFloat(m_query.turningRadius) + " m allows";
  }
}

// With the start and the goal in one dead-end region, the way never goes past
// the sector the region hangs off: it would come back through that convex
// sector, which crosses straight no dearer than any metre beyond it costs.
void PortalSearch::confine() {
  const NavGraph& graph = *m_query.graph;
  const DeadEndRegions& regions = graph.deadEnds;
  m_region = kNoSector;
  if (!m_skipsDeadEnds || !m_query.jumps.empty()) return;
  const uint32_t head = regions.smallestHolding(m_query.start.sector, m_query.goal.sector);
  if (head == kNoSector) return;
  const Sector& off = graph.sectors[regions.hangsOff(head)];
  if (off.kind == SectorKind::Ground &&
      m_query.costs->cheapestIn(regions.islandContents(head)) >= m_query.costs->sectorCost(off))
    m_region = head;
}

bool PortalSearch::leavesRegion(const Portal& portal) const {
  return m_region != kNoSector && m_query.graph->deadEnds.beyond(m_region, portal.toSector);
}

bool PortalSearch::skipped(uint32_t portalIndex, uint32_t head, bool onlyBack, float metre) {
  const NavGraph& graph = *m_query.graph;
  const Portal& portal = graph.portals[portalIndex];
  const uint32_t into = portal.toSector;
  if (portal.kind != PortalKind::Walk || into == m_query.goal.sector ||
      graph.sectors[portal.fromSector].kind != SectorKind::Ground)
    return false;
  if (head != kNoSector) {
    const DeadEndRegions& regions = graph.deadEnds;
    const auto inside = [&](uint32_t s) { return regions.holds(head, s); };
    if (!inside(m_query.start.sector) && !inside(m_query.goal.sector) &&
        m_query.costs->cheapestIn(regions.contents(head)) >= metre &&
        !anyTakesOffIn(m_query.jumps, inside)) {
      m_skipped.push_back({portalIndex, head});
      return true;
    }
  }
  if (!onlyBack || !(m_query.costs->sectorCost(graph.sectors[into]) >= metre) ||
      anyTakesOffIn(m_query.jumps, [&](uint32_t s) { return s == into; }))
    return false;
  m_skipped.push_back({portalIndex, kNoSector});
  return true;
}

// A search entering a skipped dead end would open a node on its portal (at
// the height of the side it leaves) and further nodes inside its box.
bool PortalSearch::mayHideNearer() const {
  const NavGraph& graph = *m_query.graph;
  const glm::vec3& goal = m_query.goal.point;
  if (m_leftRegion) return 0.0f < m_closestDistance;
  for (const Skipped& skipped : m_skipped) {
    const Portal& portal = graph.portals[skipped.portal];
    const Aabb& beyond = skipped.region == kNoSector ? graph.sectors[portal.toSector].bounds
                                                     : graph.deadEnds.bounds(skipped.region);
    const float onPortal = glm::distance(closestOnSegment(portal.left, portal.right, goal), goal);
    if (std::min(onPortal, beyond.distanceTo(goal)) < m_closestDistance) return true;
  }
  return false;
}

uint32_t PortalSearch::sectorOf(uint32_t node) const {
  return node == m_startNode ? m_query.start.sector : nodePortal(node).toSector;
}

// Anything the node leads to, the earlier visit reaches through the same
// (convex) sector at most as dear. Not for vehicles: their headings differ.
bool PortalSearch::dominated(uint32_t sector, const glm::vec3& point, float cost) const {
  // Checking the newest few visits catches nearly all; older ones rarely win.
  constexpr int kVisitsChecked = 8;
  if (m_query.turningRadius > 0.0f || !m_visits.seen(sector)) return false;
  const float metre = m_visits[sector].metre;
  if (std::isnan(metre)) return false;
  uint32_t node = m_visits[sector].node;
  for (int k = 0; k < kVisitsChecked && node != kNoPortal;
       ++k, node = m_nodes[node].previousVisit) {
    const Node& earlier = m_nodes[node];
    // earlier.costSoFar + distance * metre <= cost, without the square root.
    const float reach = (cost - earlier.costSoFar) / metre;
    const glm::vec3 apart = earlier.point - point;
    if (reach >= 0.0f && glm::dot(apart, apart) <= reach * reach) return true;
  }
  return false;
}

void PortalSearch::expand(const OpenEntry& entry) {
  const NavGraph& graph = *m_query.graph;
  const glm::vec3& goalPoint = m_query.goal.point;
  Node& closing = m_nodes[entry.node];
  closing.state = NodeState::Closed;
  ++m_expansions;
  if (m_query.traced) {
    trace(SearchEvent::Kind::Close, entry.node, entry.cost, entry.estimate, closing.point);
  }

  const bool isStart = entry.node == m_startNode;
  // A node stands where its portal lets the path continue: where the path
  // crossed it, or a device's exit.
  const glm::vec3 point = closing.point;
  const uint32_t sectorIndex = sectorOf(entry.node);
  const Sector& sector = graph.sectors[sectorIndex];
  Visit& lastVisit =
      m_visits.touch(sectorIndex, {kNoPortal, sector.kind == SectorKind::Ground
                                                  ? m_query.costs->sectorCost(sector)
                                                  : std::numeric_limits<float>::quiet_NaN()});
  if (lastVisit.node != entry.node) {
    closing.previousVisit = lastVisit.node;
    lastVisit.node = entry.node;
  }
  const float metre = isStart ? m_query.startSectorCost : m_query.costs->sectorCost(sector);
  if (sector.kind == SectorKind::Ground) {
    const float distance = glm::distance(point, goalPoint);
    if (distance < m_closestDistance) {
      m_closestDistance = distance;
      m_closest = entry.node;
    }
  }
  // Straight back over the portal just crossed is never cheaper than staying
  // behind it, unless this sector costs less a metre than that one.
  uint32_t cameBy = kNoPortal;
  if (!isStart) {
    const Portal& in = nodePortal(entry.node);
    if (metre >= m_query.costs->sectorCost(graph.sectors[in.fromSector])) cameBy = in.reverse;
  }
  const PulledString string = stringFrom(entry, sector, metre);
  const uint32_t portalEnd = sector.firstPortal + sector.portalCount;
  for (uint32_t next = sector.firstPortal; next < portalEnd; ++next) {
    if (next == cameBy) continue;
    if (leavesRegion(graph.portals[next])) {
      // Anything may lie beyond.
      m_leftRegion = true;
      continue;
    }
    if (deadEnd(next, metre)) continue;
    const Portal& portal = graph.portals[next];
    if (!mayEnter(next, portal)) continue;
    if (m_pullsString && portal.kind == PortalKind::Walk)
      considerWalk(next, portal, entry, metre, string);
    else
      considerPortal(next, portal, entry, sector, metre, string);
  }
  for (uint32_t k = 0; k < m_query.jumps.size(); ++k) {
    const uint32_t node = firstJumpNode() + k;
    const Portal& jump = m_query.jumps[k].portal;
    if (jump.fromSector == sectorIndex && mayEnter(node, jump))
      considerPortal(node, jump, entry, sector, metre, string);
  }
  // The goal is no portal: a vehicle may manoeuvre onto it, as it may leave the start any way.
  if (sectorIndex == m_query.goal.sector) {
    const float cost =
        m_pullsString && string.metre == m_query.goalSectorCost && string.sees(goalPoint)
            ? string.costTo(goalPoint)
            : entry.cost + glm::distance(point, goalPoint) * m_query.goalSectorCost;
    const float estimate = estimateThrough(goalPoint, cost);
    if (estimate < estimateNow(m_goalNode))
      relax(m_goalNode, entry.node, cost, estimate, goalPoint, Heading{}, string);
  }
}

PulledString PortalSearch::stringFrom(const OpenEntry& entry, const Sector& sector,
                                      float metre) const {
  if (!m_pullsString) return {};
  const Node& node = m_nodes[entry.node];
  const PulledString& string = node.string;
  // A string pulls on only across walked ground of one cost a metre.
  const bool goesOn = entry.node != m_startNode && sector.kind == SectorKind::Ground &&
                      nodePortal(entry.node).kind == PortalKind::Walk && string.metre == metre;
  return goesOn ? string : PulledString::startingAt(node.point, entry.cost, metre);
}

}  // namespace nav
