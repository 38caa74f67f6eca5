#include "nav/grid_frame.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "nav/level.h"
#include "portable_trig.h"

namespace nav {
namespace {

// The same turn levelOnGrid gives the level's vertices (rotatedAboutY's), so
// that toGrid of a file's vertex is the very float the turned level holds.
RotationY turnBy(const GridFrame& frame, double degrees) {
  const CosSin turn = cosSinOfDegrees(degrees);
  return {glm::dvec3(frame.centre.x, 0.0, frame.centre.y), turn.cos, turn.sin};
}

}  // namespace

// The turn, then the offset, each as levelOnGrid applies it to the level's
// vertices, so that toGrid of a file's vertex is the very float the level on
// the grid holds.
glm::vec3 GridFrame::toGrid(const glm::vec3& file) const {
  return (turned() ? turnBy(*this, -double(degrees)).apply(file) : file) - offset;
}

glm::vec3 GridFrame::toFile(const glm::vec3& grid) const {
  return turned() ? turnBy(*this, double(degrees)).apply(grid + offset) : grid + offset;
}

glm::vec3 offsetNearOrigin(const glm::vec3& boundsMin, const glm::vec3& boundsMax) {
  const glm::vec3 farthest = glm::max(glm::abs(boundsMin), glm::abs(boundsMax));
  const float reach = std::max({farthest.x, farthest.y, farthest.z});
  if (!(reach > kFarFromOrigin) || !std::isfinite(reach)) return glm::vec3(0.0f);
  return glm::round(0.5f * boundsMin + 0.5f * boundsMax);
}

Result<std::optional<float>> parseGridAngle(std::string_view text) {
  using R = Result<std::optional<float>>;
  if (text == "auto") return R::success(std::nullopt);
  float degrees = 0.0f;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, degrees);
  if (error != std::errc() || stop != end || !(std::abs(degrees) <= kMaxGridDegrees))
    return R::failure(std::string(text) + ": expected degrees from -45 to 45, or auto");
  return R::success(degrees);
}

}  // namespace nav
