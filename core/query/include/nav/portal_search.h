#pragma once
// A* over portals: each portal is a node, standing where the path crosses it
// (its midpoint, or where the line towards the goal crosses it: PortalPoint);
// a device or jump node stands at its exit. Expanding a node relaxes every
// portal of the sector it leads into, at the walked distance times the
// sector's cost a metre (Crossing: the string pulled through the portals
// crossed, pulled_string.h), plus a device's or jump's own cost. A node the
// sector's earlier visit reaches no dearer by walking over is dominated and
// never expanded. With a turning radius, each node keeps the heading a vehicle
// arrives with, and a turn too sharp for the radius is no way.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "nav/crossing_rules.h"
#include "nav/jump_portals.h"
#include "nav/locate.h"
#include "nav/nav_graph.h"
#include "nav/node_pool.h"
#include "nav/open_list.h"
#include "nav/pulled_string.h"
#include "nav/query_filter.h"
#include "nav/search.h"
#include "nav/search_step.h"

namespace nav {

struct PortalQuery {
  const NavGraph* graph = nullptr;
  /// The filter's costs, prepared for the graph.
  const FilterCosts* costs = nullptr;
  /// The query's jumps: node firstJumpNode() + k is jumps[k].
  std::span<const JumpPortal> jumps;
  Location start, goal;
  /// Centroid, Midpoint or Crossing (the solver gives Exact to the interval search).
  PortalPoint portalPoint = PortalPoint::Crossing;
  /// The heuristic's cost a metre: the straight distance to the goal times this.
  float heuristicScale = 1.0f;
  /// The cost of a metre in the start's and the goal's sectors.
  float startSectorCost = 1.0f, goalSectorCost = 1.0f;
  /// A vehicle's turning radius; 0: turns are free. [metres]
  float turningRadius = 0.0f;
  /// step() reports Exhausted once this many nodes were expanded.
  uint32_t maxExpansions = 1'000'000;
  /// Skip dead ends and dead-end regions (deadEnd, confine): they hold no
  /// cheapest way to the goal, but may hold the point nearest one out of reach.
  bool skipDeadEnds = true;
  /// Teleport costs, and the trace when `traced`.
  CrossingRules* rules = nullptr;
  bool traced = false;
};

class PortalSearch {
 public:
  /// Starts a query from the start node; the graph, costs and rules must outlive it.
  void init(const PortalQuery& query);
  /// Pops nodes until one is expanded or the search ends.
  SearchStep step();
  uint32_t expansions() const { return m_expansions; }

  /// Into `nodes`, the nodes crossed (graph portals or jump nodes) from the
  /// start to the goal when `reached`, else to the node expanded nearest the goal.
  void corridorNodes(bool reached, std::vector<uint32_t>& nodes) const;
  /// The cost of the way to the goal when `reached`, else to the node nearest it.
  float cost(bool reached) const;
  /// The sector of the node expanded nearest the goal (the start's, at first).
  uint32_t closestSector() const;
  /// True when something the search skipped (PortalQuery::skipDeadEnds) may
  /// hold a point nearer the goal than the node closest to it: then
  /// closestSector() may not be the nearest.
  bool mayHideNearer() const;
  /// What stopped the way, when something did: a closed surface, a locked
  /// device, a turn too sharp; empty otherwise.
  const std::string& blockedBy() const { return m_blockedBy; }

 private:
  /// Node numbers (crossing_rules.h): the graph's portals, the start, the goal, then the jumps.
  uint32_t firstJumpNode() const { return m_startNode + 2; }
  /// The portal a node stands for: a graph portal or a jump.
  const Portal& nodePortal(uint32_t node) const;

