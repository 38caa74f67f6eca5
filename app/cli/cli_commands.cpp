#include "cli_commands.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "nav/city_generator.h"
#include "nav/collision.h"
#include "nav/file_reading.h"
#include "nav/funnel.h"
#include "nav/grid_angle.h"
#include "nav/grid_map.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/navmesh_faces.h"
#include "nav/navmesh_graph.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/query_pairs.h"
#include "nav/scene_export.h"
#include "nav/search.h"
#include "nav/terrain_generator.h"

namespace nav::cli {
namespace {

// Names from level files may be any bytes: dump() replaces invalid UTF-8 instead of throwing.
using Json = nlohmann::ordered_json;

// Four decimals: millimetres are plenty, and the JSON stays readable.
double rounded(double v) {
  return std::round(v * 1e4) / 1e4;
}

Json pointJson(const glm::vec3& p) {
  return Json::array({rounded(p.x), rounded(p.y), rounded(p.z)});
}

Json unitJson(const UnitProfile& unit) {
  return Json{{"name", unit.name},
              {"kind", toString(unit.kind)},
              {"shape", toString(unit.shape)},
              {"width", rounded(unit.width)},
              {"length", rounded(unit.length)},
              {"footprint", rounded(unit.footprint())},
              {"height", rounded(unit.height)},
              {"step", rounded(unit.stepHeight)},
              {"drop", rounded(unit.maxDrop)},
              {"slope", rounded(unit.maxSlopeDegrees)},
              {"ledge_overhang", rounded(unit.ledgeOverhang)}};
}

// A number as a message shows it: "0.3", "nan", "1e+09".
std::string numberText(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(value));
  return text;
}

int fail(const std::string& command, const std::string& message, int code) {
  std::cerr << "navscope-cli " << command << ": " << message << "\n";
  return code;
}

// A unit profile's error (validateUnitProfile: "width = ... is out of range")
// with the flag that set the parameter in place of its name, or the sidecar's
// unit named when no flag set it.
std::string unitError(const std::string& error, const BuildFlags& flags,
                      const std::string& unitName) {
  struct Named {
    const char* parameter;
    const char* flag;
    bool given;
  };
  const Named names[] = {{"width", "--unit-width", flags.unitWidth.has_value()},
                         {"length", "--unit-length", flags.unitLength.has_value()},
                         {"height", "--unit-height", flags.unitHeight.has_value()},
                         {"stepHeight", "--step", flags.stepHeight.has_value()},
                         {"maxDrop", "--drop", flags.maxDrop.has_value()},
                         {"maxSlopeDegrees", "--slope", flags.maxSlopeDegrees.has_value()},
                         {"ledgeOverhang", "--ledge-overhang", flags.ledgeOverhang.has_value()}};
  for (const Named& name : names) {
    const std::string prefix = std::string(name.parameter) + " = ";
    if (error.rfind(prefix, 0) != 0) continue;
    if (name.given) return std::string(name.flag) + " " + error.substr(prefix.size());
  }
  return "unit '" + unitName + "' (the level's sidecar, or the default): " + error;
}

// The named (or first) unit profile of the level with the flags' changes.
// Every error names the flag (or the sidecar's value) at fault.
Result<UnitProfile> unitFor(const Level& level, const BuildFlags& flags) {
  UnitProfile unit = defaultFillParams(level).unit;
  if (!flags.unitName.empty()) {
    const auto named = std::find_if(level.settings.units.begin(), level.settings.units.end(),
                                    [&](const UnitProfile& u) { return u.name == flags.unitName; });
    if (named == level.settings.units.end()) {
      return Result<UnitProfile>::failure("--unit '" + flags.unitName +
                                          "': the level's sidecar has no such unit profile");
    }
    unit = *named;
  }
  if (flags.unitKind == "human" || flags.unitKind == "vehicle") {
    unit.kind = flags.unitKind == "human" ? UnitKind::Human : UnitKind::Vehicle;
  } else if (!flags.unitKind.empty()) {
    return Result<UnitProfile>::failure("--unit-kind '" + flags.unitKind +
                                        "': expected human or vehicle");
  }
  if (flags.unitShape == "box" || flags.unitShape == "round") {
    unit.shape = flags.unitShape == "box" ? UnitShape::Box : UnitShape::Round;
  } else if (!flags.unitShape.empty()) {
    return Result<UnitProfile>::failure("--unit-shape '" + flags.unitShape +
                                        "': expected box or round");
  }
  if (flags.unitWidth) unit.width = *flags.unitWidth;
  if (flags.unitLength) unit.length = *flags.unitLength;
  if (flags.unitHeight) unit.height = *flags.unitHeight;
  if (flags.stepHeight) unit.stepHeight = *flags.stepHeight;
  if (flags.maxDrop) unit.maxDrop = *flags.maxDrop;
  if (flags.maxSlopeDegrees) unit.maxSlopeDegrees = *flags.maxSlopeDegrees;
  if (flags.ledgeOverhang) unit.ledgeOverhang = *flags.ledgeOverhang;
  if (const Result<UnitProfile> valid = validateUnitProfile(unit); !valid)
    return Result<UnitProfile>::failure(unitError(valid.error(), flags, unit.name));
  return Result<UnitProfile>::success(unit);
}

// The fill's parameters: unitFor's unit, then the level's surfaces and devices
// for that unit. Every error names the flag (or the sidecar's value) at fault.
Result<FloodFillParams> fillParams(const Level& level, const BuildFlags& flags) {
  Result<UnitProfile> found = unitFor(level, flags);
  if (!found) return Result<FloodFillParams>::failure(found.error());
  const UnitProfile unit = found.value();
  // 0 would mean "half the unit's width" to the core: on the command line it is a mistake.
  if (flags.cellSize && !(*flags.cellSize > 0.0f && std::isfinite(*flags.cellSize))) {
    return Result<FloodFillParams>::failure("--cell " + numberText(*flags.cellSize) +
                                            ": the cell size must be a positive number of metres");
  }
  FloodFillParams params = fillParamsFor(level, unit);
  if (flags.cellSize) params.cellSize = *flags.cellSize;
  if (flags.maxCells) params.maxCells = *flags.maxCells;
  params.threads = flags.threads.value_or(machineFillThreads());
  if (flags.cellSize &&
      !(params.cellSize >= unit.footprint() / 64.0f && params.cellSize <= 100.0f)) {
    return Result<FloodFillParams>::failure("--cell " + numberText(params.cellSize) +
                                            ": out of range, from the unit's footprint / 64 (" +
                                            numberText(unit.footprint() / 64.0f) +
                                            ") to 100 metres");
  }
  if (std::optional<std::string> error = fillParamsError(level, params))
    return Result<FloodFillParams>::failure(*error);
  return Result<FloodFillParams>::success(std::move(params));
}

// The level at `path`, read as --up-axis and --unit-scale say, its faces turned
// over when --flip-faces asks and turned when --rotate-y does.
Result<Level> loadTurned(const std::string& path, const BuildFlags& flags) {
  LevelReading reading;
  if (flags.flipFaces) reading.flipFaces = true;
  if (flags.upAxis) reading.upAxis = *flags.upAxis == "z" ? UpAxis::Z : UpAxis::Y;
  reading.unitScale = flags.unitScale;
  Result<Level> level = loadLevel(path, {}, reading);
  if (!level || !flags.rotateY) return level;
  Result<Level> turned = rotatedAboutY(level.value(), *flags.rotateY);
  if (!turned) return Result<Level>::failure("--rotate-y: " + turned.error());
  return turned;
}

// "" unless `path` is a FIFO no process reads: writing to it would wait for
// ever (opened without blocking, it says so: ENXIO). One a reader holds
// open, a script's pipe, is written as any file; the end opened to find out
// stays open until the program ends, as closing it would end the reader's
// file before anything is written.
std::string unreadFifo(const std::string& flag, const std::string& path) {
  struct stat status {};
  if (path.empty() || ::stat(path.c_str(), &status) != 0 || !S_ISFIFO(status.st_mode)) return "";
  if (::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC) >= 0) return "";
  return flag + " " + path + ": a FIFO (named pipe) no process reads; writing would wait for ever";
}

