#pragma once
// Exact any-angle search over the sectors, after Polyanya (Cui, Harabor and
// Grastien, 2017). A node is an interval of where a walk portal is crossed
// (crossingEnd: through gates, as the funnel pulls paths, where cells cover
// their sectors) together with the point the path last turned at (its root),
// which sees the whole interval in a straight line; expanding it projects the
// interval across the sector it enters onto that sector's ways out. Paths turn
// only at the ends of portals or gates, where the walls are, and past the
// gates: at portal ends widening moved out (a point node each, which sees all
// of the sector it enters) and at ends' reach (a point node that sees what the
// reach proves clear); from one such turn to the next as corner reach moves
// corners (clearBetweenTurns), into a reach's point also past an end of its
// portal's leaving gate, and on from it past an end of its entering gate.
// The corridor names those turns (Corridor::endTurns, reachEntries,
// reachExits) and the funnel turns there. So the first time the goal is
// popped the corridor is the one whose pulled path, corners moved out as
// corner reach moves them, is shortest in the ground plane, over every
// corridor. Lengths are measured in the ground plane, as the funnel pulls
// the string. Walking costs the same per metre everywhere; devices and jumps
// are crossed from their entry to their exit point at the cost the query's
// rules give them.
#include <cstdint>
#include <limits>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nav/corridor.h"
#include "nav/crossing_rules.h"
#include "nav/jump_portals.h"
#include "nav/nav_graph.h"
#include "nav/node_pool.h"
#include "nav/open_list.h"
#include "nav/query_filter.h"
#include "nav/search.h"
#include "nav/search_step.h"

namespace nav {

struct IntervalQuery {
  const NavGraph* graph = nullptr;
  /// The filter's costs, prepared for the graph: which sectors are closed.
  const FilterCosts* costs = nullptr;
  /// The query's jumps: node firstJumpNode + k is jumps[k].
  std::span<const JumpPortal> jumps;
  uint32_t firstJumpNode = 0;
  glm::vec3 start{0.0f}, goal{0.0f};
  uint32_t startSector = kNoSector, goalSector = kNoSector;
  /// Cost of a walked metre, the same in every sector the path may enter. [> 0]
  float metre = 1.0f;
  /// The least a metre of the way may cost, devices and jumps included: the
  /// heuristic's cost a metre. [> 0, <= metre]
  float heuristicMetre = 1.0f;
  /// Heuristic = the shortest way to the goal through the node's interval times this.
  float heuristicScale = 1.0f;
  uint32_t maxExpansions = 1'000'000;
  CrossingRules* rules = nullptr;
  /// Calls rules->trace for every event.
  bool traced = false;
};

class IntervalSearch {
 public:
  /// A part of a segment, from its left end to its right.
  using Range = SegmentPart;

  /// Starts a query; the graph and rules must outlive it.
  void init(const IntervalQuery& query);
  /// Pops nodes until one is expanded or the search ends.
  SearchStep step();
  /// The nodes crossed from start to goal (graph portals or jump nodes), once
  /// Reached, and per node the corridor's turns there (Corridor::endTurns,
  /// reachEntries, reachExits, enteringGateTurns).
  void corridorNodes(std::vector<uint32_t>& nodes, std::vector<EndTurn>& turns,
                     std::vector<ReachWay>& entries, std::vector<ReachWay>& exits,
                     std::vector<ReachWay>& gateTurns) const;
  /// The cost of the path to the goal, once Reached.
  float cost() const;
  uint32_t expansions() const { return m_expansions; }

