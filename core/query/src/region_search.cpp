#include "nav/region_search.h"

#include <algorithm>
#include <limits>

namespace nav {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();
// A corridor's sectors per region it crosses, for reserving: the dungeon averages about six.
constexpr size_t kSectorsPerRegionGuess = 8;

}  // namespace

void RegionSearch::init(const RegionQuery& query) {
  m_query = query;
  m_regions = &query.graph->regions;
  const uint32_t portalCount = uint32_t(m_regions->portals().size());
  m_startNode = portalCount;
  m_goalNode = portalCount + 1;
  m_nodes.startQuery(portalCount + 2);
  m_regionMetre.startQuery(m_regions->count());
  m_open.clear();
  m_expansions = 0;
  m_reached = false;
  m_closest = m_startNode;
  m_closestDistance = glm::distance(query.start, query.goal);
  relax(m_startNode, kNoPortal, {query.start, 0.0f, 0.0f}, query.start, query.start);
}

RegionSearch::Node& RegionSearch::touch(uint32_t node) {
  return m_nodes.touch(node, {glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(0.0f), 0.0f, kInfinity,
                             kInfinity, kNoPortal, false});
}

void RegionSearch::relax(uint32_t node, uint32_t parent, const WayPast& way,
                         const glm::vec3& crossed, const glm::vec3& point) {
  Node& target = touch(node);
  const float cost = way.cost;
  // Nodes are portals, and where a node crosses its portal depends on the
  // way in: a crossing is better when the whole way through it looks shorter,
  // not when it is cheaper to get to (a crossing reached cheaply at the far
  // end of a long portal can leave a longer way on).
  const float estimate = cost + glm::distance(point, m_query.goal) * m_query.heuristicScale;
  if (!(estimate < target.estimate)) return;
  const bool seen = target.cost < kInfinity;
  target.estimate = estimate;
  target.cost = cost;
  target.parent = parent;
  target.crossed = crossed;
  target.via = way.via;
  target.viaCost = way.viaCost;
  target.point = point;
  target.closed = false;
  m_open.push({estimate, cost, node});
  if (m_query.traced && node != m_goalNode) {
    m_query.rules->tracePoint(seen ? SearchEvent::Kind::Reopen : SearchEvent::Kind::Open,
                              tracedPortal(node), cost, estimate, crossed);
  }
}

SearchStep RegionSearch::step() {
  while (!m_open.empty()) {
    const OpenEntry entry = m_open.pop();
    Node& node = m_nodes[entry.node];
    // Lazy deletion: an entry is stale once its node was closed or got a better estimate.
    if (node.closed || entry.estimate > node.estimate) continue;
    if (entry.node == m_goalNode) {
      m_reached = true;
      return SearchStep::Reached;
    }
    if (m_expansions >= m_query.maxExpansions) return SearchStep::Exhausted;
    node.closed = true;
    ++m_expansions;
    const float distance = glm::distance(node.point, m_query.goal);
    if (distance < m_closestDistance) {
      m_closestDistance = distance;
      m_closest = entry.node;
    }
    if (m_query.traced) {
      m_query.rules->tracePoint(SearchEvent::Kind::Close, tracedPortal(entry.node), entry.cost,
                                entry.estimate, node.crossed);
    }
    expand(entry.node);
    return SearchStep::Searching;
  }
  return SearchStep::NoWay;
}

uint32_t RegionSearch::regionOf(uint32_t node) const {
  return node == m_startNode ? m_regions->of(m_query.startSector)
                             : m_regions->portals()[node].toRegion;
}

bool RegionSearch::walks(uint32_t node) const {
  return m_query.graph->portals[m_regions->members(m_regions->portals()[node])[0]].kind ==
         PortalKind::Walk;
}

uint32_t RegionSearch::tracedPortal(uint32_t node) const {
  return node == m_startNode ? kNoPortal : m_regions->members(m_regions->portals()[node])[0];
}

