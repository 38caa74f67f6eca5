// navscope-cli: the core library without a window, for scripts and benchmarks.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

#include "cli_commands.h"
#include "nav/grid_map.h"
#include "nav/nav_file.h"

namespace {

// CLI11's Range and PositiveNumber let NaN through (it fails every comparison),
// and a value past float's range (1e39) parses to infinity: the search flags,
// which nothing checks after parsing, check this first.
const CLI::Validator kFinite(
    [](std::string& input) -> std::string {
      float value = 0.0f;
      // Text that is no number at all is left to the option's own conversion.
      if (!CLI::detail::lexical_cast(input, value) || std::isfinite(value)) return "";
      return "'" + input + "' is not a finite number";
    },
    "", "FINITE");

// CLI11 reads "-1" into a size_t as 2^64 - 1 (strtoull wraps it), which then
// passes any range check: a count must not start with a minus sign.
const CLI::Validator kNotNegative(
    [](std::string& input) -> std::string {
      const size_t first = input.find_first_not_of(" \t");
      if (first == std::string::npos || input[first] != '-') return "";
      return "'" + input + "' is below 1";
    },
    "", "COUNT");

// What is done to the level's file as it is read.
void addLevelTransformOptions(CLI::App& command, nav::cli::BuildFlags& flags) {
  command.add_flag("--flip-faces", flags.flipFaces,
                   "Turn every face over (reverse its winding), as the sidecar's flipFaces: for "
                   "files whose floors are wound clockwise seen from above, so face down");
  command
      .add_option("--up-axis", flags.upAxis,
                  "The file's up axis, as the sidecar's upAxis: y (the default) or z, for files "
                  "exported Z up (read as x, z, -y)")
      ->check(CLI::IsMember({"y", "z"}))
      ->type_name("y|z");
  command
      .add_option("--unit-scale", flags.unitScale,
                  "Metres one unit of the file measures, as the sidecar's unitScale (0.01 for "
                  "centimetres; default 1)")
      ->check(kFinite & CLI::Validator(
                            [](std::string& input) -> std::string {
                              float value = 0.0f;
                              if (!CLI::detail::lexical_cast(input, value) || value > 0.0f)
                                return "";
                              return "'" + input + "' is not above 0";
                            },
                            "", "POSITIVE"))
      ->type_name("M");
  command
      .add_option("--rotate-y", flags.rotateY,
                  "Turn the level DEG degrees about the vertical axis through its bounds' "
                  "centre (+X towards -Z) before anything else; --from, --to and --queries "
                  "are then in the turned level's coordinates, and so is the output")
      ->type_name("DEG");
}

// The build flags refuse NaN and infinities themselves, after parsing, with
// the allowed range (fillParams, validateUnitProfile, rotatedAboutY).
void addNavMeshOptions(CLI::App& command, nav::cli::NavMeshFlags& flags) {
  command.add_flag("--navmesh", flags.navmesh,
                   "The level's faces are a navigation mesh: walkable polygons (non-convex ones "
                   "cut into convex pieces), neighbours across shared edges; info also lists "
                   "T-junctions, non-manifold edges, steep and downward faces where they are");
  command
      .add_option("--weld", flags.weld,
                  "With --navmesh: corners closer than M metres are one (default 0.001)")
      ->type_name("M");
  command
      .add_option("--max-slope", flags.maxSlopeDegrees,
                  "With --navmesh: faces steeper than DEG are reported (default 90)")
      ->type_name("DEG");
  command.add_flag("--exclude-steep", flags.excludeSteep,
                   "With --navmesh: leave the steep faces out");
}

void addBuildOptions(CLI::App& command, nav::cli::BuildFlags& flags) {
  command.add_option("--cell", flags.cellSize,
                     "Cell size [m] (default: the level's, else half the unit width; for a grid "
                     "map (.map) 1 / an odd number, default 1/3)");
  command.add_option("--unit", flags.unitName,
                     "Build for this unit profile of the level's sidecar");
  command.add_option("--unit-kind", flags.unitKind, "human or vehicle");
  command.add_option("--unit-shape", flags.unitShape,
                     "box (a square footprint) or round (an upright cylinder, as Detour's agents)");
  command.add_option("--unit-width", flags.unitWidth,
                     "Unit footprint side, or a round unit's diameter (a vehicle's width) [m]");
  command.add_option("--unit-length", flags.unitLength, "A vehicle's length [m]");
  command.add_option("--unit-height", flags.unitHeight, "Unit height [m]");
  command.add_option("--step", flags.stepHeight, "Max step up [m]");
  command.add_option("--drop", flags.maxDrop, "Max drop down [m]");
  command.add_option("--slope", flags.maxSlopeDegrees, "Max walkable slope [degrees]");
  command.add_option("--ledge-overhang", flags.ledgeOverhang,
                     "How far the unit's footprint may hang over a ledge [m] (default 0: the "
                     "whole footprint stands on ground)");
  command
      .add_option("--max-cells", flags.maxCells,
                  "Refuse a level estimated past this many cells, and stop the fill there "
                  "(default 20000000)")
      ->check(kNotNegative & CLI::Range(size_t(1), std::numeric_limits<size_t>::max()));
  command
      .add_option(
          "--threads", flags.threads,
          "Threads for the fill and portal widening, 1 to 64 (default: every core of the machine; "
          "the output is the same for any count)")
      ->check(CLI::Range(1, nav::kMaxFillThreads));
  command
      .add_option("--grid-angle", flags.gridAngle,
                  "Turn the cell grid DEG degrees (-45 to 45, +X towards -Z) to run along the "
                  "level's walls, or auto (the default unless the sidecar gives gridAngle): "
                  "the file's own axes unless another direction of straight edges is stronger "
                  "and its trial build gives fewer sectors. Points in and out stay in the "
                  "level file's coordinates")
      ->type_name("DEG|auto");
  addLevelTransformOptions(command, flags);
  addNavMeshOptions(command, flags.navmesh);
}

// How the path is searched and the filter: the options `query` and `scen` share.
void addSearchOptions(CLI::App& command, nav::cli::SearchFlags& flags) {
  // By name: CLI11 prints an enum map's values (uint8_t) as raw characters.
  std::vector<std::string> searchNames;
  for (nav::PortalPoint point : nav::kPortalPoints)
    searchNames.push_back(nav::toString(point));
  command
      .add_option("--search", flags.search,
                  "How the search costs a step: centroid (between sectors' centroids, the "
                  "classic triangle A*), midpoint, crossing (default: where the line "
                  "towards the goal crosses it) or exact (the shortest string-pulled path over "
                  "every corridor); the output's \"search\" says which answered")
      ->transform(CLI::IsMember(searchNames, CLI::ignore_case))
      ->type_name("MODE");
  command.add_flag("--regions", flags.regions,
                   "Search the level's search regions first: fewer expansions on levels of thin "
                   "sectors, but the path may be longer than the sector search's; not the "
                   "default");
  command.add_option("--key", flags.keys, "A key the unit holds (repeat for more)");
  command.add_option("--surface-cost", flags.surfaceCosts,
                     "NAME=COST: cost per metre on a surface (a finite COST > 0)");
  command.add_option("--exclude", flags.excludedSurfaces, "A surface the path may not enter");
  command.add_option("--waypath-bias", flags.waypathBias, "Cost per metre along waypaths")
      ->check(kFinite)
      ->check(CLI::PositiveNumber);
  command.add_option("--heuristic-scale", flags.heuristicScale, "A* heuristic scale")
      ->check(kFinite)
      ->check(CLI::Range(0.0, 10.0));
  command
      .add_option("--turning-radius", flags.turningRadius,
                  "Tightest turn the unit makes [m] (default: the unit's; 0 turns on the spot)")
      ->check(kFinite)
      ->check(CLI::Range(0.0, 1000.0));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"navscope-cli: build and query navigation for polygon-soup levels"};
  app.require_subcommand(1);