// Every cell's centre at the unit's feet in the level file's coordinates, one
// "x y z" line each (millimetres);
// the message names the file when it cannot be written.
std::optional<std::string> writeCells(const std::string& path, const CellGrid& cells,
                                      const GridFrame& frame) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return "--cells-out " + path + ": cannot be written";
  char line[96];
  for (uint32_t i = 0; i < cells.size(); ++i) {
    const glm::vec3 c = frame.toFile(cells.center(i));
    const int n =
        std::snprintf(line, sizeof line, "%.3f %.3f %.3f\n", double(c.x), double(c.y), double(c.z));
    out.write(line, n);
  }
  out.close();
  if (!out) return "--cells-out " + path + ": writing failed";
  return std::nullopt;
}

/// The most issues listed one by one; the counts cover them all.
constexpr size_t kListedIssues = 1000;

// The --navmesh options' values, or the message naming the flag that is off.
std::string navMeshParams(const NavMeshFlags& flags, NavMeshFacesParams& params) {
  if (!flags.navmesh) {
    if (flags.weld) return "--weld needs --navmesh";
    if (flags.maxSlopeDegrees) return "--max-slope needs --navmesh";
    if (flags.excludeSteep) return "--exclude-steep needs --navmesh";
    return {};
  }
  if (flags.weld) {
    if (!(*flags.weld >= 0.0f && *flags.weld <= 1.0f))
      return "--weld: expected metres from 0 to 1, got " + numberText(*flags.weld);
    params.weldTolerance = *flags.weld;
  }
  if (flags.maxSlopeDegrees) {
    if (!(*flags.maxSlopeDegrees >= 0.0f && *flags.maxSlopeDegrees <= 90.0f))
      return "--max-slope: expected degrees from 0 to 90, got " +
             numberText(*flags.maxSlopeDegrees);
    params.maxSlopeDegrees = *flags.maxSlopeDegrees;
  }
  params.excludeSteep = flags.excludeSteep;
  return {};
}

// A loaded level with its collision world and a finished build.
struct Prepared {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild build;
  FloodFillParams params;
};

// The level's faces read as a navigation mesh (--navmesh, or the sidecar's
// "navmesh": true) into prepared.build: no fill, no collision world.
bool prepareNavMesh(const std::string& command, const BuildFlags& flags, Prepared& prepared,
                    int& exitCode) {
  NavMeshFlags navmesh = flags.navmesh;
  navmesh.navmesh = true;
  NavMeshGraphParams params = navMeshParamsFor(prepared.level);
  if (std::string refused = navMeshParams(navmesh, params.faces); !refused.empty()) {
    exitCode = fail(command, refused, 2);
    return false;
  }
  for (const auto& [flag, given] : {std::pair{"--cell", flags.cellSize.has_value()},
                                    std::pair{"--max-cells", flags.maxCells.has_value()},
                                    std::pair{"--ledge-overhang", flags.ledgeOverhang.has_value()},
                                    std::pair{"--grid-angle", flags.gridAngle.has_value()},
                                    std::pair{"--threads", flags.threads.has_value()}}) {
    if (given) {
      exitCode = fail(command,
                      std::string(flag) + ": a navigation mesh is read as it is, with no cells", 2);
      return false;
    }
  }
  Result<UnitProfile> unit = unitFor(prepared.level, flags);
  if (!unit) {
    exitCode = fail(command, unit.error(), 2);
    return false;
  }
  params.unit = unit.value();
  prepared.params.unit = params.unit;
  Result<NavMeshBuild> read = buildNavMeshGraph(prepared.level, params);
  if (!read) {
    exitCode = fail(command, read.error(), 2);
    return false;
  }
  prepared.build = asNavBuild(std::move(read).value(), kListedIssues);
  return true;
}