// A node's crossing was placed towards the goal before the way on was known.
// Going on to a point, the path may cross the node's portal instead where the
// way from `via` (where it crossed the portal before) to that point is
// shortest: never dearer on one surface, and much cheaper where the way on
// turns away from the goal (a long portal crossed at its end nearest the goal,
// then walked back along). Costed from the crossing alone, such a turn costs
// the walk there and back, and the search takes a longer way round.
class RegionSearch::WaysOn {
 public:
  /// From `node`; viaMetre is the cost of a metre before its portal.
  WaysOn(const RegionSearch& search, uint32_t node, float viaMetre)
      : m_here(search.m_nodes[node]),
        m_viaMetre(viaMetre),
        // The start has no portal, and a device's crossing is fixed.
        m_movable(node != search.m_startNode && search.walks(node)),
        // (Made for the start and devices too, on a zero portal, and not used.)
        m_portal(m_movable ? search.m_regions->portals()[node] : RegionPortal{}),
        m_touching(groundOf(m_portal.left), groundOf(m_portal.right), groundOf(m_here.via)) {}

  /// The way on to `target`, at `metre` a metre past the portal.
  WayPast to(const glm::vec3& target, float metre) const {
    WayPast way{m_here.point, m_here.cost,
                m_here.cost + glm::distance(m_here.point, target) * metre};
    if (!m_movable) return way;
    const glm::vec3 moved =
        glm::mix(m_portal.left, m_portal.right, m_touching.towards(groundOf(target)));
    const float movedCost = m_here.viaCost + glm::distance(m_here.via, moved) * m_viaMetre;
    const float total = movedCost + glm::distance(moved, target) * metre;
    if (total < way.cost) way = {moved, movedCost, total};
    return way;
  }

 private:
  const Node& m_here;
  float m_viaMetre;
  bool m_movable;
  RegionPortal m_portal;
  TouchingPoints m_touching;
};

void RegionSearch::expand(uint32_t node) {
  const NavGraph& graph = *m_query.graph;
  const glm::vec3 at = m_nodes[node].point;
  const uint32_t region = regionOf(node);
  // A region keeps to one surface: one cost a metre in all of it.
  const float metre = metreOf(region);
  const glm::vec2 goal = groundOf(m_query.goal);
  const WaysOn waysOn(*this, node,
                      node == m_startNode ? metre : metreOf(regionOf(m_nodes[node].parent)));
  // Straight back over the portal just crossed is never cheaper than staying.
  const uint32_t back = node == m_startNode ? kNoRegionPortal : m_regions->reverse(node);
  const std::span<const RegionPortal> portals = m_regions->portals();
  for (uint32_t next = m_regions->firstPortalOut(region); next < m_regions->endPortalOut(region);
       ++next) {
    if (next == back) continue;
    // A closed node keeps its cost: its crossing and what was searched from
    // it stand. (Reopening it for a cheaper estimate through another crossing
    // gave longer paths, not shorter: the estimates are not exact.)
    if (m_nodes.seen(next) && m_nodes[next].closed) continue;
    const RegionPortal& way = portals[next];
    const uint32_t first = m_regions->members(way)[0];
    const Portal& portal = graph.portals[first];
    // A walk portal leads into its region, all of one surface.
    const bool opens = portal.kind == PortalKind::Walk ? metreOf(way.toRegion) < kInfinity
                                                       : m_query.rules->opens(portal.toSector);
    if (!opens) continue;
    if (portal.kind == PortalKind::Walk) {
      const glm::vec3 crossed =
          glm::mix(way.left, way.right,
                   touchingPoint(groundOf(way.left), groundOf(way.right), groundOf(at), goal));
      relax(next, node, waysOn.to(crossed, metre), crossed, crossed);
    } else if (portal.kind == PortalKind::Device) {
      const float through = m_query.rules->teleportCost(first);
      if (!(through < kInfinity)) continue;
      const glm::vec3 entry = graph.entryPoint(portal);
      WayPast toEntry = waysOn.to(entry, metre);
      toEntry.cost += through;
      relax(next, node, toEntry, entry, graph.exitPoint(portal));
    }
  }
  if (region == m_regions->of(m_query.goalSector)) {
    relax(m_goalNode, node, waysOn.to(m_query.goal, metre), m_query.goal, m_query.goal);
  }
}

float RegionSearch::metreOf(uint32_t region) {
  if (!m_regionMetre.seen(region))
    m_regionMetre.touch(region, m_query.rules->metreOf(m_regions->sectors(region)[0]));
  return m_regionMetre[region];
}

float RegionSearch::cost() const {
  return m_reached ? m_nodes[m_goalNode].cost : kInfinity;
}

