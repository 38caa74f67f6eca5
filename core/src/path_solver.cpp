#include "nav/path_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "format_number.h"
#include "nav/portal_widening.h"

namespace nav {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
// The time budget reads the clock every few iterations: a read is cheap, not free.
constexpr uint32_t kIterationsPerClockRead = 16;
constexpr const char* kOtherIsland =
    "the goal is on another island: no portal joins it to the start's (the path ends at the "
    "closest point)";

// The point of the portal that makes the way from `from` to `to` through it
// shortest in the ground plane.
glm::vec3 crossing(const Portal& portal, const glm::vec3& from, const glm::vec3& to) {
  return glm::mix(
      portal.left, portal.right,
      touchingPoint(groundOf(portal.left), groundOf(portal.right), groundOf(from), groundOf(to)));
}

// The point of the sector's cell centres' rectangle nearest `to` on the
// ground, at the sector's height: where a partial path may end. The half cell
// past the last centres, up to the sector's edge, is ground the fill never
// tested the unit on.
glm::vec3 onCellsNearest(const NavGraph& graph, const Sector& sector, const glm::vec3& to) {
  const float half = 0.5f * graph.cellSize;
  const auto along = [&](float value, float low, float high) {
    const float inLow = std::min(low + half, 0.5f * (low + high));
    const float inHigh = std::max(high - half, inLow);
    return std::clamp(value, inLow, inHigh);
  };
  const float x = along(to.x, sector.bounds.min.x, sector.bounds.max.x);
  const float z = along(to.z, sector.bounds.min.z, sector.bounds.max.z);
  return {x, graph.heightAt(sector, x, z), z};
}

// Where a query's start or goal stands: the point located, moved onto its
// sector's cell centres' rectangle when paths cross portals through gates
// (funnel.cpp). The unit was tested there, not in the half cell past it.
Location placeForPath(const NavGraph& graph, const glm::vec3& point, const glm::vec3& extents) {
  Location located = placeOnGraph(graph, point, extents);
  if (located.sector == kNoSector || !cellsCoverSectors(graph.unit, graph.cellSize))
    return located;
  located.point = onCellsNearest(graph, graph.sectors[located.sector], located.point);
  located.distance = glm::distance(point, located.point);
  return located;
}

}  // namespace

// std::push_heap builds a max-heap, so "less" means "popped later": higher
// estimate first, and on equal estimates the higher node index, which makes
// the pop order independent of push order.
bool PathSolver::PopsLater::operator()(const OpenEntry& a, const OpenEntry& b) const {
  if (a.estimatedTotal != b.estimatedTotal) return a.estimatedTotal > b.estimatedTotal;
  return a.node > b.node;
}

