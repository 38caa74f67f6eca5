// Does chooseGridAngle pick the grid the whole build makes the fewest sectors on?
//
// Its trial builds every candidate angle on cells three times as large; the
// truth is the build at the level's own cells. For each level (bench_checks.h:
// the bundled levels, dungeon.obj and generated terrains, with the bundled
// levels and dungeon.obj also turned 23 and -37 degrees) and each unit shape
// (box and round): the candidates (gridAngleCandidates), the choice and the
// time the trial took, and each candidate's whole build (sectors, time).
// Exits with 1 when a candidate other than the choice has fewer sectors.
//
// Run: build/core/navscope_check_grid_angle [--only TEXT] [--terrain SEED[:DEGREES]]...
//          [--level FILE[:DEGREES]]...
//          [--cell M] [--unit-width M] [--unit-height M] [--step M] [--drop M]
//          [--slope DEG] [--ledge-overhang M]
//   as navscope_check_exact takes them (no pair count: no paths are sought).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_checks.h"
#include "nav/collision.h"
#include "nav/grid_angle.h"
#include "nav/nav_build.h"

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Returns 1 when the choice is not the candidate with the fewest sectors (or
// anything fails), else 0.
int runCase(const nav::bench::CheckCase& c, nav::UnitShape shape) {
  nav::Result<nav::Level> level = nav::bench::benchLevel(c.label, c.path, c.terrainSeed, c.degrees);
  if (!level) {
    std::printf("%s: %s\n", c.label.c_str(), level.error().c_str());
    return 1;
  }
  const nav::FloodFillParams params =
      nav::bench::checkParams(c, level.value(), nav::bench::checkUnit(c, level.value(), shape));

  const std::vector<float> candidates = nav::gridAngleCandidates(level.value(), params);
  const auto trialStart = std::chrono::steady_clock::now();
  const nav::Result<float> chosen = nav::chooseGridAngle(level.value(), params);
  const double trialMs = millisecondsSince(trialStart);
  if (!chosen) {
    std::printf("%s, %s: %s\n", c.label.c_str(), nav::toString(shape), chosen.error().c_str());
    return 1;
  }
  std::printf("%-28s %-5s chose %7.2f deg, trial %6.1f ms; whole builds:", c.label.c_str(),
              nav::toString(shape), double(chosen.value()), trialMs);
  size_t chosenSectors = 0, fewest = SIZE_MAX;
  for (const float degrees : candidates.empty() ? std::vector<float>{0.0f} : candidates) {
    const nav::Result<nav::Level> turned = nav::levelOnGrid(level.value(), degrees);
    if (!turned) {
      std::printf(" %.2f: %s\n", double(degrees), turned.error().c_str());
      return 1;
    }
    nav::FloodFillParams onGrid = params;
    onGrid.seeds = turned.value().settings.seeds;
    onGrid.devices = turned.value().settings.devices;
    const auto buildStart = std::chrono::steady_clock::now();
    const nav::CollisionWorld world(turned.value());
    const nav::Result<nav::NavBuild> build = nav::buildNavigation(turned.value(), world, onGrid);
    const double buildMs = millisecondsSince(buildStart);
    if (!build) {
      std::printf(" %.2f: %s\n", double(degrees), build.error().c_str());
      return 1;
    }
    const size_t sectors = build.value().stats.sectors;
    std::printf("  %.2f deg %zu sectors %.0f ms", double(degrees), sectors, buildMs);
    fewest = std::min(fewest, sectors);
    if (degrees == chosen.value()) chosenSectors = sectors;
  }
  const bool best = chosenSectors == fewest;
  std::printf("%s\n", best ? "" : "  <- a candidate has fewer sectors than the choice");
  return best ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  nav::bench::CheckArgs defaults;
  const std::optional<nav::bench::CheckArgs> args =
      nav::bench::parseCheckArgs(argc, argv, defaults);
  if (!args) return 2;
  if (args->pairs != defaults.pairs || args->diagnose || args->gridAngle) {
    std::fprintf(stderr,
                 "navscope_check_grid_angle takes no pair count, --diagnose or --grid-angle\n");
    return 2;
  }
  std::vector<nav::bench::CheckCase> cases = nav::bench::checkCasesFor(*args);
  const size_t given = cases.size();
  for (size_t i = 0; i < given; ++i) {
    if (cases[i].terrainSeed != 0) continue;
    for (const float degrees : {23.0f, -37.0f}) {
      nav::bench::CheckCase turned = cases[i];
      turned.degrees = degrees;
      turned.label += " turned " + nav::bench::formatDegrees(degrees);
      cases.push_back(turned);
    }
  }
  int missed = 0;
  for (const nav::bench::CheckCase& c : cases) {
    if (!args->only.empty() && c.label.find(args->only) == std::string::npos) continue;
    if (!c.path.empty() && !std::filesystem::exists(c.path)) {
      std::printf("%s is absent: skipped\n", c.path.c_str());
      continue;
    }
    for (const nav::UnitShape shape : {nav::UnitShape::Box, nav::UnitShape::Round})
      missed += runCase(c, shape);
  }
  return missed > 0 ? 1 : 0;
}
