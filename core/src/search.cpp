#include "nav/search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nav {

const char* toString(PathStatus status) {
  switch (status) {
    case PathStatus::Found:
      return "found";
    case PathStatus::Partial:
      return "partial";
    case PathStatus::StartOffMesh:
      return "start off mesh";
    case PathStatus::GoalOffMesh:
      return "goal off mesh";
    case PathStatus::Unreachable:
      return "unreachable";
    case PathStatus::TooManyExpansions:
      return "too many expansions";
  }
  return "unknown";
}

namespace {

// Node numbering: portals are 0..portalCount-1, then the start point, then the goal point.
struct OpenEntry {
  float estimatedTotal;
  float costSoFar;
  uint32_t node;
};

// std::push_heap builds a max-heap, so "less" means "popped later": higher
// estimate first, and on equal estimates the higher node index, which makes
// the pop order independent of push order.
bool popsLater(const OpenEntry& a, const OpenEntry& b) {
  if (a.estimatedTotal != b.estimatedTotal) return a.estimatedTotal > b.estimatedTotal;
  return a.node > b.node;
}

enum class NodeState : uint8_t { Unseen, Open, Closed };

// Where the ground-plane line from `from` towards `to` crosses the portal,
// clamped to its ends; heights follow the portal.
glm::vec3 crossing(const Portal& portal, const glm::vec3& from, const glm::vec3& to) {
  const glm::vec2 a = groundOf(from), direction = groundOf(to) - a;
  const glm::vec2 l = groundOf(portal.left), span = groundOf(portal.right) - l;
  const float denominator = cross2(direction, span);
  float along = 0.5f;
  if (std::abs(denominator) > 1e-12f) {
    along = cross2(direction, a - l) / denominator;
  } else if (glm::dot(span, span) > 0.0f) {
    along = glm::dot(a - l, span) / glm::dot(span, span);  // parallel: the nearest point
  }
  return glm::mix(portal.left, portal.right, std::clamp(along, 0.0f, 1.0f));
}

// A locked device opens only for a unit holding its key.
bool canUse(const DeviceSpec& device, const SearchOptions& options) {
  return !device.locked ||
         std::find(options.keys.begin(), options.keys.end(), device.key) != options.keys.end();
}

// What a query's filter makes of the graph: the cost of a metre in each
// sector (infinite where the path may not go) and the waypaths' lengths.
struct CostModel {
  std::vector<float> surfaceCost;
  std::vector<bool> waypathClosed;
  /// Distance along each waypath from its first point to each point.
  std::vector<std::vector<float>> waypathLength;
  /// The cheapest metre anywhere: scales the heuristic so it stays a lower bound.
  float cheapest = 1.0f;

  CostModel(const NavGraph& graph, const SearchOptions& options) {
    const UnitKind kind = options.unitKind.value_or(graph.unit.kind);
    surfaceCost.resize(graph.surfaces.size());
    for (size_t i = 0; i < graph.surfaces.size(); ++i) {
      const SurfaceSpec& surface = graph.surfaces[i];
      const auto override = options.surfaceCosts.find(surface.name);
      float cost = override != options.surfaceCosts.end() ? override->second : surface.cost;
      const bool excluded = std::find(options.excludedSurfaces.begin(), options.excludedSurfaces.end(),
                                      surface.name) != options.excludedSurfaces.end();
      if (excluded || !surface.allows(kind) || !(cost > 0.0f)) cost = kInfinity;
      surfaceCost[i] = cost;
      cheapest = std::min(cheapest, cost);
    }
    for (const WaypathSpec& waypath : graph.waypaths) {
      waypathClosed.push_back(waypath.unitKind && *waypath.unitKind != kind);
      std::vector<float> along(1, 0.0f);
      for (size_t k = 1; k < waypath.points.size(); ++k)
        along.push_back(along.back() + glm::distance(waypath.points[k - 1], waypath.points[k]));
      waypathLength.push_back(std::move(along));
    }
    if (!graph.waypaths.empty()) cheapest = std::min(cheapest, options.waypathBias);
  }

  float sectorCost(const Sector& sector, const SearchOptions& options) const {
    if (sector.kind == SectorKind::Waypath) {
      return waypathClosed[sector.waypath] ? kInfinity : options.waypathBias;
    }
    // A graph without a surface table (built by hand) walks at cost 1.
    return sector.surface < surfaceCost.size() ? surfaceCost[sector.surface] : 1.0f;
  }

  static constexpr float kInfinity = std::numeric_limits<float>::infinity();
};

}  // namespace