  enum class NodeState : uint8_t { Unseen, Open, Closed };
  /// One cache line: a search at scale misses the cache on most nodes it touches.
  struct alignas(64) Node {
    /// Where the path stands on the node's portal (see PortalPoint).
    glm::vec3 point;
    float costSoFar;
    uint32_t parent;
    /// The node expanded in the same sector before this one (kNoPortal: none).
    uint32_t previousVisit;
    /// Crossing on foot: the string pulled through the portals crossed to
    /// get here (pulled_string.h), which the walked costs follow.
    PulledString string;
    NodeState state;
  };
  /// Where a vehicle heads on reaching a node, and how far it has come straight
  /// along that heading (the room it has to start a turn). A zero heading is
  /// unknown (at the start, after a device or a waypath): any turn will do.
  struct Heading {
    glm::vec2 direction{0.0f};
    float straight = 0.0f;
    /// At the start, and along the straight that leaves it: the unit chose
    /// that heading, and may as well have left on a turn's arc instead.
    bool free = false;
  };

  /// The heading after going `length` along `direction` (ground plane) from
  /// `from`; false when the turn onto it is too sharp for the turning radius.
  bool turn(const Heading& from, const glm::vec2& direction, float length, Heading& after) const;
  /// How far past a corner `run` after the start, turning by `angle`, an arc
  /// leaving the start meets the new straight (see Heading::free).
  float alongFromStart(float run, float angle) const;
  /// The heading on reaching `out` through a portal entered at `in`, from a
  /// node at `point`; false when a turn on the way is too sharp.
  bool headingThrough(const Heading& at, const glm::vec3& point, uint32_t node,
                      const Portal& portal, const glm::vec3& in, const glm::vec3& out,
                      Heading& after) const;
  /// Names a too sharp turn as what stopped the search, unless something else did first.
  void noteTooSharp();
  /// The cost of the whole way through `point`, reached at `cost`, as the heuristic estimates it.
  float estimateThrough(const glm::vec3& point, float cost) const {
    return cost + glm::distance(point, m_query.goal.point) * m_query.heuristicScale;
  }
  /// The estimate of the way the node is reached now; infinity for a node
  /// not reached yet.
  float estimateNow(uint32_t node) const {
    if (!m_nodes.seen(node)) return std::numeric_limits<float>::infinity();
    const Node& now = m_nodes[node];
    return now.state == NodeState::Unseen ? std::numeric_limits<float>::infinity()
                                          : estimateThrough(now.point, now.costSoFar);
  }
  /// Sets the node reached at `point` for `cost` from node `from`, and queues
  /// it at `estimate` (estimateThrough). Only for a way that beats how the
  /// node is reached now: the estimate below estimateNow. The two points may
  /// stand metres apart on a long portal, and the cheaper way so far may
  /// stand further from the goal, so ways compare by the estimate of the
  /// whole way through each; a way that reaches the other's point no dearer
  /// also estimates no more.
  void relax(uint32_t node, uint32_t from, float cost, float estimate, const glm::vec3& point,
             const Heading& heading, const PulledString& string);
  /// False when the node is closed (unless for a vehicle) or its sector is
  /// closed to the query: then nothing is relaxed through the portal. A
  /// closed node keeps its cost, as in the search over regions; a vehicle's
  /// may yet be reached facing a better way. Inline: it runs for every portal
  /// of every sector expanded.
  bool mayEnter(uint32_t node, const Portal& portal) {
    if (m_query.turningRadius == 0.0f && m_nodes.seen(node) &&
        m_nodes[node].state == NodeState::Closed)
      return false;
    // The common case decided without touching the sector: a cache miss a portal.
    if (portal.kind == PortalKind::Walk && !m_query.costs->closesSurface()) return true;
    const Sector& target = m_query.graph->sectors[portal.toSector];
    if (m_query.costs->sectorCost(target) < std::numeric_limits<float>::infinity()) return true;
    noteClosed(target);
    return false;
  }
  /// Names a sector closed to the query as what stopped the search (unless
  /// something else did first).
  void noteClosed(const Sector& target);
  /// Relaxes the way from the expanded node through the portal (node `node`),
  /// which mayEnter allowed.
  void considerPortal(uint32_t node, const Portal& portal, const OpenEntry& entry,
                      const Sector& sector, float metre, const PulledString& string);
  /// considerPortal for a walk portal when walked costs follow the string.
  void considerWalk(uint32_t node, const Portal& portal, const OpenEntry& entry, float metre,
                    const PulledString& string);
  /// Where a string that sees none of the way on to `target` starts again:
  /// `restart` (the node's point, reached at `restartCost`) or, moving it and
  /// returning true, a cheaper point of the portal just crossed that the string sees.
  bool restartPoint(const OpenEntry& entry, const PulledString& string, const glm::vec3& target,
                    float metre, glm::vec3& restart, float& restartCost) const;
  /// The string a node's successors pull on, walking its sector at `metre` a metre.
  PulledString stringFrom(const OpenEntry& entry, const Sector& sector, float metre) const;
  /// Keeps the search to the smallest dead-end region holding the start and
  /// the goal and the sector it hangs off, when going further cannot pay.
  void confine();
  /// True when the portal leads out of where confine() keeps the search.
  bool leavesRegion(const Portal& portal) const;
  /// True when the walk portal leads into a dead end (NavGraph::leadsOnlyBackTo)
  /// or a dead-end region (NavGraph::deadEnds; the start outside it too)
  /// holding neither the goal nor a jump's takeoff, where a metre costs no
  /// less than `metre`, the cost in the sector it leaves: no cheapest way enters it.
  /// (A vehicle may turn round in one; m_skipsDeadEnds is off for it.) Inline:
  /// it runs for every portal of every sector expanded, and two lookups tell
  /// that most portals lead into neither.
  bool deadEnd(uint32_t portalIndex, float metre) {
    if (!m_skipsDeadEnds) return false;
    const NavGraph& graph = *m_query.graph;
    const Portal& portal = graph.portals[portalIndex];
    const uint32_t head = graph.deadEnds.regionEntered(portalIndex);
    const bool onlyBack = graph.leadsOnlyBackTo(portal.toSector, portal.fromSector);
    return (head != kNoSector || onlyBack) && skipped(portalIndex, head, onlyBack, metre);
  }
  /// deadEnd for a portal into the region `head` (or none) or a sector that
  /// leads `onlyBack`, as the two lookups found; notes what it skips (mayHideNearer).
  bool skipped(uint32_t portal, uint32_t head, bool onlyBack, float metre);
  /// The sector a node stands in.
  uint32_t sectorOf(uint32_t node) const;
  /// True when the first visits of the sector reach `point` no dearer than `cost`.
  bool dominated(uint32_t sector, const glm::vec3& point, float cost) const;
  void expand(const OpenEntry& entry);
  void trace(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
             const glm::vec3& point) const;