void PathSolver::init(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                      const SearchOptions& options, SearchTrace* trace) {
  m_graph = &graph;
  // Copied only when they changed: a copy allocates for the filter's lists.
  if (!(options == m_options)) m_options = options;
  m_searchingRegions = false;
  m_searchingIntervals = false;
  m_trace = trace;
  m_status = SolveStatus::Done;
  m_ending = Ending::Resolved;
  m_iterations = 0;
  m_result.clear();
  m_result.portalPoint = options.portalPoint;
  m_result.corridor.start = start;
  m_result.corridor.goal = goal;

  if (!(options.heuristicScale >= 0.0f) || !std::isfinite(options.heuristicScale)) {
    m_result.status = PathStatus::Unreachable;
    m_result.reason = "heuristicScale = " + formatFloat(options.heuristicScale) +
                      ": expected a finite number >= 0";
    return;
  }
  m_startLocation = placeForPath(graph, start, options.snapExtents);
  if (m_startLocation.sector == kNoSector) {
    m_result.status = PathStatus::StartOffMesh;
    m_result.reason = "the start is on no sector, nor near one";
    return;
  }
  m_result.corridor.start = m_startLocation.point;
  m_goalLocation = placeForPath(graph, goal, options.snapExtents);
  if (m_goalLocation.sector == kNoSector) {
    m_result.status = PathStatus::GoalOffMesh;
    m_result.reason = "the goal is on no sector, nor near one";
    return;
  }
  m_result.corridor.goal = m_goalLocation.point;
  m_costs.prepare(graph, options.filter);
  m_jumps.clear();
  if (options.jumps) m_jumps = options.jumps->jumps();
  m_turningRadius = options.turningRadius.value_or(graph.unit.turningRadius);
  if (!(m_turningRadius > 0.0f) || !std::isfinite(m_turningRadius)) m_turningRadius = 0.0f;
  m_otherIsland =
      !m_jumps.empty() || graph.islands.empty()
          ? false
          : graph.islands.of(m_startLocation.sector) != graph.islands.of(m_goalLocation.sector);
  if (m_otherIsland) {
    if (!options.allowPartial) {
      m_result.status = PathStatus::Unreachable;
      m_result.reason = kOtherIsland;
      return;
    }
    // No search can get there: aim for the point of the start's island nearest the goal.
    const Location nearest = nearestInIsland(graph.islands.of(m_startLocation.sector));
    if (nearest.sector != kNoSector) m_goalLocation = nearest;
    m_result.corridor.goal = m_goalLocation.point;
  }
  m_goalSectorCost = m_costs.sectorCost(graph.sectors[m_goalLocation.sector]);
  // The sector the unit stands in can always be left, whatever the filter says
  // of it: at its own cost, or closed, as dear as the dearest the heuristic allows for.
  const float startCost = m_costs.sectorCost(graph.sectors[m_startLocation.sector]);
  m_startSectorCost = startCost < kInfinity ? startCost : 1.0f / m_costs.cheapest();
  m_exactMetre =
      options.portalPoint == PortalPoint::Exact ? uniformMetre() : std::optional<float>();
  // A closed start's region is closed too: the region search would walk it.
  // Waypaths are ridden at costs of their own, and vehicles turn at crossings.
  m_regionsMayAnswer = options.searchRegions && options.portalPoint == PortalPoint::Crossing &&
                       m_jumps.empty() && m_turningRadius == 0.0f && !graph.regions.empty() &&
                       startCost < kInfinity && !m_costs.anyWaypathOpen();

  // A straight line inside one rectangle is never longer than a detour through
  // portals, unless a waypath joins the rectangle (riding it may be cheaper).
  // Jumps cost at least their length, so they never beat the line.
  const Sector& startSector = graph.sectors[m_startLocation.sector];
  const auto firstPortal = graph.portals.begin() + startSector.firstPortal;
  const bool joinsWaypath =
      std::any_of(firstPortal, firstPortal + startSector.portalCount,
                  [](const Portal& portal) { return portal.kind == PortalKind::Waypath; });
  if (m_startLocation.sector == m_goalLocation.sector && !joinsWaypath) {
    markReached(m_result);
    m_result.corridor.sectors.push_back(m_startLocation.sector);
    m_result.cost = glm::distance(m_startLocation.point, m_goalLocation.point) * m_startSectorCost;
    if (options.portalPoint == PortalPoint::Exact) {
      // Costed as the interval search costs: on the ground.
      if (m_exactMetre) {
        m_result.cost =
            glm::distance(groundOf(m_startLocation.point), groundOf(m_goalLocation.point)) *
            *m_exactMetre;
      } else {
        m_result.portalPoint = PortalPoint::Crossing;
      }
    }
    return;
  }

  const uint32_t portalCount = uint32_t(graph.portals.size());
  m_startNode = portalCount;
  m_goalNode = portalCount + 1;
  m_firstJumpNode = portalCount + 2;
  const size_t nodeCount = m_firstJumpNode + m_jumps.size();
  // Nodes a previous query left behind count as unseen; a wrapped query
  // counter would mistake them for this query's, so it clears them.
  if (m_nodes.size() < nodeCount) m_nodes.resize(nodeCount, Node{});
  if (m_turningRadius > 0.0f && m_headings.size() < nodeCount) m_headings.resize(nodeCount);
  if (m_visits.size() < graph.sectors.size()) m_visits.resize(graph.sectors.size(), SectorVisit{});
  if (++m_query == 0) {
    for (Node& node : m_nodes)
      node.query = 0;
    for (SectorVisit& visit : m_visits)
      visit.query = 0;
    m_query = 1;
  }
  m_heuristicScale = options.heuristicScale * std::min(1.0f, m_costs.cheapest());
  m_status = SolveStatus::InProgress;
  m_aimedAtPartialEnd = false;
  // Finalized before any A* ran, the partial path is the start alone.
  m_closest = m_startNode;
  if (!searchIntervalsTo(m_goalLocation) && !searchRegions()) startPortalSearch();
}

