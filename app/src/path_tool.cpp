#include "path_tool.h"

#include <utility>

namespace nav::app {

void PathTool::onClick(const ClickEvent& click) {
  if (!click.hit) {
    m_notice = "off mesh: nothing under the cursor";
    return;
  }
  m_notice.clear();
  if (click.button == MouseButton::Left) {
    setStart(click.hit->point);
  } else {
    setGoal(click.hit->point);
  }
}

void PathTool::drawOverlay(DebugDraw& draw, const DrawOptions& options) const {
  const float markerHeight = m_build ? m_build->graph.unit.height : 1.8f;
  if (m_start) drawMarker(draw, *m_start, markerHeight, colors::kStart);
  if (m_goal) drawMarker(draw, *m_goal, markerHeight, colors::kGoal);
  if (!m_solution || m_solution->funnel.corners.empty()) return;
  if (options.jumps) drawJumps(draw, m_solution->search.corridor.jumps, colors::kJumpTaken);
  // The funnel's path last, on top: it is the one the funnel panel steps through.
  if (options.smoothedPath) drawSmoothedPath(draw, m_solution->smoothed, colors::kSmoothedPath);
  if (options.path)
    drawPath(draw, m_solution->groundPath, m_solution->funnel.corners, colors::kPath);
  if (options.path && options.pathClearance && m_build)
    drawPathClearance(draw, m_build->graph.unit, m_solution->clearance);
  if (options.vehicleCurve && !m_solution->vehicle.empty()) {
    drawVehicleCurve(draw, m_solution->vehicle, m_solution->funnel.corners.front().y + 0.15f,
                     colors::kVehicleCurve);
  }
}

void PathTool::setStart(const glm::vec3& start) {
  m_start = start;
  solve();
}

void PathTool::setGoal(const glm::vec3& goal) {
  m_goal = goal;
  solve();
}

void PathTool::swapStartAndGoal() {
  std::swap(m_start, m_goal);
  solve();
}

void PathTool::setBuild(std::shared_ptr<const NavBuild> build) {
  m_build = std::move(build);
  solve();
}

void PathTool::setLevel(std::shared_ptr<const LoadedLevel> level) {
  m_level = std::move(level);
  solve();
}

void PathTool::setJumps(const JumpBucket* jumps) {
  m_jumps = jumps;
  solve();
}

void PathTool::setPortalPoint(PortalPoint portalPoint) {
  if (portalPoint == m_portalPoint) return;
  m_portalPoint = portalPoint;
  solve();
}

void PathTool::setSearchRegions(bool searchRegions) {
  if (searchRegions == m_searchRegions) return;
  m_searchRegions = searchRegions;
  solve();
}

void PathTool::solve() {
  ++m_revision;
  m_solution.reset();
  if (!m_build || !m_start || !m_goal) return;
  SearchOptions options;
  options.jumps = m_jumps;
  options.portalPoint = m_portalPoint;
  options.searchRegions = m_searchRegions;
  PathStages stages;
  stages.searchTrace = stages.funnelSteps = stages.groundPath = true;
  stages.smoothed = stages.vehicleCurve = stages.clearance = true;
  PathAnswer solution;
  planPath(m_build->graph, *m_start, *m_goal, options, stages, solution,
           m_level ? &m_level->world : nullptr);
  m_solution = std::move(solution);
}

}  // namespace nav::app