// Puts the prepared level on its grid (--grid-angle's, else the sidecar's, else
// the one chooseGridAngle picks) and its fill parameters with it; false, with
// exitCode set, on an error.
bool putOnGrid(const std::string& command, const BuildFlags& flags, Prepared& prepared,
               int& exitCode) {
  std::optional<float> degrees = prepared.level.settings.gridAngle;
  if (flags.gridAngle) {
    Result<std::optional<float>> given = parseGridAngle(*flags.gridAngle);
    if (!given) {
      exitCode = fail(command, "--grid-angle " + given.error(), 2);
      return false;
    }
    degrees = given.value();
  }
  Result<Level> onGrid = levelOnChosenGrid(prepared.level, degrees, prepared.params);
  Result<FloodFillParams> params =
      onGrid ? fillParams(onGrid.value(), flags) : Result<FloodFillParams>::failure(onGrid.error());
  if (!params) {
    exitCode = fail(command, params.error(), 2);
    return false;
  }
  prepared.level = std::move(onGrid).value();
  prepared.params = std::move(params).value();
  return true;
}

std::optional<Prepared> prepare(const std::string& command, const std::string& levelPath,
                                const BuildFlags& flags, int& exitCode, bool keepCells = false) {
  Result<Level> level = loadTurned(levelPath, flags);
  if (!level) {
    exitCode = fail(command, level.error(), 2);
    return std::nullopt;
  }
  std::optional<Prepared> prepared(std::in_place);
  prepared->level = std::move(level).value();
  if (flags.navmesh.navmesh || prepared->level.settings.navmesh) {
    if (!prepareNavMesh(command, flags, *prepared, exitCode)) return std::nullopt;
    return prepared;
  }
  Result<FloodFillParams> params = fillParams(prepared->level, flags);
  if (!params) {
    exitCode = fail(command, params.error(), 2);
    return std::nullopt;
  }
  prepared->params = std::move(params).value();
  NavMeshFacesParams unused;
  if (std::string refused = navMeshParams(flags.navmesh, unused); !refused.empty()) {
    exitCode = fail(command, refused, 2);
    return std::nullopt;
  }
  if (!putOnGrid(command, flags, *prepared, exitCode)) return std::nullopt;
  prepared->world = std::make_unique<CollisionWorld>(prepared->level);
  BuildOptions options;
  options.keepCells = keepCells;
  Result<NavBuild> build =
      buildNavigation(prepared->level, *prepared->world, prepared->params, options);
  if (!build) {
    exitCode = fail(command, build.error(), 2);
    return std::nullopt;
  }
  prepared->build = std::move(build).value();
  return prepared;
}

// The grid a graph's points are in (GridFrame).
Json gridJson(const GridFrame& frame) {
  return Json{{"angle", rounded(frame.degrees)},
              {"centre", Json::array({rounded(frame.centre.x), rounded(frame.centre.y)})},
              {"offset", pointJson(frame.offset)}};
}

Json graphJson(const NavGraph& graph) {
  Json sectors = Json::array();
  for (const Sector& s : graph.sectors) {
    Json sector{{"min", pointJson(s.bounds.min)},
                {"max", pointJson(s.bounds.max)},
                {"surface", graph.surfaces.at(s.surface).name},
                {"kind", s.kind == SectorKind::Waypath ? "waypath" : "ground"},
                {"portals", Json::array({s.firstPortal, s.portalCount})}};
    if (s.polygonal()) {
      Json corners = Json::array();
      for (const glm::vec3& corner : graph.cornersOf(s))
        corners.push_back(pointJson(corner));
      sector["corners"] = corners;
    }
    sectors.push_back(sector);
  }
  Json portals = Json::array();
  for (const Portal& p : graph.portals) {
    portals.push_back(Json{{"from", p.fromSector},
                           {"to", p.toSector},
                           {"left", pointJson(p.left)},
                           {"right", pointJson(p.right)},
                           {"one_way", p.oneWay()},
                           {"kind", p.kind == PortalKind::Walk     ? "walk"
                                    : p.kind == PortalKind::Device ? "device"
                                                                   : "waypath"}});
  }
  return Json{{"cell_size", rounded(graph.cellSize)},
              {"grid", gridJson(graph.gridFrame)},
              {"unit", unitJson(graph.unit)},
              {"sectors", sectors},
              {"portals", portals}};
}

Json surfaceNames(const NavGraph& graph) {
  Json names = Json::array();
  for (const SurfaceSpec& surface : graph.surfaces)
    names.push_back(surface.name);
  return names;
}

// Writes the graph, binary when the path ends in .nav and JSON otherwise; returns its bytes.
Result<size_t> writeGraph(const std::string& path, const NavGraph& graph) {
  if (isNavFilePath(path)) return writeNavFile(path, graph);
  const std::string text =
      graphJson(graph).dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Result<size_t>::failure(path + ": cannot write");
  return Result<size_t>::success(text.size());
}

// A grid map's level built as `scen` builds it: the point-sized grid unit
// (gridUnit) with cells of `cellSize` metres (1 / an odd number; default 1/3).
std::optional<Prepared> prepareGridMap(const std::string& command, const GridMap& map,
                                       std::optional<float> cellSize, int& exitCode) {
  GridLevelOptions options;
  if (cellSize) options.cellSize = *cellSize;
  Result<Level> level = gridMapLevel(map, options);
  if (!level) {
    // Named with the flag only where the cell size is what is wrong.
    const bool aboutCell = cellSize && level.error().find("cellSize") != std::string::npos;
    exitCode = fail(command,
                    (aboutCell ? "--cell " + numberText(*cellSize) + ": " : "") + level.error(), 2);
    return std::nullopt;
  }
  std::optional<Prepared> prepared(std::in_place);
  prepared->level = std::move(level).value();
  prepared->params = defaultFillParams(prepared->level);
  prepared->world = std::make_unique<CollisionWorld>(prepared->level);
  Result<NavBuild> build = buildNavigation(prepared->level, *prepared->world, prepared->params);
  if (!build) {
    exitCode = fail(command, build.error(), 2);
    return std::nullopt;
  }
  prepared->build = std::move(build).value();
  return prepared;
}