uint32_t RegionSearch::bestMember(uint32_t node, const glm::vec3& from, const glm::vec3& towards,
                                  glm::vec3& crossing) const {
  const std::span<const uint32_t> members = m_regions->members(m_regions->portals()[node]);
  const NavGraph& graph = *m_query.graph;
  uint32_t best = members[0];
  float shortest = kInfinity;
  for (uint32_t member : members) {
    const Portal& portal = graph.portals[member];
    const glm::vec3 point = glm::mix(portal.left, portal.right,
                                     touchingPoint(groundOf(portal.left), groundOf(portal.right),
                                                   groundOf(from), groundOf(towards)));
    const float length = glm::distance(groundOf(from), groundOf(point)) +
                         glm::distance(groundOf(point), groundOf(towards));
    if (length < shortest) {
      shortest = length;
      best = member;
      crossing = point;
    }
  }
  return best;
}

namespace {

// Less than this fraction of the way on is rounding: the portal just crossed
// seen again from the other side.
constexpr float kAhead = 1e-4f;
// Crossings within this fraction of the way of each other are one.
constexpr float kTie = 1e-5f;
// Steps round walls a walk through a region takes at most before it searches.
constexpr uint32_t kMaxDetours = 4;

}  // namespace

RegionSearch::LineExit RegionSearch::lineExit(const Sector& sector, uint32_t cameBy,
                                              const glm::vec2& point, const glm::vec2& line,
                                              uint32_t region, float metre) {
  const NavGraph& graph = *m_query.graph;
  // A line that leaves within half a cell past a portal's end (the margin
  // the portal does not reach) still goes through that portal: the funnel
  // pulls the string through the corridor however the line ran.
  const float margin = 0.5f * graph.cellSize + kAhead;
  LineExit best;
  for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Walk || p == cameBy) continue;
    // Walk portals lie on their sector's sides: x = const for a step along X.
    const int along =
        portal.direction == Direction::PlusX || portal.direction == Direction::MinusX ? 0 : 1;
    if (line[along] == 0.0f) continue;
    const glm::vec2 a = groundOf(portal.left), b = groundOf(portal.right);
    const float t = (a[along] - point[along]) / line[along];
    if (t <= kAhead || t > best.t + kTie) continue;
    const float lateral = point[1 - along] + line[1 - along] * t;
    const float overshoot = std::max({std::min(a[1 - along], b[1 - along]) - lateral,
                                      lateral - std::max(a[1 - along], b[1 - along]), 0.0f});
    if (overshoot > margin) continue;
    // Nearly convex still lets a region wrap round a narrow sector of another
    // (a floor of its own, another region grown first): the line may cross
    // that sector, when the query opens it at the region's cost a metre.
    const bool inRegion = m_regions->of(portal.toSector) == region;
    if (!inRegion && metreOf(m_regions->of(portal.toSector)) != metre) continue;
    // Nearest first; at one crossing, into the region, then the portal the line hits.
    const bool better = best.portal == kNoPortal || t < best.t - kTie ||
                        (inRegion != best.inRegion ? inRegion : overshoot < best.overshoot);
    if (better) best = {p, t, overshoot, inRegion};
  }
  return best;
}

uint32_t RegionSearch::detourExit(const Sector& sector, uint32_t cameBy, const glm::vec2& point,
                                  const glm::vec2& target, uint32_t region,
                                  std::span<const uint32_t> walked, glm::vec2& crossing) {
  const NavGraph& graph = *m_query.graph;
  uint32_t best = kNoPortal;
  float shortest = kInfinity;
  for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
    const Portal& portal = graph.portals[p];
    if (portal.kind != PortalKind::Walk || p == cameBy ||
        m_regions->of(portal.toSector) != region ||
        std::find(walked.begin(), walked.end(), portal.toSector) != walked.end()) {
      continue;
    }
    const glm::vec2 a = groundOf(portal.left), b = groundOf(portal.right);
    const glm::vec2 q = glm::mix(a, b, touchingPoint(a, b, point, target));
    const float length = glm::distance(point, q) + glm::distance(q, target);
    if (length < shortest) {
      shortest = length;
      best = p;
      crossing = q;
    }
  }
  return best;
}

