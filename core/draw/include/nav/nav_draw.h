#pragma once
// Drawing every stage through DebugDraw, shared by the debugger and any engine
// that embeds the library.
#include <span>

#include "nav/cells.h"
#include "nav/debug_draw.h"
#include "nav/funnel.h"
#include "nav/level.h"
#include "nav/nav_graph.h"
#include "nav/path_clearance.h"
#include "nav/search.h"
#include "nav/search_replay.h"
#include "nav/vehicle_curve.h"

namespace nav {

/// What to draw; the debugger's checkboxes bind to these fields directly.
struct DrawOptions {
  bool levelMesh = true;
  /// The level's faces seen from behind too. Off, a face shows from its front
  /// only, so a room's ceiling and far walls, wound to face in, hide nothing
  /// inside it from a camera outside.
  bool levelBackFaces = false;
  bool cells = false;
  bool sectors = true;
  bool sectorOutlines = true;
  /// Sectors coloured by surface (shade varying per sector) rather than each its own hue.
  bool sectorsBySurface = true;
  /// Device zones and waypaths.
  bool devices = true;
  bool portals = true;
  bool searchTrace = false;
  bool corridor = true;
  bool path = true;
  /// The Bezier-smoothed path.
  bool smoothedPath = true;
  /// For a vehicle: its curve of turn arcs and tangent lines, with the turn circles.
  bool vehicleCurve = true;
  /// Where the unit, swept along the path, touches the level (path_clearance.h).
  bool pathClearance = true;
  bool funnelStep = true;
  /// Jump portals added at run time.
  bool jumps = true;
  /// The search regions (search_regions.h): sectors tinted by region, region portals.
  bool searchRegions = false;
};

namespace colors {
constexpr Color kMesh{170, 170, 165, 255};
constexpr Color kCell{80, 160, 230, 255};
constexpr Color kOverhangingCell{255, 150, 40, 255};
constexpr Color kFall{255, 150, 40, 90};
constexpr Color kCellLink{40, 90, 160, 255};
constexpr Color kSectorOutline{20, 60, 90, 255};
constexpr Color kPortal{250, 250, 250, 255};
/// A portal end's reach (corner_reach.h): where a path may turn beyond it.
constexpr Color kPortalReach{120, 200, 255, 255};
constexpr Color kOneWayPortal{255, 120, 40, 255};
constexpr Color kCorridor{255, 210, 60, 110};
/// Sectors of the search's corridor the path need not enter (PathAnswer::sectorsLeftOut).
constexpr Color kLeftOutSector{255, 130, 150, 110};
constexpr Color kPath{255, 30, 200, 255};
constexpr Color kStart{40, 220, 60, 255};
constexpr Color kGoal{230, 40, 40, 255};
/// The funnel's apex and sides: colours used for nothing else.
constexpr Color kApex{170, 255, 0, 255};
constexpr Color kFunnelLeft{0, 120, 255, 255};
constexpr Color kFunnelRight{170, 0, 255, 255};
constexpr Color kOpenNode{90, 200, 255, 255};
constexpr Color kClosedNode{255, 160, 0, 255};
/// Stepping the search (drawSearchStep): the node being expanded, the one the
/// search takes next, the links from each node back to its parent, and the
/// nodes set aside unexpanded.
constexpr Color kExpandingNode{255, 255, 0, 255};
constexpr Color kNextNode{0, 255, 255, 255};
constexpr Color kParentLink{150, 150, 255, 255};
constexpr Color kDroppedNode{120, 120, 120, 255};
constexpr Color kDoor{255, 190, 90, 255};
constexpr Color kElevator{120, 200, 255, 255};
constexpr Color kLadder{190, 140, 255, 255};
constexpr Color kLocked{255, 70, 70, 255};
constexpr Color kWaypath{80, 255, 200, 255};
constexpr Color kSmoothedPath{255, 150, 230, 255};
constexpr Color kVehicleCurve{120, 230, 255, 255};
constexpr Color kJump{255, 235, 80, 255};
constexpr Color kJumpTaken{255, 120, 255, 255};
constexpr Color kRegionPortal{255, 255, 120, 255};
constexpr Color kClearanceTouch{255, 100, 0, 255};
}  // namespace colors

/// Shaded level triangles, lit from a fixed direction.
void drawLevelMesh(DebugDraw& draw, const Level& level);
/// Each cell as a small square at its height (orange where `overhanging`, per
/// cell, says its footprint hangs over a ledge), with its one-way links and
/// its falls as arrows.
void drawCells(DebugDraw& draw, const CellGrid& cells, const std::vector<bool>& overhanging = {});
/// Ground sectors as filled rectangles on their height planes, coloured by
/// surface (each sector a slightly different shade) or each in its own hue.
void drawSectors(DebugDraw& draw, const NavGraph& graph, bool outlines, bool bySurface = true);
/// Ground sectors tinted each by its search region's hue, and the region
/// portals (merged staircases) as segments: what the A* searches first.
void drawSearchRegions(DebugDraw& draw, const NavGraph& graph);
/// The colour a surface is drawn in.
Color surfaceColor(const NavGraph& graph, uint16_t surface);
/// Walk portals as segments (one-way ones in their own colour with an arrow);
/// device portals as arcs from where the device is used to where it lets out.
void drawPortals(DebugDraw& draw, const NavGraph& graph);
/// Device zones as boxes (entry and exit) with their names; waypaths as lines
/// through their points, with arrows when one-way.
void drawDevicesAndWaypaths(DebugDraw& draw, const NavGraph& graph);
void drawCorridor(DebugDraw& draw, const NavGraph& graph, const Corridor& corridor);
/// The sectors of the search's corridor the path pipeline left out
/// (PathAnswer::sectorsLeftOut): the detour the search took, in their own shade.
void drawLeftOutSectors(DebugDraw& draw, const NavGraph& graph, std::span<const uint32_t> sectors);
/// Each jump as a ballistic arc from takeoff to landing, with a tick for the
/// heading at takeoff (colors::kJumpTaken for the ones a path takes).
void drawJumps(DebugDraw& draw, std::span<const JumpPortal> jumps, Color color = colors::kJump);
/// Each node the search opened or closed where it stands: a dot, and for the
/// exact search the interval of the portal it sees.
void drawSearchTrace(DebugDraw& draw, const SearchTrace& trace);
/// The search as it stands at the replay's step: closed, dropped and open
/// nodes, an arrow from each back to its parent, the node being expanded with
/// arrows to the points it costs now, and a ring round the one taken next.
void drawSearchStep(DebugDraw& draw, const SearchReplay& replay);
/// A path as a line through `points` (e.g. followPortalHeights), with a dot at each corner.
void drawPath(DebugDraw& draw, std::span<const glm::vec3> points,
              std::span<const glm::vec3> corners, Color color);
/// The funnel at one step: apex, the left and right sides, the portal considered.
void drawFunnelStep(DebugDraw& draw, std::span<const FunnelPortal> portals, const FunnelStep& step);
void drawMarker(DebugDraw& draw, const glm::vec3& p, float height, Color color);
/// Where the unit following a path touches the level: at each touching
/// stretch's deepest point, the unit's footprint and the depth in centimetres.
void drawPathClearance(DebugDraw& draw, const UnitProfile& unit,
                       std::span<const StretchClearance> clearance);
/// A smoothed path (smoothPath's samples) as a line through them.
void drawSmoothedPath(DebugDraw& draw, std::span<const glm::vec3> samples, Color color);
/// A vehicle curve at height y: its lines and arcs, each arc's whole turn circle
/// faintly, and the points where pieces join.
void drawVehicleCurve(DebugDraw& draw, std::span<const CurvePiece> pieces, float y, Color color);

}  // namespace nav