  std::string levelPath;
  nav::cli::BuildFlags flags;

  CLI::App* info = app.add_subcommand("info", "Print what a level or .nav file contains");
  info->add_option("level", levelPath, "Level (.obj, .gltf, .glb, .fbx) or navigation file (.nav)")
      ->required();
  addLevelTransformOptions(*info, flags);
  addNavMeshOptions(*info, flags.navmesh);

  std::string outputPath;
  CLI::App* build = app.add_subcommand("build", "Build navigation and print its figures as JSON");
  build->add_option("level", levelPath, "Level (.obj, .gltf, .glb, .fbx)")->required();
  addBuildOptions(*build, flags);
  std::string cellsPath;
  build->add_option("--cells-out", cellsPath,
                    "Write every cell's centre at the unit's feet to FILE, one 'x y z' line each");
  build->add_option("-o,--output", outputPath,
                    "Write the graph to FILE: binary when FILE ends in .nav, else JSON");

  std::string fromText, toText;
  nav::cli::QueryFlags query;
  CLI::App* queryCommand =
      app.add_subcommand("query", "Find paths; prints one JSON object per query");
  queryCommand
      ->add_option("level", levelPath,
                   "Level (.obj, .gltf, .glb, .fbx), Moving AI grid map (.map: tile (x, y) is the "
                   "square from "
                   "(x, 0, y) to (x + 1, 0, y + 1), its centre at (x + 0.5, 0, y + 0.5)) or "
                   "navigation file (.nav)")
      ->required();
  // Remembered to refuse them with a .nav file, whose graph is already built,
  // and (but --cell) with a .map, built for the grid unit.
  const size_t firstBuildOption = queryCommand->get_options().size();
  addBuildOptions(*queryCommand, flags);
  const size_t endBuildOptions = queryCommand->get_options().size();
  CLI::Option* from = queryCommand->add_option("--from", fromText, "Start point X,Y,Z");
  CLI::Option* to = queryCommand->add_option("--to", toText, "Goal point X,Y,Z");
  addSearchOptions(*queryCommand, query.search);
  queryCommand
      ->add_option("--repeat", query.repeat,
                   "Run each query N times: \"us\" is the best time, \"median_us\" the median")
      ->type_name("N")
      ->check(CLI::Range(1, nav::cli::kMaxRepeat));
  CLI::Option* queries =
      queryCommand->add_option("--queries", query.queriesPath,
                               "File with one 'sx sy sz gx gy gz' per line ('#' comments; a "
                               "regular file of at most 64 MiB and 1000000 queries)");
  from->needs(to);
  to->needs(from);
  queries->excludes(from)->excludes(to);