// The graph a query runs on: read from a .nav file (no level, no world), built
// from a grid map (.map) as `scen` builds it, or built from a level.
std::optional<Prepared> queryGraph(const std::string& path, const BuildFlags& flags,
                                   int& exitCode) {
  if (isNavFilePath(path)) {
    Result<NavGraph> read = readNavFile(path);
    if (!read) {
      exitCode = fail("query", read.error(), 2);
      return std::nullopt;
    }
    std::optional<Prepared> prepared(std::in_place);
    prepared->build.graph = std::move(read).value();
    return prepared;
  }
  if (isGridMapPath(path)) {
    const Result<GridMap> map = loadGridMap(path);
    if (!map) {
      exitCode = fail("query", map.error(), 2);
      return std::nullopt;
    }
    return prepareGridMap("query", map.value(), flags.cellSize, exitCode);
  }
  return prepare("query", path, flags, exitCode);
}

// How the unit following the path touches the level, and the stretches with
// no ground under its centre (path_clearance.h); null without a level.
Json clearanceJson(const CollisionWorld* world, const std::vector<StretchClearance>& stretches) {
  if (world == nullptr) return nullptr;
  const ClearanceSummary summary = summarizeClearance(stretches);
  return Json{{"stretches", summary.stretches},
              {"touching", summary.touching},
              {"deepest", rounded(summary.deepest)},
              {"over_no_ground", summary.overNoGround}};
}

int runNavInfo(const std::string& path) {
  const Result<NavGraph> read = readNavFile(path);
  if (!read) return fail("info", read.error(), 2);
  const NavGraph& graph = read.value();
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  const auto oneWay = std::count_if(graph.portals.begin(), graph.portals.end(),
                                    [](const Portal& p) { return p.oneWay(); });
  // The file's own version (it read cleanly, so its header is there).
  std::array<uint8_t, 12> header{};
  std::ifstream(path, std::ios::binary).read(reinterpret_cast<char*>(header.data()), header.size());
  const Json out{
      {"nav", path},
      {"version", navFileVersion(header).value_or(0)},
      {"bytes", error ? 0 : bytes},
      {"cell_size", rounded(graph.cellSize)},
      {"origin", Json::array({rounded(graph.origin.x), rounded(graph.origin.y)})},
      {"grid", gridJson(graph.gridFrame)},
      {"unit", unitJson(graph.unit)},
      {"sectors", graph.sectors.size()},
      {"portals", graph.portals.size()},
      {"one_way_portals", oneWay},
      {"surfaces", surfaceNames(graph)},
      {"devices", graph.devices.size()},
      {"waypaths", graph.waypaths.size()},
      {"bounds", Json{{"min", pointJson(graph.bounds.min)}, {"max", pointJson(graph.bounds.max)}}},
      {"memory_bytes", graph.memoryBytes()}};
  std::cout << out.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return 0;
}

// A --queries file: a regular file of at most kMaxQueriesFileBytes.
std::optional<std::vector<QueryEndpoints>> readQueries(const std::string& path,
                                                       std::string& error) {
  const Result<std::string> text = readRegularFile(path, kMaxQueriesFileBytes, "64 MiB");
  if (!text) {
    error = "--queries " + text.error();
    return std::nullopt;
  }
  Result<std::vector<QueryEndpoints>> pairs = parseQueryPairs(text.value(), path, kMaxQueries);
  if (!pairs) {
    error = "--queries " + pairs.error();
    return std::nullopt;
  }
  return std::move(pairs).value();
}

// The process's peak resident memory (Linux: VmHWM), 0 when unknown.
uint64_t peakRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}

// The search and filter from the command line (query and scen); the message
// names the option at fault. main.cpp's validators refuse NaN and infinities
// already: checked again here for callers that fill SearchFlags themselves.
std::optional<SearchOptions> searchOptions(const SearchFlags& flags, std::string& error) {
  SearchOptions options;
  const std::optional<PortalPoint> search = portalPointNamed(flags.search);
  if (!search) {
    error = "--search '" + flags.search + "': expected centroid, midpoint, crossing or exact";
    return std::nullopt;
  }
  options.portalPoint = *search;
  // Explicit: the core's default is not the CLI's.
  options.searchRegions = flags.regions;
  options.filter.keys = flags.keys;
  options.filter.excludedSurfaces = flags.excludedSurfaces;
  for (const std::string& pair : flags.surfaceCosts) {
    const size_t equals = pair.find('=');
    float cost = 0.0f;
    std::istringstream value(equals == std::string::npos ? "" : pair.substr(equals + 1));
    std::string rest;
    if (equals == 0 || equals == std::string::npos || !(value >> cost) || (value >> rest) ||
        !(cost > 0.0f) || !std::isfinite(cost)) {
      error = "--surface-cost '" + pair + "': expected NAME=COST with a finite cost > 0";
      return std::nullopt;
    }
    options.filter.surfaceCosts[pair.substr(0, equals)] = cost;
  }
  for (const auto& [flag, value] : {std::pair{"--waypath-bias", flags.waypathBias},
                                    std::pair{"--heuristic-scale", flags.heuristicScale},
                                    std::pair{"--turning-radius", flags.turningRadius}}) {
    if (value && !std::isfinite(*value)) {
      error = std::string(flag) + " " + numberText(*value) + ": not a finite number";
      return std::nullopt;
    }
  }
  if (flags.waypathBias) options.filter.waypathBias = *flags.waypathBias;
  if (flags.heuristicScale) options.heuristicScale = *flags.heuristicScale;
  if (flags.turningRadius) options.turningRadius = *flags.turningRadius;
  return options;
}

// A surface named by --surface-cost or --exclude that the graph does not
// have: a misspelt name would change nothing, silently. The message names the
// flag and lists the graph's surfaces; empty when every name is known.
std::string unknownSurface(const SearchFlags& flags, const NavGraph& graph) {
  const auto known = [&](const std::string& name) {
    return std::any_of(graph.surfaces.begin(), graph.surfaces.end(),
                       [&](const SurfaceSpec& surface) { return surface.name == name; });
  };
  std::string names;
  for (const SurfaceSpec& surface : graph.surfaces)
    names += (names.empty() ? "'" : ", '") + surface.name + "'";
  const std::string listed =
      names.empty() ? "the level has no named surfaces" : "the level's surfaces: " + names;
  for (const std::string& pair : flags.surfaceCosts) {
    const std::string name = pair.substr(0, pair.find('='));
    if (!known(name))
      return "--surface-cost '" + pair + "': no surface '" + name + "' (" + listed + ")";
  }
  for (const std::string& name : flags.excludedSurfaces) {
    if (!known(name)) return "--exclude '" + name + "': no surface '" + name + "' (" + listed + ")";
  }
  return "";
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) * 0.5;
}

}  // namespace

