#include "nav/path_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nav {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
// The time budget reads the clock every few iterations: a read is cheap, not free.
constexpr uint32_t kIterationsPerClockRead = 16;

// The point of the portal that makes the way from `from` to `to` through it
// shortest in the ground plane: where the straight line crosses it, or with
// `to` on the same side, where the line to its mirror image does (a ray
// reflected off the portal's line); clamped to the portal's ends, which is
// exact since the length along the portal is convex.
glm::vec3 crossing(const Portal& portal, const glm::vec3& from, const glm::vec3& to) {
  const glm::vec2 a = groundOf(from);
  const glm::vec2 l = groundOf(portal.left), span = groundOf(portal.right) - l;
  const float spanLength2 = glm::dot(span, span);
  if (!(spanLength2 > 0.0f)) return portal.left;
  glm::vec2 b = groundOf(to);
  const float sideA = cross2(span, a - l), sideB = cross2(span, b - l);
  if ((sideA > 0.0f) == (sideB > 0.0f)) {
    const glm::vec2 foot = l + span * (glm::dot(b - l, span) / spanLength2);
    b = 2.0f * foot - b;
  }
  const glm::vec2 direction = b - a;
  const float denominator = cross2(direction, span);
  float along = glm::dot(a - l, span) / spanLength2;  // degenerate: the nearest point
  if (std::abs(denominator) > 1e-12f) along = cross2(direction, a - l) / denominator;
  return glm::mix(portal.left, portal.right, std::clamp(along, 0.0f, 1.0f));
}

// A locked device opens only for a unit holding its key.
bool canUse(const DeviceSpec& device, const SearchOptions& options) {
  return !device.locked ||
         std::find(options.keys.begin(), options.keys.end(), device.key) != options.keys.end();
}

}  // namespace

// std::push_heap builds a max-heap, so "less" means "popped later": higher
// estimate first, and on equal estimates the higher node index, which makes
// the pop order independent of push order.
bool PathSolver::popsLater(const OpenEntry& a, const OpenEntry& b) {
  if (a.estimatedTotal != b.estimatedTotal) return a.estimatedTotal > b.estimatedTotal;
  return a.node > b.node;
}