bool PathSolver::searchRegions() {
  m_searchingRegions = m_regionsMayAnswer;
  if (!m_searchingRegions) return false;
  RegionQuery query;
  query.graph = m_graph;
  query.start = m_startLocation.point;
  query.goal = m_goalLocation.point;
  query.startSector = m_startLocation.sector;
  query.goalSector = m_goalLocation.sector;
  // Waypaths are closed to it: the cheapest ground, and devices' at least a metre a metre.
  query.heuristicScale = m_options.heuristicScale * m_costs.cheapestGround();
  query.maxExpansions = m_options.maxExpansions;
  query.rules = this;
  query.traced = m_trace != nullptr;
  m_regions.init(query);
  return true;
}

bool PathSolver::searchIntervalsTo(const Location& goal) {
  const std::optional<float>& metre = m_exactMetre;
  m_searchingIntervals = metre.has_value();
  if (!m_searchingIntervals) return false;
  IntervalQuery query;
  query.graph = m_graph;
  query.jumps = m_jumps;
  query.firstJumpNode = m_firstJumpNode;
  query.start = m_startLocation.point;
  query.goal = goal.point;
  query.startSector = m_startLocation.sector;
  query.goalSector = goal.sector;
  query.metre = *metre;
  // Devices and jumps cost at least their length, walking or not.
  const bool teleports = !m_jumps.empty() || !m_graph->deviceLinks.empty();
  query.heuristicMetre = teleports ? std::min(*metre, 1.0f) : *metre;
  query.heuristicScale = m_options.heuristicScale;
  // maxExpansions bounds all the searches a query runs together.
  query.maxExpansions =
      m_options.maxExpansions - std::min(m_result.expansions, m_options.maxExpansions);
  query.rules = this;
  query.traced = m_trace != nullptr;
  m_intervals.init(query);
  return true;
}

void PathSolver::startPortalSearch() {
  m_searchingIntervals = false;
  m_searchingRegions = false;
  if (m_result.portalPoint == PortalPoint::Exact) m_result.portalPoint = PortalPoint::Crossing;
  m_open.clear();
  m_blockedBy.clear();
  m_closest = m_startNode;
  m_closestDistance = glm::distance(m_startLocation.point, m_goalLocation.point);
  // The unit stands at the start facing any way it likes.
  relax(m_startNode, kNoPortal, 0.0f, m_startLocation.point, Heading{{0.0f, 0.0f}, 0.0f, true});
}

std::optional<float> PathSolver::uniformMetre() const {
  if (m_turningRadius > 0.0f || m_costs.anyWaypathOpen()) return std::nullopt;
  // Waypaths are closed: only ground sectors count, and those open to the query.
  std::optional<float> metre;
  bool uneven = false;
  const auto meet = [&](float cost) {
    if (!(cost < kInfinity)) return;
    uneven = uneven || (metre && cost != *metre);
    metre = cost;
  };
  const SearchRegions& regions = m_graph->regions;
  if (!regions.empty()) {
    // A graph without a surface table (built by hand) walks at cost 1.
    for (uint16_t surface : regions.groundSurfaces())
      meet(m_costs.surfaceCost(surface));
  } else {
    for (const Sector& sector : m_graph->sectors) {
      if (sector.kind == SectorKind::Ground) meet(m_costs.sectorCost(sector));
    }
  }
  if (uneven) return std::nullopt;
  // A start on a closed surface is left at a cost of its own.
  if (!metre || m_startSectorCost != *metre) return std::nullopt;
  return metre;
}

float PathSolver::teleportCost(uint32_t node) const {
  return node >= m_firstJumpNode ? m_costs.jumpCost(m_jumps[node - m_firstJumpNode])
                                 : m_costs.deviceCost(nodePortal(node));
}

float PathSolver::metreOf(uint32_t sector) const {
  return m_costs.sectorCost(m_graph->sectors[sector]);
}