  PortalQuery m_query;
  uint32_t m_startNode = 0, m_goalNode = 0;
  uint32_t m_expansions = 0;
  NodePool<Node> m_nodes;
  /// Per node, for vehicles only (turning radius > 0).
  std::vector<Heading> m_headings;
  /// Crossing on foot: walked costs follow Node::string.
  bool m_pullsString = false;
  /// Per sector, the node expanded in it last: the newest of the nodes
  /// expanded there, a chain through Node::previousVisit, where and at what
  /// cost the search stood in it; with the sector's cost a metre (NaN for
  /// sectors other than ground, which dominate nothing), so that dominated()
  /// need not read the sector.
  struct Visit {
    uint32_t node;
    float metre;
  };
  NodePool<Visit> m_visits;
  OpenList m_open;
  std::string m_blockedBy;
  /// The head of the dead-end region the search keeps to (confine()), else kNoSector.
  uint32_t m_region = kNoSector;
  /// The dead ends skipped: the portal into each, and the region it heads
  /// (kNoSector for a single sector). mayHideNearer asks how near the goal
  /// they come only when the search ends without reaching it.
  struct Skipped {
    uint32_t portal, region;
  };
  std::vector<Skipped> m_skipped;
  /// A portal out of the region confine() keeps to was skipped.
  bool m_leftRegion = false;
  /// PortalQuery::skipDeadEnds, and no vehicle turning radius.
  bool m_skipsDeadEnds = false;
  /// The closed node nearest the goal, on the ground: where a partial path ends.
  uint32_t m_closest = 0;
  float m_closestDistance = 0.0f;
};

}  // namespace nav
