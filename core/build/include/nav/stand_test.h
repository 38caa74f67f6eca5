#pragma once
// The unit's stand test: may it stand with its footprint centred on a column,
// and on what? The flood fill asks it for every cell (defined in
// flood_fill.cpp, with the fill's mover, which it shares); widening, path
// clearance and tools ask it for single points.
#include <cstdint>
#include <vector>

#include "nav/collision.h"
#include "nav/footprint_support.h"
#include "nav/geometry.h"
#include "nav/unit_profile.h"

namespace nav {

class CandidateBlocks;

/// Tests whether the unit can stand with its footprint centred on column (x, z),
/// resting on the highest ground in [yMin, yMax].
/// Default: the unit cannot stand.
struct StandResult {
  bool ok = false;
  /// Height of the ground the unit rests on: the highest under its footprint. [metres]
  float y = 0.0f;
  /// Triangle the unit stands on: under its centre when the highest ground is
  /// a step's edge (see feet), else the one it rests on.
  uint32_t triangle = 0;
  /// Height of the ground under the unit's centre when the highest ground is
  /// the edge of a face too steep to stand on, at most a step higher (beside a
  /// kerb, a rock, the foot of a bank); else y. Steps up are measured from here,
  /// so such an edge is climbed as one step, never as two. [metres]
  float feet = 0.0f;
  /// Set (with ok false) when the unit would stand clear on this ground but
  /// ground does not support its footprint (footprint_support.h): it would
  /// hang over a ledge. Where a fall off the ledge starts.
  bool hangs = false;
};
/// `walkableTriangles` as walkableTrianglesFor gives it (empty: every triangle).
/// With `support` (made for this unit), ground must support the footprint, as
/// in the fill; without, the unit may stand anywhere it rests clear. With
/// `near` (over `world`), the triangles come from its blocks instead of a walk
/// of the tree: the same answer, cheaper for many queries close together.
StandResult tryStand(const CollisionWorld& world, const UnitProfile& unit,
                     glm::vec2 footprintCenter, float yMin, float yMax,
                     const std::vector<bool>& walkableTriangles = {},
                     const FootprintSupport* support = nullptr, CandidateBlocks* near = nullptr);

/// tryStand in [height - step, height + step] where only ground within
/// `tolerance` of `height` will do: the same answer when its ground is that
/// near, else none, found without testing the body and the footprint's support
/// over ground too high or too low (most tries beside a ledge or a stair).
StandResult tryStandNear(const CollisionWorld& world, const UnitProfile& unit,
                         glm::vec2 footprintCenter, float height, float tolerance,
                         const std::vector<bool>& walkableTriangles = {},
                         const FootprintSupport* support = nullptr,
                         CandidateBlocks* near = nullptr);

}  // namespace nav
