// Is the exact search's path ever longer than the default search's?
//
// For each level (the bundled showcase and funnel levels with their own first
// unit, dungeon.obj from ../shared and generated terrains with the
// Detour-matched unit, two of them turned: bench_checks.h) and each unit shape (box and
// round): PAIRS seeded random pairs of cell centres, solved by planPath with
// the default search and with the exact one (SearchOptions::portalPoint),
// every surface at one cost a metre so that the exact search answers. Prints,
// per level and shape: the pairs both found, how many the exact path is
// longer on in the ground plane (what it minimises; beyond rounding), the
// worst excess with its pair, and both searches' total lengths. Exits with 1
// when the exact path is longer on any pair.
//
// Run: build/core/navscope_check_exact [PAIRS] [--seed N] [--only TEXT]
//          [--terrain SEED[:DEGREES]]... [--level FILE[:DEGREES]]...
//          [--grid-angle DEG|auto] [--cell M]
//          [--unit-width M] [--unit-height M] [--step M] [--drop M] [--slope DEG]
//          [--ledge-overhang M] [--diagnose]
//   PAIRS random pairs per level and shape (default 2000); --only runs the
//   cases whose label holds TEXT; --terrain checks these generated terrains
//   (turned DEGREES) instead of the default three; --level adds a level file
//   (turned DEGREES), built for Detour's unit as dungeon.obj; --grid-angle builds every
//   level on that grid instead of the one chosen for it; --cell builds
//   dungeon.obj and the terrains on M-metre cells instead of 0.3;
//   --unit-width, --unit-height, --step, --drop, --slope and
//   --ledge-overhang build them for that unit instead of Detour's 1.2 x 2.0 m
//   one that steps and drops 0.9 m on slopes up to 45 degrees; --diagnose prints
//   each pair the exact path is longer on.
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>

#include "bench_checks.h"
#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"
#include "nav/search.h"

namespace {

bool walksOnly(const nav::NavGraph& graph, const nav::Corridor& corridor) {
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    if (corridor.portal(graph, i).kind != nav::PortalKind::Walk) return false;
  }
  return true;
}

// Returns the number of pairs the exact path is longer on.
size_t runCase(const nav::bench::CheckCase& c, nav::UnitShape shape,
               const nav::bench::CheckArgs& args) {
  bool failed = false;
  const std::unique_ptr<nav::bench::CheckBuild> check = nav::bench::buildCheck(c, shape, failed);
  if (!check) return failed ? 1 : 0;
  const nav::NavBuild& build = check->build;
  const nav::NavGraph& graph = build.graph;
  nav::SearchOptions byDefault;
  for (const nav::SurfaceSpec& surface : graph.surfaces)
    byDefault.filter.surfaceCosts[surface.name] = 1.0f;
  nav::SearchOptions exact = byDefault;
  exact.portalPoint = nav::PortalPoint::Exact;

  const nav::CellGrid& cells = *build.cells;
  std::mt19937 draw(args.seed);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  nav::PathAnswer a, x;
  size_t both = 0, ridden = 0, longer = 0;
  double worst = 0.0, defaultTotal = 0.0, exactTotal = 0.0;
  glm::vec3 worstStart{0.0f}, worstGoal{0.0f};
  for (size_t i = 0; i < args.pairs; ++i) {
    const glm::vec3 start = cells.center(pick(draw)) + glm::vec3(0.0f, 0.05f, 0.0f);
    const glm::vec3 goal = cells.center(pick(draw)) + glm::vec3(0.0f, 0.05f, 0.0f);
    nav::planPath(graph, start, goal, byDefault, {}, a);
    nav::planPath(graph, start, goal, exact, {}, x);
    if (a.search.status != nav::PathStatus::Found || x.search.status != nav::PathStatus::Found ||
        x.search.portalPoint != nav::PortalPoint::Exact)
      continue;
    // A device's ride costs what the query's rules say, not its ground length.
    if (!walksOnly(graph, a.search.corridor) || !walksOnly(graph, x.search.corridor)) {
      ++ridden;
      continue;
    }
    ++both;
    const double byDefaultLength = nav::groundPolylineLength(a.funnel.corners);
    const double exactLength = nav::groundPolylineLength(x.funnel.corners);
    defaultTotal += byDefaultLength;
    exactTotal += exactLength;
    // Beyond rounding: a part in 10^5, and a tenth of a millimetre.
    if (!(exactLength > byDefaultLength * 1.00001 + 1e-4)) continue;
    ++longer;
    const double excess = exactLength / byDefaultLength - 1.0;
    if (args.diagnose) {
      std::printf("    (%.3f %.3f %.3f) -> (%.3f %.3f %.3f): exact %.4f m, default %.4f m\n",
                  start.x, start.y, start.z, goal.x, goal.y, goal.z, exactLength, byDefaultLength);
    }
    if (excess > worst) {
      worst = excess;
      worstStart = start;
      worstGoal = goal;
    }
  }
  std::printf(
      "%s, %s unit %.2f m: %zu pairs both walked (%zu ridden a device), exact longer on %zu",
      c.label.c_str(), nav::toString(shape), check->unit.width, both, ridden, longer);
  if (longer > 0) {
    std::printf(" (worst +%.3f %%: (%.3f %.3f %.3f) -> (%.3f %.3f %.3f))", 100.0 * worst,
                worstStart.x, worstStart.y, worstStart.z, worstGoal.x, worstGoal.y, worstGoal.z);
  }
  std::printf("; total %.1f m exact, %.1f m default\n", exactTotal, defaultTotal);
  return longer;
}

}  // namespace

int main(int argc, char** argv) {
  nav::bench::CheckArgs defaults;
  defaults.pairs = 2000;
  defaults.seed = 20261128;
  const std::optional<nav::bench::CheckArgs> args =
      nav::bench::parseCheckArgs(argc, argv, defaults);
  if (!args) return 2;
  size_t longer = 0;
  for (const nav::bench::CheckCase& c : nav::bench::checkCasesFor(*args)) {
    if (!args->only.empty() && c.label.find(args->only) == std::string::npos) continue;
    for (const nav::UnitShape shape : {nav::UnitShape::Box, nav::UnitShape::Round})
      longer += runCase(c, shape, *args);
  }
  return longer > 0 ? 1 : 0;
}
