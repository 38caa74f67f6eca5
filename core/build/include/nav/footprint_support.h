#pragma once
// Whether ground supports a standing unit's footprint: the rule that keeps
// units off wall tops, railings and thin air.
//
// The footprint, less the unit's ledge overhang all round, is sampled at
// points no further apart than a cell: a grid over the square, including its
// edge, or over the disc, with points along its rim. The unit resting at
// height y is supported when
//   - under every sample lies ground, any face turned up (within the ground
//     raster's reach), no higher than y + 2 cm; the highest such is its
//     ground there;
//   - the highest of those grounds is within one step below y, and so is
//     the ground under the footprint's centre (the unit's own feet: a pit
//     under its middle, whose sides the next rule lets pass, is no floor);
//   - neighbouring samples' grounds differ by at most a step.
// When the samples are a whole number of squares of the ground raster apart
// and the footprint is centred on a square's centre (as a cell's is), the grid's
// samples are the square centres themselves, whose ground the raster lists.
// So stairs, ramps and a bevelled kerb within the step height (while the rise
// between samples stays within a step) are supported, and a footprint over a
// ledge, a hole or the drop beside a wall top is not. A gap narrower than the
// sample spacing may pass unseen between samples.
#include <limits>
#include <utility>
#include <vector>

#include "nav/geometry.h"
#include "nav/ground_raster.h"
#include "nav/unit_profile.h"

namespace nav {

/// The unit's body starts this far above its ground, so that the ground itself
/// is not a collision; ground up to here counts as under its feet. [metres]
inline constexpr float kGroundClearance = 0.02f;
/// Heights this close count as equal in the step checks (rounding). [metres]
inline constexpr float kStepSlack = 1e-3f;

class FootprintSupport {
 public:
  /// Keeps a reference to `ground`.
  FootprintSupport(const GroundRaster& ground, const UnitProfile& unit);

  /// Whether the unit with its footprint centred on the ground-plane point
  /// `center`, resting at height restY, stands on ground. Thread-safe.
  bool supported(glm::vec2 center, float restY) const;

  /// Whether the unit stays on ground between two standing positions a and b
  /// (neighbouring cells' centres), resting no higher than `top` there (2 cm
  /// above the higher position): at the points that cut the line between
  /// them into the fewest even number of pieces no longer than twice the
  /// raster's reach, at most six (5 cm apart at 0.3 m cells; halfway is one
  /// of them), ground under the centre
  /// (the highest no higher than top) lies within a step below anything under
  /// the footprint up to top. clearAbove(p, low, top) says whether nothing
  /// under the footprint at p lies from low up to top; it is asked only where
  /// the ground lies more than a step below top. Points on the face of the
  /// ground under either centre (on the raster's lattice), where that face
  /// holds the segment within a step below top, are not looked at.
  /// On stairs whose treads are narrower than half the footprint, the unit
  /// between the cells rests on the tread above its centre's, two risers up,
  /// while each cell rests one riser up. Thread-safe.
  template <class ClearAbove>
  bool supportedBetween(glm::vec2 a, glm::vec2 b, float top, ClearAbove&& clearAbove) const {
    const float lowest = top - m_stepHeight - kStepSlack;
    GroundRaster::TileCache tiles;
    // The part from a that a's face holds, and when that is not all, b's.
    const float fromA = settledPart(true, a, b, top, lowest, tiles);
    if (fromA >= 1.0f) return true;
    const float toB = settledPart(false, a, b, top, lowest, tiles);
    if (fromA >= toB) return true;
    const int pieces = piecesBetween(a, b);
    for (int k = 1; k < pieces; ++k) {
      const float t = float(k) / float(pieces);
      if (t <= fromA || t >= toB) continue;
      const glm::vec2 p = glm::mix(a, b, t);
      const float ground = m_ground->groundBelow(p, top, tiles);
      if (ground == -std::numeric_limits<float>::infinity()) return false;
      if (ground < lowest && !clearAbove(p, ground + m_stepHeight + kStepSlack, top)) return false;
    }
    return true;
  }

 private:
  const GroundRaster* m_ground;
  float m_stepHeight;
  /// Sample points relative to the footprint's centre. [metres]
  std::vector<glm::vec2> m_samples;
  /// When the grid's samples lie on the raster's lattice: the first samples'
  /// offsets in squares (empty otherwise).
  std::vector<glm::ivec2> m_squareOffsets;
  /// Neighbouring samples, whose grounds may differ by at most a step.
  std::vector<std::pair<uint32_t, uint32_t>> m_neighbours;
  /// The sample at the footprint's centre.
  uint32_t m_centre = 0;

  // The part of the segment from a to b (a + t (b - a)) whose points' ground
  // is known, without looking, to lie within [lowest, top]: from a (atA) or
  // b up to the returned t. Where that end is a square centre, the face its
  // ground lies on holds the segment from it up to where the segment leaves
  // that face, and along that part the face's height is least and greatest
  // at the part's ends. Nothing known: the end's own t.
  float settledPart(bool atA, glm::vec2 a, glm::vec2 b, float top, float lowest,
                    GroundRaster::TileCache& tiles) const;
  // The pieces supportedBetween cuts the line from a to b into.
  int piecesBetween(glm::vec2 a, glm::vec2 b) const;
};

}  // namespace nav
