// Does a unit following navscope's default path keep clear of the level?
//
// For each level (the bundled showcase and funnel levels with their own first
// unit, dungeon.obj from ../shared and generated terrains with the
// Detour-matched unit, two of them turned: bench_checks.h) and each unit shape
// (box and round): the default path (the sidecar's start and goal, the first
// path the debugger shows) and PAIRS seeded random pairs of points anywhere
// on the cells, solved with the default search (findPath with
// SearchOptions{}), pulled with pullCorridor (through gates, corners moved
// out to widened ends and reaches) and swept with the unit (pathClearance). Prints, per level and
// shape: paths, stretches walked, stretches touching the level and the
// deepest touch, stretches with some of their way over no ground (none under
// the unit's centre within its step or drop), corners and the total path length.
// Exits with 1 when any stretch touches or goes over no ground.
// core/tests/test_paths_clear.cpp runs the same on the bundled levels and the
// dungeon in ctest.
//
// Run: build/core/navscope_check_clearance [PAIRS] [--seed N] [--only TEXT]
//          [--terrain SEED[:DEGREES]]... [--level FILE[:DEGREES]]...
//          [--grid-angle DEG|auto] [--cell M]
//          [--unit-width M] [--unit-height M] [--step M] [--drop M] [--slope DEG]
//          [--ledge-overhang M] [--diagnose] [--exact]
//   PAIRS random pairs per level and shape (default 10000); --only runs the
//   cases whose label holds TEXT; --terrain checks these generated terrains
//   (turned DEGREES) instead of the default three; --level adds a level file
//   (turned DEGREES), built for Detour's unit as dungeon.obj; --grid-angle builds every
//   level on that grid instead of the one chosen for it; --cell builds
//   dungeon.obj and the terrains on M-metre cells instead of 0.3;
//   --unit-width, --unit-height, --step, --drop, --slope and
//   --ledge-overhang build them for that unit instead of Detour's 1.2 x 2.0 m
//   one that steps and drops 0.9 m on slopes up to 45 degrees; --diagnose prints
//   each touching stretch;
//   --exact sweeps the exact search's paths instead, every surface at one
//   cost a metre so that it answers.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench_checks.h"
#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/search.h"

