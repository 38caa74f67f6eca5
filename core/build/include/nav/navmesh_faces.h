#pragma once
// A level read as a navigation mesh, the way engines and tools (Recast,
// Unity, Godot, Unreal, a mesh made by hand) export one: each face a walkable
// polygon, convex (a non-convex face is cut into convex pieces along its
// triangulation's diagonals), its corners welded to others within a
// tolerance, and two polygons sharing an edge neighbours across it; an edge
// of one polygon only is a wall. What a navigation mesh should not hold is
// reported where it is: a corner lying inside another polygon's wall edge (a
// T-junction: the two sides do not connect), an edge shared by more than two
// polygons or by two wound the same way along it, folded over each other (a
// wall on every side), a face steeper than the max slope (left
// out when asked), and a face wound to face down (turned over).
#include <atomic>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "nav/level.h"

namespace nav {

/// NavMeshPolygon::neighbours of a wall edge.
constexpr uint32_t kNoNeighbour = 0xffffffffu;

struct NavMeshPolygon {
  /// Indices into NavMeshFaces::corners, counter-clockwise seen from above.
  std::vector<uint32_t> corners;
  /// Per edge k, from corner k to corner k + 1: the polygon across it, or kNoNeighbour.
  std::vector<uint32_t> neighbours;
  /// Index into Level::materials.
  uint16_t material = 0;
  /// The level face it was cut from (LevelTriangle::face, or its first
  /// triangle's index for a triangle with no face).
  uint32_t face = 0;
};

enum class NavMeshIssueKind : uint8_t { TJunction, NonManifoldEdge, SteepFace, FacingDown };
const char* toString(NavMeshIssueKind kind);

struct NavMeshIssue {
  NavMeshIssueKind kind;
  /// The T-junction's corner, the middle of the edge, or the face's centre.
  glm::vec3 at;
};

struct NavMeshFacesParams {
  /// Corners closer than this are one corner. [metres, >= 0]
  float weldTolerance = 0.001f;
  /// Faces steeper than this are reported, and left out with excludeSteep. [degrees]
  float maxSlopeDegrees = 90.0f;
  bool excludeSteep = false;
};

struct NavMeshFaces {
  /// The welded corners.
  std::vector<glm::vec3> corners;
  std::vector<NavMeshPolygon> polygons;
  std::vector<NavMeshIssue> issues;
  /// Edges two polygons share, each counted once.
  size_t sharedEdges = 0;
  /// Polygon edges with no neighbour.
  size_t wallEdges = 0;
};

/// The level's faces as a navigation mesh. Faces that shrink to nothing once
/// welded are dropped. When `cancel` is set it stops early and returns what it
/// has (the caller checks the flag and drops it).
NavMeshFaces readNavMeshFaces(const Level& level, const NavMeshFacesParams& params = {},
                              const std::atomic<bool>* cancel = nullptr);

}  // namespace nav
