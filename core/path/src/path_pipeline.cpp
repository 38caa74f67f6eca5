#include "nav/path_pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "corridor_shortcuts.h"
#include "nav/cheapest_pull.h"
#include "nav/path_solver.h"
#include "nav/portal_ends.h"
#include "nav/query_filter.h"
#include "smoothing.h"

namespace nav {

void planPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
              const SearchOptions& options, const PathStages& stages, PathAnswer& answer,
              const CollisionWorld* world) {
  answer.trace.events.clear();
  findPath(graph, start, goal, options, answer.search,
           stages.searchTrace ? &answer.trace : nullptr);
  completePath(graph, options, stages, answer, world);
}

namespace {

// True when the corners keep each turn at a reach's point (Corridor::endTurns)
// to what the reach proves: the way in leaves the point, backwards, into the
// sector the portal leaves, and the way on into the one it enters
// (reachLeavesInto), or, between two turns, as clearBetweenTurns lets it. The
// search saw only such ways from there, but the funnel pulls straight through
// the point wherever the gates let it.
bool reachTurnsHold(const NavGraph& graph, const Corridor& corridor,
                    std::span<const glm::vec3> corners) {
  constexpr float kOnTheWay = 1e-3f;  // [metres]
  // A corner this close to the line through two others is on it. [metres]
  constexpr float kInLine = 1e-4f;
  // The turn at corridor portal j, when there is one and it stands at `corner`.
  const auto turnAt = [&](size_t j, const glm::vec3& corner) -> std::optional<GateTurn> {
    if (j >= corridor.endTurns.size() || corridor.endTurns[j] == EndTurn::None) return std::nullopt;
    const GateTurn turn = gateTurnOf(corridor.portals[j], corridor.endTurns[j]);
    if (glm::distance(gateTurnAt(graph, turn), groundOf(corner)) > kOnTheWay) return std::nullopt;
    return turn;
  };
  for (size_t i = 0; i < corridor.endTurns.size(); ++i) {
    const EndTurn turn = corridor.endTurns[i];
    if (turn != EndTurn::LeftReach && turn != EndTurn::RightReach) continue;
    const uint32_t portal = corridor.portals[i];
    const bool left = turn == EndTurn::LeftReach;
    const PortalEndReach& reach = graph.reach[portalEndIndex(portal, left)];
    const glm::vec2 at = groundOf(reach.point);
    // The corners either side of the point: round it when it is a corner,
    // else the ends of the stretch through it.
    size_t after = 0;
    for (size_t k = 1; k < corners.size() && after == 0; ++k) {
      const glm::vec3 on = closestOnSegment(corners[k - 1], corners[k], reach.point);
      if (glm::distance(groundOf(on), at) <= kOnTheWay) after = k;
    }
    if (after == 0) return false;
    if (glm::distance(groundOf(corners[after]), at) <= kOnTheWay) {
      if (after + 1 == corners.size()) return false;
      ++after;
    }
    const bool cornerBefore = glm::distance(groundOf(corners[after - 1]), at) <= kOnTheWay;
    if (cornerBefore && after < 2) return false;
    const size_t before = cornerBefore ? after - 2 : after - 1;
    const Portal& p = graph.portals[portal];
    const GateTurn here{portal, left, true};
    // A turn standing at corner k at a portal further back (or on) than the
    // one beside this one.
    const auto turnFurther = [&](size_t k, bool back) -> std::optional<GateTurn> {
      if (back) {
        for (size_t j = i; j-- > 1;) {
          if (const std::optional<GateTurn> found = turnAt(j - 1, corners[k])) return found;
        }
      } else {
        for (size_t j = i + 2; j < corridor.endTurns.size(); ++j) {
          if (const std::optional<GateTurn> found = turnAt(j, corners[k])) return found;
        }
      }
      return std::nullopt;
    };
    // Whether the stretch from the point through corner k leaves into `side`,
    // asked of k and of the corners past it on the same line (gates' ends the
    // funnel keeps there): the search may have measured the direction from
    // any of them, which rounding can tip across the edge of the reach's range.
    // A turn further along standing at one of them answers for the stretch
    // as clearBetweenTurns lets it, as the search turned.
    const auto leaves = [&](size_t k, ptrdiff_t step, int side) {
      for (;;) {
        const glm::vec2 corner = groundOf(corners[k]);
        if (reachLeavesInto(graph, p, reach, left, corner) == side) return true;
        const std::optional<GateTurn> standing = turnFurther(k, step < 0);
        if (standing && (step < 0 ? clearBetweenTurns(graph, *standing, here)
                                  : clearBetweenTurns(graph, here, *standing)))
          return true;
        const ptrdiff_t next = ptrdiff_t(k) + step;
        if (next < 0 || size_t(next) >= corners.size()) return false;
        const glm::vec2 further = groundOf(corners[size_t(next)]);
        if (!(std::abs(cross2(corner - at, further - at)) <= kInLine * glm::distance(at, further)))
          return false;
        k = size_t(next);
      }
    };
    const std::optional<GateTurn> turnBefore =
        i > 0 ? turnAt(i - 1, corners[before]) : std::nullopt;
    const std::optional<GateTurn> turnAfter = turnAt(i + 1, corners[after]);
    const bool wayIn =
        turnBefore ? clearBetweenTurns(graph, *turnBefore, here) : leaves(before, -1, 0);
    const bool wayOn = turnAfter ? clearBetweenTurns(graph, here, *turnAfter) : leaves(after, 1, 1);
    if (!wayIn || !wayOn) return false;
  }
  return true;
}

bool turnsPastGates(const Corridor& corridor) {
  return std::any_of(corridor.endTurns.begin(), corridor.endTurns.end(),
                     [](EndTurn turn) { return turn != EndTurn::None; });
}

bool turnsAtReach(const Corridor& corridor) {
  return std::any_of(corridor.endTurns.begin(), corridor.endTurns.end(), [](EndTurn turn) {
    return turn == EndTurn::LeftReach || turn == EndTurn::RightReach;
  });
}

// The exact search turns past the gates (Corridor::endTurns): at widened
// portal ends, as their hulls with the cells allow, and at ends' reach.
// Corner reach (corner_reach.h) may move the gates' corners further out than
// those turns, and the funnel through a reach's point may leave it where the
// reach proves nothing. So the corridor is pulled also without its turns at
// a reach, and through its gates alone, and the shortest pull in the ground
// plane (what the search measures) whose turns hold is kept, the corridor's
// turns set to match, so that the funnel's steps and portals agree. Where
// corner reach moved a corner so that a turn next to it no longer holds,
// the pull that keeps the corners where the search put them (its own path)
// is tried too.
void keepShortestPull(const NavGraph& graph, const PathStages& stages, PathAnswer& answer) {
  thread_local Corridor other;
  thread_local FunnelResult pulled;
  Corridor& corridor = answer.search.corridor;
  double best = reachTurnsHold(graph, corridor, answer.funnel.corners)
                    ? groundPolylineLength(answer.funnel.corners)
                    : std::numeric_limits<double>::infinity();
  // Pulls `other`, and keeps it when it is shorter and its turns hold.
  const auto tryPull = [&](CornerReach reach = CornerReach::Move) {
    pullCorridor(graph, other, pulled, stages.funnelSteps, reach);
    const double length = groundPolylineLength(pulled.corners);
    if (!(length < best) || !reachTurnsHold(graph, other, pulled.corners)) return;
    best = length;
    corridor = other;
    std::swap(answer.funnel, pulled);
  };
  // The corridor with only the turns `keep` keeps, pulled straight to them:
  // where a turn goes, so do the ways into and on from it.
  const auto keepOnly = [&](auto&& keep) {
    other = corridor;
    // Those turns serve ways into reaches' points, which keepOnly never keeps.
    other.enteringGateTurns.clear();
    for (size_t i = 0; i < other.endTurns.size(); ++i) {
      if (keep(other.endTurns[i])) continue;
      other.endTurns[i] = EndTurn::None;
      if (i < other.reachEntries.size()) other.reachEntries[i] = ReachWay::Straight;
      if (i < other.reachExits.size()) other.reachExits[i] = ReachWay::Straight;
    }
  };
  if (!(best < std::numeric_limits<double>::infinity())) {
    other = corridor;
    tryPull(CornerReach::Keep);
  }
  if (turnsAtReach(corridor)) {
    keepOnly([](EndTurn turn) { return turn == EndTurn::LeftEnd || turn == EndTurn::RightEnd; });
    tryPull();
  }
  keepOnly([](EndTurn) { return false; });
  tryPull();
}

// True when the exact search was asked for and fell back to Crossing because
// surfaces cost differently (not for a turning radius or a waypath), on a
// walk through sectors of cells: then the path through Crossing's corridor
// is pulled to cost least (cheapest_pull.h).
bool cheapestWanted(const NavGraph& graph, const SearchOptions& options, const PathResult& search) {
  if (options.portalPoint != PortalPoint::Exact || search.portalPoint != PortalPoint::Crossing)
    return false;
  if (options.turningRadius.value_or(graph.unit.turningRadius) > 0.0f) return false;
  if (!cellsCoverSectors(graph.unit, graph.cellSize)) return false;
  for (const uint32_t s : search.corridor.sectors) {
    if (graph.sectors[s].polygonal()) return false;
  }
  for (size_t i = 0; i < search.corridor.portals.size(); ++i) {
    if (!search.corridor.knows(graph, search.corridor.portals[i]) ||
        search.corridor.portal(graph, i).kind != PortalKind::Walk)
      return false;
  }
  return true;
}

// The cost of a metre where a path through the corridor goes: the corridor
// sector holding the point nearest in height, at the query's cost.
class CorridorMetres {
 public:
  CorridorMetres(const NavGraph& graph, const Corridor& corridor, const SearchOptions& options)
      : m_graph(graph) {
    m_costs.prepare(graph, options.filter);
    for (const uint32_t s : corridor.sectors) {
      // The sector index holds the ground sectors; the others are few.
      (graph.sectors[s].kind == SectorKind::Ground && !graph.index.empty() ? m_ground : m_others)
          .push_back(s);
    }
    std::sort(m_ground.begin(), m_ground.end());
  }