  nav::cli::CityFlags city;
  CLI::App* generate = app.add_subcommand("generate", "Write a procedural level");
  generate->require_subcommand(1);
  CLI::App* cityCommand =
      generate->add_subcommand("city",
                               "Streets, buildings with floors and stairs, bridges: writes "
                               "FILE.obj (or .glb) and FILE.json");
  cityCommand
      ->add_option("--target-cells", city.targetCells,
                   "Cells a build should find (1000 to 200000000)")
      ->required();
  cityCommand->add_option("--seed", city.seed, "Random seed: the same seed writes the same files");
  cityCommand->add_option("-o,--output", city.outputPath, "Level to write (FILE.obj or FILE.glb)")
      ->required();

  nav::cli::TerrainFlags terrain;
  CLI::App* terrainCommand = generate->add_subcommand(
      "terrain",
      "Hills with ramps, stairs, walls at any angle, a bridge, a cave and holes, sized for the "
      "Detour-matched unit (1.2 x 2 m, step 0.9): writes FILE.obj (or .glb) and FILE.json");
  terrainCommand
      ->add_option("--seed", terrain.seed, "Random seed: the same seed writes the same files")
      ->required();
  terrainCommand->add_option("--size", terrain.size,
                             "Side of the square level [m] (default 64; about 62 to 2048)");
  terrainCommand
      ->add_option("-o,--output", terrain.outputPath, "Level to write (FILE.obj or FILE.glb)")
      ->required();