 private:
  /// Where a way into a reach's point came straight from: the node's root,
  /// or the left or right end of its interval.
  enum class ApproachEnd : uint8_t { Root, LeftEnd, RightEnd };
  struct Node {
    /// Where the path last turned (or the start, or a device's or jump's exit).
    glm::vec2 root;
    /// The interval, as seen from the portal's from side; a point node has none
    /// (it sees all of its sector).
    glm::vec2 left, right;
    /// Cost of the way to the root.
    float cost;
    float estimate;
    /// Root identity for pruning (rootKeyAt).
    uint32_t rootKey;
    /// The portal or jump node crossed to get here (kNoPortal: the start).
    uint32_t crossed;
    /// The sector the node enters.
    uint32_t sector;
    /// Index in m_nodes of the node it came from.
    uint32_t parent;
    /// The interval's ends are the portal's own (walls there: the path may turn).
    bool leftTurns, rightTurns;
    bool isPoint;
    bool isGoal;
    /// A point node turning past the gates of the portal crossed (pushEndTurns).
    EndTurn turn;
    /// An interval node whose root is a turn at a reach's point: it sees only
    /// what the reach proves, and the ends of what it sees are no corners, so
    /// it cuts no other node's interval (trimCovered).
    bool reachRoot;
    /// How the way came into a turn past the gates.
    ReachWay entry;
    /// Straight into a turn at a reach's point: where from, of its parent.
    ApproachEnd entryFrom;
    /// An interval node whose root is a turn past the gates: the index in
    /// m_nodes of the point node turning there, else none (max).
    uint32_t rootTurn;
    /// A point node at an end of the entering gate of the portal its parent,
    /// a turn past the gates, crossed: how the way went on from there.
    ReachWay exit;
    /// An interval node: the newest interval expanded on its portal when it
    /// was queued (kNoNode: none), which trimCovered had cut it against.
    uint32_t newestWhenQueued;
  };

  /// The key of the root standing at `at`: one per point, so that the ends
  /// of every portal meeting at a corner share it. Keys are for pruning
  /// roots, which only the search without gates does (claimRoot): through
  /// gates every root is key 0, and nothing is looked up.
  uint32_t rootKeyAt(const glm::vec3& at);
  /// Where a walk portal is crossed, as the search sees it: its ends, or
  /// where cells cover their sectors its gates (funnel.h FunnelInput::Gates),
  /// the ends on the side it leaves or enters. Interval nodes lie on the
  /// entering side.
  glm::vec3 crossingEnd(uint32_t portal, bool left, bool entering) const;
  /// The key of a portal's end as a root (0 through gates, see rootKeyAt).
  uint32_t cornerKey(uint32_t portal, bool left);
  /// False (and the root pruned) when the root was reached cheaper before;
  /// never through gates, where that proves nothing (see the .cpp).
  bool claimRoot(uint32_t key, float cost);
  /// Whether the node's root, or its turn past the gates, was reached cheaper
  /// since it was queued: then it leads nowhere new.
  bool reachedCheaper(const Node& node) const;
  /// The entering side of a walk portal's crossing (crossingEnd) on the
  /// ground: its left end, and the unit vector from there to its right end.
  std::pair<glm::vec2, glm::vec2> enteringLine(uint32_t portal) const;
  /// Where an interval node's ends lie along its portal, in metres from the portal's left end.
  std::pair<float, float> placeOnPortal(const Node& node) const;
  /// Cuts off each end of the node's interval that an interval expanded on
  /// the same portal holds and whose root reaches no dearer (root_dominance.h):
  /// each point there is no dearer from that root, which sees it, and all
  /// this one would reach through it, that one reached. True when nothing is left.
  /// Only intervals expanded after `oldest` cut (the node was cut against
  /// it and those before it; none such: all cut).
  bool trimCovered(Node& node, uint32_t oldest) const;
  /// Whether trimCovered, by the intervals expanded since the node was
  /// queued, would leave nothing of it.
  bool covered(const Node& node) const;
  /// The newest interval expanded on the portal (kNoNode: none yet).
  uint32_t newestExpanded(uint32_t portal) const;
  /// Remembers an interval node as expanded, for covered().
  void markExpanded(const Node& node);
  /// A node appended to m_nodes, filled in place by the caller, which then
  /// queues it (queueNewest) or drops it (m_nodes.pop_back()). Built in
  /// place: a node built in a temporary and copied in stalls on the store buffer.
  /// References into m_nodes do not survive it (step() expands a copy).
  Node& newNode() {
    Node& node = m_nodes.emplace_back();
    node.rootTurn = std::numeric_limits<uint32_t>::max();
    return node;
  }
  /// Queues the newest node; drops it when its cost is not finite or an
  /// interval expanded already covers it.
  void queueNewest();
  void pushGoal(float cost, uint32_t parent);
  void traceNode(SearchEvent::Kind kind, const Node& node) const;
  void expand(const Node& node, uint32_t index);