void PathSolver::trace(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                       const glm::vec2& left, const glm::vec2& right) {
  const uint32_t at = node == kNoPortal ? m_startNode : node;
  record(kind, at, cost, estimate, onNode(at, left), onNode(at, right));
}

void PathSolver::tracePoint(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                            const glm::vec3& point) {
  record(kind, node == kNoPortal ? m_startNode : node, cost, estimate, point, point);
}

glm::vec3 PathSolver::onNode(uint32_t node, const glm::vec2& point) const {
  if (node == m_startNode) return m_startLocation.point;
  const Portal& portal = nodePortal(node);
  if (portal.kind != PortalKind::Walk) return m_graph->exitPoint(portal);
  const glm::vec2 a = groundOf(portal.left), span = groundOf(portal.right) - a;
  const float length2 = glm::dot(span, span);
  const float t =
      length2 > 0.0f ? std::clamp(glm::dot(point - a, span) / length2, 0.0f, 1.0f) : 0.0f;
  return {point.x, glm::mix(portal.left.y, portal.right.y, t), point.y};
}

SolveStatus PathSolver::update(uint32_t maxIterations) {
  for (uint32_t i = 0; i < maxIterations && m_status == SolveStatus::InProgress; ++i) {
    expandNext();
    ++m_iterations;
  }
  return m_status;
}

SolveStatus PathSolver::update(std::chrono::microseconds budget) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + budget;
  do {
    update(kIterationsPerClockRead);
  } while (m_status == SolveStatus::InProgress && Clock::now() < deadline);
  return m_status;
}

// The goal pseudo-node is not traced: the result's cost is its final cost.
void PathSolver::record(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                        const glm::vec3& from, const glm::vec3& to) {
  const uint32_t portal = node == m_startNode       ? kNoPortal
                          : node >= m_firstJumpNode ? kJumpPortalFlag | (node - m_firstJumpNode)
                                                    : node;
  m_trace->events.push_back({kind, portal, cost, estimate, from, to});
}

// Relaxes the edge into `node`, which stands at `point`. Closed nodes are
// reopened too, so a heuristic scale above 1 (inconsistent) still gives a
// valid, if not optimal, corridor. NaN and infinite costs never enter the open list.
void PathSolver::relax(uint32_t node, uint32_t from, float cost, const glm::vec3& point,
                       const Heading& heading) {
  Node& target = m_nodes[node];
  if (target.query != m_query) {
    target = {point, kInfinity, kNoPortal, m_query, kNoPortal, NodeState::Unseen};
  }
  if (!(cost < target.costSoFar)) return;
  const bool seen = target.state != NodeState::Unseen;
  const float estimate = cost + glm::distance(point, m_goalLocation.point) * m_heuristicScale;
  target.costSoFar = cost;
  target.parent = from;
  target.point = point;
  target.state = NodeState::Open;
  if (m_turningRadius > 0.0f) m_headings[node] = heading;
  m_open.push_back({estimate, cost, node});
  std::push_heap(m_open.begin(), m_open.end(), PopsLater{});
  if (m_trace && node != m_goalNode) {
    record(seen ? SearchEvent::Kind::Reopen : SearchEvent::Kind::Open, node, cost, estimate, point,
           point);
  }
}

