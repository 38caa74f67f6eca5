#pragma once
// A navigation mesh given as input, as a NavGraph: each convex polygon of the
// level's faces (navmesh_faces.h) a ground sector, each edge two polygons
// share a pair of walk portals, left and right fixed against the polygon's
// centroid. No flood fill runs: the searches, the funnel and every stage after
// treat the graph as any other (path_pipeline.h).
#include <string>
#include <vector>

#include "nav/build_control.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_graph.h"
#include "nav/navmesh_faces.h"
#include "nav/result.h"
#include "nav/unit_profile.h"

namespace nav {

struct NavMeshGraphParams {
  NavMeshFacesParams faces;
  /// Whose heights place points on the polygons (a start up to a step below
  /// the ground stands on it); the mesh was made for its width already.
  UnitProfile unit;
};

struct NavMeshBuild {
  NavGraph graph;
  /// What the mesh should not hold, where (navmesh_faces.h).
  std::vector<NavMeshIssue> issues;
  /// Polygons left out: on a surface the unit may not walk.
  size_t closedPolygons = 0;
  double totalMs = 0.0;
};

/// The level's faces as a graph, on the surfaces the level's materials name
/// (polygons on one the unit's kind may not walk are left out). Fails, naming
/// the level, when no walkable polygon is left or the build is cancelled.
Result<NavMeshBuild> buildNavMeshGraph(const Level& level, const NavMeshGraphParams& params,
                                       BuildControl* control = nullptr);

/// The build as the flood fill's builds are handed on: its graph, no cells,
/// the figures, and each issue (up to `listedIssues`) as a warning naming where it is.
NavBuild asNavBuild(NavMeshBuild mesh, size_t listedIssues = 1000);

/// The parameters for the level: its first unit (or the default human), and
/// the faces read as they are (default NavMeshFacesParams).
NavMeshGraphParams navMeshParamsFor(const Level& level);

}  // namespace nav
