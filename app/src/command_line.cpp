#include "command_line.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <tuple>

#include "nav/crowd.h"

namespace nav::app {
namespace {

bool parseFloat(std::string_view text, float& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  const auto [next, error] = std::from_chars(begin, end, value);
  return error == std::errc() && next == end && std::isfinite(value);
}

std::optional<glm::ivec2> parseSize(const std::string& text) {
  const size_t x = text.find_first_of("xX");
  if (x == std::string::npos) return std::nullopt;
  glm::ivec2 size;
  const char* end = text.data() + text.size();
  const auto width = std::from_chars(text.data(), text.data() + x, size.x);
  const auto height = std::from_chars(text.data() + x + 1, end, size.y);
  if (width.ec != std::errc() || width.ptr != text.data() + x || height.ec != std::errc() ||
      height.ptr != end) {
    return std::nullopt;
  }
  if (size.x < 64 || size.y < 64 || size.x > 16384 || size.y > 16384) return std::nullopt;
  return size;
}

}  // namespace

std::optional<glm::vec3> parseVec3(const std::string& text) {
  glm::vec3 value;
  size_t begin = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const size_t comma = axis < 2 ? text.find(',', begin) : text.size();
    if (comma == std::string::npos) return std::nullopt;
    if (!parseFloat(std::string_view(text).substr(begin, comma - begin), value[axis])) {
      return std::nullopt;
    }
    begin = comma + 1;
  }
  return value;
}

