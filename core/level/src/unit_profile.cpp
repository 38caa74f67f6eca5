#include "nav/unit_profile.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "format_number.h"

namespace nav {
namespace {

/// Largest size accepted for any length: beyond this a profile is a typo, not a unit. [metres]
constexpr float kMaxSize = 1000.0f;

// The range checks are written so that NaN fails them too (every comparison with NaN is false).
std::string outOfRange(std::string_view parameter, float value, std::string_view range) {
  return std::string(parameter) + " = " + formatFloat(value) + " is out of range; allowed " +
         std::string(range);
}

}  // namespace

const char* toString(UnitKind kind) {
  switch (kind) {
    case UnitKind::Human:
      return "human";
    case UnitKind::Vehicle:
      return "vehicle";
  }
  return "unknown";
}

const char* toString(UnitShape shape) {
  switch (shape) {
    case UnitShape::Box:
      return "box";
    case UnitShape::Round:
      return "round";
  }
  return "unknown";
}

float UnitProfile::footprint() const {
  if (kind != UnitKind::Vehicle) return width;
  return std::hypot(width, std::max(length, width));
}

Result<UnitProfile> validateUnitProfile(const UnitProfile& unit) {
  using R = Result<UnitProfile>;
  const std::string maxSize = formatFloat(kMaxSize);
  if (!(unit.width > 0.0f && unit.width <= kMaxSize)) {
    return R::failure(outOfRange("width", unit.width, "(0, " + maxSize + "] metres"));
  }
  if (!(unit.height > 0.0f && unit.height <= kMaxSize)) {
    return R::failure(outOfRange("height", unit.height, "(0, " + maxSize + "] metres"));
  }
  // A step as high as the unit would let it climb onto anything it can touch.
  if (!(unit.stepHeight >= 0.0f && unit.stepHeight < unit.height)) {
    return R::failure(outOfRange("stepHeight", unit.stepHeight,
                                 "[0, height) = [0, " + formatFloat(unit.height) + ") metres"));
  }
  if (!(unit.maxDrop >= 0.0f && unit.maxDrop <= kMaxSize)) {
    return R::failure(outOfRange("maxDrop", unit.maxDrop, "[0, " + maxSize + "] metres"));
  }
  // 90 degrees would make walls walkable.
  if (!(unit.maxSlopeDegrees >= 0.0f && unit.maxSlopeDegrees <= 89.0f)) {
    return R::failure(outOfRange("maxSlopeDegrees", unit.maxSlopeDegrees, "[0, 89] degrees"));
  }
  if (!(unit.length >= 0.0f && unit.length <= kMaxSize)) {
    return R::failure(outOfRange("length", unit.length, "[0, " + maxSize + "] metres"));
  }
  if (!(unit.turningRadius >= 0.0f && unit.turningRadius <= kMaxSize)) {
    return R::failure(
        outOfRange("turningRadius", unit.turningRadius, "[0, " + maxSize + "] metres"));
  }
  if (int(unit.kind) >= kUnitKindCount) return R::failure("kind: not a unit kind");
  // Past half the footprint the unit's centre would hang over the ledge.
  const float halfFootprint = unit.footprint() * 0.5f;
  if (!(unit.ledgeOverhang >= 0.0f && unit.ledgeOverhang <= halfFootprint)) {
    return R::failure(
        outOfRange("ledgeOverhang", unit.ledgeOverhang,
                   "[0, footprint / 2] = [0, " + formatFloat(halfFootprint) + "] metres"));
  }
  if (int(unit.shape) >= kUnitShapeCount) return R::failure("shape: not a unit shape");
  return R::success(unit);
}

}  // namespace nav