std::optional<glm::vec3> parsePoint(const std::string& text, const std::string& option,
                                    std::string& error) {
  glm::vec3 p;
  char comma1 = 0, comma2 = 0;
  std::istringstream in(text);
  in >> p.x >> comma1 >> p.y >> comma2 >> p.z;
  std::string rest;
  if (!in || comma1 != ',' || comma2 != ',' || (in >> rest) || !isFinite(p)) {
    error = option + " '" + text + "': expected three finite numbers X,Y,Z";
    return std::nullopt;
  }
  return p;
}

std::string refuseRotatedNav(const std::string& path, const BuildFlags& flags) {
  if (!isNavFilePath(path)) return "";
  if (flags.rotateY)
    return "--rotate-y: " + path +
           " is a .nav file, whose graph is built already and cannot be turned; give the level "
           "(.obj) instead";
  if (flags.flipFaces)
    return "--flip-faces: " + path +
           " is a .nav file, whose graph is built already from faces turned up; give the "
           "level (.obj) instead";
  for (const auto& [flag, given] : {std::pair{"--up-axis", flags.upAxis.has_value()},
                                    std::pair{"--unit-scale", flags.unitScale.has_value()}})
    if (given)
      return std::string(flag) + ": " + path +
             " is a .nav file, whose graph is built already in metres, Y up; give the level "
             "(.obj) instead";
  return "";
}

// build and info take levels: a grid map is built by query and scen only.
std::string refuseGridMap(const std::string& path) {
  if (!isGridMapPath(path)) return "";
  return path +
         ": a Moving AI grid map (.map): query and scen read it; this command takes a level "
         "(.obj)";
}

namespace {

// The level's faces as a navigation mesh: counts, and the issues with where they are.
Json navMeshJson(const Level& level, const NavMeshFacesParams& params) {
  const NavMeshFaces mesh = readNavMeshFaces(level, params);
  size_t largest = 0;
  for (const NavMeshPolygon& polygon : mesh.polygons)
    largest = std::max(largest, polygon.corners.size());
  Json counts = Json::object();
  for (const NavMeshIssueKind kind :
       {NavMeshIssueKind::TJunction, NavMeshIssueKind::NonManifoldEdge, NavMeshIssueKind::SteepFace,
        NavMeshIssueKind::FacingDown}) {
    counts[toString(kind)] =
        std::count_if(mesh.issues.begin(), mesh.issues.end(),
                      [kind](const NavMeshIssue& i) { return i.kind == kind; });
  }
  Json listed = Json::array();
  for (size_t i = 0; i < std::min(mesh.issues.size(), kListedIssues); ++i)
    listed.push_back(
        Json{{"kind", toString(mesh.issues[i].kind)}, {"at", pointJson(mesh.issues[i].at)}});
  return Json{{"polygons", mesh.polygons.size()},
              {"corners", mesh.corners.size()},
              {"largest_polygon", largest},
              {"shared_edges", mesh.sharedEdges},
              {"wall_edges", mesh.wallEdges},
              {"weld", rounded(params.weldTolerance)},
              {"max_slope", rounded(params.maxSlopeDegrees)},
              {"steep_left_out", params.excludeSteep},
              {"issues", counts},
              {"issue_list", listed}};
}

}  // namespace

int runInfo(const std::string& levelPath, const BuildFlags& flags) {
  const NavMeshFlags& navmesh = flags.navmesh;
  NavMeshFacesParams navMeshParameters;
  if (const std::string refused = navMeshParams(navmesh, navMeshParameters); !refused.empty())
    return fail("info", refused, 2);
  if (isNavFilePath(levelPath)) {
    if (navmesh.navmesh)
      return fail("info", "--navmesh reads a level's faces; " + levelPath + " is a .nav graph", 2);
    return runNavInfo(levelPath);
  }
  if (const std::string refused = refuseGridMap(levelPath); !refused.empty())
    return fail("info", refused, 2);
  Result<Level> loaded = loadTurned(levelPath, flags);
  if (!loaded) return fail("info", loaded.error(), 2);
  const Level& level = loaded.value();
  const LevelSettings& settings = level.settings;
  Json seeds = Json::array();
  for (const glm::vec3& s : settings.seeds)
    seeds.push_back(pointJson(s));
  Json out{
      {"level", levelPath},
      {"vertices", level.vertices.size()},
      {"triangles", level.triangles.size()},
      {"materials", level.materials},
      {"bounds", Json{{"min", pointJson(level.bounds.min)}, {"max", pointJson(level.bounds.max)}}},
      {"seeds", seeds}};
  if (settings.start) out["start"] = pointJson(*settings.start);
  if (settings.goal) out["goal"] = pointJson(*settings.goal);
  if (settings.cellSize) out["cell_size"] = rounded(*settings.cellSize);
  if (flags.rotateY) out["rotate_y"] = *flags.rotateY;
  if (!level.declaredFrame.empty()) out["declared_frame"] = level.declaredFrame;
  if (settings.flipFaces) out["flip_faces"] = true;
  if (settings.upAxis != UpAxis::Y) out["up_axis"] = toString(settings.upAxis);
  if (settings.unitScale != 1.0f) out["unit_scale"] = settings.unitScale;
  // Which way the faces turn, for the default unit's slope limit: floors
  // facing down mean a file wound the other way (--flip-faces).
  const float slope = settings.units.empty() ? UnitProfile{}.maxSlopeDegrees
                                             : settings.units.front().maxSlopeDegrees;
  const FacingCounts facings = countFacings(level, slope);
  out["faces"] = Json{{"slope", rounded(slope)},
                      {"up", facings.up},
                      {"down", facings.down},
                      {"steep", facings.steep}};
  Json warnings = Json::array();
  if (std::optional<std::string> sideways = writtenZUpWarning(level, slope))
    warnings.push_back(*sideways);
  out["warnings"] = warnings;
  Json units = Json::array();
  for (const UnitProfile& unit : settings.units)
    units.push_back(unitJson(unit));
  out["units"] = units;
  if (navmesh.navmesh) out["navmesh"] = navMeshJson(level, navMeshParameters);
  std::cout << out.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return 0;
}