void PathSolver::init(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                      const SearchOptions& options, SearchTrace* trace) {
  m_graph = &graph;
  m_options = options;
  m_trace = trace;
  m_status = SolveStatus::Done;
  m_ending = Ending::Resolved;
  m_iterations = 0;
  m_result = PathResult{};
  m_result.corridor.start = start;
  m_result.corridor.goal = goal;

  // On a sector, or failing that the nearest one within the snap extents.
  auto place = [&](const glm::vec3& point) {
    const Location on = locateSector(graph, point);
    return on.sector != kNoSector ? on : findNearestSector(graph, point, options.snapExtents);
  };
  m_startLocation = place(start);
  if (m_startLocation.sector == kNoSector) {
    m_result.status = PathStatus::StartOffMesh;
    m_result.reason = "the start is on no sector, nor near one";
    return;
  }
  m_result.corridor.start = m_startLocation.point;
  m_goalLocation = place(goal);
  if (m_goalLocation.sector == kNoSector) {
    m_result.status = PathStatus::GoalOffMesh;
    m_result.reason = "the goal is on no sector, nor near one";
    return;
  }
  m_result.corridor.goal = m_goalLocation.point;
  prepareCosts();
  m_goalSectorCost = sectorCost(graph.sectors[m_goalLocation.sector]);
  // The sector the unit stands in can always be left, whatever the filter says of it.
  m_startSectorCost =
      std::min(sectorCost(graph.sectors[m_startLocation.sector]), 1.0f / m_cheapest);

  // A straight line inside one rectangle is never longer than a detour through
  // portals, unless a waypath joins the rectangle (riding it may be cheaper).
  const Sector& startSector = graph.sectors[m_startLocation.sector];
  const auto firstPortal = graph.portals.begin() + startSector.firstPortal;
  const bool joinsWaypath =
      std::any_of(firstPortal, firstPortal + startSector.portalCount,
                  [](const Portal& portal) { return portal.kind == PortalKind::Waypath; });
  if (m_startLocation.sector == m_goalLocation.sector && !joinsWaypath) {
    m_result.status = PathStatus::Found;
    m_result.corridor.sectors.push_back(m_startLocation.sector);
    m_result.cost = glm::distance(m_startLocation.point, m_goalLocation.point) * m_startSectorCost;
    return;
  }

  const uint32_t portalCount = uint32_t(graph.portals.size());
  m_startNode = portalCount;
  m_goalNode = portalCount + 1;
  // Nodes a previous query left behind count as unseen; a wrapped query
  // counter would mistake them for this query's, so it clears them.
  if (m_nodes.size() < portalCount + 2) m_nodes.resize(portalCount + 2, Node{});
  if (++m_query == 0) {
    for (Node& node : m_nodes)
      node.query = 0;
    m_query = 1;
  }
  m_open.clear();
  m_blockedBy.clear();
  m_closest = m_startNode;
  m_closestDistance = glm::distance(m_startLocation.point, m_goalLocation.point);
  m_heuristicScale = options.heuristicScale * std::min(1.0f, m_cheapest);
  m_status = SolveStatus::InProgress;
  relax(m_startNode, kNoPortal, 0.0f, m_startLocation.point);
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

// The costs of one query's filter. The arrays keep their capacity between queries.
void PathSolver::prepareCosts() {
  const NavGraph& graph = *m_graph;
  const UnitKind kind = m_options.unitKind.value_or(graph.unit.kind);
  m_cheapest = 1.0f;
  m_surfaceCost.resize(graph.surfaces.size());
  for (size_t i = 0; i < graph.surfaces.size(); ++i) {
    const SurfaceSpec& surface = graph.surfaces[i];
    const auto override = m_options.surfaceCosts.find(surface.name);
    float cost = override != m_options.surfaceCosts.end() ? override->second : surface.cost;
    const bool excluded =
        std::find(m_options.excludedSurfaces.begin(), m_options.excludedSurfaces.end(),
                  surface.name) != m_options.excludedSurfaces.end();
    if (excluded || !surface.allows(kind) || !(cost > 0.0f)) cost = kInfinity;
    m_surfaceCost[i] = cost;
    m_cheapest = std::min(m_cheapest, cost);
  }
  m_waypathClosed.resize(graph.waypaths.size());
  m_waypathLength.resize(graph.waypaths.size());
  for (size_t w = 0; w < graph.waypaths.size(); ++w) {
    const WaypathSpec& waypath = graph.waypaths[w];
    m_waypathClosed[w] = waypath.unitKind && *waypath.unitKind != kind;
    std::vector<float>& along = m_waypathLength[w];
    along.assign(1, 0.0f);
    for (size_t k = 1; k < waypath.points.size(); ++k)
      along.push_back(along.back() + glm::distance(waypath.points[k - 1], waypath.points[k]));
  }
  if (!graph.waypaths.empty()) m_cheapest = std::min(m_cheapest, m_options.waypathBias);
}

float PathSolver::sectorCost(const Sector& sector) const {
  if (sector.kind == SectorKind::Waypath) {
    return m_waypathClosed[sector.waypath] ? kInfinity : m_options.waypathBias;
  }
  // A graph without a surface table (built by hand) walks at cost 1.
  return sector.surface < m_surfaceCost.size() ? m_surfaceCost[sector.surface] : 1.0f;
}

// The goal pseudo-node is not traced: the result's cost is its final cost.
void PathSolver::record(SearchEvent::Kind kind, uint32_t node, float cost, float estimate) {
  m_trace->events.push_back({kind, node == m_startNode ? kNoPortal : node, cost, estimate});
}

// Relaxes the edge into `node`, which stands at `point`. Closed nodes are
// reopened too, so a heuristic scale above 1 (inconsistent) still gives a
// valid, if not optimal, corridor. NaN and infinite costs never enter the open list.
void PathSolver::relax(uint32_t node, uint32_t from, float cost, const glm::vec3& point) {
  Node& target = m_nodes[node];
  if (target.query != m_query) target = {point, kInfinity, kNoPortal, m_query, NodeState::Unseen};
  if (!(cost < target.costSoFar)) return;
  const bool seen = target.state != NodeState::Unseen;
  const float estimate = cost + glm::distance(point, m_goalLocation.point) * m_heuristicScale;
  target.costSoFar = cost;
  target.parent = from;
  target.point = point;
  target.state = NodeState::Open;
  m_open.push_back({estimate, cost, node});
  std::push_heap(m_open.begin(), m_open.end(), popsLater);
  if (m_trace && node != m_goalNode) {
    record(seen ? SearchEvent::Kind::Reopen : SearchEvent::Kind::Open, node, cost, estimate);
  }
}

// One iteration: pops until a node can be expanded, or ends the search.
void PathSolver::expandNext() {
  while (!m_open.empty()) {
    std::pop_heap(m_open.begin(), m_open.end(), popsLater);
    const OpenEntry entry = m_open.back();
    m_open.pop_back();
    const Node& node = m_nodes[entry.node];
    // Lazy deletion: an entry is stale once its node was closed or got a better cost.
    if (node.state == NodeState::Closed || entry.costSoFar > node.costSoFar) continue;
    // Stopping when the goal is popped, not when first seen, keeps the path optimal.
    if (entry.node == m_goalNode) return end(Ending::Reached);
    if (m_result.expansions >= m_options.maxExpansions) return end(Ending::Exhausted);
    return expand(entry);
  }
  end(Ending::NoWay);
}

void PathSolver::expand(const OpenEntry& entry) {
  const NavGraph& graph = *m_graph;
  const glm::vec3& goalPoint = m_goalLocation.point;
  Node& closing = m_nodes[entry.node];
  closing.state = NodeState::Closed;
  ++m_result.expansions;
  if (m_trace) record(SearchEvent::Kind::Close, entry.node, entry.costSoFar, entry.estimatedTotal);

  const bool isStart = entry.node == m_startNode;
  // A node stands where its portal lets the path continue: where the path
  // crossed it, or a device's exit.
  const glm::vec3 point = closing.point;
  const uint32_t sectorIndex =
      isStart ? m_startLocation.sector : graph.portals[entry.node].toSector;
  const Sector& sector = graph.sectors[sectorIndex];
  const float metre = isStart ? m_startSectorCost : sectorCost(sector);
  if (sector.kind == SectorKind::Ground) {
    const float distance = glm::distance(point, goalPoint);
    if (distance < m_closestDistance) {
      m_closestDistance = distance;
      m_closest = entry.node;
    }
  }
  const uint32_t portalEnd = sector.firstPortal + sector.portalCount;
  for (uint32_t next = sector.firstPortal; next < portalEnd; ++next) {
    const Portal& portal = graph.portals[next];
    const Sector& target = graph.sectors[portal.toSector];
    if (!(sectorCost(target) < kInfinity)) {
      if (m_blockedBy.empty() && target.kind == SectorKind::Ground &&
          target.surface < graph.surfaces.size()) {
        m_blockedBy = "the way crosses surface '" + graph.surfaces[target.surface].name +
                      "', closed to this query";
      }
      continue;
    }
    const glm::vec3 in =
        portal.kind == PortalKind::Walk && m_options.portalPoint == PortalPoint::Crossing
            ? crossing(portal, point, goalPoint)
            : graph.entryPoint(portal);
    const glm::vec3 out = portal.kind == PortalKind::Walk ? in : graph.exitPoint(portal);
    float cost = glm::distance(point, in) * metre;
    if (sector.kind == SectorKind::Waypath) {
      // Ridden along the waypath from the point it was joined at, forwards only when one-way.
      const WaypathSpec& waypath = graph.waypaths[sector.waypath];
      const uint32_t from = graph.portals[entry.node].link, to = portal.link;
      if (from == to || (waypath.oneWay && to < from)) continue;
      const std::vector<float>& along = m_waypathLength[sector.waypath];
      cost = std::abs(along[to] - along[from]) * metre;
    }
    if (portal.kind == PortalKind::Device) {
      const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
      if (!canUse(device, m_options)) {
        if (m_blockedBy.empty()) {
          m_blockedBy = std::string(toString(device.kind)) + " '" + device.id +
                        "' is locked and needs key '" + device.key + "'";
        }
        continue;
      }
      cost += std::max(glm::distance(in, out), device.travelTime * m_options.unitSpeed) +
              device.waitTime * m_options.unitSpeed;
    }
    relax(next, entry.node, entry.costSoFar + cost, out);
  }
  if (sectorIndex == m_goalLocation.sector) {
    relax(m_goalNode, entry.node,
          entry.costSoFar + glm::distance(point, goalPoint) * m_goalSectorCost, goalPoint);
  }
}

void PathSolver::end(Ending ending) {
  m_ending = ending;
  m_status = SolveStatus::Done;
}

PathResult PathSolver::finalize() {
  if (m_status == SolveStatus::Idle) {
    PathResult none;
    none.reason = "no search was started";
    return none;
  }
  if (m_status == SolveStatus::InProgress) end(Ending::Stopped);
  m_status = SolveStatus::Idle;
  PathResult& result = m_result;
  if (m_ending == Ending::Resolved) return std::move(result);

  const NavGraph& graph = *m_graph;
  const bool reached = m_ending == Ending::Reached;
  uint32_t last = m_goalNode;
  if (reached) {
    result.status = PathStatus::Found;
    result.cost = m_nodes[m_goalNode].costSoFar;
  } else {
    const bool stoppedEarly = m_ending != Ending::NoWay;
    result.reason = m_ending == Ending::Exhausted ? "the search stopped at maxExpansions = " +
                                                        std::to_string(m_options.maxExpansions)
                    : m_ending == Ending::Stopped
                        ? "the search was finalized after " + std::to_string(result.expansions) +
                              " expansions, before it ended"
                    : !m_blockedBy.empty() ? m_blockedBy
                                           : "the goal cannot be reached from the start";
    if (!m_options.allowPartial) {
      result.status = stoppedEarly ? PathStatus::TooManyExpansions : PathStatus::Unreachable;
      return std::move(result);
    }
    result.status = PathStatus::Partial;
    last = m_closest;
    result.cost = m_nodes[m_closest].costSoFar;
  }
  for (uint32_t node = reached ? m_nodes[m_goalNode].parent : last; node != m_startNode;
       node = m_nodes[node].parent) {
    result.corridor.portals.push_back(node);
  }
  std::reverse(result.corridor.portals.begin(), result.corridor.portals.end());
  result.corridor.sectors.push_back(m_startLocation.sector);
  for (uint32_t portal : result.corridor.portals) {
    result.corridor.sectors.push_back(graph.portals[portal].toSector);
  }
  if (!reached) {
    // The closest point of the last sector to the goal.
    const Sector& end = graph.sectors[result.corridor.sectors.back()];
    const glm::vec3& goalPoint = m_goalLocation.point;
    const float x = std::clamp(goalPoint.x, end.bounds.min.x, end.bounds.max.x);
    const float z = std::clamp(goalPoint.z, end.bounds.min.z, end.bounds.max.z);
    result.corridor.goal = {x, end.heightAt(x, z), z};
  }
  return std::move(result);
}

}  // namespace nav
