#include "nav/path_clearance.h"

#include <algorithm>
#include <cmath>

#include "nav/flood_fill.h"
#include "nav/footprint_support.h"
#include "nav/geometry.h"
#include "nav/stand_test.h"

namespace nav {
namespace {

// As the flood fill: geometry exactly on the footprint's rim does not count.
constexpr float kRim = 0.005f;
// The body band stops this short of its top.
constexpr float kMargin = 0.01f;
// Halvings of the footprint that find a touch's depth: to well under a millimetre.
constexpr int kDepthHalvings = 12;
// Below the deepest the unit may stand over, rounding of the heights it rests at. [metres]
constexpr float kDepthSlack = 0.005f;
// Longer than any stretch of a level's path. [metres]
constexpr float kMaxStretch = 1e5f;

class StretchSweeper {
 public:
  StretchSweeper(const CollisionWorld& world, const UnitProfile& unit)
      : m_world(world), m_unit(unit), m_half(unit.footprint() * 0.5f - kRim) {}

  bool measurable() const { return m_half > 0.0f; }

  StretchClearance measure(const glm::vec3& from, const glm::vec3& to) const {
    StretchClearance result;
    const glm::vec2 a = groundOf(from), b = groundOf(to);
    const float length = glm::distance(a, b);
    // Corners off any level (NaN, or farther apart than a level reaches) are no walk.
    if (!(length < kMaxStretch) || !std::isfinite(from.y) || !std::isfinite(to.y))
      return StretchClearance{false};
    const int pieces = std::max(1, int(std::ceil(length / kClearancePiece)));
    float y = groundNear(a, from.y - m_unit.stepHeight, from.y + m_unit.stepHeight, from.y);
    for (int k = 0; k < pieces; ++k) {
      const glm::vec2 p = glm::mix(a, b, float(k) / float(pieces));
      const glm::vec2 q = glm::mix(a, b, float(k + 1) / float(pieces));
      const float next = groundNear(q, y - m_unit.maxDrop - kMargin, y + m_unit.stepHeight, y);
      if (!groundUnderCentre(q, next)) result.overNoGround += glm::distance(p, q);
      if (overlaps(p, y, q, next, m_half)) {
        const float depth = m_half - clearHalf(p, y, q, next);
        if (depth > result.depth) {
          result.depth = depth;
          result.deepestAt = glm::vec3(0.5f * (p.x + q.x), 0.5f * (y + next), 0.5f * (p.y + q.y));
        }
      }
      y = next;
    }
    if (std::abs(y - to.y) > m_unit.stepHeight) result = StretchClearance{false};
    return result;
  }

 private:
  // The highest ground the unit may stand on at `at` within [below, above]; else `otherwise`.
  float groundNear(glm::vec2 at, float below, float above, float otherwise) const {
    const StandResult stand = tryStand(m_world, m_unit, at, below, above);
    return stand.ok ? stand.y : otherwise;
  }

  // Whether ground lies under the centre at `at`, from the unit's feet at y
  // (and the 2 cm the fill counts as under them) down to its step or its
  // drop, whichever is deeper (the fill lets the footprint rest a step above
  // the ground under its centre). Within the ground raster's reach of the
  // centre will do, as the fill bridges cracks narrower than twice that.
  bool groundUnderCentre(glm::vec2 at, float y) const {
    const float above = kGroundClearance;
    const float depth = std::max(m_unit.maxDrop, m_unit.stepHeight) + above + kDepthSlack;
    for (const glm::vec2 offset :
         {glm::vec2(0.0f), glm::vec2(kGroundRasterReach, 0.0f),
          glm::vec2(-kGroundRasterReach, 0.0f), glm::vec2(0.0f, kGroundRasterReach),
          glm::vec2(0.0f, -kGroundRasterReach)}) {
      const glm::vec2 p = at + offset;
      if (m_world.raycast(glm::vec3(p.x, y + above, p.y), glm::vec3(0.0f, -1.0f, 0.0f), depth))
        return true;
    }
    return false;
  }

  // The body above what the unit steps onto, swept from p (ground yp) to q
  // (ground yq) with the footprint of half size `half`. The fill lets it rest
  // on ground up to kGroundClearance above its step's reach (ground that high
  // counts as under its feet), so a kerb that high is stepped onto, not touched.
  bool overlaps(glm::vec2 p, float yp, glm::vec2 q, float yq, float half) const {
    const float low = std::max(yp, yq) + m_unit.stepHeight + kGroundClearance;
    const float high = std::min(yp, yq) + m_unit.height - kMargin;
    if (!(low < high)) return false;
    if (m_unit.shape == UnitShape::Round) return m_world.overlapsStadium({p, q, half, low, high});
    return m_world.overlapsPrism(Prism::sweptSquare(p, q, half, low, high));
  }

  // The largest half size whose sweep passes clear (0 when even the path's line touches).
  float clearHalf(glm::vec2 p, float yp, glm::vec2 q, float yq) const {
    float clear = 0.0f, touching = m_half;
    for (int i = 0; i < kDepthHalvings; ++i) {
      const float mid = 0.5f * (clear + touching);
      (overlaps(p, yp, q, yq, mid) ? touching : clear) = mid;
    }
    return clear;
  }

  const CollisionWorld& m_world;
  const UnitProfile& m_unit;
  float m_half;
};

}  // namespace

std::vector<StretchClearance> pathClearance(const CollisionWorld& world, const UnitProfile& unit,
                                            std::span<const glm::vec3> corners) {
  std::vector<StretchClearance> stretches(corners.size() < 2 ? 0 : corners.size() - 1);
  const StretchSweeper sweeper(world, unit);
  if (!sweeper.measurable()) return stretches;
  for (size_t i = 0; i < stretches.size(); ++i)
    stretches[i] = sweeper.measure(corners[i], corners[i + 1]);
  return stretches;
}

ClearanceSummary summarizeClearance(std::span<const StretchClearance> stretches) {
  ClearanceSummary summary;
  for (const StretchClearance& stretch : stretches) {
    if (!stretch.walked) continue;
    ++summary.stretches;
    if (stretch.overNoGround > 0.0f) {
      ++summary.overNoGround;
      summary.lengthOverNoGround += stretch.overNoGround;
    }
    if (!(stretch.depth > 0.0f)) continue;
    ++summary.touching;
    if (stretch.depth > summary.deepest) {
      summary.deepest = stretch.depth;
      summary.deepestAt = stretch.deepestAt;
    }
  }
  return summary;
}

}  // namespace nav