int runBuild(const std::string& levelPath, const BuildFlags& flags, const std::string& outputPath,
             const std::string& cellsPath) {
  if (const std::string refused = refuseGridMap(levelPath); !refused.empty())
    return fail("build", refused, 2);
  for (const auto& [flag, path] :
       {std::pair("-o", &outputPath), std::pair("--cells-out", &cellsPath)}) {
    if (const std::string unread = unreadFifo(flag, *path); !unread.empty())
      return fail("build", unread, 2);
  }
  int exitCode = 0;
  std::optional<Prepared> prepared =
      prepare("build", levelPath, flags, exitCode, !cellsPath.empty());
  if (!prepared) return exitCode;
  const BuildStats& stats = prepared->build.stats;
  std::optional<size_t> outputBytes;
  if (!outputPath.empty()) {
    const Result<size_t> written = writeGraph(outputPath, prepared->build.graph);
    if (!written) return fail("build", written.error(), 2);
    outputBytes = written.value();
  }
  if (!cellsPath.empty()) {
    if (!prepared->build.cells)
      return fail("build", "--cells-out: a navigation mesh (--navmesh) has no cells", 2);
    if (const std::optional<std::string> error =
            writeCells(cellsPath, *prepared->build.cells, prepared->build.graph.gridFrame))
      return fail("build", *error, 2);
  }
  Json result{{"level", levelPath},
              {"cell_size", rounded(prepared->build.graph.cellSize)},
              {"grid_angle", rounded(prepared->build.graph.gridFrame.degrees)},
              {"grid_offset", pointJson(prepared->build.graph.gridFrame.offset)},
              {"unit", unitJson(prepared->params.unit)},
              {"navmesh", !prepared->build.graph.polygonCorners.empty()},
              {"cells", stats.cells},
              {"sectors", stats.sectors},
              {"portals", stats.portals},
              {"widened_portal_ends", stats.widenedPortalEnds},
              {"reaching_portal_ends", stats.reachingPortalEnds},
              {"bytes", stats.graphBytes},
              {"threads", prepared->params.threads},
              {"ms", rounded(stats.totalMs)},
              {"fill_ms", rounded(stats.floodFillMs)},
              {"compress_ms", rounded(stats.compressMs)},
              {"cell_bytes", stats.cellBytes},
              {"bytes_per_cell",
               stats.cells ? rounded(double(stats.cellBytes) / double(stats.cells)) : 0.0},
              {"peak_rss_bytes", peakRssBytes()},
              {"warnings", stats.warnings}};
  if (flags.rotateY) result["rotate_y"] = *flags.rotateY;
  if (prepared->level.settings.flipFaces) result["flip_faces"] = true;
  if (outputBytes) {
    result["output"] = outputPath;
    result["output_bytes"] = *outputBytes;
  }
  if (!cellsPath.empty()) result["cells_output"] = cellsPath;
  std::cout << result.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return 0;
}

int runQuery(const std::string& levelPath, const BuildFlags& flags, const QueryFlags& query) {
  std::string error;
  const std::optional<SearchOptions> options = searchOptions(query.search, error);
  if (!options) return fail("query", error, 2);
  if (query.repeat < 1 || query.repeat > kMaxRepeat) {
    return fail("query",
                "--repeat " + std::to_string(query.repeat) + ": must be from 1 to " +
                    std::to_string(kMaxRepeat),
                2);
  }
  std::vector<QueryEndpoints> queries;
  if (query.from) {
    queries.push_back({*query.from, *query.to});
  } else {
    std::optional<std::vector<QueryEndpoints>> read = readQueries(query.queriesPath, error);
    if (!read) return fail("query", error, 2);
    queries = std::move(*read);
  }
  int exitCode = 0;
  const std::optional<Prepared> loaded = queryGraph(levelPath, flags, exitCode);
  if (!loaded) return exitCode;
  const NavGraph& graph = loaded->build.graph;
  if (const std::string unknown = unknownSurface(query.search, graph); !unknown.empty())
    return fail("query", unknown, 2);
  // --from, --to and the output are in the level file's coordinates.
  const GridFrame& frame = graph.gridFrame;

  // Reused from query to query, as a game keeps its buffers.
  PathAnswer answer;
  PathStages clearance;
  clearance.clearance = true;
  // Microseconds for locate + search + funnel, one per run.
  std::vector<double> us(size_t(query.repeat));
  for (const QueryEndpoints& q : queries) {
    const glm::vec3 from = frame.toGrid(q.from), to = frame.toGrid(q.to);
    for (double& runUs : us) {
      const auto start = std::chrono::steady_clock::now();
      planPath(graph, from, to, *options, {}, answer);
      runUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                  .count();
    }
    // Once more, untimed, with the clearance: completing the timed answer
    // again would take shortcuts from its already shortened corridor.
    planPath(graph, from, to, *options, clearance, answer, loaded->world.get());
    const PathResult& path = answer.search;
    const FunnelResult& funnel = answer.funnel;
    Json corners = Json::array();
    for (const glm::vec3& c : funnel.corners)
      corners.push_back(pointJson(frame.toFile(c)));
    const bool found = path.status == PathStatus::Found;
    const char* status = found ? "found" : path.status == PathStatus::Partial ? "partial" : "none";
    std::cout << Json{{"from", pointJson(q.from)},
                      {"to", pointJson(q.to)},
                      {"found", found},
                      {"status", status},
                      {"reason", path.reason},
                      {"length", rounded(funnel.length)},
                      {"corners", corners},
                      {"sectors", path.corridor.sectors.size()},
                      {"expansions", path.expansions},
                      {"search", toString(path.portalPoint)},
                      {"regions", path.overRegions},
                      {"sectors_left_out", answer.sectorsLeftOut.size()},
                      {"clearance", clearanceJson(loaded->world.get(), answer.clearance)},
                      {"us", rounded(*std::min_element(us.begin(), us.end()))},
                      {"median_us", rounded(median(us))}}
                     .dump(-1, ' ', false, Json::error_handler_t::replace)
              << "\n";
  }
  return 0;
}

