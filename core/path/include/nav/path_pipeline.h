#pragma once
// The one way from a query to a path: locate and search (findPath), the
// funnel over the corridor's portals (pullCorridor), the path at the portals'
// heights, and on request the Bezier smoothing, a vehicle's curve and where
// the unit following the path would touch the level. The debugger, the crowd,
// the CLI and the benchmarks all call it, so they show and measure the same path.
#include <vector>

#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/nav_graph.h"
#include "nav/path_clearance.h"
#include "nav/search.h"
#include "nav/vehicle_curve.h"

namespace nav {

/// The stages a caller wants beyond the search and the funnel, which always run.
struct PathStages {
  /// Record the search's events (PathAnswer::trace).
  bool searchTrace = false;
  /// Record every funnel step (FunnelResult::steps).
  bool funnelSteps = false;
  /// The funnel's corners plus a point where the path crosses each portal, at
  /// its height (PathAnswer::groundPath): what a unit walking the path follows.
  bool groundPath = false;
  /// Bezier smoothing kept inside the corridor (PathAnswer::smoothed).
  bool smoothed = false;
  /// A vehicle's turn arcs and lines (PathAnswer::vehicle), when the query's
  /// turning radius (SearchOptions::turningRadius, else the graph's unit's) is above 0.
  bool vehicleCurve = false;
  /// Where the graph's unit touches the level along the corners
  /// (PathAnswer::clearance); needs the level's collision world.
  bool clearance = false;
};

/// Everything a query gives. Reused from query to query, its arrays keep
/// their capacity.
struct PathAnswer {
  PathResult search;
  SearchTrace trace;
  /// Start, corridor portals (every leg's), goal, as the funnel steps index
  /// them; only with funnelSteps or groundPath, and when there is a corridor.
  std::vector<FunnelPortal> portals;
  /// Sectors of the search's corridor the pipeline left out: the way need not
  /// enter them, and the pull without them is shorter (corridor_shortcuts.h).
  std::vector<uint32_t> sectorsLeftOut;
  /// The corners (a partial path's too: it leads as close to the goal as the unit gets).
  FunnelResult funnel;
  std::vector<glm::vec3> groundPath;
  std::vector<glm::vec3> smoothed;
  std::vector<CurvePiece> vehicle;
  /// Per stretch between corners; empty without a collision world.
  std::vector<StretchClearance> clearance;

  /// True when the search gave a corridor (Found or Partial).
  bool hasPath() const { return !search.corridor.sectors.empty(); }
};

/// Runs the query through every stage asked for into `answer`. `world` is the
/// level's collision world, for the clearance (nullptr: a graph without its
/// level, no clearance).
void planPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
              const SearchOptions& options, const PathStages& stages, PathAnswer& answer,
              const CollisionWorld* world = nullptr);

/// The stages after the search, for a search run elsewhere (a PathSolver
/// sliced over frames, path_manager.h): `answer.search` holds its result, and
/// `options` are the ones it searched with.
void completePath(const NavGraph& graph, const SearchOptions& options, const PathStages& stages,
                  PathAnswer& answer, const CollisionWorld* world = nullptr);

}  // namespace nav
