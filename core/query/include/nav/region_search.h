#pragma once
// A* over search regions (search_regions.h). A node is a region portal, where
// the path crosses it: the point of the (merged) portal nearest the straight
// way on to the goal, as PortalPoint::Crossing places it. Crossing a region
// costs the straight distance between where the path enters and leaves it,
// times the cost of a metre on the region's surface (one surface a region);
// devices cost what the query's rules give them. Going on from a node, its
// crossing may move along its portal to suit the way on (WaysOn); of two ways
// into one node, the one whose cost plus heuristic is lower stands, as where a
// node is crossed decides the way on. Once the goal is popped, each
// region is walked sector by sector from where the path enters it to where it
// leaves (along the straight line, which may cross a narrow sector of another
// region the region wraps round), which gives the corridor the funnel pulls
// the string through.
#include <cstdint>
#include <span>
#include <vector>

#include "nav/interval_search.h"
#include "nav/nav_graph.h"
#include "nav/node_pool.h"
#include "nav/open_list.h"
#include "nav/search_step.h"
#include "nav/search_regions.h"

namespace nav {

struct RegionQuery {
  const NavGraph* graph = nullptr;
  glm::vec3 start{0.0f}, goal{0.0f};
  uint32_t startSector = kNoSector, goalSector = kNoSector;
  /// Heuristic = straight-line distance to the goal times this: the query's
  /// scale times the cheapest metre anywhere (devices included) keeps it a lower bound.
  float heuristicScale = 1.0f;
  uint32_t maxExpansions = 1'000'000;
  /// Costs a metre, device costs, closed sectors and tracing; node numbers are graph portals.
  CrossingRules* rules = nullptr;
  bool traced = false;
};

class RegionSearch {
 public:
  /// Starts a query; the graph (with its regions) and the rules must outlive it.
  void init(const RegionQuery& query);
  /// Pops nodes until one is expanded or the search ends.
  SearchStep step();
  /// The sectors and graph portals from start to goal, once Reached. False
  /// (and no corridor) when the regions do not match the graph's portals: a
  /// region's sectors were not joined as they were when it was made.
  bool corridor(std::vector<uint32_t>& sectors, std::vector<uint32_t>& portals);
  /// The corridor to the expanded node that stood nearest the goal (the start
  /// sector alone when none did); false as for corridor.
  bool partialCorridor(std::vector<uint32_t>& sectors, std::vector<uint32_t>& portals);
  /// The cost of the path to the goal, once Reached.
  float cost() const;
  /// The cost of the path partialCorridor gives.
  float partialCost() const { return m_nodes[m_closest].cost; }
  uint32_t expansions() const { return m_expansions; }

 private:
  struct Node {
    /// Where the path stands past the node's portal (a device's exit).
    glm::vec3 point;
    /// Where it crossed the portal (a device's entry), placed towards the goal.
    glm::vec3 crossed;
    /// Where the path left the parent on its way here: its walk portal's
    /// crossing, moved to suit this node (WaysOn), else where it stood (the
    /// start, a device's exit); and the cost there.
    glm::vec3 via;
    float viaCost;
    float cost;
    /// cost plus the heuristic from point: what relax compares.
    float estimate;
    uint32_t parent;
    bool closed;
  };
  /// Sector by sector through one region, for the corridor: a node is the
  /// graph portal walked in by, then the walk's start, then its end.
  struct WalkNode {
    glm::vec3 point;
    float cost;
    uint32_t parent;
  };

  Node& touch(uint32_t node);
  /// The way from a node to a point past it: where it leaves the node (as
  /// Node::via), the cost there, and the cost at the point.
  struct WayPast {
    glm::vec3 via;
    float viaCost;
    float cost;
  };
  /// The ways on from the node being expanded (region_search.cpp).
  class WaysOn;
  /// True for a region portal of walk portals (whose crossing may move).
  bool walks(uint32_t node) const;
  void relax(uint32_t node, uint32_t parent, const WayPast& way, const glm::vec3& crossed,
             const glm::vec3& point);
  void expand(uint32_t node);
  uint32_t regionOf(uint32_t node) const;
  /// The cost of a metre in a region (one surface), asked of the rules once a query.
  float metreOf(uint32_t region);
  /// The graph portal a node is traced as: its first step (kNoPortal: the start).
  uint32_t tracedPortal(uint32_t node) const;
  /// The graph portal of a walk region portal node that makes the way from
  /// `from` to `towards` through it shortest, and where that way crosses it.
  uint32_t bestMember(uint32_t node, const glm::vec3& from, const glm::vec3& towards,
                      glm::vec3& crossing) const;
  /// Where a straight line leaves a sector: the walk portal it crosses, at
  /// this fraction of the line, this far past the portal's ends, into the
  /// walk's region or not.
  struct LineExit {
    uint32_t portal = kNoPortal;
    float t = 1.0f, overshoot = 0.0f;
    bool inRegion = false;
  };
  /// The walk portal (into `region`, or into another region open at its cost
  /// `metre`) by which the line from `point` leaves the sector.
  LineExit lineExit(const Sector& sector, uint32_t cameBy, const glm::vec2& point,
                    const glm::vec2& line, uint32_t region, float metre);
  /// The walk portal into `region`, to none of the `walked` sectors, on the
  /// shortest way from `point` to `target`, and where that way crosses it.
  uint32_t detourExit(const Sector& sector, uint32_t cameBy, const glm::vec2& point,
                      const glm::vec2& target, uint32_t region, std::span<const uint32_t> walked,
                      glm::vec2& crossing);
  /// Appends the sectors and portals from `from` (standing at `at`) to `to`
  /// inside their region, ending at `towards`; `from` itself is already there.
  /// False when the region's sectors do not join them.
  bool walkRegion(uint32_t from, const glm::vec3& at, uint32_t to, const glm::vec3& towards,
                  std::vector<uint32_t>& sectors, std::vector<uint32_t>& portals);
  /// The corridor through the search's nodes up to `last`, then to the goal
  /// when `toGoal`.
  bool buildCorridor(uint32_t last, bool toGoal, std::vector<uint32_t>& sectors,
                     std::vector<uint32_t>& portals);
  /// Whether a sector appears twice in the corridor: one pass with stamps, as
  /// loops are rare.
  bool revisits(const std::vector<uint32_t>& sectors);

  RegionQuery m_query;
  const SearchRegions* m_regions = nullptr;
  uint32_t m_startNode = 0, m_goalNode = 0;
  NodePool<Node> m_nodes;
  OpenList m_open;
  uint32_t m_expansions = 0;
  bool m_reached = false;
  /// The expanded node that stood nearest the goal, for a partial corridor.
  uint32_t m_closest = 0;
  float m_closestDistance = 0.0f;
  NodePool<float> m_regionMetre;
  /// Scratch for buildCorridor.
  std::vector<uint32_t> m_corridorNodes;
  /// Per sector: whether revisits saw it (a query of its own each call).
  NodePool<uint8_t> m_sectorsSeen;
  NodePool<WalkNode> m_walk;
  OpenList m_walkOpen;
};

}  // namespace nav