  // True when every sector of the corridor costs the same a metre.
  bool uniform() const {
    std::optional<float> first;
    for (const std::vector<uint32_t>* list : {&m_ground, &m_others}) {
      for (const uint32_t s : *list) {
        const float metre = m_costs.sectorCost(m_graph.sectors[s]);
        if (first && metre != *first) return false;
        first = metre;
      }
    }
    return true;
  }

  float at(const glm::vec3& point) const {
    float metre = 1.0f, nearest = std::numeric_limits<float>::infinity();
    uint32_t chosen = kNoSector;
    // The nearest in height; on a tie (a point on the edge two sectors share), the lower number.
    const auto consider = [&](uint32_t s) {
      const Sector& sector = m_graph.sectors[s];
      constexpr float kSlack = 1e-3f;
      if (point.x < sector.bounds.min.x - kSlack || point.x > sector.bounds.max.x + kSlack ||
          point.z < sector.bounds.min.z - kSlack || point.z > sector.bounds.max.z + kSlack)
        return;
      const float apart = std::abs(m_graph.heightAt(sector, point.x, point.z) - point.y);
      if (apart < nearest || (apart == nearest && s < chosen)) {
        nearest = apart;
        chosen = s;
        metre = m_costs.sectorCost(sector);
      }
    };
    if (!m_ground.empty()) {
      constexpr float kSlack = 1e-3f;
      const glm::vec2 ground = groundOf(point);
      m_graph.index.forEachNear(ground - kSlack, ground + kSlack, [&](uint32_t s) {
        if (std::binary_search(m_ground.begin(), m_ground.end(), s)) consider(s);
      });
    }
    for (const uint32_t s : m_others)
      consider(s);
    return metre;
  }

