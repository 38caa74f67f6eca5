#include "path_tool.h"

#include "inspector.h"
#include "nav/islands.h"

#include <cstdio>
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

namespace {

// A click further than this from where the path puts the unit shows the move. [metres]
constexpr float kMovedMarker = 0.01f;

// The marker where the unit stands, and when the click was moved there (onto
// the cells, off a sector's edge band: placeForPath), a line back to the click.
void drawPlacedMarker(DebugDraw& draw, const glm::vec3& clicked, const glm::vec3& placed,
                      float height, Color color) {
  drawMarker(draw, placed, height, color);
  if (glm::distance(clicked, placed) <= kMovedMarker) return;
  draw.line(clicked, placed, color);
  draw.point(clicked, 4.0f, color);
}

}  // namespace

void PathTool::drawOverlay(DebugDraw& draw, const DrawOptions& options) const {
  const float markerHeight = m_build ? m_build->graph.unit.height : 1.8f;
  const bool hasPath = m_solution && m_solution->hasPath();
  const bool reached = hasPath && m_solution->search.status == PathStatus::Found;
  if (m_start) {
    drawPlacedMarker(draw, *m_start, hasPath ? m_solution->search.corridor.start : *m_start,
                     markerHeight, colors::kStart);
  }
  if (m_goal) {
    drawPlacedMarker(draw, *m_goal, reached ? m_solution->search.corridor.goal : *m_goal,
                     markerHeight, colors::kGoal);
  }
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

void PathTool::clearPoints() {
  m_start.reset();
  m_goal.reset();
  m_notice.clear();
  solve();
}

void PathTool::swapStartAndGoal() {
  std::swap(m_start, m_goal);
  solve();
}

void PathTool::setBuild(std::shared_ptr<const NavBuild> build) {
  m_build = std::move(build);
  m_islandAreas = m_build ? islandAreas(m_build->graph) : std::vector<float>();
  solve();
}

void PathTool::setLevel(std::shared_ptr<const LoadedLevel> level) {
  m_level = std::move(level);
  solve();
}

void PathTool::setJumps(const JumpBucket* jumps) {
  m_jumps = jumps;
  m_options.jumps = jumps;
  solve();
}

namespace {

// The path's length, or why there is no whole path.
std::string outcome(const PathAnswer* answer) {
  if (answer == nullptr) return "no path";
  if (answer->search.status != PathStatus::Found) return toString(answer->search.status);
  char text[32];
  std::snprintf(text, sizeof text, "%.2f m", double(answer->funnel.length));
  return text;
}

}  // namespace

void PathTool::setSearchOptions(const SearchOptions& options) {
  SearchOptions next = options;
  next.jumps = m_jumps;
  if (next == m_options) return;
  const std::string before = outcome(solution());
  m_options = next;
  solve();
  m_lastChange = before + " -> " + outcome(solution());
}

void PathTool::solve() {
  ++m_revision;
  m_solution.reset();
  m_islandNote.clear();
  if (!m_build || !m_start || !m_goal) return;
  SearchOptions options = m_options;
  options.jumps = m_jumps;
  PathStages stages;
  stages.searchTrace = stages.funnelSteps = stages.groundPath = true;
  stages.smoothed = stages.vehicleCurve = stages.clearance = true;
  PathAnswer solution;
  planPath(m_build->graph, *m_start, *m_goal, options, stages, solution,
           m_level ? &m_level->world : nullptr);
  if (solution.search.status != PathStatus::Found)
    m_islandNote = nav::app::islandNote(m_build->graph, m_islandAreas, *m_start, *m_goal);
  m_solution = std::move(solution);
}

}  // namespace nav::app
