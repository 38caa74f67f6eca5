#pragma once
// A path search that can be advanced a little at a time (time slicing): init a
// query, update it within an iteration or time budget as often as needed, then
// finalize it into a PathResult. findPath is init + update until done +
// finalize, so a sliced query gives exactly the one-shot result. The search is
// A* over portals (portal_search.h), or where they can answer, the interval
// search (interval_search.h) for PortalPoint::Exact and the search over
// regions (region_search.h) for SearchOptions::searchRegions.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nav/interval_search.h"
#include "nav/locate.h"
#include "nav/nav_graph.h"
#include "nav/node_pool.h"
#include "nav/portal_search.h"
#include "nav/query_filter.h"
#include "nav/region_search.h"
#include "nav/search.h"

namespace nav {

enum class SolveStatus : uint8_t {
  Idle,        ///< No query: never started, or finalized.
  InProgress,  ///< Searching: update again.
  Done,        ///< The search ended: finalize gives the result.
};

/// One query at a time. Reusing the same solver for many queries reuses its
/// arrays, and resets only the nodes a query touched. Not thread-safe: one
/// solver per thread; several solvers may share a graph.
class PathSolver : private CrossingRules {
 public:
  /// Starts a query (ending any previous one); findPath's arguments. Locating
  /// the points happens here, and ends the query at once when one is off the
  /// mesh or both share a sector. The graph and the trace must outlive the
  /// query (until finalize); the options are copied.
  void init(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
            const SearchOptions& options = {}, SearchTrace* trace = nullptr);
  /// Runs at most maxIterations iterations. An iteration expands one node, or
  /// ends the search. Whatever the budgets, the result is findPath's.
  SolveStatus update(uint32_t maxIterations);
  /// Runs until the budget is spent or the search ends, reading the clock
  /// every few iterations; always runs those few, so every call makes progress.
  SolveStatus update(std::chrono::microseconds budget);
  /// The query's result; the solver becomes Idle. Called before Done, it ends
  /// the search where it stands, as maxExpansions would (Partial, or
  /// TooManyExpansions without allowPartial). Idle: an Unreachable result
  /// saying no query was started.
  PathResult finalize();
  /// The same into `result`, trading arrays with it: a caller that keeps one
  /// result for its queries stops allocating for the corridor once its arrays
  /// are large enough.
  void finalize(PathResult& result);

  SolveStatus status() const { return m_status; }
  /// Iterations the current query has run (expansions, plus one when the search ended in update).
  uint32_t iterations() const { return m_iterations; }

 private:
  /// How the search ended: Resolved when init alone settled the result,
  /// ReachedExactly when the interval search found the goal, PartialExactly
  /// when it found the point the portal A* got closest to it,
  /// ReachedOverRegions when the region search found the goal.
  enum class Ending : uint8_t {
    Resolved,
    Reached,
    ReachedExactly,
    ReachedOverRegions,
    PartialExactly,
    Exhausted,
    Stopped,
    NoWay
  };

  /// Completes m_result for how the search ended.
  void completeResult();
  /// The one cost of a metre in every sector the query may enter, when there
  /// is one and nothing else makes the cost depend on the way (a turning
  /// radius, an open waypath); else none.
  std::optional<float> uniformMetre() const;
  /// Starts the region search; false when it cannot answer the query.
  bool searchRegions();
  /// Starts the A* over portals from the start (PortalQuery::skipDeadEnds).
  void startPortalSearch(bool skipDeadEnds = true);
  /// Starts the interval search to `goal`; false when it cannot answer the query.
  bool searchIntervalsTo(const Location& goal);
  /// Where a partial path ends: the point nearest the goal of the sector the
  /// portal A* got closest in.
  Location partialEnd() const;
  /// The point of a sector nearest the goal.
  Location closestPointOf(uint32_t sector) const;
  /// Why a search that ran out of expansions or was finalized early stopped.
  std::string stoppedReason() const;
  std::string noWayReason() const;
  // CrossingRules, for the searches over portals.
  float teleportCost(uint32_t node) const override;
  float metreOf(uint32_t sector) const override;
  void trace(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
             const glm::vec2& left, const glm::vec2& right) override;
  void tracePoint(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                  const glm::vec3& point) override;
  /// A ground-plane point the exact search sees in the sector a walk portal
  /// node enters, on that sector's ground (the start, or a device's or jump's
  /// exit, for the other nodes).
  glm::vec3 onNode(uint32_t node, const glm::vec2& point) const;
  /// Why no path leads from the start to the goal, whatever the filter
  /// (another island, one-way portals), or null.
  const char* outOfReach();
  /// Marks the strong components `from` reaches, up to number `upTo`; true
  /// when `upTo` is one of them.
  bool reachComponents(uint32_t from, uint32_t upTo);
  /// The point nearest the goal of the ground sectors the start reaches.
  Location nearestReachable();
  /// The portal a node stands for: a graph portal or a jump.
  const Portal& nodePortal(uint32_t node) const;
  void expandNext();
  /// The cost of a metre in the corridor's k-th sector, as the search counted it.
  float sectorRate(const Corridor& corridor, size_t k) const;
  /// The cheapest metre among the corridor's sectors after the k-th.
  float cheapestRateAfter(const Corridor& corridor, size_t k) const;
  /// The status of a search that got to the goal it aimed at.
  void markReached(PathResult& result) const;
  void end(Ending ending);
  void copyJumps(Corridor& corridor) const;
  void record(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
              const glm::vec3& from, const glm::vec3& to);

