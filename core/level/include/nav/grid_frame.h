#pragma once
// Where a level's cell grid lies. Cells are squares along the level's x and z
// axes; a level whose walls run at an angle gets a staircase of thin sectors
// along each wall, so its grid may be turned to run along the walls instead.
// A level on a turned grid is the level turned the other way (levelOnGrid):
// everything built from it (cells, graph, paths) is in the grid's coordinates,
// and the frame converts to and from the coordinates of the level's file.
#include <optional>
#include <string_view>

#include <glm/glm.hpp>

#include "nav/result.h"

namespace nav {

/// Turned grids are refused beyond this, as rotatedAboutY refuses turns. [degrees]
constexpr float kMaxGridDegrees = 45.0f;

struct GridFrame {
  /// The grid's x axis, turned from the file's x axis about the vertical axis:
  /// positive turns +x towards -z (counter-clockwise seen from above, as
  /// rotatedAboutY turns). [degrees, -45 .. 45]
  float degrees = 0.0f;
  /// Where the vertical axis of the turn crosses the ground plane: x and z.
  glm::vec2 centre{0.0f};
  /// Subtracted after the turn: where the grid's origin lies (in the turned
  /// file's coordinates). A level far from the origin is built near it
  /// (offsetNearOrigin), where floats keep their precision. [metres]
  glm::vec3 offset{0.0f};

  bool turned() const { return degrees != 0.0f; }
  /// True when the grid's coordinates are the file's.
  bool isFile() const { return !turned() && offset == glm::vec3(0.0f); }
  /// A point of the file in the grid's coordinates.
  glm::vec3 toGrid(const glm::vec3& file) const;
  /// A point in the grid's coordinates in the file's.
  glm::vec3 toFile(const glm::vec3& grid) const;
};

/// Beyond this a float's step exceeds a millimetre: a level reaching further
/// out is moved near the origin. [metres]
constexpr float kFarFromOrigin = 8192.0f;

/// Where a level with these bounds is moved from (GridFrame::offset): the
/// centre of its bounds in whole metres when any point of them lies beyond
/// kFarFromOrigin, else none. Whole metres keep the move exact: a float that
/// far out and the offset are both whole multiples of the point's own step.
glm::vec3 offsetNearOrigin(const glm::vec3& boundsMin, const glm::vec3& boundsMax);

/// A grid angle as a flag gives it: "auto" (empty: chosen for the level) or
/// degrees from -kMaxGridDegrees to kMaxGridDegrees; anything else fails with
/// what was expected.
Result<std::optional<float>> parseGridAngle(std::string_view text);

}  // namespace nav
