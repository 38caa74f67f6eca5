#include "nav/path_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "format_number.h"

namespace nav {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
// The time budget reads the clock every few iterations: a read is cheap, not free.
constexpr uint32_t kIterationsPerClockRead = 16;
constexpr const char* kOtherIsland =
    "the goal is on another island: no portal joins it to the start's (the path ends at the "
    "closest point)";
constexpr const char* kOneWay =
    "the goal cannot be reached from the start: no way leads there, one-way portals taken only "
    "the way they go (the path ends at the closest point)";

}  // namespace

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
  m_outOfReach = outOfReach();
  if (m_outOfReach) {
    if (!options.allowPartial) {
      m_result.status = PathStatus::Unreachable;
      m_result.reason = m_outOfReach;
      return;
    }
    // No search can get there: aim for the reachable point nearest the goal.
    const Location nearest = nearestReachable();
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

  // Node numbers, as every search over portals has them (crossing_rules.h).
  m_startNode = uint32_t(graph.portals.size());
  m_firstJumpNode = m_startNode + 2;
  m_status = SolveStatus::InProgress;
  m_aimedAtPartialEnd = false;
  // Finalized before any A* ran, the partial path is the start alone.
  m_portalSearchStarted = false;
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
  query.costs = &m_costs;
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

void PathSolver::startPortalSearch(bool skipDeadEnds) {
  m_searchingIntervals = false;
  m_searchingRegions = false;
  if (m_result.portalPoint == PortalPoint::Exact) m_result.portalPoint = PortalPoint::Crossing;
  m_portalSearchStarted = true;
  PortalQuery query;
  query.graph = m_graph;
  query.costs = &m_costs;
  query.jumps = m_jumps;
  query.start = m_startLocation;
  query.goal = m_goalLocation;
  query.portalPoint =
      m_options.portalPoint == PortalPoint::Exact ? PortalPoint::Crossing : m_options.portalPoint;
  query.heuristicScale = m_options.heuristicScale * std::min(1.0f, m_costs.cheapest());
  query.startSectorCost = m_startSectorCost;
  query.goalSectorCost = m_goalSectorCost;
  query.turningRadius = m_turningRadius;
  // maxExpansions bounds all the searches a query runs together.
  query.maxExpansions =
      m_options.maxExpansions - std::min(m_result.expansions, m_options.maxExpansions);
  query.skipDeadEnds = skipDeadEnds;
  query.rules = this;
  query.traced = m_trace != nullptr;
  m_portals.init(query);
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
  // The exact search's intervals lie in the sector entered (on its entering
  // gate, where cells cover the sectors), on that sector's ground.
  return {point.x, m_graph->heightAt(m_graph->sectors[portal.toSector], point.x, point.y), point.y};
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

namespace {

// One step of `search`, its expansions added to `expansions`.
template <class Search>
SearchStep countedStep(Search& search, uint32_t& expansions) {
  const uint32_t before = search.expansions();
  const SearchStep step = search.step();
  expansions += search.expansions() - before;
  return step;
}

}  // namespace

// One iteration: pops until a node can be expanded, or ends the search.
void PathSolver::expandNext() {
  if (m_searchingRegions) {
    switch (countedStep(m_regions, m_result.expansions)) {
      case SearchStep::Searching:
        return;
      case SearchStep::Reached:
        return end(Ending::ReachedOverRegions);
      case SearchStep::Exhausted:
        // finalize takes the region search's closest point.
        return end(Ending::Exhausted);
      case SearchStep::NoWay:
        // The A* over sectors names what stands in the way and finds the
        // partial path; it goes on in this same iteration.
        startPortalSearch();
        break;
    }
  }
  if (m_searchingIntervals) {
    switch (countedStep(m_intervals, m_result.expansions)) {
      case SearchStep::Searching:
        return;
      case SearchStep::Reached:
        if (!m_aimedAtPartialEnd) return end(Ending::ReachedExactly);
        m_result.portalPoint = PortalPoint::Exact;
        return end(Ending::PartialExactly);
      case SearchStep::NoWay:
      case SearchStep::Exhausted:
        m_searchingIntervals = false;
        // The portal A*'s partial path stands.
        if (m_aimedAtPartialEnd) return end(Ending::NoWay);
        // The portal A* names what stands in the way and finds the partial
        // path; it goes on in this same iteration.
        startPortalSearch();
        break;
    }
  }
  switch (countedStep(m_portals, m_result.expansions)) {
    case SearchStep::Searching:
      return;
    case SearchStep::Reached:
      return end(Ending::Reached);
    case SearchStep::Exhausted:
      return end(Ending::Exhausted);
    case SearchStep::NoWay:
      break;
  }
  // The goal is out of reach: the point nearest it may lie in a dead end the
  // search skipped, so the partial path comes from a search that skips none,
  // which goes on in this same iteration.
  if (m_portals.mayHideNearer() && m_options.allowPartial) {
    startPortalSearch(false);
    return expandNext();
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
  return closestPointOf(m_portalSearchStarted ? m_portals.closestSector() : m_startLocation.sector);
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
  if (m_portalSearchStarted && !m_portals.blockedBy().empty()) return m_portals.blockedBy();
  return "the goal cannot be reached from the start";
}

// Why no path can lead from the start to the goal whatever the filter, or
// null. Jumps may join any two sectors.
const char* PathSolver::outOfReach() {
  const NavGraph& graph = *m_graph;
  if (!m_jumps.empty()) return nullptr;
  const uint32_t start = m_startLocation.sector, goal = m_goalLocation.sector;
  if (!graph.islands.empty() && graph.islands.of(start) != graph.islands.of(goal))
    return kOtherIsland;
  if (graph.components.empty()) return nullptr;
  const uint32_t from = graph.components.of(start), to = graph.components.of(goal);
  // Components are numbered so that portals lead up: none beyond `to` leads back to it.
  if (from == to || (from < to && reachComponents(from, to))) return nullptr;
  return kOneWay;
}

// Marks the components `from` reaches (itself too) up to number `upTo`, and
// says whether `upTo` is one of them.
bool PathSolver::reachComponents(uint32_t from, uint32_t upTo) {
  const StrongComponents& components = m_graph->components;
  m_componentsReached.startQuery(components.count());
  m_componentsReached.touch(from, 1);
  m_componentStack.assign(1, from);
  while (!m_componentStack.empty()) {
    const uint32_t component = m_componentStack.back();
    m_componentStack.pop_back();
    for (uint32_t next : components.successors(component)) {
      if (next > upTo || m_componentsReached.seen(next)) continue;
      if (next == upTo) return true;
      m_componentsReached.touch(next, 1);
      m_componentStack.push_back(next);
    }
  }
  return false;
}

// The point of the ground sectors open to this query that the start reaches,
// portals taken the way they lead, nearest the goal.
Location PathSolver::nearestReachable() {
  const NavGraph& graph = *m_graph;
  const glm::vec3& goal = m_goalLocation.point;
  Location best;
  best.distance = kInfinity;
  const auto consider = [&](std::span<const uint32_t> sectors) {
    for (uint32_t s : sectors) {
      const Sector& sector = graph.sectors[s];
      if (sector.kind != SectorKind::Ground || !(m_costs.sectorCost(sector) < kInfinity) ||
          !(sector.bounds.distanceTo(goal) < best.distance))
        continue;
      const glm::vec3 point = onCellsNearest(graph, sector, goal);
      const float distance = glm::distance(point, goal);
      if (distance < best.distance) best = {s, point, distance};
    }
  };
  if (graph.components.empty()) {
    consider(graph.islands.sectors(graph.islands.of(m_startLocation.sector)));
    return best;
  }
  const StrongComponents& components = graph.components;
  const uint32_t from = components.of(m_startLocation.sector);
  reachComponents(from, components.count());
  for (uint32_t c = from; c < components.count(); ++c) {
    if (m_componentsReached.seen(c)) consider(components.sectors(c));
  }
  return best;
}

const Portal& PathSolver::nodePortal(uint32_t node) const {
  return node >= m_firstJumpNode ? m_jumps[node - m_firstJumpNode].portal : m_graph->portals[node];
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

// Found, or as close as it gets when the goal was out of reach.
void PathSolver::markReached(PathResult& result) const {
  result.status = m_outOfReach ? PathStatus::Partial : PathStatus::Found;
  if (m_outOfReach) result.reason = m_outOfReach;
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
    m_intervals.corridorNodes(corridor.portals, corridor.endTurns, corridor.reachEntries,
                              corridor.reachExits, corridor.enteringGateTurns);
    for (uint32_t node : corridor.portals)
      corridor.sectors.push_back(nodePortal(node).toSector);
    copyJumps(corridor);
    return;
  }
  const bool reached = m_ending == Ending::Reached;
  if (reached) {
    markReached(result);
    result.cost = m_portals.cost(true);
  } else {
    const bool stoppedEarly = m_ending != Ending::NoWay;
    result.reason = stoppedEarly ? stoppedReason() : noWayReason();
    if (!m_options.allowPartial) {
      result.status = stoppedEarly ? PathStatus::TooManyExpansions : PathStatus::Unreachable;
      return;
    }
    result.status = PathStatus::Partial;
    result.cost = m_portalSearchStarted ? m_portals.cost(false) : 0.0f;
  }
  m_corridorNodes.clear();
  if (m_portalSearchStarted) m_portals.corridorNodes(reached, m_corridorNodes);
  m_corridorAt.startQuery(m_graph->sectors.size());
  // The first place the corridor holds `sector`, or its size when it does not.
  const auto firstAt = [&](uint32_t sector) {
    const uint32_t at = m_corridorAt.touch(sector, kNoSector);
    return at < corridor.sectors.size() && corridor.sectors[at] == sector ? size_t(at)
                                                                          : corridor.sectors.size();
  };
  const auto add = [&](uint32_t sector) {
    if (firstAt(sector) == corridor.sectors.size())
      m_corridorAt[sector] = uint32_t(corridor.sectors.size());
    corridor.sectors.push_back(sector);
  };
  add(m_startLocation.sector);
  for (uint32_t node : m_corridorNodes) {
    // The costs of crossing points depend on the way in, so the search may come
    // back to a sector it left. When no sector on the loop costs less a metre,
    // the straight line inside the (convex, planar) sector is no dearer than
    // the loop: the corridor goes straight on from there.
    const uint32_t sector = nodePortal(node).toSector;
    const size_t keep = firstAt(sector);
    if (keep < corridor.sectors.size() &&
        cheapestRateAfter(corridor, keep) >= sectorRate(corridor, keep)) {
      corridor.sectors.resize(keep + 1);
      corridor.portals.resize(keep);
      continue;
    }
    add(sector);
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