  // The query.
  const NavGraph* m_graph = nullptr;
  SearchOptions m_options;
  SearchTrace* m_trace = nullptr;
  SolveStatus m_status = SolveStatus::Idle;
  Ending m_ending = Ending::Resolved;
  uint32_t m_iterations = 0;
  PathResult m_result;
  Location m_startLocation, m_goalLocation;
  /// Why the goal is out of reach whatever the filter (on another island,
  /// or past one-way portals), else null: then the search aims at the
  /// reachable point nearest it, and the result is partial.
  const char* m_outOfReach = nullptr;
  /// The strong components the start reaches (reachComponents).
  NodePool<uint8_t> m_componentsReached;
  std::vector<uint32_t> m_componentStack;

  /// What the filter makes of the graph: the cost of a metre in each sector,
  /// of each device and jump, the waypaths' lengths.
  FilterCosts m_costs;
  float m_startSectorCost = 1.0f, m_goalSectorCost = 1.0f;

  // The search: the interval search or the search over regions when they
  // apply, else (or when they find no way) A* over the portals.
  IntervalSearch m_intervals;
  bool m_searchingIntervals = false;
  /// uniformMetre() for the query, worked out once at init, when the interval
  /// search may answer it.
  std::optional<float> m_exactMetre;
  /// The search over regions may answer the query (SearchOptions::searchRegions).
  bool m_regionsMayAnswer = false;
  RegionSearch m_regions;
  bool m_searchingRegions = false;
  /// The interval search runs again, to the portal A*'s partial end.
  bool m_aimedAtPartialEnd = false;
  Location m_partialEnd;
  PortalSearch m_portals;
  /// The A* over portals has started for this query.
  bool m_portalSearchStarted = false;
  float m_turningRadius = 0.0f;
  /// The jumps of the query, copied at init: nodes m_firstJumpNode onwards.
  std::vector<JumpPortal> m_jumps;
  /// Node numbers (crossing_rules.h): graph portals, the start, the goal, the jumps.
  uint32_t m_startNode = 0, m_firstJumpNode = 0;

  // Assembling the corridor (completeResult), kept for their capacity.
  std::vector<uint32_t> m_corridorNodes;
  /// Per sector, where the corridor holds it first, when it still does.
  NodePool<uint32_t> m_corridorAt;
};

/// Locates start and goal (locateSector) and searches from the start's sector to
/// the goal's; the corridor's start and goal are the located points (snapped to
/// the nearest sector when off it). The cost of a stretch is its length times
/// the surface's cost (or the waypath bias), plus device wait and travel time;
/// over the sectors, optimal under those costs for heuristicScale <= 1 (the
/// search over regions costs a region as the straight line through it, and
/// can give a corridor a little longer or shorter). A partial result's corridor leads to the
/// reachable point closest to the goal (corridor.goal). Deterministic. Records
/// events only when trace is non-null. Unless Found or Partial, the corridor has no sectors.
/// One PathSolver run to the end (path_solver.h slices the same search over frames);
/// each thread reuses one solver, whose arrays stay sized for the largest graph searched.
PathResult findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                    const SearchOptions& options = {}, SearchTrace* trace = nullptr);
/// The same into `result`, whose arrays it reuses: a caller asking many queries
/// with one result stops allocating for corridors once they are large enough
/// (as Detour fills the caller's buffers); a partial result's reason is still a new string.
void findPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
              const SearchOptions& options, PathResult& result, SearchTrace* trace = nullptr);

}  // namespace nav
