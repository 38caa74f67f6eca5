// Is the exact search's path ever longer than the default search's?
//
// For each level (the bundled showcase and funnel levels with their own first
// unit, dungeon.obj from ../shared and generated terrains with the
// Detour-matched unit, two of them turned) and each unit shape (box and
// round): PAIRS seeded random pairs of cell centres, solved by planPath with
// the default search and with the exact one (SearchOptions::portalPoint),
// every surface at one cost a metre so that the exact search answers. Prints,
// per level and shape: the pairs both found, how many the exact path is
// longer on in the ground plane (what it minimises; beyond rounding), the
// worst excess with its pair, and both searches' total lengths. Exits with 1
// when the exact path is longer on any pair.
//
// Run: build/core/navscope_check_exact [PAIRS] [--seed N] [--only TEXT]
//   PAIRS random pairs per level and shape (default 2000); --only runs the
//   cases whose label holds TEXT.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <span>
#include <string>

#include "bench_levels.h"
#include "nav/collision.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"
#include "nav/search.h"

namespace {

struct Case {
  std::string label;
  /// A level file, or empty for the generated terrain of terrainSeed.
  std::string path;
  uint32_t terrainSeed = 0;
  /// Detour's matched unit (1.2 x 2.0 m, step 0.9) instead of the sidecar's first.
  bool detourUnit = false;
  /// The level turned about the vertical axis (rotatedAboutY). [degrees]
  float degrees = 0.0f;
};

double groundLength(std::span<const glm::vec3> corners) {
  double length = 0.0;
  for (size_t i = 1; i < corners.size(); ++i)
    length += glm::distance(nav::groundOf(corners[i - 1]), nav::groundOf(corners[i]));
  return length;
}

bool walksOnly(const nav::NavGraph& graph, const nav::Corridor& corridor) {
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    if (corridor.portal(graph, i).kind != nav::PortalKind::Walk) return false;
  }
  return true;
}

// Returns the number of pairs the exact path is longer on.
size_t runCase(const Case& c, nav::UnitShape shape, size_t pairs, uint32_t seed) {
  if (!c.path.empty() && !std::filesystem::exists(c.path)) {
    std::printf("%s is absent: skipped\n", c.path.c_str());
    return 0;
  }
  nav::Result<nav::Level> level = nav::bench::benchLevel(c.label, c.path, c.terrainSeed, c.degrees);
  if (!level) {
    std::fprintf(stderr, "%s\n", level.error().c_str());
    return 1;
  }
  const nav::CollisionWorld world(level.value());
  nav::UnitProfile unit = c.detourUnit ? nav::detourMatchedUnit()
                          : level.value().settings.units.empty()
                              ? nav::UnitProfile{}
                              : level.value().settings.units.front();
  unit.shape = shape;
  nav::FloodFillParams params = nav::fillParamsFor(level.value(), unit);
  if (c.detourUnit) params.cellSize = 0.3f;
  nav::BuildOptions options;
  options.keepCells = true;
  nav::Result<nav::NavBuild> built = nav::buildNavigation(level.value(), world, params, options);
  if (!built) {
    std::fprintf(stderr, "%s: %s\n", c.label.c_str(), built.error().c_str());
    return 1;
  }
  const nav::NavBuild& build = built.value();
  const nav::NavGraph& graph = build.graph;
  nav::SearchOptions byDefault;
  for (const nav::SurfaceSpec& surface : graph.surfaces)
    byDefault.filter.surfaceCosts[surface.name] = 1.0f;
  nav::SearchOptions exact = byDefault;
  exact.portalPoint = nav::PortalPoint::Exact;

  const nav::CellGrid& cells = *build.cells;
  std::mt19937 draw(seed);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  nav::PathAnswer a, x;
  size_t both = 0, ridden = 0, longer = 0;
  double worst = 0.0, defaultTotal = 0.0, exactTotal = 0.0;
  glm::vec3 worstStart{0.0f}, worstGoal{0.0f};
  for (size_t i = 0; i < pairs; ++i) {
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
    const double byDefaultLength = groundLength(a.funnel.corners);
    const double exactLength = groundLength(x.funnel.corners);
    defaultTotal += byDefaultLength;
    exactTotal += exactLength;
    // Beyond rounding: a part in 10^5, and a tenth of a millimetre.
    if (!(exactLength > byDefaultLength * 1.00001 + 1e-4)) continue;
    ++longer;
    const double excess = exactLength / byDefaultLength - 1.0;
    if (excess > worst) {
      worst = excess;
      worstStart = start;
      worstGoal = goal;
    }
  }
  std::printf(
      "%s, %s unit %.2f m: %zu pairs both walked (%zu ridden a device), exact longer on %zu",
      c.label.c_str(), nav::toString(shape), unit.width, both, ridden, longer);
  if (longer > 0) {
    std::printf(" (worst +%.3f %%: (%.3f %.3f %.3f) -> (%.3f %.3f %.3f))", 100.0 * worst,
                worstStart.x, worstStart.y, worstStart.z, worstGoal.x, worstGoal.y, worstGoal.z);
  }
  std::printf("; total %.1f m exact, %.1f m default\n", exactTotal, defaultTotal);
  return longer;
}

}  // namespace

int main(int argc, char** argv) {
  size_t pairs = 2000;
  uint32_t seed = 20261128;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (argv[i][0] != '-') {
      pairs = size_t(std::strtoul(argv[i], nullptr, 10));
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  const std::string assets = NAVSCOPE_ASSETS_DIR, shared = NAVSCOPE_SHARED_DIR;
  const Case cases[] = {
      {"showcase", assets + "/showcase.obj"},
      {"funnel", assets + "/funnel.obj"},
      {"dungeon", shared + "/meshes/dungeon.obj", 0, true},
      {"terrain 1", "", 1, true},
      {"terrain 2 turned 45", "", 2, true, 45.0f},
      {"terrain 3 turned 17", "", 3, true, 17.0f},
  };
  size_t longer = 0;
  for (const Case& c : cases) {
    if (!only.empty() && c.label.find(only) == std::string::npos) continue;
    for (const nav::UnitShape shape : {nav::UnitShape::Box, nav::UnitShape::Round})
      longer += runCase(c, shape, pairs, seed);
  }
  return longer > 0 ? 1 : 0;
}
