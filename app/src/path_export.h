#pragma once
// The path on screen as a JSON document, for scripts and bug reports: the
// level and unit, the query (start, goal, search options and filter), the
// answer (status, reason, length, corners, clearance per stretch), the A*
// trace, the funnel's steps, the smoothed curve and the vehicle curve.
// Distances are in metres; points are [x, y, z] (curves on the ground: [x, z]).
#include <string>

#include "nav/nav_graph.h"
#include "nav/path_pipeline.h"
#include "nav/search.h"

namespace nav::app {

/// The document, as text.
std::string pathJson(const std::string& levelPath, const NavGraph& graph, const glm::vec3& start,
                     const glm::vec3& goal, const SearchOptions& options, const PathAnswer& answer);

}  // namespace nav::app