std::variant<AppOptions, ExitCode> parseCommandLine(int argc, char** argv,
                                                    const std::string& defaultLevel) {
  AppOptions options;
  options.levelPath = defaultLevel;
  std::string size, start, goal;
  std::vector<std::string> probes, jumps;
  int64_t frames = 0;
  int64_t crowd = 0;

  CLI::App cli(
      "navscope: visual debugger for navigation in polygon-soup levels.\n"
      "Left click sets the start, right click the goal; right drag orbits, middle or\n"
      "Shift+right drag pans, the wheel zooms, WASD and Q/E fly; Ctrl+click selects a\n"
      "sector and F frames it (or the level); C compares with Detour; U switches to the\n"
      "next unit profile, J arms the jump placer (left click takeoff, right click\n"
      "landing), F1 lists every key, F12 saves a screenshot.",
      "navscope");
  cli.add_option("level", options.levelPath,
                 "Level to open (.obj, with an optional .json sidecar), or a navigation graph "
                 "(.nav, shown as it is)")
      ->capture_default_str();
  cli.add_option("--size", size, "Window size, WxH (default 1280x720)");
  cli.add_option("--screenshot", options.screenshotPath, "Write a PNG of the last frame to PATH");
  auto* framesOption = cli.add_option("--frames", frames, "Quit after N frames");
  int64_t benchFrames = 0;
  auto* benchOption = cli.add_option(
      "--bench-frames", benchFrames,
      "Once the first graph is shown, draw N frames unthrottled, print the frame rate and the "
      "frame-time percentiles, and quit");
  cli.add_option("--probe", probes,
                 "Print the window position of the world point X,Y,Z with the startup camera "
                 "(repeatable)");
  cli.add_option("--start", start, "Path start X,Y,Z (default: the level's sidecar start)");
  cli.add_option("--goal", goal, "Path goal X,Y,Z (default: the level's sidecar goal)");
  cli.add_flag("--navmesh", options.navmesh,
               "Read the level's faces as a navigation mesh (walkable polygons, neighbours "
               "across shared edges) instead of flood filling it");
  cli.add_option("--unit", options.unit,
                 "Unit profile to build first, by name (default: the level's first)");
  std::string gridAngle;
  cli.add_option("--grid-angle", gridAngle,
                 "Build the level on a cell grid turned DEG degrees (-45 to 45, +X towards -Z), "
                 "or on the one chosen for it (auto; the default unless its sidecar gives "
                 "gridAngle); points stay in the level file's coordinates")
      ->type_name("DEG|auto");
  auto* crowdOption = cli.add_option(
      "--crowd", crowd,
      "Spawn N agents walking to random goals once the first build is ready (at most " +
          std::to_string(kMaxCrowdAgents) + ")");
  cli.add_option("--jump", jumps,
                 "Add a one-way jump portal from takeoff X,Y,Z to landing X,Y,Z once the first "
                 "build is ready, as X,Y,Z:X,Y,Z (repeatable)");
  // By name: CLI11 prints an enum map's values (uint8_t) as raw characters.
  std::vector<std::string> portalPointNames;
  for (PortalPoint point : kPortalPoints)
    portalPointNames.push_back(toString(point));
  std::string search = toString(options.portalPoint);
  cli.add_option("--search", search,
                 "How the path's search costs a step: centroid, midpoint, crossing (default) or exact "
                 "(the shortest string-pulled path over every corridor)")
      ->transform(CLI::IsMember(portalPointNames, CLI::ignore_case))
      ->type_name("MODE");
  cli.add_flag("--regions", options.searchRegions,
               "The path's search searches the search regions first (fewer expansions; the "
               "path may come out longer than the sector search's)");
  cli.add_flag(
      "--print-state", options.printState,
      "Print one line per change of state (build, start, goal, path, crowd, jumps) to stdout");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return ExitCode{cli.exit(help)};
  } catch (const CLI::ParseError& error) {
    cli.exit(error);
    return ExitCode{2};
  }

  auto fail = [](const std::string& message) {
    std::fprintf(stderr, "navscope: %s\nRun with --help for more information.\n", message.c_str());
    return ExitCode{2};
  };
  // IsMember let only these names through.
  options.portalPoint = *portalPointNamed(search);
  if (!size.empty()) {
    const std::optional<glm::ivec2> parsed = parseSize(size);
    if (!parsed)
      return fail("--size: expected WxH between 64x64 and 16384x16384, got '" + size + "'");
    options.windowSize = *parsed;
  }
  if (framesOption->count() > 0) {
    if (frames < 1)
      return fail("--frames: expected a positive number, got " + std::to_string(frames));
    options.frames = uint64_t(frames);
  }
  if (benchOption->count() > 0) {
    if (benchFrames < 1 || benchFrames > 1'000'000)
      return fail("--bench-frames: expected a number of frames from 1 to 1000000, got " +
                  std::to_string(benchFrames));
    options.benchFrames = uint64_t(benchFrames);
  }
  if (crowdOption->count() > 0) {
    if (crowd < 1)
      return fail("--crowd: expected a number of agents from 1 to " +
                  std::to_string(kMaxCrowdAgents) + ", got " + std::to_string(crowd));
    if (crowd > int64_t(kMaxCrowdAgents)) {
      std::fprintf(stderr, "navscope: --crowd %lld: at most %u agents; spawning %u\n",
                   (long long)crowd, kMaxCrowdAgents, kMaxCrowdAgents);
      crowd = kMaxCrowdAgents;
    }
    options.crowd = uint32_t(crowd);
  }
  for (const std::string& probe : probes) {
    const std::optional<glm::vec3> point = parseVec3(probe);
    if (!point) return fail("--probe: expected X,Y,Z (three numbers), got '" + probe + "'");
    options.probes.push_back(*point);
  }
  for (const std::string& jump : jumps) {
    const size_t colon = jump.find(':');
    const std::optional<glm::vec3> takeoff =
        colon == std::string::npos ? std::nullopt : parseVec3(jump.substr(0, colon));
    const std::optional<glm::vec3> landing =
        colon == std::string::npos ? std::nullopt : parseVec3(jump.substr(colon + 1));
    if (!takeoff || !landing)
      return fail("--jump: expected X,Y,Z:X,Y,Z (takeoff:landing), got '" + jump + "'");
    options.jumps.emplace_back(*takeoff, *landing);
  }
  for (auto [name, text, target] : {std::tuple{"--start", &start, &options.start},
                                    std::tuple{"--goal", &goal, &options.goal}}) {
    if (text->empty()) continue;
    const std::optional<glm::vec3> point = parseVec3(*text);
    if (!point)
      return fail(std::string(name) + ": expected X,Y,Z (three numbers), got '" + *text + "'");
    *target = *point;
  }
  if (!gridAngle.empty()) {
    const Result<std::optional<float>> given = parseGridAngle(gridAngle);
    if (!given) return fail("--grid-angle " + given.error());
    options.gridAngle = GridAngleOverride{given.value()};
  }
  if (options.screenshotPath) {
    std::error_code error;
    const std::filesystem::path directory =
        std::filesystem::absolute(*options.screenshotPath, error).parent_path();
    if (error || !std::filesystem::is_directory(directory, error)) {
      return fail("--screenshot: no directory " + directory.string());
    }
  }
  return options;
}

}  // namespace nav::app