bool RegionSearch::walkRegion(uint32_t from, const glm::vec3& at, uint32_t to,
                              const glm::vec3& towards, std::vector<uint32_t>& sectors,
                              std::vector<uint32_t>& portals) {
  if (from == to) return true;
  const NavGraph& graph = *m_query.graph;
  const uint32_t region = m_regions->of(from);
  const float metre = metreOf(region);
  // The region is nearly convex: mostly the straight line to `towards` leads
  // from sector to sector through their portals, with no search at all; where
  // it meets a wall, a step round it through the region's portal on the
  // shortest way on mostly finds the line again.
  glm::vec2 point = groundOf(at);
  const glm::vec2 target = groundOf(towards);
  // Where the walk last stood in the region, for the search below.
  struct Stand {
    size_t sectors, portals;
    uint32_t sector;
    glm::vec2 point;
  } lastInside{sectors.size(), portals.size(), from, point};
  const size_t firstWalked = sectors.size() - 1;
  uint32_t cameBy = kNoPortal;
  uint32_t detours = 0;
  for (uint32_t steps = 0; from != to && steps < graph.sectors.size(); ++steps) {
    const Sector& sector = graph.sectors[from];
    const glm::vec2 line = target - point;
    const LineExit exit = lineExit(sector, cameBy, point, line, region, metre);
    uint32_t through = exit.portal;
    bool inRegion = exit.inRegion;
    glm::vec2 next = point + line * exit.t;
    if (through == kNoPortal && detours < kMaxDetours) {
      const std::span<const uint32_t> walked(sectors.data() + firstWalked,
                                             sectors.size() - firstWalked);
      through = detourExit(sector, cameBy, point, target, region, walked, next);
      inRegion = true;
      ++detours;
    }
    if (through == kNoPortal) break;
    portals.push_back(through);
    from = graph.portals[through].toSector;
    cameBy = graph.portals[through].reverse;
    sectors.push_back(from);
    point = next;
    if (inRegion) lastInside = {sectors.size(), portals.size(), from, point};
  }
  if (from == to) return true;
  sectors.resize(lastInside.sectors);
  portals.resize(lastInside.portals);
  from = lastInside.sector;
  point = lastInside.point;

  // Else an A* over the region's sectors from where the line stopped, its
  // nodes the portals walked in by (costed where the line to `towards` crosses
  // them), ending when the end point is popped.
  const uint32_t walkStart = uint32_t(graph.portals.size()), walkEnd = walkStart + 1;
  m_walk.startQuery(graph.portals.size() + 2);
  m_walkOpen.clear();
  const auto reach = [&](uint32_t node, const glm::vec3& p, float cost, uint32_t parent) {
    if (m_walk.seen(node) && !(cost < m_walk[node].cost)) return;
    m_walk.touch(node, {}) = {p, cost, parent};
    m_walkOpen.push({cost + glm::distance(p, towards), cost, node});
  };
  reach(walkStart, glm::vec3(point.x, at.y, point.y), 0.0f, kNoPortal);
  while (!m_walkOpen.empty()) {
    const OpenEntry entry = m_walkOpen.pop();
    const WalkNode here = m_walk[entry.node];
    if (entry.cost > here.cost) continue;
    if (entry.node == walkEnd) break;
    const uint32_t sectorIndex =
        entry.node == walkStart ? from : graph.portals[entry.node].toSector;
    const uint32_t back = entry.node == walkStart ? kNoPortal : graph.portals[entry.node].reverse;
    const Sector& sector = graph.sectors[sectorIndex];
    for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
      const Portal& portal = graph.portals[p];
      if (portal.kind != PortalKind::Walk || p == back ||
          m_regions->of(portal.toSector) != region) {
        continue;
      }
      const glm::vec3 crossed =
          glm::mix(portal.left, portal.right,
                   touchingPoint(groundOf(portal.left), groundOf(portal.right),
                                 groundOf(here.point), groundOf(towards)));
      reach(p, crossed, here.cost + glm::distance(here.point, crossed), entry.node);
    }
    if (sectorIndex == to) {
      reach(walkEnd, towards, here.cost + glm::distance(here.point, towards), entry.node);
    }
  }
  // Only a graph whose portals changed after its regions were made lacks the way.
  if (!m_walk.seen(walkEnd)) return false;
  const size_t first = portals.size();
  for (uint32_t node = m_walk[walkEnd].parent; node != walkStart; node = m_walk[node].parent)
    portals.push_back(node);
  std::reverse(portals.begin() + std::ptrdiff_t(first), portals.end());
  for (size_t i = first; i < portals.size(); ++i)
    sectors.push_back(graph.portals[portals[i]].toSector);
  return true;
}

bool RegionSearch::corridor(std::vector<uint32_t>& sectors, std::vector<uint32_t>& portals) {
  return m_reached && buildCorridor(m_nodes[m_goalNode].parent, true, sectors, portals);
}

