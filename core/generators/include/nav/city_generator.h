#pragma once
// Procedural city levels of a requested size, for scale tests and benchmarks:
// a grid of blocks between streets (`road`) with raised sidewalks; buildings of
// one to four floors with doors, straight stair flights and bridges between
// neighbours at the first upper floor; plazas with grass, trees and a pond.
// The sidecar adds elevators in some tall buildings, a locked back door, one
// one-way vehicle waypath per street lane, and a car beside the walking unit.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "nav/geometry.h"
#include "nav/level_settings.h"
#include "nav/result.h"
#include "nav/unit_profile.h"

namespace nav {

struct CityParams {
  /// Cells a build should find: the city is sized so its estimate lands here. [1 .. 1e10]
  uint64_t targetCells = 0;
  /// Same seed, same bytes, on every platform.
  uint32_t seed = 1;
  /// Cell size of the estimate and of the sidecar. [metres, 0.05 .. 2]
  float cellSize = 0.3f;
  /// Unit of the estimate and of the sidecar. The geometry is made for units up
  /// to 0.6 x 1.8 m that step at least 0.2 m (stair rise; curbs are 0.15 m).
  UnitProfile unit;
};

/// An opening in a building's outer wall: a ground-floor door, or where a bridge lands.
struct CityDoor {
  /// Centre of the opening's sill, halfway through the wall. [metres]
  glm::vec3 sill;
  /// Horizontal unit vector pointing out of the building.
  glm::vec3 outward;
  /// Clear width and height of the opening. [metres]
  float width, height;
};

/// A driving lane: a road segment's centre line moved 1.5 m to the right-hand
/// side (where the sidecar's car, built as a 4.57 m square, still fits on the
/// 8 m road), pointing in the driving direction, on the road surface (y = 0).
struct CityLane {
  glm::vec3 from, to;
};

struct CityBuilding {
  /// Outer footprint, walls included, from the ground (y = 0) to the roof top.
  Aabb bounds;
  /// Floors including the ground floor; floor k is walked on at y = 3k. [1..4]
  uint32_t floors;
};

struct CityBridge {
  /// The walkable deck between its railings (ends at the two buildings' outer
  /// walls); max.y is the deck top, 3 m. [metres]
  Aabb deck;
};

/// What the generator made besides the OBJ text.
struct CityInfo {
  uint64_t vertices = 0;
  uint64_t triangles = 0;
  /// Cells a build with the params' cell size and unit is expected to find.
  uint64_t estimatedCells = 0;
  uint32_t blocksX = 0, blocksZ = 0;
  /// Side of a block between the streets, sidewalks included. [metres]
  float blockSize = 0.0f;
  std::vector<CityBuilding> buildings;
  std::vector<CityBridge> bridges;
  std::vector<CityDoor> doors;
  /// Lane segments between crossings, two per street segment.
  std::vector<CityLane> lanes;
  /// The sidecar's devices: an elevator from the ground to the top floor in
  /// some buildings of three or more floors (at most 16, spread over the
  /// city), and a locked back door (key "red") through the first side wall
  /// that has no door. No geometry: the devices are zones on existing floors.
  std::vector<DeviceSpec> devices;
  /// The sidecar's waypaths: per street and driving direction, one one-way
  /// vehicle waypath along its right-hand lane, through every crossing's centre.
  std::vector<WaypathSpec> waypaths;
  /// One per block, on the street north (-z) of it, 5 cm above the road.
  std::vector<glm::vec3> seeds;
  /// start: the first seed; goal: on the top floor of the tallest building.
  glm::vec3 start{0.0f}, goal{0.0f};
  /// The sidecar JSON: seeds, start, goal, cellSize, units (the params' unit,
  /// then a car unless that unit is a vehicle), devices, waypaths.
  std::string sidecarJson;
};

/// Writes the city's OBJ to `obj` as it goes (memory stays proportional to the
/// number of blocks, never to the mesh) and returns what it made. Fails with a
/// message naming the parameter when one is out of range, or when writing fails.
Result<CityInfo> generateCity(const CityParams& params, std::ostream& obj);

}  // namespace nav