// One iteration: pops until a node can be expanded, or ends the search.
void PathSolver::expandNext() {
  if (m_searchingRegions) {
    const uint32_t before = m_regions.expansions();
    const RegionSearch::Step step = m_regions.step();
    m_result.expansions += m_regions.expansions() - before;
    switch (step) {
      case RegionSearch::Step::Searching:
        return;
      case RegionSearch::Step::Reached:
        return end(Ending::ReachedOverRegions);
      case RegionSearch::Step::Exhausted:
        // finalize takes the region search's closest point.
        return end(Ending::Exhausted);
      case RegionSearch::Step::Failed:
        // The A* over sectors names what stands in the way and finds the
        // partial path; it goes on in this same iteration.
        startPortalSearch();
        break;
    }
  }
  if (m_searchingIntervals) {
    const uint32_t before = m_intervals.expansions();
    const IntervalSearch::Step step = m_intervals.step();
    m_result.expansions += m_intervals.expansions() - before;
    switch (step) {
      case IntervalSearch::Step::Searching:
        return;
      case IntervalSearch::Step::Reached:
        if (!m_aimedAtPartialEnd) return end(Ending::ReachedExactly);
        m_result.portalPoint = PortalPoint::Exact;
        return end(Ending::PartialExactly);
      case IntervalSearch::Step::Failed:
        m_searchingIntervals = false;
        // The portal A*'s partial path stands.
        if (m_aimedAtPartialEnd) return end(Ending::NoWay);
        // The portal A* names what stands in the way and finds the partial
        // path; it goes on in this same iteration.
        startPortalSearch();
        break;
    }
  }
  while (!m_open.empty()) {
    std::pop_heap(m_open.begin(), m_open.end(), PopsLater{});
    const OpenEntry entry = m_open.back();
    m_open.pop_back();
    const Node& node = m_nodes[entry.node];
    // Lazy deletion: an entry is stale once its node was closed or got a better cost.
    if (node.state == NodeState::Closed || entry.costSoFar > node.costSoFar) continue;
    // Stopping when the goal is popped, not when first seen, keeps the path optimal.
    if (entry.node == m_goalNode) return end(Ending::Reached);
    if (dominated(sectorOf(entry.node), node.point, entry.costSoFar)) {
      m_nodes[entry.node].state = NodeState::Closed;
      continue;
    }
    if (m_result.expansions >= m_options.maxExpansions) return end(Ending::Exhausted);
    return expand(entry);
  }
  // Asked for exact paths: the interval search finds the shortest way to
  // where the portal A* got closest to the goal.
  if (m_exactMetre && m_options.allowPartial && !m_aimedAtPartialEnd) {
    m_aimedAtPartialEnd = true;
    m_partialEnd = partialEnd();
    if (searchIntervalsTo(m_partialEnd)) return expandNext();
  }
  end(Ending::NoWay);
}

Location PathSolver::partialEnd() const {
  return closestPointOf(sectorOf(m_closest));
}

Location PathSolver::closestPointOf(uint32_t s) const {
  const glm::vec3& goal = m_goalLocation.point;
  const glm::vec3 point = onCellsNearest(*m_graph, m_graph->sectors[s], goal);
  return {s, point, glm::distance(point, goal)};
}

std::string PathSolver::stoppedReason() const {
  return m_ending == Ending::Exhausted
             ? "the search stopped at maxExpansions = " + std::to_string(m_options.maxExpansions)
             : "the search was finalized after " + std::to_string(m_result.expansions) +
                   " expansions, before it ended";
}

std::string PathSolver::noWayReason() const {
  return !m_blockedBy.empty() ? m_blockedBy : "the goal cannot be reached from the start";
}

// The point of the island's ground sectors open to this query nearest the goal.
Location PathSolver::nearestInIsland(uint32_t island) const {
  const NavGraph& graph = *m_graph;
  const glm::vec3& goal = m_goalLocation.point;
  Location best;
  best.distance = kInfinity;
  for (uint32_t s : graph.islands.sectors(island)) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind != SectorKind::Ground || !(m_costs.sectorCost(sector) < kInfinity)) continue;
    const glm::vec3 point = onCellsNearest(graph, sector, goal);
    const float distance = glm::distance(point, goal);
    if (distance < best.distance) best = {s, point, distance};
  }
  return best;
}

const Portal& PathSolver::nodePortal(uint32_t node) const {
  return node >= m_firstJumpNode ? m_jumps[node - m_firstJumpNode].portal : m_graph->portals[node];
}