  /// A way to a segment: from this root, at this cost to it.
  struct Way {
    glm::vec2 root;
    float cost;
    uint32_t rootKey;
    /// The root is a turn at a reach's point (Node::reachRoot).
    bool reachRoot = false;
    /// The point node turning past the gates at the root (Node::rootTurn).
    uint32_t turnNode = std::numeric_limits<uint32_t>::max();
  };
  /// The rays from a way's root through an interval; `side` is the sign of
  /// cross2(left - root, right - root).
  struct Cone {
    Way way;
    float side;
  };
  /// An end of an interval, where the way may turn when `open`: the end of
  /// a crossing (crossingEnd of portal, left), a wall's corner. Its root is
  /// looked up and claimed (claimRoot) the first time a turn needs it.
  struct Corner {
    glm::vec2 at;
    uint32_t portal;
    bool left;
    bool open;
    bool claimed = false;
    uint32_t key = 0;
    /// The way to it from the cone's root, worked out when it is claimed.
    float cost = 0.0f;
  };
  /// How far a ray from `root` may miss a point of the segment [from, to] by rounding. [metres]
  static float rounding(const glm::vec2& root, const glm::vec2& from, const glm::vec2& to);
  /// Snaps a range of a segment `length` long onto the segment's ends within
  /// `rounding`; false when nothing of it is left.
  static bool settle(Range& range, float length, float rounding);
  /// The parts of the segment [from, to] the cone reaches, straight from its
  /// root or past one of its corners by turning there: reach(range, way) for each.
  template <class Reach>
  void project(const Cone& cone, Corner (&corners)[2], const glm::vec2& from, const glm::vec2& to,
               Reach&& reach);
  /// Crosses walk portal `portal` on `range` of its leaving side, reached by
  /// `way`: through gates, on across the strip between them to what it
  /// reaches of the entering gate. `rootInSector`: the way's root is a point
  /// of the sector the portal leaves (a point node's), which may stand past
  /// the leaving gate.
  void cross(uint32_t portal, Range range, const Way& way, uint32_t parent, bool rootInSector);
  /// In over walk portal `portal` (on `range` of its leaving gate [from, to],
  /// reached by `way`, not from a turn at a reach's point) and straight back
  /// out over the same line where the two portals meet at one point
  /// (hasWayBackAtAPoint), as the funnel pulls such a corridor (see the
  /// .cpp): queues the ways out through that point.
  void pushBackOverTheSameEdge(uint32_t portal, const glm::vec2& from, const glm::vec2& to,
                               Range range, const Way& way, uint32_t parent, bool rootInSector);
  /// The cost to `at` (beyond the segment [a, b] the way's root sees) past
  /// that segment: straight through it, or turning at an end of it that is
  /// open, else infinity. A point segment, or one in line with the root, is
  /// passed where the root stands on it or at its nearer end, as cross() goes on.
  float costPastRange(const Way& way, const glm::vec2& a, const glm::vec2& b, bool aOpen,
                      bool bOpen, const glm::vec2& at) const;
  /// Queues the interval `range` of the portal's entering side, reached by `way`.
  void pushInterval(uint32_t portal, Range range, const Way& way, uint32_t parent);
  /// Point node: the root sees all of the sector.
  void expandPoint(const Node& node, uint32_t index);
  /// For a turn at a reach's point: point nodes at the ends of the portal's
  /// entering gate the reach proves the way to, which see all of the sector.
  void pushReachExits(const Node& node, uint32_t index);
  /// For a turn at a widened end of the portal the node crossed: the cost to
  /// reach the turn `turn` past `portal`'s gates by way of an end of the
  /// node's entering gate, if less than `best` (`exit` names that end), else
  /// `best` (`exit` Straight).
  float costPastEnteringGateEnd(const Node& node, uint32_t portal, EndTurn turn, float best,
                                ReachWay& exit) const;
  /// A point node turning past the gates of `portal` at `at`, not yet queued.
  Node& newTurnNode(const glm::vec2& at, float cost, uint32_t portal, EndTurn turn,
                    uint32_t parent);
  /// For a turn at a reach's point that sees none of walk portal `portal`'s
  /// gate: point nodes at reaches of the portals out of the sectors up to
  /// kSectorsPast beyond, straight through `portal` (see the .cpp).
  void pushReachesPast(const Node& node, uint32_t index, uint32_t portal);
  /// The walk portals the segment from `root` to `at` crosses through both
  /// gates, `first` first, until it stands in sector `last`, into m_crossed;
  /// false when it leaves the sectors' gates on the way.
  bool crossedOnTheWay(const glm::vec2& root, const glm::vec2& at, uint32_t first, uint32_t last);
  /// Devices and jumps out of the node's sector, reached from the node.
  void pushTeleports(const Node& node, uint32_t index);
  /// Point nodes turning past the gates of walk portal `portal` (out of the
  /// node's sector), where the node reaches the turn (costToWidenedEnd,
  /// costToReach): at its ends that widening moved off the cells
  /// (portal_ends.h), which see all of the sector they enter, and at its
  /// ends' reach (NavGraph::reach), which see what the reach proves clear
  /// (reachSees) and the turns at the next portals that clearBetweenTurns allows.
  /// False when the node reaches one of them other than straight, or not at all.
  bool pushEndTurns(const Node& node, uint32_t index, uint32_t portal);
  /// True when `point` lies back on the side an interval node came in by.
  bool behindInterval(const Node& node, const glm::vec2& point) const;
  /// A way to a point: its cost, and where it comes to the point from in a straight line.
  struct Approach {
    float cost;
    glm::vec2 from;
  };
  /// The ways to `point` of the node's sector (at most two): costTo's, or
  /// past the turning ends of an interval whose root's side the point is on.
  size_t approaches(const Node& node, const glm::vec2& point, Approach (&ways)[2]) const;
  /// The cost to reach the left or right end of `portal` (out of the node's
  /// sector), moved out by widening, or infinity when no way through the
  /// sector's cells is known; `entry` gets how the way comes in. Ways past a
  /// gate's end dearer than `known` are not worked out.
  float costToWidenedEnd(const Node& node, uint32_t portal, bool left, float known,
                         ReachWay& entry) const;
  /// The cost to reach `at` past the left or right end of `portal`'s leaving
  /// gate, or infinity where the node does not see that end, or where even
  /// the straight way through it costs `best` or more, or more than `known`.
  float costPastGateEnd(const Node& node, uint32_t portal, bool gateLeft, const glm::vec2& at,
                        float best, float known) const;
  /// The cost to reach the reach's point of an end of `portal` (out of the
  /// node's sector), or infinity where the reach does not prove the way in
  /// clear or the point was reached for less than that (`known`) before;
  /// `turns` is the portal's turnsPastGates, `entry` gets how the way comes in.
  float costToReach(const Node& node, uint32_t portal, bool left, float known, uint8_t turns,
                    ReachWay& entry, ApproachEnd& from) const;
  /// Where a walk portal's turn past its gates keeps its cost (4 a portal).
  static uint32_t endTurnSlot(uint32_t portal, EndTurn turn);
  /// The sector a node walked in from (kNoSector: it did not walk in).
  uint32_t cameFrom(const Node& node) const;
  /// Keeps the search to the smallest dead-end region holding the start and
  /// the goal and the sector it hangs off, when going further cannot pay.
  void confine();
  /// True when `sector` lies out of where confine() keeps the search.
  bool leavesRegion(uint32_t sector) const;
  /// True when the filter lets the path enter `sector`.
  bool opens(uint32_t sector) const {
    return m_query.costs->sectorCost(m_query.graph->sectors[sector]) <
           std::numeric_limits<float>::infinity();
  }
  /// True when the walk portal from the ground sector `from` leads into a
  /// sector that leads only back (NavGraph::leadsOnlyBackTo) or into a
  /// dead-end region (NavGraph::deadEnds; the start outside it too), holding
  /// neither the goal nor a jump's takeoff: no shortest way enters it.
  bool deadEnd(uint32_t portal, uint32_t from) const;
  /// True when the search may walk on over portal `portal` out of sector
  /// `from`: a walk portal into an open sector of the region it keeps to,
  /// not back into sector `back`, nor into a dead end.
  bool walksOn(uint32_t portal, uint32_t from, uint32_t back) const;
  /// deadEnd for a portal into the region `head` (or none) or a sector that
  /// leads `onlyBack`, as the two lookups found.
  bool skipped(uint32_t portal, uint32_t from, uint32_t head, bool onlyBack) const;
  static uint64_t pointKey(uint32_t sector, const glm::vec2& point);
  /// The cost to reach `point` of the node's sector from the node's root, or
  /// infinity; `from`, when given, gets where the way reaches it from in a
  /// straight line (the root, or the end of the interval it turns at).
  float costTo(const Node& node, const glm::vec2& point, glm::vec2* from = nullptr) const;
  /// costTo the goal; from an interval a turn at a reach's point just saw,
  /// also where the reach proves the way to the goal and it passes the gates.
  float costToGoal(const Node& node) const;
  float heuristic(const Node& node) const;