// Writes a generated level to levelPath (which must end in .obj or .glb)
// through `generate`, and its sidecar beside it (FILE.json, the path put in
// sidecarPath); what the generator says of it, or nothing with exitCode set
// and the message printed. A .glb is the generated OBJ text read as a level
// and written by writeSceneFile, so both formats hold the same triangles.
template <class Info, class Generate>
std::optional<Info> writeGenerated(const std::string& command, const std::string& levelPath,
                                   std::string& sidecarPath, int& exitCode, Generate generate) {
  const bool binaryGltf = levelPath.size() > 4 && levelPath.ends_with(".glb");
  if (!binaryGltf && (levelPath.size() <= 4 || !levelPath.ends_with(".obj"))) {
    exitCode = fail(
        command,
        "-o " + levelPath + ": the level's name must end in .obj or .glb (the sidecar gets .json)",
        2);
    return std::nullopt;
  }
  sidecarPath = levelPath.substr(0, levelPath.size() - 4) + ".json";
  for (const std::string* path : {&levelPath, static_cast<const std::string*>(&sidecarPath)}) {
    if (const std::string unread = unreadFifo("-o", *path); !unread.empty()) {
      exitCode = fail(command, unread, 2);
      return std::nullopt;
    }
  }
  std::ostringstream objText;
  std::ofstream objFile;
  if (!binaryGltf) {
    objFile.open(levelPath, std::ios::binary);
    if (!objFile) {
      exitCode = fail(command, "-o " + levelPath + ": cannot open for writing", 2);
      return std::nullopt;
    }
  }
  std::ostream& obj = binaryGltf ? static_cast<std::ostream&>(objText) : objFile;
  Result<Info> info = generate(obj);
  if (!info) {
    exitCode = fail(command, levelPath + ": " + info.error(), 2);
    return std::nullopt;
  }
  if (binaryGltf) {
    // The generator bounded the level already; reading it back sets no limit of its own.
    const LoadLimits unbounded{~uint64_t(0), ~uint64_t(0)};
    const Result<Level> level = parseObj(objText.str(), levelPath, unbounded);
    const Result<size_t> written =
        level ? writeSceneFile(levelPath, level.value()) : Result<size_t>::failure(level.error());
    if (!written) {
      exitCode = fail(command, "-o " + written.error(), 2);
      return std::nullopt;
    }
  } else {
    objFile.close();
    if (!objFile) {
      exitCode = fail(command, "-o " + levelPath + ": cannot write " + levelPath, 2);
      return std::nullopt;
    }
  }
  std::ofstream sidecar(sidecarPath, std::ios::binary);
  sidecar << info.value().sidecarJson;
  sidecar.close();
  if (!sidecar) {
    exitCode = fail(command, "-o " + levelPath + ": cannot write " + sidecarPath, 2);
    return std::nullopt;
  }
  return std::move(info).value();
}

/// The key the generate commands print the level's path under: its format.
std::string levelKey(const std::string& levelPath) {
  return levelPath.ends_with(".glb") ? "glb" : "obj";
}

int runGenerateCity(const CityFlags& flags) {
  const std::string command = "generate city";
  constexpr int64_t kMinCells = 1000, kMaxCells = 200'000'000;
  if (flags.targetCells < kMinCells || flags.targetCells > kMaxCells) {
    return fail(command,
                "--target-cells " + std::to_string(flags.targetCells) + ": must be from " +
                    std::to_string(kMinCells) + " to " + std::to_string(kMaxCells),
                2);
  }
  const std::string& levelPath = flags.outputPath;
  CityParams params;
  params.targetCells = uint64_t(flags.targetCells);
  params.seed = flags.seed;
  std::string sidecarPath;
  int exitCode = 0;
  const std::optional<CityInfo> city =
      writeGenerated<CityInfo>(command, levelPath, sidecarPath, exitCode,
                               [&](std::ostream& obj) { return generateCity(params, obj); });
  if (!city) return exitCode;
  const CityInfo& info = *city;
  std::cout << Json{{levelKey(levelPath), levelPath},
                    {"sidecar", sidecarPath},
                    {"triangles", info.triangles},
                    {"estimated_cells", info.estimatedCells},
                    {"seed", params.seed},
                    {"blocks", info.blocksX * info.blocksZ},
                    {"block_size", rounded(info.blockSize)},
                    {"buildings", info.buildings.size()},
                    {"bridges", info.bridges.size()}}
                   .dump(-1, ' ', false, Json::error_handler_t::replace)
            << "\n";
  return 0;
}

int runGenerateTerrain(const TerrainFlags& flags) {
  const std::string command = "generate terrain";
  TerrainParams params;
  const double minSize = minTerrainSize(params.unit);
  if (!(flags.size >= minSize && flags.size <= 2048.0)) {
    std::ostringstream message;
    message << "--size " << flags.size << ": must be from " << std::ceil(minSize * 10) / 10
            << " to 2048 metres (room for every feature of the default unit)";
    return fail(command, message.str(), 2);
  }
  const std::string& levelPath = flags.outputPath;
  params.seed = flags.seed;
  params.size = float(flags.size);
  std::string sidecarPath;
  int exitCode = 0;
  const std::optional<TerrainInfo> terrain =
      writeGenerated<TerrainInfo>(command, levelPath, sidecarPath, exitCode,
                                  [&](std::ostream& obj) { return generateTerrain(params, obj); });
  if (!terrain) return exitCode;
  const TerrainInfo& info = *terrain;
  // Sites of each feature, in the features' order.
  Json features = Json::object();
  for (int f = 0; f < kTerrainFeatureCount; ++f) {
    features[toString(TerrainFeature(f))] =
        std::count_if(info.sites.begin(), info.sites.end(),
                      [&](const TerrainSite& site) { return int(site.feature) == f; });
  }
  std::cout << Json{{levelKey(levelPath), levelPath},
                    {"sidecar", sidecarPath},
                    {"seed", params.seed},
                    {"size", rounded(params.size)},
                    {"triangles", info.triangles},
                    {"vertices", info.vertices},
                    {"tiles", info.tiles * info.tiles},
                    {"tile_size", rounded(info.tileSize)},
                    {"features", features}}
                   .dump(-1, ' ', false, Json::error_handler_t::replace)
            << "\n";
  return 0;
}

