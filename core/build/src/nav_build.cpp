#include "nav/nav_build.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "nav/footprint_support.h"
#include "nav/grid_map.h"
#include "nav/portal_ends.h"
#include "portal_widening.h"

namespace nav {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// A grid map's level built at its own cell size for a unit no wider than its
// point-sized one (LevelSettings::freeTiles): the sectors' boxes are free.
bool tilesAreFree(const Level& level, const FloodFillParams& params) {
  return level.settings.freeTiles && level.settings.cellSize &&
         *level.settings.cellSize == effectiveCellSize(params) &&
         params.unit.footprint() <= gridUnit().footprint();
}

// Cells too wide for the unit leave the ground between their centres
// untested (cellsCoverSectors): paths then cross portals on the sectors'
// edges, half a cell past the cells the fill tested.
std::string cellsTooWideWarning(const UnitProfile& unit, float cellSize) {
  char text[320];
  std::snprintf(text, sizeof text,
                "cells of %.3f m are too wide for a %s unit %.3f m across (they must be "
                "narrower than %.3f m): the ground between cell centres is not tested, and "
                "paths may touch the level by up to half the unit's width; use --cell %.3f "
                "(half its width, the default) or less",
                double(cellSize), toString(unit.shape), double(unit.footprint()),
                double(widestCoveringCell(unit)), double(0.5f * unit.footprint()));
  return text;
}

// Levels are read as floats, whose step grows with the distance from the
// origin (7.8 mm at 65 km, 6 cm at 500 km): a level that far out keeps its
// vertices only that precisely, even once moved near the origin to be built
// (levelOnGrid). Past a tenth of a cell the cells change with it (dungeon.obj
// 1,000 km out: 437 sectors, 430 at the origin).
std::optional<std::string> coarseVerticesWarning(const Aabb& bounds, const GridFrame& frame,
                                                 float cellSize) {
  const glm::vec3 low = bounds.min + frame.offset, high = bounds.max + frame.offset;
  const float farthest = std::max({std::abs(low.x), std::abs(high.x), std::abs(low.y),
                                   std::abs(high.y), std::abs(low.z), std::abs(high.z)});
  const float step = std::nextafter(farthest, std::numeric_limits<float>::infinity()) - farthest;
  if (!(step > 0.1f * cellSize)) return std::nullopt;
  char text[320];
  std::snprintf(text, sizeof text,
                "the level lies up to %.0f m from the origin, where floats step by %.1f mm, over "
                "a tenth of the %.3f m cells: its vertices are read no more precisely, and its "
                "cells follow; move the level near the origin in its file",
                double(farthest), double(step) * 1000.0, double(cellSize));
  return text;
}

// Why a fill found no cell, from the faces it could stand on: a file whose
// floors are wound the other way (they face down, as ceilings do) is the
// usual cause, and the fix is one setting.
std::string noCellsWarning(const Level& level, const FloodFillParams& params) {
  const float slopeLimit = params.unit.maxSlopeDegrees;
  const FacingCounts faces = countFacings(level, slopeLimit);
  const auto count = [](size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  char slope[64];
  std::snprintf(slope, sizeof slope, "slopes up to %g degrees", double(slopeLimit));
  const std::string turnOver =
      level.settings.flipFaces
          ? "they were turned over by flipFaces (the sidecar's \"flipFaces\" or --flip-faces): "
            "leave it out"
          : "if the file's floors are wound that way, turn its faces over (the sidecar's "
            "\"flipFaces\": true, or --flip-faces)";
  const std::string facingDown = count(faces.down, "face") + " flat enough " +
                                 (faces.down == 1 ? "faces" : "face") +
                                 " down (wound clockwise seen from above, as the underside of "
                                 "a floor); " +
                                 turnOver;
  if (faces.up == 0 && faces.down == 0) {
    std::string text =
        "no cells: no face of the level is flat enough to stand on (" + std::string(slope) + ")";
    // A file written Z up (some exporters' default) has its floors upright.
    if (std::optional<std::string> zUp = writtenZUpWarning(level, slopeLimit)) text += "; " + *zUp;
    return text;
  }
  if (faces.up == 0)
    return "no cells: no face flat enough to stand on (" + std::string(slope) + ") faces up, and " +
           facingDown;
  if (countFacings(level, slopeLimit, walkableTrianglesFor(level, params)).up == 0)
    return "no cells: the " + count(faces.up, "face") +
           " flat enough that face up are all of surfaces the unit may not use";
  char unit[160];
  std::snprintf(unit, sizeof unit, "%s unit %.2f m across and %.2f m tall",
                toString(params.unit.shape), double(params.unit.footprint()),
                double(params.unit.height));
  std::string text = "no cells: the " + std::string(unit) + " stands nowhere the fill tried (" +
                     (params.seeds.empty() ? std::string("every face that faces up")
                                           : count(params.seeds.size(), "seed")) +
                     "): its footprint finds no ground to rest on whole, or its body meets the "
                     "level";
  // A file in kilometres, or read at a unit scale far too small, is smaller than the unit.
  const glm::vec3 extent = level.bounds.max - level.bounds.min;
  if (std::max(extent.x, extent.z) < params.unit.footprint()) {
    char spans[200];
    std::snprintf(spans, sizeof spans,
                  "; the whole level spans %.3g x %.3g m, less than the unit: navscope reads "
                  "metres unless the sidecar's \"unitScale\" or --unit-scale says otherwise",
                  double(extent.x), double(extent.z));
    text += spans;
  }
  if (faces.down > faces.up) text += "; " + facingDown;
  return text;
}

Result<NavBuild> buildOrFail(const Level& level, const CollisionWorld& world,
                             const FloodFillParams& params, const BuildOptions& options,
                             BuildControl* control) {
  const auto start = std::chrono::steady_clock::now();
  NavBuild build;

  if (control) {
    // Progress starts afresh: a build may follow another on the same control.
    control->stage = BuildStage::FloodFill;
    control->stageFraction = 0.0f;
    control->cellsFound = 0;
    control->estimatedCells = 0;
  }
  Result<GroundRaster> ground = buildGroundRaster(level, params, control);
  if (!ground) return Result<NavBuild>::failure(ground.error());
  Result<CellGrid> cells =
      floodFill(level, world, params, control, &build.stats.warnings, &ground.value());
  if (!cells) return Result<NavBuild>::failure(cells.error());
  build.stats.floodFillMs = millisecondsSince(start);
  build.stats.cells = cells.value().size();
  build.stats.cellBytes = cells.value().fillMemoryBytes();
  if (cells.value().size() == 0) {
    build.stats.warnings.push_back(noCellsWarning(level, params));
  } else if (std::optional<std::string> sideways =
                 writtenZUpWarning(level, params.unit.maxSlopeDegrees)) {
    build.stats.warnings.push_back(std::move(*sideways));
  }

  if (control) {
    if (control->cancelRequested) return Result<NavBuild>::failure("build cancelled");
    control->stage = BuildStage::Compress;
    control->stageFraction = 0.0f;
  }
  const auto compressStart = std::chrono::steady_clock::now();
  build.graph = compressCells(cells.value(), compressParamsFor(level, params),
                              options.keepCells ? &build.cellSectors : nullptr,
                              &build.stats.warnings, control);
  if (control && control->cancelRequested) return Result<NavBuild>::failure("build cancelled");
  const bool freeTiles = tilesAreFree(level, params);
  if (options.widenPortals && freeTiles) {
    spanSharedEdges(build.graph);
  } else if (options.widenPortals) {
    const std::optional<size_t> widened =
        widenPortals(build.graph, world, walkableTrianglesFor(level, params), &ground.value(),
                     params.threads, control);
    if (!widened) return Result<NavBuild>::failure("build cancelled");
    build.stats.widenedPortalEnds = *widened;
    // Both portals of a pair hold each end's reach.
    build.stats.reachingPortalEnds =
        size_t(std::count_if(build.graph.reach.begin(), build.graph.reach.end(),
                             [](const PortalEndReach& reach) { return reach.reaches(); })) /
        2;
  }
  if (!freeTiles && !cellsCoverSectors(params.unit, build.graph.cellSize))
    build.stats.warnings.push_back(cellsTooWideWarning(params.unit, build.graph.cellSize));
  if (const std::optional<std::string> coarse =
          coarseVerticesWarning(world.bounds(), level.gridFrame, build.graph.cellSize))
    build.stats.warnings.push_back(*coarse);
  build.stats.compressMs = millisecondsSince(compressStart);
  if (options.keepCells) {
    build.cells = std::move(cells).value();
    if (params.unit.ledgeOverhang > 0.0f) {
      UnitProfile whole = params.unit;
      whole.ledgeOverhang = 0.0f;
      const FootprintSupport support(ground.value(), whole);
      build.overhangingCells.resize(build.cells->size());
      for (uint32_t i = 0; i < build.cells->size(); ++i) {
        const glm::vec3 c = build.cells->center(i);
        build.overhangingCells[i] = !support.supported({c.x, c.z}, c.y);
      }
    }
  }

  build.graph.gridFrame = level.gridFrame;
  finishGraphIndexes(build.graph);
  build.stats.sectors = build.graph.sectors.size();
  build.stats.portals = build.graph.portals.size();
  build.stats.graphBytes = build.graph.memoryBytes();
  build.stats.totalMs = millisecondsSince(start);
  if (control) control->stage = BuildStage::Done;
  return Result<NavBuild>::success(std::move(build));
}

}  // namespace

FloodFillParams defaultFillParams(const Level& level) {
  FloodFillParams params;
  if (!level.settings.units.empty()) params.unit = level.settings.units.front();
  return fillParamsFor(level, params.unit);
}

FloodFillParams fillParamsFor(const Level& level, const UnitProfile& unit) {
  FloodFillParams params;
  params.unit = unit;
  if (level.settings.cellSize) params.cellSize = *level.settings.cellSize;
  params.seeds = level.settings.seeds;
  params.devices = level.settings.devices;
  const std::vector<SurfaceSpec> surfaces = surfaceTable(level.settings);
  const std::vector<uint16_t> surfaceOf =
      materialSurfaceIndices(level.settings, level.materials, surfaces);
  params.walkableMaterials.resize(level.materials.size());
  for (size_t m = 0; m < level.materials.size(); ++m)
    params.walkableMaterials[m] = surfaces[surfaceOf[m]].allows(unit.kind);
  return params;
}

CompressParams compressParamsFor(const Level& level, const FloodFillParams& params) {
  CompressParams compress;
  compress.unit = params.unit;
  compress.surfaces = surfaceTable(level.settings);
  compress.surfaceOfMaterial =
      materialSurfaceIndices(level.settings, level.materials, compress.surfaces);
  compress.devices = params.devices;
  compress.waypaths = level.settings.waypaths;
  compress.threads = params.threads;
  return compress;
}

Result<NavBuild> buildNavigation(const Level& level, const CollisionWorld& world,
                                 const FloodFillParams& params, const BuildOptions& options,
                                 BuildControl* control) {
  // Running out of memory is an error like any other, never an abort.
  try {
    return buildOrFail(level, world, params, options, control);
  } catch (const std::bad_alloc&) {
    return Result<NavBuild>::failure(
        "build: out of memory (raise the cell size or lower --max-cells)");
  }
}

}  // namespace nav
