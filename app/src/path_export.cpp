#include "path_export.h"

#include <nlohmann/json.hpp>

namespace nav::app {
namespace {

using Json = nlohmann::ordered_json;

// Points are written in the level file's coordinates (the graph's grid turned back).
Json point(const GridFrame& frame, const glm::vec3& grid) {
  const glm::vec3 p = frame.toFile(grid);
  return Json::array({p.x, p.y, p.z});
}

Json groundPoint(const GridFrame& frame, const glm::vec2& grid) {
  const glm::vec3 p = frame.toFile(glm::vec3(grid.x, 0.0f, grid.y));
  return Json::array({p.x, p.z});
}

const char* eventName(SearchEvent::Kind kind) {
  switch (kind) {
    case SearchEvent::Kind::Open:
      return "open";
    case SearchEvent::Kind::Reopen:
      return "reopen";
    case SearchEvent::Kind::Close:
      return "close";
    case SearchEvent::Kind::Drop:
      return "drop";
  }
  return "?";
}

Json query(const GridFrame& frame, const glm::vec3& start, const glm::vec3& goal,
           const SearchOptions& options) {
  const QueryFilter& filter = options.filter;
  Json costs = Json::object();
  for (const auto& [surface, cost] : filter.surfaceCosts)
    costs[surface] = cost;
  Json query{{"from", point(frame, start)},
             {"to", point(frame, goal)},
             {"search", toString(options.portalPoint)},
             {"regions", options.searchRegions},
             {"heuristic_scale", options.heuristicScale},
             {"keys", filter.keys},
             {"surface_costs", costs},
             {"excluded_surfaces", filter.excludedSurfaces},
             {"waypath_bias", filter.waypathBias}};
  query["turning_radius"] = options.turningRadius ? Json(*options.turningRadius) : Json("unit");
  return query;
}

}  // namespace

std::string pathJson(const std::string& levelPath, const NavGraph& graph, const glm::vec3& start,
                     const glm::vec3& goal, const SearchOptions& options,
                     const PathAnswer& answer) {
  const PathResult& search = answer.search;
  const GridFrame& frame = graph.gridFrame;
  Json corners = Json::array();
  for (const glm::vec3& c : answer.funnel.corners)
    corners.push_back(point(frame, c));
  Json clearance = Json::array();
  for (const StretchClearance& stretch : answer.clearance)
    clearance.push_back({{"walked", stretch.walked}, {"depth", stretch.depth}});
  Json trace = Json::array();
  for (const SearchEvent& event : answer.trace.events) {
    trace.push_back({{"event", eventName(event.kind)},
                     {"portal", event.portal == kNoPortal ? Json(nullptr) : Json(event.portal)},
                     {"g", event.costSoFar},
                     {"f", event.estimatedTotal},
                     {"from", point(frame, event.from)},
                     {"to", point(frame, event.to)}});
  }
  Json funnel = Json::array();
  for (const FunnelStep& step : answer.funnel.steps) {
    funnel.push_back({{"event", toString(step.event)},
                      {"portal", step.portal},
                      {"apex_portal", step.apexPortal},
                      {"left_portal", step.leftPortal},
                      {"right_portal", step.rightPortal},
                      {"corners", step.cornerCount}});
  }
  Json smoothed = Json::array();
  for (const glm::vec3& p : answer.smoothed)
    smoothed.push_back(point(frame, p));
  Json vehicle = Json::array();
  for (const CurvePiece& piece : answer.vehicle) {
    Json entry{{"kind", piece.kind == CurvePiece::Arc ? "arc" : "line"},
               {"start", groundPoint(frame, piece.start)},
               {"end", groundPoint(frame, piece.end)},
               {"length", piece.length}};
    if (piece.kind == CurvePiece::Arc) {
      entry["center"] = groundPoint(frame, piece.center);
      entry["radius"] = piece.radius;
      entry["clockwise"] = piece.clockwise;
    }
    vehicle.push_back(entry);
  }
  const Json document{{"units", "metres"},
                      {"level", levelPath},
                      {"unit",
                       {{"name", graph.unit.name},
                        {"footprint", graph.unit.footprint()},
                        {"height", graph.unit.height}}},
                      {"cell_size", graph.cellSize},
                      {"query", query(frame, start, goal, options)},
                      // As navscope-cli query says it.
                      {"status", search.status == PathStatus::Found     ? "found"
                                 : search.status == PathStatus::Partial ? "partial"
                                                                        : "none"},
                      {"reason", search.reason},
                      {"search", toString(search.portalPoint)},
                      {"length", answer.funnel.length},
                      {"corners", corners},
                      {"clearance", clearance},
                      {"expansions", search.expansions},
                      {"trace", trace},
                      {"funnel_steps", funnel},
                      {"smoothed", smoothed},
                      {"vehicle_curve", vehicle}};
  return document.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace nav::app
