#include "nav/grid_frame.h"

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

glm::vec3 GridFrame::toGrid(const glm::vec3& file) const {
  return turned() ? turnBy(*this, -double(degrees)).apply(file) : file;
}

glm::vec3 GridFrame::toFile(const glm::vec3& grid) const {
  return turned() ? turnBy(*this, double(degrees)).apply(grid) : grid;
}

}  // namespace nav