  // Per stretch between consecutive gates: the mean of the metres a quarter
  // and three quarters along it (a stretch over a portal lies half in each sector).
  std::vector<float> ofStretches(std::span<const FunnelPortal> portals) const {
    std::vector<float> metres;
    for (size_t k = 0; k + 1 < portals.size(); ++k) {
      const glm::vec3 from = 0.5f * (portals[k].left + portals[k].right);
      const glm::vec3 to = 0.5f * (portals[k + 1].left + portals[k + 1].right);
      metres.push_back(0.5f * (at(glm::mix(from, to, 0.25f)) + at(glm::mix(from, to, 0.75f))));
    }
    return metres;
  }

  // What walking the corners costs on the ground, sampled every 10 cm.
  double walked(std::span<const glm::vec3> corners) const {
    constexpr float kSample = 0.1f;
    double cost = 0.0;
    for (size_t i = 1; i < corners.size(); ++i) {
      const float length = glm::distance(groundOf(corners[i - 1]), groundOf(corners[i]));
      const int samples = std::max(1, int(std::ceil(length / kSample)));
      for (int k = 0; k < samples; ++k) {
        const float t = (float(k) + 0.5f) / float(samples);
        cost += double(at(glm::mix(corners[i - 1], corners[i], t))) * length / samples;
      }
    }
    return cost;
  }