namespace {

struct Totals {
  size_t paths = 0, stretches = 0, touching = 0, overNoGround = 0, corners = 0;
  float deepest = 0.0f;
  glm::vec3 deepestAt{0.0f};
  double length = 0.0;
};

bool g_diagnose = false;
bool g_exact = false;

void solve(const nav::NavGraph& graph, const nav::CollisionWorld& world, const glm::vec3& start,
           const glm::vec3& goal, Totals& totals) {
  static nav::PathAnswer answer;
  nav::PathStages stages;
  stages.clearance = true;
  nav::SearchOptions options;
  if (g_exact) {
    options.portalPoint = nav::PortalPoint::Exact;
    for (const nav::SurfaceSpec& surface : graph.surfaces)
      options.filter.surfaceCosts[surface.name] = 1.0f;
  }
  nav::planPath(graph, start, goal, options, stages, answer, &world);
  if (!answer.hasPath()) return;
  const nav::FunnelResult& funnel = answer.funnel;
  ++totals.paths;
  totals.length += funnel.length;
  totals.corners += funnel.corners.size() - 2;
  const std::vector<nav::StretchClearance>& stretches = answer.clearance;
  for (size_t i = 0; i < stretches.size(); ++i) {
    const nav::StretchClearance& stretch = stretches[i];
    if (!stretch.walked) continue;
    ++totals.stretches;
    if (stretch.overNoGround > 0.0f) {
      ++totals.overNoGround;
      if (g_diagnose) {
        const glm::vec3 a = funnel.corners[i], b = funnel.corners[i + 1];
        std::printf(
            "    (%.3f %.3f %.3f) -> (%.3f %.3f %.3f): stretch %zu of %zu, (%.3f %.3f %.3f) "
            "-> (%.3f %.3f %.3f), %.3f m over no ground\n",
            start.x, start.y, start.z, goal.x, goal.y, goal.z, i, stretches.size(), a.x, a.y, a.z,
            b.x, b.y, b.z, stretch.overNoGround);
      }
    }
    if (!(stretch.depth > 0.0f)) continue;
    ++totals.touching;
    if (stretch.depth > totals.deepest) {
      totals.deepest = stretch.depth;
      totals.deepestAt = stretch.deepestAt;
    }
    if (g_diagnose) {
      const glm::vec3 a = funnel.corners[i], b = funnel.corners[i + 1];
      std::printf(
          "    (%.3f %.3f %.3f) -> (%.3f %.3f %.3f): stretch %zu of %zu, (%.3f %.3f %.3f) "
          "-> (%.3f %.3f %.3f), %.4f m deep at (%.3f %.3f %.3f)\n",
          start.x, start.y, start.z, goal.x, goal.y, goal.z, i, stretches.size(), a.x, a.y, a.z,
          b.x, b.y, b.z, stretch.depth, stretch.deepestAt.x, stretch.deepestAt.y,
          stretch.deepestAt.z);
    }
  }
}

void print(const char* what, const Totals& t) {
  std::printf("  %-8s paths %6zu  stretches %7zu  touching %5zu  deepest %.4f m", what, t.paths,
              t.stretches, t.touching, t.deepest);
  if (t.touching > 0)
    std::printf(" at (%.2f %.2f %.2f)", t.deepestAt.x, t.deepestAt.y, t.deepestAt.z);
  std::printf("  over no ground %zu  corners %zu  length %.3f m\n", t.overNoGround, t.corners,
              t.length);
}

// Returns the number of stretches touching or over no ground.
size_t runCase(const nav::bench::CheckCase& c, nav::UnitShape shape, size_t pairs, uint32_t seed) {
  const auto started = std::chrono::steady_clock::now();
  bool failed = false;
  const std::unique_ptr<nav::bench::CheckBuild> check = nav::bench::buildCheck(c, shape, failed);
  if (!check) return failed ? 1 : 0;
  const nav::Level& level = check->level;
  const nav::CollisionWorld& world = *check->world;
  const nav::NavBuild& build = check->build;
  const nav::NavGraph& graph = build.graph;
  std::printf("%s, %s unit %.2f m: %zu sectors, %zu portals\n", c.label.c_str(),
              nav::toString(shape), check->unit.width, graph.sectors.size(), graph.portals.size());
  size_t flagged = 0;
  if (level.settings.start && level.settings.goal) {
    Totals first;
    solve(graph, world, *level.settings.start, *level.settings.goal, first);
    print("default", first);
    flagged += first.touching + first.overNoGround;
  }
  Totals random;
  const nav::CellGrid& cells = *build.cells;
  std::mt19937 draw(seed);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  // Anywhere on a cell's square, the half cell past a sector's last cells too.
  const float half = 0.5f * graph.cellSize;
  std::uniform_real_distribution<float> off(-half, half);
  const auto anywhere = [&] {
    return cells.center(pick(draw)) + glm::vec3(off(draw), 0.05f, off(draw));
  };
  for (size_t i = 0; i < pairs; ++i) {
    const glm::vec3 start = anywhere();
    const glm::vec3 goal = anywhere();
    solve(graph, world, start, goal, random);
  }
  print("random", random);
  std::printf("  %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return flagged + random.touching + random.overNoGround;
}

}  // namespace

int main(int argc, char** argv) {
  // --exact is this check's own; the rest are every check's.
  std::vector<char*> shared;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::string(argv[i]) == "--exact")
      g_exact = true;
    else
      shared.push_back(argv[i]);
  }
  nav::bench::CheckArgs defaults;
  defaults.pairs = 10000;
  defaults.seed = 20261122;
  const std::optional<nav::bench::CheckArgs> args =
      nav::bench::parseCheckArgs(int(shared.size()), shared.data(), defaults);
  if (!args) return 2;
  g_diagnose = args->diagnose;
  size_t flagged = 0;
  for (const nav::bench::CheckCase& c : nav::bench::checkCasesFor(*args)) {
    if (!args->only.empty() && c.label.find(args->only) == std::string::npos) continue;
    for (const nav::UnitShape shape : {nav::UnitShape::Box, nav::UnitShape::Round})
      flagged += runCase(c, shape, args->pairs, args->seed);
  }
  std::printf("stretches touching or over no ground: %zu\n", flagged);
  return flagged == 0 ? 0 : 1;
}
