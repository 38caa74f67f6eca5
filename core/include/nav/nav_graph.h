#pragma once
// The compressed navigation graph: box sectors joined by portals.
#include <cstdint>
#include <string>
#include <vector>

#include "nav/cells.h"
#include "nav/geometry.h"
#include "nav/unit_profile.h"

namespace nav {

constexpr uint32_t kNoSector = 0xffffffffu;

/// A rectangle of mutually connected cells on one level.
struct Sector {
  /// Box around the cells' footprints (x, z) and ground heights (y). [metres]
  Aabb bounds;
  /// Grid columns covered, inclusive.
  glm::ivec2 firstColumn, lastColumn;
  /// Ground height plane over the sector: y = a*x + b*z + c (fitted to the cell heights).
  glm::vec3 heightPlane;
  uint16_t material;
  /// Outgoing portals are graph.portals[firstPortal, firstPortal + portalCount).
  uint32_t firstPortal;
  uint32_t portalCount;

  /// Ground height at (x, z), clamped to the sector's height range.
  float heightAt(float x, float z) const;
  /// True when the ground-plane point lies in the sector's rectangle.
  bool containsColumnPoint(float x, float z) const {
    return x >= bounds.min.x && x <= bounds.max.x && z >= bounds.min.z && z <= bounds.max.z;
  }
};

/// A directed crossing from one sector into a neighbour, on their shared edge.
struct Portal {
  uint32_t fromSector;
  uint32_t toSector;
  /// Endpoints as seen walking from -> to, at cell centres laterally (so a
  /// one-cell run is a zero-width portal). Heights are the from side's ground.
  glm::vec3 left, right;
  /// Direction of the crossing.
  Direction direction;
  /// The portal going back over the same edge, or kNoPortal when one-way.
  uint32_t reverse;

  glm::vec3 midpoint() const { return (left + right) * 0.5f; }
  bool oneWay() const;
};
constexpr uint32_t kNoPortal = 0xffffffffu;
inline bool Portal::oneWay() const { return reverse == kNoPortal; }

struct NavGraph {
  UnitProfile unit;
  float cellSize = 0.0f;
  glm::vec2 origin{0.0f};
  std::vector<Sector> sectors;
  /// Sorted by fromSector (each sector's outgoing portals are contiguous).
  std::vector<Portal> portals;
  /// Material names, indexed by Sector::material.
  std::vector<std::string> materials;
  Aabb bounds;

  /// Bytes held by sectors and portals.
  size_t memoryBytes() const;
};

}  // namespace nav
