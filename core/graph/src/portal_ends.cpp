#include "nav/portal_ends.h"

#include <cmath>

namespace nav {

bool cellsCoverSectors(const UnitProfile& unit, float cellSize) {
  // Every point of a sector's box must lie in the footprint of a cell centre:
  // within half a cell along both axes, for a square; half the diagonal, for a disc.
  const float reach = cellSize * 0.5f * (unit.shape == UnitShape::Round ? std::sqrt(2.0f) : 1.0f);
  return cellSize > 0.0f && reach < testedHalfFootprint(unit);
}

}  // namespace nav
