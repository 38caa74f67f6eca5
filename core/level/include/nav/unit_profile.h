#pragma once
// The unit that explores a level: its size, its shape and how it moves.
#include <cstdint>
#include <string>

#include "nav/result.h"

namespace nav {

/// What kind of mover a profile describes; surfaces and waypaths name the kinds they allow.
enum class UnitKind : uint8_t { Human, Vehicle };
constexpr int kUnitKindCount = 2;
const char* toString(UnitKind kind);

/// The unit's footprint: a square (a box, the flood fill's original unit) or a
/// disc (an upright cylinder, like Detour's agents and most character controllers).
/// Round units keep a radius from walls, so they pass wall corners closer.
enum class UnitShape : uint8_t { Box, Round };
constexpr int kUnitShapeCount = 2;
const char* toString(UnitShape shape);

struct UnitProfile {
  std::string name = "human";
  UnitKind kind = UnitKind::Human;
  UnitShape shape = UnitShape::Box;
  /// Side of the unit's square footprint, or the diameter of its disc. [metres, > 0]
  float width = 0.6f;
  /// Height of the unit's box. [metres, > 0]
  float height = 1.8f;
  /// Max height the unit can step up between neighbouring cells. [metres, >= 0]
  float stepHeight = 0.45f;
  /// Max height the unit may drop down between neighbouring cells. [metres, >= 0]
  float maxDrop = 3.5f;
  /// Steepest surface the unit can stand on. [degrees, 0..89]
  float maxSlopeDegrees = 45.0f;
  /// Length of a vehicle's body; 0 means as long as it is wide. [metres, >= 0]
  float length = 0.0f;
  /// Tightest turn a vehicle can make; 0 turns on the spot. [metres, >= 0]
  float turningRadius = 0.0f;
  /// How far the unit's footprint may hang over a ledge: 0 stands only where
  /// ground supports the whole footprint. [metres, 0 .. footprint() / 2]
  float ledgeOverhang = 0.0f;

  /// Side of the square box (or diameter of the disc) the flood fill moves: the
  /// unit's width, or for a vehicle the widest its body reaches in any
  /// orientation (its diagonal).
  float footprint() const;
};

/// The collision tests shrink the footprint by this much, so that geometry
/// exactly on its rim (walls at a multiple of the cell size) does not count as
/// touching. [metres]
constexpr float kFootprintShrink = 1e-3f;

/// Half the side (or the radius) of the footprint the collision tests use.
inline float testedHalfFootprint(const UnitProfile& unit) {
  return unit.footprint() * 0.5f - kFootprintShrink;
}

/// Checks every field's range; the message names the first bad parameter.
Result<UnitProfile> validateUnitProfile(const UnitProfile& unit);

}  // namespace nav
