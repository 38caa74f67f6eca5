#pragma once
// What a path query asks and answers: the search options (how portals are
// costed, the filter, limits), the result with its corridor, and the trace.
// findPath (path_solver.h) runs a query; planPath (path_pipeline.h) runs it
// through the funnel and the stages after.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nav/corridor.h"
#include "nav/jump_portals.h"
#include "nav/locate.h"
#include "nav/nav_graph.h"
#include "nav/query_filter.h"

namespace nav {

/// Where the search places the path on a walk portal it costs.
enum class PortalPoint : uint8_t {
  Centroid,  ///< Not on the portal: at the centroid of the sector it leads into, as the classic
             ///< triangle A* costs a step between faces' centroids (the start and the goal
             ///< are their own points). Its corridors are longer than the others'.
  Midpoint,  ///< The portal's middle, as Detour does: a fixed graph.
  Crossing,  ///< Where the line from the string pulled so far to the goal crosses it (clamped
             ///< to the portal), costed as the string's length (pulled_string.h): closer to
             ///< the final path, so long portals and zigzags mislead less.
  Exact,     ///< Anywhere: the search follows intervals of portals seen from the path's last
             ///< turn (interval_search.h), so the corridor is the one whose string-pulled
             ///< path is shortest in the ground plane. It expands several times the nodes
             ///< Crossing does on levels of many small sectors. Queries it cannot cost
             ///< exactly (surfaces of different costs, open waypaths, a turning radius)
             ///< search as Crossing. A goal it does not reach gets Crossing's reason and
             ///< closest point, and the shortest way there.
};

constexpr PortalPoint kPortalPoints[] = {PortalPoint::Centroid, PortalPoint::Midpoint,
                                         PortalPoint::Crossing, PortalPoint::Exact};
/// "centroid", "midpoint", "crossing" or "exact".
const char* toString(PortalPoint portalPoint);
/// The search mode toString names so; none for another name.
std::optional<PortalPoint> portalPointNamed(std::string_view name);

struct SearchOptions {
  PortalPoint portalPoint = PortalPoint::Crossing;
  /// Heuristic = straight-line distance times this. [0..1 keeps paths optimal]
  float heuristicScale = 0.999f;
  /// Crossing searches the graph's search regions first (search_regions.h,
  /// region_search.h): near-convex groups of sectors of one surface each, so
  /// levels whose walls cut sectors into thin staircases take far fewer nodes.
  /// Not the default: it commits to a corridor of regions, and on generated
  /// terrain one pair in twenty-five comes out more than 0.5 % longer than the
  /// sector search's (up to 38 %). It answers with no waypath open, no jump and
  /// no turning radius, from a start on a surface the query may walk; otherwise,
  /// or when it finds no way, the search walks the sectors
  /// (PathResult::overRegions says which answered).
  bool searchRegions = false;
  /// The search gives up after expanding this many nodes (all its searches together).
  uint32_t maxExpansions = 1'000'000;
  /// What the path may use and what it costs (query_filter.h).
  QueryFilter filter;
  /// A start or goal standing on no sector snaps to the nearest one within
  /// these half extents (as Detour's findNearestPoly). [metres]
  glm::vec3 snapExtents{1.0f, 2.0f, 1.0f};
  /// An unreachable goal gives the path to the reachable point closest to it
  /// (status Partial) instead of no path (status Unreachable).
  bool allowPartial = true;
  /// Jump portals the path may take, as they stand when the search starts (a
  /// sliced search keeps that copy); must outlive the call that starts it.
  const JumpBucket* jumps = nullptr;
  /// The unit's turning radius; unset: the graph's unit's. A portal is skipped
  /// when the turn onto it, at the point the path crosses the portal it came
  /// in by, needs an arc of this radius longer (tangent length r * tan(angle / 2))
  /// than the straight run before it or the one after it. The unit may leave
  /// the start and reach the goal facing any way. 0 turns on the spot. [metres, >= 0]
  std::optional<float> turningRadius;

  bool operator==(const SearchOptions&) const = default;
};

enum class PathStatus { Found, Partial, StartOffMesh, GoalOffMesh, Unreachable, TooManyExpansions };
const char* toString(PathStatus status);

/// One step of the search, for the debugger. The goal point is not a traced
/// node: the search ends when it would be closed (PathResult::cost).
struct SearchEvent {
  /// Close: taken off the open list and expanded. Drop: taken off it and set
  /// aside unexpanded (the A*: an earlier visit of its sector reached its point
  /// as cheaply; the exact search: its root was since reached cheaper, or an
  /// interval holding it was expanded).
  enum class Kind : uint8_t { Open, Reopen, Close, Drop };
  Kind kind;
  /// Portal index, kJumpPortalFlag | the jump's place in the bucket, or
  /// kNoPortal for the start point.
  uint32_t portal;
  float costSoFar;
  float estimatedTotal;
  /// Where the node stands: for the A*, the point it costs on its portal (or
  /// the start, or a device's or jump's exit), from == to; for the exact
  /// search, the interval of the portal it sees.
  glm::vec3 from, to;
};

struct SearchTrace {
  /// Appended to by each traced query, in the order they happened.
  std::vector<SearchEvent> events;
};

struct PathResult {
  PathStatus status = PathStatus::Unreachable;
  /// Why the path is partial or missing, when it can be named
  /// ("door 'gate' is locked and needs key 'red'").
  std::string reason;
  Corridor corridor;
  /// Cost of the path as its search costed it: each stretch's length times its
  /// cost a metre, plus devices and jumps (the exact search measures lengths on the ground).
  float cost = 0.0f;
  /// Nodes expanded, by all the searches the query ran (the exact search or
  /// the search over regions and, when it could not answer, the A* over sectors).
  uint32_t expansions = 0;
  /// How the search that gave the corridor placed the path on portals: the
  /// query's choice, except Crossing when Exact could not answer it.
  PortalPoint portalPoint = PortalPoint::Crossing;
  /// The corridor came from the search over regions (SearchOptions::searchRegions).
  bool overRegions = false;

  /// A default result, keeping the arrays' capacity.
  void clear() {
    status = PathStatus::Unreachable;
    reason.clear();
    corridor.clear();
    cost = 0.0f;
    expansions = 0;
    portalPoint = PortalPoint::Crossing;
    overRegions = false;
  }
};

}  // namespace nav
