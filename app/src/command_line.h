#pragma once
// navscope [LEVEL.obj | GRAPH.nav] [--size WxH] [--screenshot PATH] [--frames N]
//          [--probe X,Y,Z]... [--start X,Y,Z] [--goal X,Y,Z] [--unit NAME] [--crowd N]
//          [--jump X,Y,Z:X,Y,Z]... [--search midpoint|crossing|exact] [--regions]
//          [--print-state]
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <glm/glm.hpp>

#include "loaded_level.h"
#include "nav/search.h"

namespace nav::app {

struct AppOptions {
  std::string levelPath;
  /// Read the level's faces as a navigation mesh (as the sidecar's "navmesh": true); for
  /// levels opened later, the Files panel's checkbox says.
  bool navmesh = false;
  glm::ivec2 windowSize{1280, 720};
  /// Written from the last frame.
  std::optional<std::string> screenshotPath;
  /// Quit after this many frames.
  std::optional<uint64_t> frames;
  /// Once the first graph is shown (and the crowd spawned), draw this many
  /// frames as fast as possible, print their rates, and quit.
  std::optional<uint64_t> benchFrames;
  /// World points whose window position is printed once the startup camera is set.
  std::vector<glm::vec3> probes;
  /// Override the level's sidecar start and goal.
  std::optional<glm::vec3> start;
  std::optional<glm::vec3> goal;
  /// The unit profile to show first (default: the level's first).
  std::optional<std::string> unit;
  /// --grid-angle: the grid the named level is built on, in place of its sidecar's.
  std::optional<GridAngleOverride> gridAngle;
  /// Agents to spawn once the first graph is shown. [1, kMaxCrowdAgents]
  std::optional<uint32_t> crowd;
  /// Jump portals (takeoff, landing) to add once the first graph is shown.
  std::vector<std::pair<glm::vec3, glm::vec3>> jumps;
  /// How the path tool's search places paths on portals.
  PortalPoint portalPoint = PortalPoint::Crossing;
  /// --regions: the path's A* searches the search regions first.
  bool searchRegions = false;
  bool printState = false;
};

/// The exit code to leave with instead of running: 0 after --help, 2 for bad input.
struct ExitCode {
  int code;
};

/// Parses the arguments; prints help or a message naming the bad argument itself. Never throws.
std::variant<AppOptions, ExitCode> parseCommandLine(int argc, char** argv,
                                                    const std::string& defaultLevel);

/// Parses "X,Y,Z" (three finite numbers).
std::optional<glm::vec3> parseVec3(const std::string& text);

}  // namespace nav::app
