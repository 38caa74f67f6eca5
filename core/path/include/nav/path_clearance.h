#pragma once
// Path clearance: where a unit following a path would touch the level, or
// walk over no ground. A path is only as good as a unit's ability to follow
// it; string pulling hugs corners, and a sector's edge lies up to half a cell
// past the last cell centre the flood fill tested, so a stretch running along
// one can graze a wall; a navigation mesh built on voxels may close a crack
// narrower than a voxel, and a path across it steps into the crack. This
// sweeps the unit's own footprint along each stretch over the ground it walks
// on, says how deep it reaches in and how much of the stretch has no ground
// under the unit's centre, for the debugger to show and the benchmark to
// compare with Detour's paths.
#include <cstddef>
#include <span>
#include <vector>

#include "nav/collision.h"
#include "nav/unit_profile.h"

namespace nav {

/// One stretch of a path: from one corner to the next.
struct StretchClearance {
  /// False when walking the ground from the stretch's first corner does not
  /// arrive within a step of its second (a device's ride, a jump, a fall off
  /// the walked ground): such a stretch is not measured and has depth 0.
  bool walked = true;
  /// How far the unit's footprint, swept along the stretch, reaches into the
  /// level's geometry: the footprint would have to shrink by this much to pass
  /// clear. 0 when it passes clear. [metres]
  float depth = 0.0f;
  /// Where along the stretch the deepest touch is, on the walked ground
  /// (meaningful when depth > 0).
  glm::vec3 deepestAt{0.0f};
  /// How much of the stretch has no ground under the unit's centre (within
  /// 3 cm of it) within its step or its max drop, whichever is deeper, below
  /// the walked ground: a crack or a hole it would step into. [metres, ground plane]
  float overNoGround = 0.0f;
};

/// Per stretch between consecutive corners. Each is walked in pieces of at
/// most kClearancePiece, the ground under every piece's end found as the unit
/// would walk on (the highest it may stand on from a drop below to a step above
/// the ground before), and each piece swept with the unit's footprint (its
/// square or disc, of unit.footprint()) over its body above a step's height
/// (and the 2 cm of ground under its feet, kGroundClearance, as the fill): the
/// floor and the kerbs it steps over do not count; walls, pillars and low
/// ceilings do. Under every piece's end the ground under the unit's centre is
/// looked for too: a piece whose end has none within the step or the max drop
/// counts whole towards overNoGround. A unit without a footprint (a point) is never
/// measured: all 0.
std::vector<StretchClearance> pathClearance(const CollisionWorld& world, const UnitProfile& unit,
                                            std::span<const glm::vec3> corners);

/// A path's clearance at a glance: what the panels, the CLI and the bench report.
struct ClearanceSummary {
  /// Stretches walked (measured).
  size_t stretches = 0;
  /// Of those, the ones where the unit touches the level.
  size_t touching = 0;
  /// The deepest touch, and where it is (0 and the origin when none). [metres]
  float deepest = 0.0f;
  glm::vec3 deepestAt{0.0f};
  /// Of those, the ones with some length over no ground, and that length in all. [metres]
  size_t overNoGround = 0;
  float lengthOverNoGround = 0.0f;
};
ClearanceSummary summarizeClearance(std::span<const StretchClearance> stretches);

/// Longest piece of a stretch swept at one ground height. [metres]
constexpr float kClearancePiece = 0.15f;

}  // namespace nav
