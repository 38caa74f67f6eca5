#pragma once
// Procedural outdoor levels for honest tests: rolling hills made of noise, and
// on them, sized from the unit they are made for, what grid-friendly boxy
// levels lack: ramps just below and just above the unit's max slope, walls at
// any angle and curved ones, railings and walls thinner than the unit, a
// bridge to walk over and under, an overhang too low in its back part, stairs
// whose risers are just below and just above the unit's step, and holes
// narrower and wider than the unit. Every seed lays them out differently.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "nav/result.h"
#include "nav/unit_profile.h"

namespace nav {

/// The unit the comparisons with Recast/Detour use: 1.2 x 2.0 m, stepping
/// 0.9 m up and down, on slopes up to 45 degrees.
UnitProfile detourMatchedUnit();

struct TerrainParams {
  /// Same seed, same bytes, on every platform.
  uint32_t seed = 1;
  /// Side of the square level: x and z run from 0 to size. [metres,
  /// minTerrainSize(unit) .. 2048; about 62 m for the default unit]
  float size = 64.0f;
  /// Cell size written to the sidecar. [metres, 0.05 .. 2]
  float cellSize = 0.3f;
  /// The unit the features are sized for, and the sidecar's unit. Its max slope
  /// must be 10 .. 80 degrees (ramps are made 4 degrees either side of it) and
  /// its step at least 0.2 m (risers 0.1 m either side of it).
  UnitProfile unit = detourMatchedUnit();
};

/// What a part of the level shows; each is drawn with its own materials.
enum class TerrainFeature : uint8_t {
  Slopes,    ///< Two planar ramps (`ramp`) up to a plateau: one walkable, one too steep.
  Stairs,    ///< Two flights (`stairs`), risers a little below and a little above the step.
  Bridge,    ///< A deck on supports with ramps up to it (`bridge`), railings (`railing`).
  Cave,      ///< A roof (`roof`) on walls (`wall`), too low over its back part.
  Holes,     ///< Gaps in the ground: one wider than the unit, cracks narrower.
  Walls,     ///< Straight walls across the hills at any angle, thick and thin (`wall`).
  Arc,       ///< A curved wall of many thin segments (`wall`).
  Railings,  ///< Low thin railings (`railing`) the unit can step over.
};
constexpr int kTerrainFeatureCount = 8;
const char* toString(TerrainFeature feature);

/// One feature of the level: it lies within `radius` of its centre, on flat
/// ground there unless it is Walls or Arc (those stand on the hills).
struct TerrainSite {
  TerrainFeature feature;
  /// Centre on the ground plane (x, z). [metres]
  float x, z;
  /// Its layout is turned by this from the x axis (+x towards +z). [degrees, 0..360]
  float yawDegrees;
  /// Everything it adds lies within this of its centre. [metres]
  float radius;
};

/// What the generator made besides the OBJ text.
struct TerrainInfo {
  uint64_t vertices = 0;
  uint64_t triangles = 0;
  /// The level is tiles x tiles squares of tileSize; each holds at most one site.
  uint32_t tiles = 0;
  float tileSize = 0.0f;
  /// Row-major by tile, tiles without a feature left out; every feature appears
  /// at least once.
  std::vector<TerrainSite> sites;
  /// The sidecar JSON: the cell size and the params' unit, no seeds (a build
  /// then starts everywhere), no start or goal.
  std::string sidecarJson;
};

/// The smallest side that holds every feature made for this unit (three tiles).
/// [metres]
float minTerrainSize(const UnitProfile& unit);

/// Writes the level's OBJ to `obj` as it goes (Y up, metres, triangles only,
/// materials ground, ramp, stairs, bridge, railing, wall, roof; every solid closed
/// with outward faces) and returns what it made. Fails with a message naming the
/// parameter when one is out of range, or when writing fails.
Result<TerrainInfo> generateTerrain(const TerrainParams& params, std::ostream& obj);

}  // namespace nav
