#include "nav/path_pipeline.h"

#include <span>
#include <utility>

#include "nav/path_solver.h"
#include "smoothing.h"

namespace nav {

void planPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
              const SearchOptions& options, const PathStages& stages, PathAnswer& answer,
              const CollisionWorld* world) {
  answer.trace.events.clear();
  findPath(graph, start, goal, options, answer.search,
           stages.searchTrace ? &answer.trace : nullptr);
  completePath(graph, options, stages, answer, world);
}

namespace {

float groundLength(std::span<const glm::vec3> corners) {
  float length = 0.0f;
  for (size_t i = 1; i < corners.size(); ++i)
    length += glm::distance(groundOf(corners[i - 1]), groundOf(corners[i]));
  return length;
}

// The exact search turns at widened portal ends (Corridor::endTurns), as its
// gates and the ends' hulls allow; corner reach (corner_reach.h) may move the
// gates' corners further out, along directions proven clear, than those
// turns. The corridor pulled through its gates alone is kept when it is
// shorter in the ground plane (what the search measures), its turns then
// dropped from the corridor, so that the funnel's steps and portals agree.
void keepShorterPull(const NavGraph& graph, const PathStages& stages, PathAnswer& answer) {
  thread_local Corridor throughGates;
  thread_local FunnelResult pulled;
  throughGates = answer.search.corridor;
  throughGates.endTurns.clear();
  pullCorridor(graph, throughGates, pulled, stages.funnelSteps);
  if (groundLength(pulled.corners) < groundLength(answer.funnel.corners)) {
    answer.search.corridor.endTurns.clear();
    std::swap(answer.funnel, pulled);
  }
}

}  // namespace

void completePath(const NavGraph& graph, const SearchOptions& options, const PathStages& stages,
                  PathAnswer& answer, const CollisionWorld* world) {
  answer.portals.clear();
  answer.funnel.clear();
  answer.groundPath.clear();
  answer.smoothed.clear();
  answer.vehicle.clear();
  answer.clearance.clear();
  if (!answer.hasPath()) return;
  Corridor& corridor = answer.search.corridor;
  pullCorridor(graph, corridor, answer.funnel, stages.funnelSteps);
  if (!corridor.endTurns.empty()) keepShorterPull(graph, stages, answer);
  if (stages.funnelSteps || stages.groundPath) answer.portals = funnelPortals(graph, corridor);
  if (stages.groundPath) answer.groundPath = followPortalHeights(answer.funnel, answer.portals);
  if (stages.smoothed) answer.smoothed = smoothPath(graph, corridor, answer.funnel.corners);
  const float turningRadius = options.turningRadius.value_or(graph.unit.turningRadius);
  if (stages.vehicleCurve && turningRadius > 0.0f)
    answer.vehicle = vehicleCurve(answer.funnel.corners, turningRadius);
  if (stages.clearance && world != nullptr)
    answer.clearance = pathClearance(*world, graph.unit, answer.funnel.corners);
}

}  // namespace nav
