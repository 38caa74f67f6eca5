#pragma once
// The compressed navigation graph: box sectors joined by portals, with the
// surfaces, devices and waypaths the portals refer to.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nav/cells.h"
#include "nav/dead_end_regions.h"
#include "nav/geometry.h"
#include "nav/grid_frame.h"
#include "nav/islands.h"
#include "nav/level_settings.h"
#include "nav/search_regions.h"
#include "nav/sector_index.h"
#include "nav/strong_components.h"
#include "nav/unit_profile.h"

namespace nav {

constexpr uint32_t kNoSector = 0xffffffffu;
/// NavGraph::soleWayOut of a sector no portal leaves.
constexpr uint32_t kNoWayOut = 0xfffffffeu;
constexpr uint32_t kNoPortal = 0xffffffffu;
constexpr uint32_t kNoWaypath = 0xffffffffu;
/// Sector::firstHeight of a sector whose ground lies on its plane.
constexpr uint32_t kNoHeights = 0xffffffffu;
/// Finest step of a sector's stored heights. [metres]
constexpr float kMinHeightStep = 0.001f;

enum class SectorKind : uint8_t {
  Ground,   ///< A rectangle of mutually connected cells on one level, or in a
            ///< graph read from a navigation mesh (navmesh_graph.h) one of its
            ///< convex polygons (Sector::polygonal).
  Waypath,  ///< A dummy sector standing for an innate waypath.
  Fall,     ///< Where the unit falls off a ledge: the columns it crosses at the
            ///< ledge's height with its footprint hanging over it (no cells, no
            ///< standing), between a one-way portal off the ledge and one down
            ///< into the sector it lands in.
};

struct Sector {
  /// Box around the cells' footprints (x, z) and ground heights (y); for a
  /// waypath, around its points. [metres]
  Aabb bounds;
  /// Grid columns covered, inclusive (ground sectors).
  glm::ivec2 firstColumn, lastColumn;
  /// Height plane over the sector: y = a*x + b*z + c, the least-squares fit to
  /// its cells' heights; its ground when firstHeight is kNoHeights.
  glm::vec3 heightPlane;
  /// Where the sector's cell heights start in NavGraph::cellHeights (row by
  /// row, x fastest), or kNoHeights when every one lies within 5 mm of the plane.
  uint32_t firstHeight = kNoHeights;
  /// A stored height h stands for heightBase + heightStep * h. [metres]
  float heightBase = 0.0f;
  float heightStep = 0.0f;
  /// Index into NavGraph::surfaces; sectors never mix surfaces.
  uint16_t surface;
  SectorKind kind;
  /// Index into NavGraph::waypaths for a waypath sector, else kNoWaypath.
  uint32_t waypath;
  /// Outgoing portals are graph.portals[firstPortal, firstPortal + portalCount).
  uint32_t firstPortal;
  uint32_t portalCount;
  /// A navigation mesh's polygon: its corners are NavGraph::polygonCorners[
  /// firstCorner, firstCorner + cornerCount), counter-clockwise seen from above
  /// (cross2 of consecutive edges <= 0). None for a rectangle of cells.
  uint32_t firstCorner = 0;
  uint32_t cornerCount = 0;

  bool polygonal() const { return cornerCount > 0; }
};

enum class PortalKind : uint8_t {
  Walk,     ///< The shared edge of two neighbouring sectors.
  Device,   ///< A door, elevator or ladder: in at its entry point, out at its exit point.
  Waypath,  ///< Getting on or off a waypath at one of its points.
  Jump,     ///< Added at run time (jump_portals.h), never stored in the graph: one-way,
            ///< from its takeoff (left) to its landing (right).
};

/// A directed crossing from one sector into another.
struct Portal {
  uint32_t fromSector;
  uint32_t toSector;
  /// Walk portals: endpoints as seen walking from -> to, at cell centres
  /// laterally (a one-cell run is a zero-width portal) or up to half a cell
  /// beyond where the unit fits (portal_widening.h), at the from side's ground; between a
  /// navigation mesh's polygons, the ends of the edge they share. Device and waypath
  /// portals: both the point where the crossing starts. Jump portals: the takeoff, and the landing.
  glm::vec3 left, right;
  /// Direction of a walk crossing; between polygons, the axis nearest it (a pair's opposite).
  Direction direction;
  PortalKind kind;
  /// Device portals: index into NavGraph::deviceLinks. Waypath portals: the
  /// waypath point it is at. Jump portals: the jump's id. Walk portals: unused (0).
  uint32_t link;
  /// The portal going back over the same edge (or device), or kNoPortal when one-way.
  uint32_t reverse;

