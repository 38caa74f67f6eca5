#include "nav/path_pipeline.h"

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

void completePath(const NavGraph& graph, const SearchOptions& options, const PathStages& stages,
                  PathAnswer& answer, const CollisionWorld* world) {
  answer.portals.clear();
  answer.funnel.clear();
  answer.groundPath.clear();
  answer.smoothed.clear();
  answer.vehicle.clear();
  answer.clearance.clear();
  if (!answer.hasPath()) return;
  const Corridor& corridor = answer.search.corridor;
  pullCorridor(graph, corridor, answer.funnel, stages.funnelSteps);
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