bool PathSolver::turn(const Heading& from, const glm::vec2& direction, float length,
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
  const float tangent = m_turningRadius * std::tan(0.5f * angle);
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
float PathSolver::alongFromStart(float run, float angle) const {
  const float radius = m_turningRadius;
  const float rise = run * std::sin(angle);
  if (!(rise <= 2.0f * radius)) return std::numeric_limits<float>::infinity();
  const float offset = radius - rise;
  return -run * std::cos(angle) + std::sqrt(std::max(0.0f, radius * radius - offset * offset));
}

bool PathSolver::headingThrough(const Heading& at, const glm::vec3& point, uint32_t node,
                                const Portal& portal, const glm::vec3& in, const glm::vec3& out,
                                Heading& after) const {
  const glm::vec2 walk = groundOf(in) - groundOf(point);
  if (!turn(at, walk, glm::length(walk), after)) return false;
  if (portal.kind == PortalKind::Jump) {
    // Facing the jump's heading at takeoff, then flying straight on.
    const float heading = m_jumps[node - m_firstJumpNode].spec.heading;
    const glm::vec2 facing{std::cos(heading), std::sin(heading)};
    const float flight = glm::length(groundOf(out) - groundOf(in));
    return turn(after, facing * flight, flight, after);
  }
  // A device or a waypath sets the unit down facing any way.
  if (portal.kind != PortalKind::Walk) after = {};
  return true;
}

// Relaxes the way from the node being expanded (entry, standing in `sector`
// where a metre costs `metre`) through `portal`, which is node `node`.
void PathSolver::considerPortal(uint32_t node, const Portal& portal, const OpenEntry& entry,
                                const Sector& sector, float metre) {
  const NavGraph& graph = *m_graph;
  const glm::vec3& point = m_nodes[entry.node].point;
  const Sector& target = graph.sectors[portal.toSector];
  if (!(m_costs.sectorCost(target) < kInfinity)) {
    if (m_blockedBy.empty() && target.kind == SectorKind::Ground &&
        target.surface < graph.surfaces.size()) {
      m_blockedBy = "the way crosses surface '" + graph.surfaces[target.surface].name +
                    "', closed to this query";
    }
    return;
  }
  // A closed node keeps its cost, as in the search over regions; a vehicle's
  // may yet be reached facing a better way.
  const Node& reached = m_nodes[node];
  if (m_turningRadius == 0.0f && reached.query == m_query && reached.state == NodeState::Closed)
    return;
  const glm::vec3 in =
      portal.kind == PortalKind::Walk && m_options.portalPoint != PortalPoint::Midpoint
          ? crossing(portal, point, m_goalLocation.point)
          : graph.entryPoint(portal);
  const glm::vec3 out = portal.kind == PortalKind::Walk ? in : graph.exitPoint(portal);
  float cost = glm::distance(point, in) * metre;
  if (sector.kind == SectorKind::Waypath) {
    // Ridden along the waypath from the point it was joined at, forwards only when one-way.
    const WaypathSpec& waypath = graph.waypaths[sector.waypath];
    const uint32_t from = nodePortal(entry.node).link, to = portal.link;
    if (from == to || (waypath.oneWay && to < from)) return;
    const std::vector<float>& along = m_costs.waypathLength(sector.waypath);
    cost = std::abs(along[to] - along[from]) * metre;
  }
  if (portal.kind == PortalKind::Device || portal.kind == PortalKind::Jump) {
    const float through = teleportCost(node);
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
  if (m_turningRadius > 0.0f) {
    // Off a waypath the unit may face any way.
    const Heading at = sector.kind == SectorKind::Waypath ? Heading{} : m_headings[entry.node];
    if (!headingThrough(at, point, node, portal, in, out, heading)) return noteTooSharp();
  }
  // Not even queued when the sector's first visit already does better.
  if (dominated(portal.toSector, out, entry.costSoFar + cost)) return;
  relax(node, entry.node, entry.costSoFar + cost, out, heading);
}

void PathSolver::noteTooSharp() {
  if (m_blockedBy.empty()) {
    m_blockedBy = "the way needs a sharper turn than the turning radius of " +
                  formatFloat(m_turningRadius) + " m allows";
  }
}

uint32_t PathSolver::sectorOf(uint32_t node) const {
  return node == m_startNode ? m_startLocation.sector : nodePortal(node).toSector;
}

// Anything the node leads to, the earlier visit reaches through the same
// (convex) sector at most as dear. Not for vehicles: their headings differ.
bool PathSolver::dominated(uint32_t sector, const glm::vec3& point, float cost) const {
  // Checking the newest few visits catches nearly all; older ones rarely win.
  constexpr int kVisitsChecked = 8;
  if (m_turningRadius > 0.0f) return false;
  const SectorVisit& visit = m_visits[sector];
  if (visit.query != m_query || m_graph->sectors[sector].kind != SectorKind::Ground) return false;
  const float metre = m_costs.sectorCost(m_graph->sectors[sector]);
  uint32_t node = visit.lastNode;
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

void PathSolver::expand(const OpenEntry& entry) {
  const NavGraph& graph = *m_graph;
  const glm::vec3& goalPoint = m_goalLocation.point;
  Node& closing = m_nodes[entry.node];
  closing.state = NodeState::Closed;
  ++m_result.expansions;
  if (m_trace) {
    record(SearchEvent::Kind::Close, entry.node, entry.costSoFar, entry.estimatedTotal,
           closing.point, closing.point);
  }

  const bool isStart = entry.node == m_startNode;
  // A node stands where its portal lets the path continue: where the path
  // crossed it, or a device's exit.
  const glm::vec3 point = closing.point;
  const uint32_t sectorIndex = sectorOf(entry.node);
  const Sector& sector = graph.sectors[sectorIndex];
  SectorVisit& visit = m_visits[sectorIndex];
  if (visit.query != m_query || visit.lastNode != entry.node) {
    closing.previousVisit = visit.query == m_query ? visit.lastNode : kNoPortal;
    visit = {entry.node, m_query};
  }
  const float metre = isStart ? m_startSectorCost : m_costs.sectorCost(sector);
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
    if (metre >= m_costs.sectorCost(graph.sectors[in.fromSector])) cameBy = in.reverse;
  }
  const uint32_t portalEnd = sector.firstPortal + sector.portalCount;
  for (uint32_t next = sector.firstPortal; next < portalEnd; ++next) {
    if (next != cameBy) considerPortal(next, graph.portals[next], entry, sector, metre);
  }
  for (uint32_t k = 0; k < m_jumps.size(); ++k) {
    if (m_jumps[k].portal.fromSector == sectorIndex) {
      considerPortal(m_firstJumpNode + k, m_jumps[k].portal, entry, sector, metre);
    }
  }
  // The goal is no portal: a vehicle may manoeuvre onto it, as it may leave the start any way.
  if (sectorIndex == m_goalLocation.sector) {
    relax(m_goalNode, entry.node,
          entry.costSoFar + glm::distance(point, goalPoint) * m_goalSectorCost, goalPoint,
          Heading{});
  }
}

float PathSolver::sectorRate(const Corridor& corridor, size_t k) const {
  return k == 0 ? m_startSectorCost : m_costs.sectorCost(m_graph->sectors[corridor.sectors[k]]);
}

float PathSolver::cheapestRateAfter(const Corridor& corridor, size_t k) const {
  float cheapest = kInfinity;
  for (size_t i = k + 1; i < corridor.sectors.size(); ++i)
    cheapest = std::min(cheapest, sectorRate(corridor, i));
  return cheapest;
}

// Found, or as close as it gets when the goal was on another island.
void PathSolver::markReached(PathResult& result) const {
  result.status = m_otherIsland ? PathStatus::Partial : PathStatus::Found;
  if (m_otherIsland) result.reason = kOtherIsland;
}

void PathSolver::end(Ending ending) {
  m_ending = ending;
  m_status = SolveStatus::Done;
}

// Jump nodes become indices into the corridor's own copy of the jumps.
void PathSolver::copyJumps(Corridor& corridor) const {
  for (uint32_t& portal : corridor.portals) {
    if (portal < m_firstJumpNode) continue;
    corridor.jumps.push_back(m_jumps[portal - m_firstJumpNode]);
    portal = kJumpPortalFlag | uint32_t(corridor.jumps.size() - 1);
  }
}

PathResult PathSolver::finalize() {
  PathResult result;
  finalize(result);
  return result;
}

void PathSolver::finalize(PathResult& result) {
  if (m_status == SolveStatus::Idle) {
    result.clear();
    result.reason = "no search was started";
    return;
  }
  if (m_status == SolveStatus::InProgress) end(Ending::Stopped);
  m_status = SolveStatus::Idle;
  completeResult();
  // The caller's old arrays become the solver's, to be filled by the next query.
  std::swap(result, m_result);
}

void PathSolver::completeResult() {
  PathResult& result = m_result;
  if (m_ending == Ending::Resolved) return;

  Corridor& corridor = result.corridor;
  const auto regionsMismatch = [&]() {
    result.status = PathStatus::Unreachable;
    result.reason =
        "the graph's search regions do not match its portals (rebuild them after changing the "
        "portals)";
  };
  if (m_ending == Ending::ReachedOverRegions) {
    result.overRegions = true;
    if (!m_regions.corridor(corridor.sectors, corridor.portals)) {
      regionsMismatch();
      return;
    }
    markReached(result);
    result.cost = m_regions.cost();
    return;
  }
  // A region search stopped early leads as close to the goal as it got.
  if (m_searchingRegions && (m_ending == Ending::Exhausted || m_ending == Ending::Stopped)) {
    result.overRegions = true;
    result.reason = stoppedReason();
    if (!m_options.allowPartial) {
      result.status = PathStatus::TooManyExpansions;
      return;
    }
    if (!m_regions.partialCorridor(corridor.sectors, corridor.portals)) {
      regionsMismatch();
      return;
    }
    result.status = PathStatus::Partial;
    result.cost = m_regions.partialCost();
    corridor.goal = closestPointOf(corridor.sectors.back()).point;
    return;
  }
  if (m_ending == Ending::ReachedExactly || m_ending == Ending::PartialExactly) {
    if (m_ending == Ending::ReachedExactly) {
      markReached(result);
    } else {
      result.status = PathStatus::Partial;
      result.reason = noWayReason();
      corridor.goal = m_partialEnd.point;
    }
    result.cost = m_intervals.cost();
    corridor.sectors.push_back(m_startLocation.sector);
    for (uint32_t node : m_intervals.corridorNodes()) {
      corridor.sectors.push_back(nodePortal(node).toSector);
      corridor.portals.push_back(node);
    }
    copyJumps(corridor);
    return;
  }
  const bool reached = m_ending == Ending::Reached;
  uint32_t last = m_goalNode;
  if (reached) {
    markReached(result);
    result.cost = m_nodes[m_goalNode].costSoFar;
  } else {
    const bool stoppedEarly = m_ending != Ending::NoWay;
    result.reason = stoppedEarly ? stoppedReason() : noWayReason();
    if (!m_options.allowPartial) {
      result.status = stoppedEarly ? PathStatus::TooManyExpansions : PathStatus::Unreachable;
      return;
    }
    result.status = PathStatus::Partial;
    last = m_closest;
    result.cost = m_closest == m_startNode ? 0.0f : m_nodes[m_closest].costSoFar;
  }
  std::vector<uint32_t> nodes;
  for (uint32_t node = reached ? m_nodes[m_goalNode].parent : last; node != m_startNode;
       node = m_nodes[node].parent) {
    nodes.push_back(node);
  }
  std::reverse(nodes.begin(), nodes.end());
  corridor.sectors.push_back(m_startLocation.sector);
  for (uint32_t node : nodes) {
    // The costs of crossing points depend on the way in, so the search may come
    // back to a sector it left. When no sector on the loop costs less a metre,
    // the straight line inside the (convex, planar) sector is no dearer than
    // the loop: the corridor goes straight on from there.
    const uint32_t sector = nodePortal(node).toSector;
    const auto again = std::find(corridor.sectors.begin(), corridor.sectors.end(), sector);
    if (again != corridor.sectors.end()) {
      const size_t keep = size_t(again - corridor.sectors.begin());
      if (cheapestRateAfter(corridor, keep) >= sectorRate(corridor, keep)) {
        corridor.sectors.resize(keep + 1);
        corridor.portals.resize(keep);
        continue;
      }
    }
    corridor.sectors.push_back(sector);
    corridor.portals.push_back(node);
  }
  copyJumps(corridor);
  // The closest point of the last sector to the goal (the loop cut keeps that sector).
  if (!reached) result.corridor.goal = partialEnd().point;
}

PathResult findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                    const SearchOptions& options, SearchTrace* trace) {
  PathResult result;
  findPath(graph, start, goal, options, result, trace);
  return result;
}

void findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
              const SearchOptions& options, PathResult& result, SearchTrace* trace) {
  // One solver per thread, reused: a query then touches only the nodes it
  // reaches instead of allocating and clearing one per portal.
  thread_local PathSolver solver;
  solver.init(graph, start, goal, options, trace);
  while (solver.update(std::numeric_limits<uint32_t>::max()) == SolveStatus::InProgress) {
  }
  solver.finalize(result);
}

}  // namespace nav