  nav::cli::ScenFlags scenFlags;
  CLI::App* scen = app.add_subcommand(
      "scen", "Run a Moving AI .scen file: path lengths against the optimal 8-connected ones");
  scen->add_option("scenarios", scenFlags.scenPath, "Scenarios (.scen)")->required();
  scen->add_option("--map", scenFlags.mapPath,
                   "Grid map (.map); default: the one the .scen names, beside it");
  scen->add_option("--limit", scenFlags.limit, "Run only the first N scenarios")
      ->check(kNotNegative & CLI::Range(size_t(1), std::numeric_limits<size_t>::max()));
  // gridMapLevel refuses a NaN or infinite cell size, naming it.
  scen->add_option("--cell", scenFlags.cellSize, "Cell size [m]: 1 / an odd number (default 1/3)");
  addSearchOptions(*scen, scenFlags.search);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  // An option given an empty value ("--cell ''", from a script's unset
  // variable) would leave its setting at the default unseen.
  std::vector<const CLI::App*> commands;
  for (const CLI::App* command : app.get_subcommands()) {
    commands.push_back(command);
    for (const CLI::App* inner : command->get_subcommands())
      commands.push_back(inner);
  }
  for (const CLI::App* command : commands) {
    for (const CLI::Option* option : command->get_options()) {
      if (option->get_expected_min() == 0) continue;
      const std::vector<std::string>& given = option->results();
      if (std::find(given.begin(), given.end(), "") == given.end()) continue;
      std::cerr << "navscope-cli " << command->get_name() << ": " << option->get_name()
                << ": an empty value\n";
      return 2;
    }
  }
  if (const std::string refused = nav::cli::refuseRotatedNav(levelPath, flags); !refused.empty()) {
    std::cerr << "navscope-cli " << app.get_subcommands().front()->get_name() << ": " << refused
              << "\n";
    return 2;
  }
  if (*info) return nav::cli::runInfo(levelPath, flags);
  if (*build) return nav::cli::runBuild(levelPath, flags, outputPath, cellsPath);
  if (*cityCommand) return nav::cli::runGenerateCity(city);
  if (*terrainCommand) return nav::cli::runGenerateTerrain(terrain);
  if (*scen) return nav::cli::runScen(scenFlags);
  const bool navFile = nav::isNavFilePath(levelPath);
  if (navFile || nav::isGridMapPath(levelPath)) {
    const auto options = queryCommand->get_options();
    for (size_t i = firstBuildOption; i < endBuildOptions; ++i) {
      if (options[i]->count() == 0 || (!navFile && options[i]->check_name("--cell"))) continue;
      std::cerr << "navscope-cli query: " << options[i]->get_name()
                << (navFile ? ": a .nav file fixes the build settings; build options need a "
                              "level (.obj)\n"
                            : ": a grid map (.map) is built for the point-sized grid unit, as "
                              "scen builds it; of the build options only --cell applies\n");
      return 2;
    }
  }
  if (query.queriesPath.empty() && fromText.empty()) {
    std::cerr << "navscope-cli query: give --from and --to, or --queries FILE\n";
    return 2;
  }
  std::string error;
  if (!fromText.empty()) {
    query.from = nav::cli::parsePoint(fromText, "--from", error);
    if (query.from) query.to = nav::cli::parsePoint(toText, "--to", error);
    if (!query.from || !query.to) {
      std::cerr << "navscope-cli query: " << error << "\n";
      return 2;
    }
  }
  return nav::cli::runQuery(levelPath, flags, query);
}