namespace {

// The map a .scen runs on when --map is not given: the name in its lines (the
// same on every line) relative to the .scen's folder, that name's file name in
// the folder (benchmark sets write "maps/dao/arena.map" beside a flat layout),
// or the .scen's own path without ".scen".
std::string findScenarioMap(const std::string& scenPath, const std::vector<GridScenario>& scenarios,
                            std::string& error) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(scenPath).parent_path();
  std::vector<fs::path> candidates;
  if (!scenarios.empty()) {
    for (const GridScenario& s : scenarios) {
      if (s.map != scenarios.front().map) {
        error = scenPath + ":" + std::to_string(s.line) + ": names map '" + s.map + "', line " +
                std::to_string(scenarios.front().line) + " names '" + scenarios.front().map +
                "': give --map to run them on one map";
        return "";
      }
    }
    const fs::path named(scenarios.front().map);
    candidates.push_back(folder / named);
    candidates.push_back(folder / named.filename());
  }
  if (fs::path(scenPath).extension() == ".scen")
    candidates.push_back(fs::path(scenPath).replace_extension());
  std::string tried;
  for (const fs::path& candidate : candidates) {
    // One that exists is taken, and refused when it is no regular file
    // (a directory, a device) by the map reader, which says what it is.
    std::error_code ignored;
    if (fs::exists(candidate, ignored)) return candidate.string();
    tried += (tried.empty() ? "" : ", ") + candidate.string();
  }
  error = scenPath + ": cannot find its map (tried " + (tried.empty() ? "nothing" : tried) +
          "): give --map";
  return "";
}

}  // namespace

int runScen(const ScenFlags& flags) {
  const std::string command = "scen";
  const std::string& scenPath = flags.scenPath;
  std::string error;
  const std::optional<SearchOptions> options = searchOptions(flags.search, error);
  if (!options) return fail(command, error, 2);
  Result<std::vector<GridScenario>> loaded = loadGridScenarios(scenPath);
  if (!loaded) return fail(command, loaded.error(), 2);
  std::vector<GridScenario> scenarios = std::move(loaded).value();
  if (scenarios.empty())
    return fail(command, scenPath + ": no scenarios after its version line", 2);
  if (flags.limit && *flags.limit < scenarios.size()) scenarios.resize(*flags.limit);
  std::string mapFile = flags.mapPath;
  if (mapFile.empty()) {
    mapFile = findScenarioMap(scenPath, scenarios, error);
    if (mapFile.empty()) return fail(command, error, 2);
  }
  const Result<GridMap> map = loadGridMap(mapFile);
  if (!map) return fail(command, map.error(), 2);
  for (const GridScenario& s : scenarios) {
    const std::string unfit = checkGridScenario(map.value(), s, scenPath);
    if (!unfit.empty()) return fail(command, unfit, 2);
  }
  int exitCode = 0;
  const std::optional<Prepared> prepared =
      prepareGridMap(command, map.value(), flags.cellSize, exitCode);
  if (!prepared) return exitCode;
  const NavGraph& graph = prepared->build.graph;
  if (const std::string unknown = unknownSurface(flags.search, graph); !unknown.empty())
    return fail(command, unknown, 2);

  // The .scen's lengths have five decimals; float paths over a few hundred metres
  // carry about as much rounding. Longer means longer by more than this.
  constexpr double kLongerTolerance = 1e-4;
  const auto ratioRounded = [](double v) { return std::round(v * 1e6) / 1e6; };
  size_t found = 0, longer = 0, rated = 0;
  double ratioSum = 0.0, worstRatio = 0.0;
  std::vector<double> times;
  PathAnswer answer;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const GridScenario& s = scenarios[i];
    const auto start = std::chrono::steady_clock::now();
    planPath(graph, gridTileCenter(s.start.x, s.start.y), gridTileCenter(s.goal.x, s.goal.y),
             *options, {}, answer);
    const PathResult& path = answer.search;
    const FunnelResult& funnel = answer.funnel;
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    times.push_back(us);
    const bool ok = path.status == PathStatus::Found;
    const double length = funnel.length;
    double ratio = 0.0;
    if (ok) {
      ++found;
      ratio = s.optimalLength > 0.0 ? length / s.optimalLength
                                    : (length <= kLongerTolerance ? 1.0 : 0.0);
      if (length > s.optimalLength + kLongerTolerance) ++longer;
      if (s.optimalLength > 0.0) {
        ratioSum += ratio;
        worstRatio = std::max(worstRatio, ratio);
        ++rated;
      }
    }
    std::cout << Json{{"index", i},
                      {"start", Json::array({s.start.x, s.start.y})},
                      {"goal", Json::array({s.goal.x, s.goal.y})},
                      {"optimal", s.optimalLength},
                      {"length", ok ? rounded(length) : 0.0},
                      {"ratio", ratioRounded(ratio)},
                      {"found", ok},
                      {"status", toString(path.status)},
                      {"search", toString(path.portalPoint)},
                      {"regions", path.overRegions},
                      {"us", rounded(us)}}
                     .dump(-1, ' ', false, Json::error_handler_t::replace)
              << "\n";
  }
  const double medianUs = median(std::move(times));
  const BuildStats& stats = prepared->build.stats;
  std::cout << Json{{"scenarios", scenarios.size()},
                    {"found", found},
                    {"mean_ratio", rated ? ratioRounded(ratioSum / double(rated)) : 0.0},
                    {"longer", longer},
                    {"worst_ratio", ratioRounded(worstRatio)},
                    {"median_us", rounded(medianUs)},
                    {"map", mapFile},
                    {"cell_size", rounded(effectiveCellSize(prepared->params))},
                    {"cells", stats.cells},
                    {"sectors", stats.sectors},
                    {"portals", stats.portals},
                    {"build_ms", rounded(stats.totalMs)}}
                   .dump(-1, ' ', false, Json::error_handler_t::replace)
            << "\n";
  return 0;
}

}  // namespace nav::cli
