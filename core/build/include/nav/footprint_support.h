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

  /// The highest ground under the ground-plane point p (within the raster's
  /// reach) no higher than `top`, as found under each sample; -infinity where
  /// there is none. Thread-safe. [metres]
  float groundBelow(glm::vec2 p, float top) const { return m_ground->groundBelow(p, top); }

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
};

}  // namespace nav