bool RegionSearch::partialCorridor(std::vector<uint32_t>& sectors, std::vector<uint32_t>& portals) {
  return buildCorridor(m_closest, false, sectors, portals);
}

bool RegionSearch::revisits(const std::vector<uint32_t>& sectors) {
  m_sectorsSeen.startQuery(m_query.graph->sectors.size());
  for (const uint32_t sector : sectors) {
    if (m_sectorsSeen.seen(sector)) return true;
    m_sectorsSeen.touch(sector, 1);
  }
  return false;
}

bool RegionSearch::buildCorridor(uint32_t last, bool toGoal, std::vector<uint32_t>& sectors,
                                 std::vector<uint32_t>& portals) {
  sectors.clear();
  portals.clear();
  const NavGraph& graph = *m_query.graph;
  std::vector<uint32_t>& nodes = m_corridorNodes;
  nodes.clear();
  for (uint32_t node = last; node != m_startNode; node = m_nodes[node].parent)
    nodes.push_back(node);
  std::reverse(nodes.begin(), nodes.end());
  // Room for a few sectors per region crossed, so the walk's appends rarely reallocate.
  sectors.reserve((nodes.size() + 1) * kSectorsPerRegionGuess);
  portals.reserve((nodes.size() + 1) * kSectorsPerRegionGuess);
  sectors.push_back(m_query.startSector);
  glm::vec3 at = m_query.start;
  bool whole = true;
  // Where the path crosses the k-th node's portal: a walk portal's crossing as
  // the way on moved it (WaysOn), a device's entry.
  const auto crossingOf = [&](size_t k) {
    if (!walks(nodes[k])) return m_nodes[nodes[k]].crossed;
    if (k + 1 < nodes.size()) return m_nodes[nodes[k + 1]].via;
    return toGoal ? m_nodes[m_goalNode].via : m_nodes[nodes[k]].crossed;
  };
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& crossing = m_nodes[nodes[i]];
    const uint32_t first = m_regions->members(m_regions->portals()[nodes[i]])[0];
    uint32_t member = first;
    glm::vec3 through = crossing.crossed;
    if (graph.portals[first].kind == PortalKind::Walk) {
      // Of a merged staircase, the step that best joins this crossing to the next.
      const glm::vec3 next = i + 1 < nodes.size() ? crossingOf(i + 1)
                             : toGoal             ? m_query.goal
                                                  : crossing.crossed;
      member = bestMember(nodes[i], at, next, through);
    }
    const Portal& portal = graph.portals[member];
    whole = whole && walkRegion(sectors.back(), at, portal.fromSector, through, sectors, portals);
    if (!whole) break;
    portals.push_back(member);
    sectors.push_back(portal.toSector);
    at = portal.kind == PortalKind::Walk ? through : crossing.point;
  }
  if (whole && toGoal) {
    whole = walkRegion(sectors.back(), at, m_query.goalSector, m_query.goal, sectors, portals);
  }
  if (!whole) {
    sectors.clear();
    portals.clear();
    return false;
  }
  // A region crossed twice leaves a loop. Unless a device or a cheaper surface
  // on it costs less than walking, the straight way inside the (convex,
  // planar) sector it starts from is no dearer than the loop.
  if (!revisits(sectors)) return true;
  for (size_t i = 1; i < sectors.size(); ++i) {
    const auto again = std::find(sectors.begin(), sectors.begin() + std::ptrdiff_t(i), sectors[i]);
    if (again == sectors.begin() + std::ptrdiff_t(i)) continue;
    const size_t keep = size_t(again - sectors.begin());
    const float metre = m_query.rules->metreOf(sectors[keep]);
    const bool cheaper = std::any_of(portals.begin() + std::ptrdiff_t(keep),
                                     portals.begin() + std::ptrdiff_t(i), [&](uint32_t p) {
                                       const Portal& portal = graph.portals[p];
                                       return portal.kind != PortalKind::Walk ||
                                              m_query.rules->metreOf(portal.toSector) < metre;
                                     });
    if (cheaper) continue;
    sectors.erase(sectors.begin() + std::ptrdiff_t(keep + 1),
                  sectors.begin() + std::ptrdiff_t(i + 1));
    portals.erase(portals.begin() + std::ptrdiff_t(keep), portals.begin() + std::ptrdiff_t(i));
    i = keep;
  }
  return true;
}

}  // namespace nav
