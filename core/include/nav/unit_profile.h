#pragma once
// The box-shaped unit that explores a level: its size and how it moves.
#include <string>

#include "nav/result.h"

namespace nav {

struct UnitProfile {
  std::string name = "human";
  /// Side of the unit's square footprint. [metres, > 0]
  float width = 0.6f;
  /// Height of the unit's box. [metres, > 0]
  float height = 1.8f;
  /// Max height the unit can step up between neighbouring cells. [metres, >= 0]
  float stepHeight = 0.45f;
  /// Max height the unit may drop down between neighbouring cells. [metres, >= 0]
  float maxDrop = 3.5f;
  /// Steepest surface the unit can stand on. [degrees, 0..89]
  float maxSlopeDegrees = 45.0f;
};

/// Checks every field's range; the message names the first bad parameter.
Result<UnitProfile> validateUnitProfile(const UnitProfile& unit);

}  // namespace nav