  IntervalQuery m_query;
  glm::vec2 m_goal{0.0f};
  std::vector<Node> m_nodes;
  OpenList m_open;
  /// The cheapest cost each (sector, point) was expanded at as a point node.
  std::unordered_map<uint64_t, float> m_pointsExpanded;
  /// Where roots stand: the bits of the point's coordinates.
  struct RootPlace {
    uint32_t x, y, z;
    bool operator==(const RootPlace&) const = default;
  };
  /// A root's place and key in m_rootSlots.
  struct RootSlot {
    RootPlace place;
    uint32_t key;
  };
  /// Makes m_rootSlots twice as large and places this query's roots again.
  void growRootSlots();
  /// Roots' keys by place: an open-addressing table whose slots each query
  /// reuses, at most half full (a query finds tens of roots, each looked up
  /// many times). A root's key is its index in m_rootPlaces.
  NodePool<RootSlot> m_rootSlots;
  size_t m_rootSlotMask = 0;
  std::vector<RootPlace> m_rootPlaces;
  /// Per portal end (left, then right): its root key, once looked up.
  NodePool<uint32_t> m_cornerKeys;
  /// Per turn past the gates (endTurnSlot): the least it was reached for.
  NodePool<float> m_endTurnCost;
  /// Walk portals are crossed through gates (crossingEnd).
  bool m_gated = false;
  /// Best cost per root key (pruning roots is for the search without gates).
  std::vector<float> m_rootCost;
  /// Intervals expanded per portal crossed, with their root, as metres
  /// along the portal from its left end: a chain through `next` from the
  /// portal's newest.
  struct ExpandedInterval {
    glm::vec2 root;
    float low, high, cost;
    uint32_t next;
  };
  NodePool<uint32_t> m_newestExpanded;
  std::vector<ExpandedInterval> m_expanded;
  /// pushReachesPast's sectors, each with the sector it was entered from, and the
  /// portals its stretch crosses (crossedOnTheWay).
  std::vector<std::pair<uint32_t, uint32_t>> m_sectorsPast;
  NodePool<uint8_t> m_sectorPastSeen;
  /// The longest reach of the graph, worked out when pushReachesPast first needs it; -1 before.
  float m_longestReach = -1.0f;
  std::vector<uint32_t> m_crossed;
  uint32_t m_expansions = 0;
  uint32_t m_reached = 0;
  /// The head of the dead-end region the search keeps to (confine()), else kNoSector.
  uint32_t m_region = kNoSector;
};

}  // namespace nav
