#pragma once
// What the check programs (navscope_check_clearance, navscope_check_exact)
// share: their levels, each built for a unit shape, and their command line.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_levels.h"
#include "nav/collision.h"
#include "nav/grid_angle.h"
#include "nav/nav_build.h"

namespace nav::bench {

struct CheckCase {
  std::string label;
  /// A level file, or empty for the generated terrain of terrainSeed.
  std::string path;
  uint32_t terrainSeed = 0;
  /// Detour's matched unit (1.2 x 2.0 m, step 0.9, cells 0.3 m), or the one
  /// the check sweeps (matchedUnit), instead of the sidecar's first.
  bool detourUnit = false;
  /// The level turned about the vertical axis (rotatedAboutY). [degrees]
  float degrees = 0.0f;
  /// The grid it is built on (GridFrame::degrees); empty: chooseGridAngle's, as the CLI's.
  std::optional<float> gridAngle = std::nullopt;
  /// Detour's unit's cells, 0.3 m unless a check sweeps other cell-to-unit ratios. [m]
  float detourCellSize = 0.3f;
  /// The unit built where detourUnit is set: Detour's unless a check sweeps other units.
  UnitProfile matchedUnit = detourMatchedUnit();
};

/// The bundled showcase and funnel levels with their own first unit,
/// dungeon.obj from ../shared and generated terrains with Detour's unit (by
/// default seeds 1 to 3, two of them turned).
inline std::vector<CheckCase> checkCases(const std::string& assets, const std::string& shared,
                                         const std::vector<TerrainCase>& terrains = {
                                             {1}, {2, 45.0f}, {3, 17.0f}}) {
  std::vector<CheckCase> cases = {
      {"showcase", assets + "/showcase.obj"},
      {"funnel", assets + "/funnel.obj"},
      {"dungeon", shared + "/meshes/dungeon.obj", 0, true},
  };
  for (const TerrainCase& t : terrains) {
    std::string label = "terrain " + std::to_string(t.seed);
    if (t.degrees != 0.0f) label += " turned " + formatDegrees(t.degrees);
    cases.push_back({label, "", t.seed, true, t.degrees});
  }
  return cases;
}

/// The unit a case builds for `shape`: Detour's matched one, or the level's first.
inline UnitProfile checkUnit(const CheckCase& c, const Level& level, UnitShape shape) {
  const std::vector<UnitProfile>& units = level.settings.units;
  UnitProfile unit = c.detourUnit ? c.matchedUnit : units.empty() ? UnitProfile{} : units.front();
  unit.shape = shape;
  return unit;
}

/// The fill parameters for the case's unit on `on` (its level, or the level
/// on a grid): the case's cells for Detour's unit, else the sidecar's.
inline FloodFillParams checkParams(const CheckCase& c, const Level& on, const UnitProfile& unit) {
  FloodFillParams params = fillParamsFor(on, unit);
  if (c.detourUnit) params.cellSize = c.detourCellSize;
  return params;
}

/// A case's level, its collision world and its build (cells kept).
struct CheckBuild {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  UnitProfile unit;
  NavBuild build;
};

/// Builds the case for a unit of `shape`. Null, with a line printed, when its
/// file is absent (skipped) or it cannot be built (`failed` set).
inline std::unique_ptr<CheckBuild> buildCheck(const CheckCase& c, UnitShape shape, bool& failed) {
  failed = false;
  if (!c.path.empty() && !std::filesystem::exists(c.path)) {
    std::printf("%s is absent: skipped\n", c.path.c_str());
    return nullptr;
  }
  Result<Level> level = benchLevel(c.label, c.path, c.terrainSeed, c.degrees);
  if (!level) {
    std::fprintf(stderr, "%s\n", level.error().c_str());
    failed = true;
    return nullptr;
  }
  auto check = std::make_unique<CheckBuild>();
  check->unit = checkUnit(c, level.value(), shape);
  Result<Level> onGrid =
      levelOnChosenGrid(level.value(), c.gridAngle, checkParams(c, level.value(), check->unit));
  if (!onGrid) {
    std::fprintf(stderr, "%s: %s\n", c.label.c_str(), onGrid.error().c_str());
    failed = true;
    return nullptr;
  }
  check->level = std::move(onGrid).value();
  check->world = std::make_unique<CollisionWorld>(check->level);
  const FloodFillParams params = checkParams(c, check->level, check->unit);
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> built = buildNavigation(check->level, *check->world, params, options);
  if (!built) {
    std::fprintf(stderr, "%s: %s\n", c.label.c_str(), built.error().c_str());
    failed = true;
    return nullptr;
  }
  check->build = std::move(built).value();
  return check;
}

struct CheckArgs {
  size_t pairs = 0;
  uint32_t seed = 0;
  /// Only the cases whose label holds this (--only TEXT).
  std::string only;
  /// Print each pair that fails the check (--diagnose).
  bool diagnose = false;
  /// The generated terrains (--terrain SEED[:DEGREES], repeated); empty: checkCases' own.
  std::vector<TerrainCase> terrains;
  /// More level files, built for Detour's unit as dungeon.obj is (--level FILE[:DEGREES]).
  std::vector<LevelCase> levels;
  /// --grid-angle DEG: every level built on this grid; empty (auto): the one chosen for it.
  std::optional<float> gridAngle = std::nullopt;
  /// --cell M: the cells of the levels built for Detour's unit (dungeon, terrains).
  float detourCellSize = 0.3f;
  /// --unit-width, --unit-height, --step, --drop, --slope, --ledge-overhang:
  /// the unit built for dungeon and the terrains instead of Detour's (its
  /// other figures kept).
  UnitProfile matchedUnit = detourMatchedUnit();
};

/// A number in [least, most] from flag's argument; empty, with the flag and
/// the `unit` ("metres") named, otherwise.
inline std::optional<float> parseBounded(const char* flag, const char* text, float least,
                                         float most, const char* unit) {
  char* end = nullptr;
  const float value = std::strtof(text, &end);
  if (end == text || *end != '\0' || !(value >= least && value <= most)) {
    std::fprintf(stderr, "%s: expected %s from %g to %g, got %s\n", flag, unit, double(least),
                 double(most), text);
    return std::nullopt;
  }
  return value;
}

/// [PAIRS] [--seed N] [--only TEXT] [--terrain SEED[:DEGREES]]... [--level FILE[:DEGREES]]...
/// [--grid-angle DEG|auto]
/// [--cell M] [--unit-width M] [--unit-height M] [--step M] [--drop M] [--slope DEG]
/// [--ledge-overhang M] [--diagnose] over `defaults`; empty, with the flag
/// named, on anything else (the build names a unit it refuses).
inline std::optional<CheckArgs> parseCheckArgs(int argc, char** argv, CheckArgs defaults) {
  CheckArgs args = defaults;
  struct NumberFlag {
    const char* name;
    float* value;
    float least, most;
    const char* unit;
  };
  const NumberFlag numberFlags[] = {
      {"--cell", &args.detourCellSize, 0.05f, 1.2f, "metres"},
      {"--unit-width", &args.matchedUnit.width, 0.1f, 4.0f, "metres"},
      {"--unit-height", &args.matchedUnit.height, 0.1f, 10.0f, "metres"},
      {"--step", &args.matchedUnit.stepHeight, 0.0f, 2.0f, "metres"},
      {"--drop", &args.matchedUnit.maxDrop, 0.0f, 20.0f, "metres"},
      {"--slope", &args.matchedUnit.maxSlopeDegrees, 0.0f, 89.0f, "degrees"},
      {"--ledge-overhang", &args.matchedUnit.ledgeOverhang, 0.0f, 2.0f, "metres"},
  };
  for (int i = 1; i < argc; ++i) {
    const NumberFlag* numberFlag =
        std::find_if(std::begin(numberFlags), std::end(numberFlags),
                     [&](const NumberFlag& flag) { return std::strcmp(argv[i], flag.name) == 0; });
    if (numberFlag != std::end(numberFlags) && i + 1 < argc) {
      const std::optional<float> number =
          parseBounded(argv[i], argv[i + 1], numberFlag->least, numberFlag->most, numberFlag->unit);
      if (!number) return std::nullopt;
      *numberFlag->value = *number;
      ++i;
      continue;
    }
    if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      args.seed = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      args.only = argv[++i];
    } else if (std::strcmp(argv[i], "--terrain") == 0 && i + 1 < argc) {
      const std::optional<TerrainCase> terrain = parseTerrainCase(argv[++i]);
      if (!terrain) {
        std::fprintf(stderr, "--terrain: expected SEED or SEED:DEGREES (seed 1 or more), got %s\n",
                     argv[i]);
        return std::nullopt;
      }
      args.terrains.push_back(*terrain);
    } else if (std::strcmp(argv[i], "--level") == 0 && i + 1 < argc) {
      const std::optional<LevelCase> level = parseLevelCase(argv[++i]);
      if (!level) {
        std::fprintf(stderr, "--level: expected FILE or FILE:DEGREES, got %s\n", argv[i]);
        return std::nullopt;
      }
      args.levels.push_back(*level);
    } else if (std::strcmp(argv[i], "--grid-angle") == 0 && i + 1 < argc) {
      const Result<std::optional<float>> given = parseGridAngle(argv[++i]);
      if (!given) {
        std::fprintf(stderr, "--grid-angle %s\n", given.error().c_str());
        return std::nullopt;
      }
      args.gridAngle = given.value();
    } else if (std::strcmp(argv[i], "--diagnose") == 0) {
      args.diagnose = true;
    } else if (argv[i][0] != '-') {
      args.pairs = size_t(std::strtoul(argv[i], nullptr, 10));
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return std::nullopt;
    }
  }
  return args;
}

/// The cases to check: checkCases with the terrains --terrain named, if any,
/// and the files --level named, labelled by their name (and turn).
inline std::vector<CheckCase> checkCasesFor(const CheckArgs& args) {
  std::vector<CheckCase> cases =
      args.terrains.empty() ? checkCases(NAVSCOPE_ASSETS_DIR, NAVSCOPE_SHARED_DIR)
                            : checkCases(NAVSCOPE_ASSETS_DIR, NAVSCOPE_SHARED_DIR, args.terrains);
  for (const LevelCase& level : args.levels) {
    std::string label = std::filesystem::path(level.path).filename().string();
    if (level.degrees != 0.0f) label += " turned " + formatDegrees(level.degrees);
    cases.push_back({label, level.path, 0, true, level.degrees});
  }
  for (CheckCase& c : cases) {
    c.gridAngle = args.gridAngle;
    c.detourCellSize = args.detourCellSize;
    c.matchedUnit = args.matchedUnit;
  }
  return cases;
}

}  // namespace nav::bench