 private:
  const NavGraph& m_graph;
  FilterCosts m_costs;
  /// The corridor's sectors: ground ones, sorted, found through the sector index; the rest.
  std::vector<uint32_t> m_ground, m_others;
};

}  // namespace

void completePath(const NavGraph& graph, const SearchOptions& options, const PathStages& stages,
                  PathAnswer& answer, const CollisionWorld* world) {
  answer.portals.clear();
  answer.sectorsLeftOut.clear();
  answer.funnel.clear();
  answer.groundPath.clear();
  answer.smoothed.clear();
  answer.vehicle.clear();
  answer.clearance.clear();
  if (!answer.hasPath()) return;
  Corridor& corridor = answer.search.corridor;
  pullCorridor(graph, corridor, answer.funnel, stages.funnelSteps);
  const float turningRadius = options.turningRadius.value_or(graph.unit.turningRadius);
  // With no turn past the gates, the pull through the gates alone is this one;
  // the A* over portals on foot may have taken a detour (corridor_shortcuts.h).
  if (turnsPastGates(corridor))
    keepShortestPull(graph, stages, answer);
  else if (answer.search.portalPoint == PortalPoint::Crossing && turningRadius == 0.0f)
    takeShortcuts(graph, corridor, answer.funnel, stages.funnelSteps, answer.sectorsLeftOut);
  if (cheapestWanted(graph, options, answer.search)) {
    const CorridorMetres metres(graph, corridor, options);
    if (!metres.uniform()) {
      // Kept only when cheaper: the pull drops the corners' reach.
      const std::vector<FunnelPortal> portals = funnelPortals(graph, corridor);
      FunnelResult cheapest = answer.funnel;
      pullCheapest(portals, metres.ofStretches(portals), cheapest);
      if (metres.walked(cheapest.corners) < metres.walked(answer.funnel.corners))
        answer.funnel = std::move(cheapest);
    }
  }
  if (stages.funnelSteps || stages.groundPath) answer.portals = funnelPortals(graph, corridor);
  if (stages.groundPath) answer.groundPath = followPortalHeights(answer.funnel, answer.portals);
  if (stages.smoothed) answer.smoothed = smoothPath(graph, corridor, answer.funnel.corners);
  if (stages.vehicleCurve && turningRadius > 0.0f)
    answer.vehicle = vehicleCurve(answer.funnel.corners, turningRadius);
  if (stages.clearance && world != nullptr)
    answer.clearance = pathClearance(*world, graph.unit, answer.funnel.corners);
}

}  // namespace nav