PathResult findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                    const SearchOptions& options, SearchTrace* trace) {
  PathResult result;
  result.corridor.start = start;
  result.corridor.goal = goal;

  // On a sector, or failing that the nearest one within the snap extents.
  auto place = [&](const glm::vec3& point) {
    const Location on = locateSector(graph, point);
    return on.sector != kNoSector ? on : findNearestSector(graph, point, options.snapExtents);
  };
  const Location startLocation = place(start);
  if (startLocation.sector == kNoSector) {
    result.status = PathStatus::StartOffMesh;
    result.reason = "the start is on no sector, nor near one";
    return result;
  }
  result.corridor.start = startLocation.point;
  const Location goalLocation = place(goal);
  if (goalLocation.sector == kNoSector) {
    result.status = PathStatus::GoalOffMesh;
    result.reason = "the goal is on no sector, nor near one";
    return result;
  }
  result.corridor.goal = goalLocation.point;
  const glm::vec3 startPoint = startLocation.point;
  const glm::vec3 goalPoint = goalLocation.point;
  const CostModel costs(graph, options);
  const float goalSectorCost = costs.sectorCost(graph.sectors[goalLocation.sector], options);
  // The sector the unit stands in can always be left, whatever the filter says of it.
  const float startSectorCost = std::min(
      costs.sectorCost(graph.sectors[startLocation.sector], options), 1.0f / costs.cheapest);

  // A straight line inside one rectangle is never longer than a detour through
  // portals, unless a waypath joins the rectangle (riding it may be cheaper).
  const Sector& startSector = graph.sectors[startLocation.sector];
  const auto firstPortal = graph.portals.begin() + startSector.firstPortal;
  const bool joinsWaypath =
      std::any_of(firstPortal, firstPortal + startSector.portalCount,
                  [](const Portal& portal) { return portal.kind == PortalKind::Waypath; });
  if (startLocation.sector == goalLocation.sector && !joinsWaypath) {
    result.status = PathStatus::Found;
    result.corridor.sectors.push_back(startLocation.sector);
    result.cost = glm::distance(startPoint, goalPoint) * startSectorCost;
    return result;
  }

  const uint32_t portalCount = uint32_t(graph.portals.size());
  const uint32_t startNode = portalCount;
  const uint32_t goalNode = portalCount + 1;
  const uint32_t nodeCount = portalCount + 2;
  std::vector<float> costSoFar(nodeCount, std::numeric_limits<float>::infinity());
  std::vector<uint32_t> parent(nodeCount, kNoPortal);
  std::vector<NodeState> state(nodeCount, NodeState::Unseen);
  // Where each node's path stands on its portal (see PortalPoint).
  std::vector<glm::vec3> nodePoint(nodeCount);
  std::vector<OpenEntry> open;

  // The goal pseudo-node is not traced: the result's cost is its final cost.
  auto record = [&](SearchEvent::Kind kind, uint32_t node, float cost, float estimate) {
    trace->events.push_back({kind, node == startNode ? kNoPortal : node, cost, estimate});
  };
  const float heuristicScale = options.heuristicScale * std::min(1.0f, costs.cheapest);
  auto heuristic = [&](const glm::vec3& p) { return glm::distance(p, goalPoint) * heuristicScale; };

  // Relaxes the edge into `node`, which stands at `point`. Closed nodes are
  // reopened too, so a heuristic scale above 1 (inconsistent) still gives a
  // valid, if not optimal, corridor. NaN and infinite costs never enter the open list.
  auto relax = [&](uint32_t node, uint32_t from, float cost, const glm::vec3& point) {
    if (!(cost < costSoFar[node])) return;
    const bool seen = state[node] != NodeState::Unseen;
    const float estimate = cost + heuristic(point);
    costSoFar[node] = cost;
    parent[node] = from;
    nodePoint[node] = point;
    state[node] = NodeState::Open;
    open.push_back({estimate, cost, node});
    std::push_heap(open.begin(), open.end(), popsLater);
    if (trace && node != goalNode) {
      record(seen ? SearchEvent::Kind::Reopen : SearchEvent::Kind::Open, node, cost, estimate);
    }
  };

  // What stopped the search, for a partial result's reason.
  std::string blockedBy;
  // The closed node nearest the goal, on the ground: where a partial path ends.
  uint32_t closest = startNode;
  float closestDistance = glm::distance(startPoint, goalPoint);

  relax(startNode, kNoPortal, 0.0f, startPoint);
  bool reached = false;
  bool exhausted = false;
  while (!open.empty()) {
    std::pop_heap(open.begin(), open.end(), popsLater);
    const OpenEntry entry = open.back();
    open.pop_back();
    const uint32_t node = entry.node;
    // Lazy deletion: an entry is stale once its node was closed or got a better cost.
    if (state[node] == NodeState::Closed || entry.costSoFar > costSoFar[node]) continue;
    // Stopping when the goal is popped, not when first seen, keeps the path optimal.
    if (node == goalNode) {
      reached = true;
      break;
    }
    if (result.expansions >= options.maxExpansions) {
      exhausted = true;
      break;
    }
    state[node] = NodeState::Closed;
    ++result.expansions;
    if (trace) record(SearchEvent::Kind::Close, node, entry.costSoFar, entry.estimatedTotal);

    const bool isStart = node == startNode;
    // A node stands where its portal lets the path continue: the portal's
    // midpoint, or a device's exit.
    const glm::vec3 point = isStart ? startPoint : nodePoint[node];
    const uint32_t sectorIndex = isStart ? startLocation.sector : graph.portals[node].toSector;
    const Sector& sector = graph.sectors[sectorIndex];
    const float metre = isStart ? startSectorCost : costs.sectorCost(sector, options);
    if (sector.kind == SectorKind::Ground) {
      const float distance = glm::distance(point, goalPoint);
      if (distance < closestDistance) {
        closestDistance = distance;
        closest = node;
      }
    }
    const uint32_t portalEnd = sector.firstPortal + sector.portalCount;
    for (uint32_t next = sector.firstPortal; next < portalEnd; ++next) {
      const Portal& portal = graph.portals[next];
      const Sector& target = graph.sectors[portal.toSector];
      if (!(costs.sectorCost(target, options) < CostModel::kInfinity)) {
        if (blockedBy.empty() && target.kind == SectorKind::Ground &&
            target.surface < graph.surfaces.size()) {
          blockedBy = "the way crosses surface '" + graph.surfaces[target.surface].name +
                      "', closed to this query";
        }
        continue;
      }
      const glm::vec3 in = portal.kind == PortalKind::Walk && options.portalPoint == PortalPoint::Crossing
                               ? crossing(portal, point, goalPoint)
                               : graph.entryPoint(portal);
      const glm::vec3 out = portal.kind == PortalKind::Walk ? in : graph.exitPoint(portal);
      float cost = glm::distance(point, in) * metre;
      if (sector.kind == SectorKind::Waypath) {
        // Ridden along the waypath from the point it was joined at, forwards only when one-way.
        const WaypathSpec& waypath = graph.waypaths[sector.waypath];
        const uint32_t from = graph.portals[node].link, to = portal.link;
        if (from == to || (waypath.oneWay && to < from)) continue;
        const std::vector<float>& along = costs.waypathLength[sector.waypath];
        cost = std::abs(along[to] - along[from]) * metre;
      }
      if (portal.kind == PortalKind::Device) {
        const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
        if (!canUse(device, options)) {
          if (blockedBy.empty()) {
            blockedBy = std::string(toString(device.kind)) + " '" + device.id + "' is locked and needs key '" +
                        device.key + "'";
          }
          continue;
        }
        cost += std::max(glm::distance(in, out), device.travelTime * options.unitSpeed) +
                device.waitTime * options.unitSpeed;
      }
      relax(next, node, entry.costSoFar + cost, out);
    }
    if (sectorIndex == goalLocation.sector) {
      relax(goalNode, node, entry.costSoFar + glm::distance(point, goalPoint) * goalSectorCost, goalPoint);
    }
  }

  uint32_t last = goalNode;
  if (reached) {
    result.status = PathStatus::Found;
    result.cost = costSoFar[goalNode];
  } else {
    result.reason = exhausted ? "the search stopped at maxExpansions = " + std::to_string(options.maxExpansions)
                    : !blockedBy.empty() ? blockedBy
                                         : "the goal cannot be reached from the start";
    if (!options.allowPartial) {
      result.status = exhausted ? PathStatus::TooManyExpansions : PathStatus::Unreachable;
      return result;
    }
    result.status = PathStatus::Partial;
    last = closest;
    result.cost = costSoFar[closest];
  }
  for (uint32_t node = reached ? parent[goalNode] : last; node != startNode; node = parent[node]) {
    result.corridor.portals.push_back(node);
  }
  std::reverse(result.corridor.portals.begin(), result.corridor.portals.end());
  result.corridor.sectors.push_back(startLocation.sector);
  for (uint32_t portal : result.corridor.portals) {
    result.corridor.sectors.push_back(graph.portals[portal].toSector);
  }
  if (!reached) {
    // The closest point of the last sector to the goal.
    const Sector& end = graph.sectors[result.corridor.sectors.back()];
    const float x = std::clamp(goalPoint.x, end.bounds.min.x, end.bounds.max.x);
    const float z = std::clamp(goalPoint.z, end.bounds.min.z, end.bounds.max.z);
    result.corridor.goal = {x, end.heightAt(x, z), z};
  }
  return result;
}

}  // namespace nav
