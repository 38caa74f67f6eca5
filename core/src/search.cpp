#include "nav/search.h"

#include <algorithm>
#include <limits>

namespace nav {

const char* toString(PathStatus status) {
  switch (status) {
    case PathStatus::Found:
      return "found";
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

// A locked device opens only for a unit holding its key.
bool canUse(const NavGraph& graph, const Portal& portal, const SearchOptions& options) {
  const DeviceSpec& device = graph.devices[graph.deviceLinks[portal.link].device];
  return !device.locked ||
         std::find(options.keys.begin(), options.keys.end(), device.key) != options.keys.end();
}

}  // namespace

PathResult findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                    const SearchOptions& options, SearchTrace* trace) {
  PathResult result;
  result.corridor.start = start;
  result.corridor.goal = goal;

  const Location startLocation = locateSector(graph, start);
  if (startLocation.sector == kNoSector) {
    result.status = PathStatus::StartOffMesh;
    return result;
  }
  result.corridor.start = startLocation.point;
  const Location goalLocation = locateSector(graph, goal);
  if (goalLocation.sector == kNoSector) {
    result.status = PathStatus::GoalOffMesh;
    return result;
  }
  result.corridor.goal = goalLocation.point;
  const glm::vec3 startPoint = startLocation.point;
  const glm::vec3 goalPoint = goalLocation.point;

  // A straight line inside one rectangle is never longer than a detour through portals.
  if (startLocation.sector == goalLocation.sector) {
    result.status = PathStatus::Found;
    result.corridor.sectors.push_back(startLocation.sector);
    result.cost = glm::distance(startPoint, goalPoint);
    return result;
  }

  const uint32_t portalCount = uint32_t(graph.portals.size());
  const uint32_t startNode = portalCount;
  const uint32_t goalNode = portalCount + 1;
  const uint32_t nodeCount = portalCount + 2;
  std::vector<float> costSoFar(nodeCount, std::numeric_limits<float>::infinity());
  std::vector<uint32_t> parent(nodeCount, kNoPortal);
  std::vector<NodeState> state(nodeCount, NodeState::Unseen);
  std::vector<OpenEntry> open;

  // The goal pseudo-node is not traced: the result's cost is its final cost.
  auto record = [&](SearchEvent::Kind kind, uint32_t node, float cost, float estimate) {
    trace->events.push_back({kind, node == startNode ? kNoPortal : node, cost, estimate});
  };
  const float heuristicScale = options.heuristicScale;
  auto heuristic = [&](const glm::vec3& p) { return glm::distance(p, goalPoint) * heuristicScale; };

  // Relaxes the edge into `node`, which stands at `point`. Closed nodes are
  // reopened too, so a heuristic scale above 1 (inconsistent) still gives a
  // valid, if not optimal, corridor. NaN costs never enter the open list.
  auto relax = [&](uint32_t node, uint32_t from, float cost, const glm::vec3& point) {
    if (!(cost < costSoFar[node])) return;
    const bool seen = state[node] != NodeState::Unseen;
    const float estimate = cost + heuristic(point);
    costSoFar[node] = cost;
    parent[node] = from;
    state[node] = NodeState::Open;
    open.push_back({estimate, cost, node});
    std::push_heap(open.begin(), open.end(), popsLater);
    if (trace && node != goalNode) {
      record(seen ? SearchEvent::Kind::Reopen : SearchEvent::Kind::Open, node, cost, estimate);
    }
  };

  relax(startNode, kNoPortal, 0.0f, startPoint);
  bool reached = false;
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
      result.status = PathStatus::TooManyExpansions;
      return result;
    }
    state[node] = NodeState::Closed;
    ++result.expansions;
    if (trace) record(SearchEvent::Kind::Close, node, entry.costSoFar, entry.estimatedTotal);

    const bool isStart = node == startNode;
    // A node stands where its portal lets the path continue: the portal's
    // midpoint, or a device's exit.
    const glm::vec3 point = isStart ? startPoint : graph.exitPoint(graph.portals[node]);
    const uint32_t sectorIndex = isStart ? startLocation.sector : graph.portals[node].toSector;
    const Sector& sector = graph.sectors[sectorIndex];
    const uint32_t portalEnd = sector.firstPortal + sector.portalCount;
    for (uint32_t next = sector.firstPortal; next < portalEnd; ++next) {
      const Portal& portal = graph.portals[next];
      if (portal.kind == PortalKind::Device && !canUse(graph, portal, options)) continue;
      const glm::vec3 in = graph.entryPoint(portal);
      const glm::vec3 out = graph.exitPoint(portal);
      // Going through a device costs the distance between its entry and exit.
      relax(next, node, entry.costSoFar + glm::distance(point, in) + glm::distance(in, out), out);
    }
    if (sectorIndex == goalLocation.sector) {
      relax(goalNode, node, entry.costSoFar + glm::distance(point, goalPoint), goalPoint);
    }
  }
  if (!reached) {
    result.status = PathStatus::Unreachable;
    return result;
  }

  result.status = PathStatus::Found;
  result.cost = costSoFar[goalNode];
  for (uint32_t node = parent[goalNode]; node != startNode; node = parent[node]) {
    result.corridor.portals.push_back(node);
  }
  std::reverse(result.corridor.portals.begin(), result.corridor.portals.end());
  result.corridor.sectors.push_back(startLocation.sector);
  for (uint32_t portal : result.corridor.portals) {
    result.corridor.sectors.push_back(graph.portals[portal].toSector);
  }
  return result;
}

}  // namespace nav