  glm::vec3 midpoint() const { return (left + right) * 0.5f; }
  bool oneWay() const { return reverse == kNoPortal; }
};

/// A walk portal's crossing direction on the ground (x, z).
inline glm::vec2 walkDirection(const Portal& portal) {
  return {float(kDirectionDx[int(portal.direction)]), float(kDirectionDz[int(portal.direction)])};
}

/// Along a walk portal, out past its left or right end, away from the other.
/// Walking in direction w, the walker's left is (w.z, -w.x) on the ground.
inline glm::vec2 outwardAlong(const Portal& portal, bool left) {
  const glm::vec2 walk = walkDirection(portal);
  return left ? glm::vec2(walk.y, -walk.x) : glm::vec2(-walk.y, walk.x);
}

/// How far one end of a two-way walk portal may move out for a single path:
/// to `point`, up to half a cell past the end (portal_widening.h), where the
/// unit was proven to stand, when the path's stretches from there leave in
/// directions proven clear. The end itself moves only where every path could
/// turn there clear; the reach is for the paths that can.
struct PortalEndReach {
  glm::vec3 point{0.0f};
  /// Per side, into the from sector [0] and into the to sector [1]: a stretch
  /// leaving `point` in unit direction d is clear within that sector when
  /// outwardMin <= dot(d, outward) <= outwardMax, where outward runs along the
  /// portal away from its other end, and it runs at most `length` before it
  /// meets the rectangle of the sector's cell centres (or leaves the sector).
  /// Empty (min > max): no direction is.
  float outwardMin[2] = {1.0f, 1.0f};
  float outwardMax[2] = {-1.0f, -1.0f};
  /// [metres]
  float length = 0.0f;

  bool reaches() const { return outwardMin[0] <= outwardMax[0] || outwardMin[1] <= outwardMax[1]; }
};

/// Index of a walk portal end in NavGraph::reach.
inline size_t portalEndIndex(uint32_t portal, bool left) {
  return size_t(portal) * 2 + (left ? 0 : 1);
}

/// What a device portal does: where its entry and exit are, and the part of
/// the device's zone inside the portal's source sector.
struct DeviceLink {
  /// Index into NavGraph::devices.
  uint32_t device;
  /// The going-in zone clipped to the source sector.
  Aabb volume;
  /// Where the unit uses the device (on the source sector's ground).
  glm::vec3 entryPoint;
  /// Where it comes out (the centre of the cell spawned at the exit zone).
  glm::vec3 exitPoint;
  /// True when this link goes from the device's exit zone back to its entry zone.
  bool reverse;
};

struct NavGraph {
  UnitProfile unit;
  float cellSize = 0.0f;
  glm::vec2 origin{0.0f};
  std::vector<Sector> sectors;
  /// Sorted by fromSector (each sector's outgoing portals are contiguous).
  std::vector<Portal> portals;
  /// Surfaces, indexed by Sector::surface.
  std::vector<SurfaceSpec> surfaces;
  std::vector<DeviceSpec> devices;
  std::vector<DeviceLink> deviceLinks;
  std::vector<WaypathSpec> waypaths;
  /// Per walk portal end (portalEndIndex): how far a path may move it out.
  /// Empty when none was worked out (widening off, a graph made by hand).
  std::vector<PortalEndReach> reach;
  /// Ground sectors' cell heights where they leave the sector's plane
  /// (Sector::firstHeight): 2 bytes a cell of undulating ground.
  std::vector<uint16_t> cellHeights;
  /// Polygon sectors' corners (Sector::firstCorner).
  std::vector<glm::vec3> polygonCorners;
  Aabb bounds;
  /// The grid the level was built on (its Level::gridFrame): every point of
  /// the graph, and every point its queries take and give, is in the grid's
  /// coordinates; the frame converts them to the level file's.
  GridFrame gridFrame;
  /// Finds sectors near a point; rebuilt from the sectors (not stored in .nav files).
  SectorIndex index;
  /// Which sectors portals join; rebuilt from the portals like the index. Empty
  /// (every search runs) in a graph made by hand.
  Islands islands;
  /// Which sectors reach each other, portals taken the way they lead; rebuilt
  /// like the index. Empty in a graph made by hand.
  StrongComponents components;
  /// Near-convex groups of sectors for the A* (search_regions.h); rebuilt like
  /// the index. Empty (the A* walks the sectors) in a graph made by hand.
  SearchRegions regions;
  /// Per sector, the one sector all its ways out lead into when they are all
  /// walk portals, kNoWayOut when it has none, else kNoSector; rebuilt like
  /// the index (leadsOnlyBackTo). Empty in a graph made by hand.
  std::vector<uint32_t> soleWayOut;
  /// Per portal, its gate points (portal_ends.h gatePointsOf), which the
  /// funnel asks for at every portal it crosses; rebuilt like the index.
  /// Empty in a graph made by hand (worked out when asked).
  std::vector<std::array<glm::vec3, 4>> gatePoints;
  /// Per portal, the turns past its gates the exact search may make there
  /// (portal_ends.h turnsPastGatesOf); rebuilt like the index. Empty in a
  /// graph made by hand (worked out when asked).
  std::vector<uint8_t> turnsPastGates;
  /// Per portal, 1 when a portal out of the sector it enters goes straight
  /// back over its line and meets it at a point (portal_ends.h
  /// waysBackAtAPointOf); rebuilt like the index. Empty in a graph made by
  /// hand (worked out when asked).
  std::vector<uint8_t> waysBackAtAPoint;
  /// Sectors joined to the rest of their island through one sector; rebuilt
  /// like the index. Empty in a graph made by hand.
  DeadEndRegions deadEnds;

  /// Where a path through the portal starts crossing it.
  glm::vec3 entryPoint(const Portal& portal) const {
    return portal.kind == PortalKind::Device ? deviceLinks[portal.link].entryPoint
           : portal.kind == PortalKind::Jump ? portal.left
                                             : portal.midpoint();
  }
  /// Where a path through the portal continues in the target sector.
  glm::vec3 exitPoint(const Portal& portal) const {
    return portal.kind == PortalKind::Device ? deviceLinks[portal.link].exitPoint
           : portal.kind == PortalKind::Jump ? portal.right
                                             : portal.midpoint();
  }

  /// True when every way out of `sector` is a walk portal into `from`: a
  /// dead end seen from `from`. A path that enters it from a convex `from`
  /// and comes back is never shorter than one staying in `from`, nor cheaper
  /// where a metre in `sector` costs at least as much. Known from
  /// `soleWayOut` (false while it is empty).
  bool leadsOnlyBackTo(uint32_t sector, uint32_t from) const {
    if (sector >= soleWayOut.size()) return false;
    return soleWayOut[sector] == from || soleWayOut[sector] == kNoWayOut;
  }

  /// Ground height of the sector at (x, z): between its cell centres from the
  /// nearest four (bilinear), or its plane; a polygon's from the triangle of
  /// its fan the point is over. Within the sector's height range.
  float heightAt(const Sector& sector, float x, float z) const;

  /// A polygon sector's corners; empty for a rectangle.
  std::span<const glm::vec3> cornersOf(const Sector& sector) const {
    return {polygonCorners.data() + sector.firstCorner, sector.cornerCount};
  }
  /// True when the ground-plane point lies in the sector's rectangle or polygon.
  bool contains(const Sector& sector, float x, float z) const;
  /// The point of the sector nearest (x, z) in the ground plane, on its ground.
  glm::vec3 nearestPoint(const Sector& sector, float x, float z) const;
  /// The middle of the sector's area, on its ground.
  glm::vec3 centroid(const Sector& sector) const;
  /// A ground sector's walkable area in the ground plane: its cells', or its
  /// polygon's. [m^2]
  float groundArea(const Sector& sector) const;
  /// The sector's point on its ground for three numbers in [0, 1): uniform
  /// over its area when they are uniform (for spawning and random goals).
  glm::vec3 pointAt(const Sector& sector, float a, float b, float c) const;

  /// Bytes held by the graph.
  size_t memoryBytes() const;
};

/// Builds what a graph derives from its sectors and portals: the index, the
/// islands, the strong components and (for a graph of cell rectangles) the
/// search regions. For a graph just built or read.
void finishGraphIndexes(NavGraph& graph);

/// Orders the portals by source sector, as the A* needs (each sector's
/// outgoing portals contiguous), keeping reverse links right, and sets each
/// sector's portal range. For graphs whose portals were appended in any order.
void sortPortalsBySource(NavGraph& graph);

}  // namespace nav
