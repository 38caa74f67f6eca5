#include "nav/footprint_support.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nav {
namespace {

// At most this many sample intervals across the footprint, however small the cells.
constexpr int kMaxIntervals = 32;
// At most this many pieces between two positions, however large the cells:
// the grid angle's trial fills, on cells three times as wide, would
// otherwise look at three times the points a step.
constexpr int kMaxPiecesBetween = 6;

}  // namespace

FootprintSupport::FootprintSupport(const GroundRaster& ground, const UnitProfile& unit)
    : m_ground(&ground), m_stepHeight(unit.stepHeight) {
  const float half = std::max(0.0f, unit.footprint() * 0.5f - unit.ledgeOverhang);
  const int intervals =
      std::clamp(int(std::ceil(2.0f * half / ground.squareSize())), 1, kMaxIntervals);
  const float spacing = 2.0f * half / float(intervals);
  const bool round = unit.shape == UnitShape::Round;
  // Samples a whole number of squares from a centre are square centres.
  const bool onLattice = intervals % 2 == 0 &&
                         std::abs(spacing - ground.squareSize()) <= 1e-6f * ground.squareSize();
  // The grid, row by row; -1 where a point is left out (outside the disc).
  std::vector<int> gridIndex;
  for (int j = 0; j <= intervals; ++j) {
    for (int i = 0; i <= intervals; ++i) {
      const glm::vec2 p(-half + float(i) * spacing, -half + float(j) * spacing);
      const bool inside = !round || glm::length(p) <= half * (1.0f + 1e-5f);
      gridIndex.push_back(inside ? int(m_samples.size()) : -1);
      if (!inside) continue;
      m_samples.push_back(p);
      if (onLattice) m_squareOffsets.emplace_back(i - intervals / 2, j - intervals / 2);
    }
  }
  const auto at = [&](int i, int j) { return gridIndex[size_t(j * (intervals + 1) + i)]; };
  for (int j = 0; j <= intervals; ++j) {
    for (int i = 0; i <= intervals; ++i) {
      if (at(i, j) < 0) continue;
      if (i < intervals && at(i + 1, j) >= 0)
        m_neighbours.emplace_back(uint32_t(at(i, j)), uint32_t(at(i + 1, j)));
      if (j < intervals && at(i, j + 1) >= 0)
        m_neighbours.emplace_back(uint32_t(at(i, j)), uint32_t(at(i, j + 1)));
    }
  }
  const size_t gridPoints = m_samples.size();
  // The grid's middle point, or (an odd number of intervals) one of its own.
  m_centre = uint32_t(gridPoints);
  for (uint32_t g = 0; g < gridPoints; ++g) {
    if (glm::length(m_samples[g]) <= 1e-5f * spacing) m_centre = g;
  }
  if (m_centre == gridPoints) m_samples.emplace_back(0.0f);
  if (!round || half == 0.0f) return;
  // The rim, each point a neighbour of the next and of the nearest grid point.
  const uint32_t firstRim = uint32_t(m_samples.size());
  const int rimPoints =
      std::max(8, int(std::ceil(2.0f * std::numbers::pi_v<float> * half / spacing)));
  for (int k = 0; k < rimPoints; ++k) {
    const float angle = 2.0f * std::numbers::pi_v<float> * float(k) / float(rimPoints);
    const glm::vec2 p = half * glm::vec2(std::cos(angle), std::sin(angle));
    const uint32_t index = uint32_t(m_samples.size());
    uint32_t nearest = 0;
    for (uint32_t g = 1; g < gridPoints; ++g) {
      if (glm::length(m_samples[g] - p) < glm::length(m_samples[nearest] - p)) nearest = g;
    }
    m_samples.push_back(p);
    m_neighbours.emplace_back(nearest, index);
    m_neighbours.emplace_back(index, k + 1 < rimPoints ? index + 1 : firstRim);
  }
}

bool FootprintSupport::supported(glm::vec2 center, float restY) const {
  thread_local std::vector<float> grounds;
  grounds.resize(m_samples.size());
  const float top = restY + kGroundClearance;
  float highest = -INFINITY;
  GroundRaster::TileCache tiles;
  // Only a footprint centred on a square's centre has its grid samples there.
  const glm::ivec2 square = m_squareOffsets.empty() ? glm::ivec2(0) : m_ground->squareOf(center);
  const size_t lattice = !m_squareOffsets.empty() && m_ground->squareCentre(square) == center
                             ? m_squareOffsets.size()
                             : 0;
  for (size_t s = 0; s < m_samples.size(); ++s) {
    const float ground =
        s < lattice ? m_ground->groundBelowCentre(square + m_squareOffsets[s], top, tiles)
                    : m_ground->groundBelow(center + m_samples[s], top, tiles);
    if (ground == -INFINITY) return false;
    grounds[s] = ground;
    highest = std::max(highest, ground);
  }
  const float lowest = restY - m_stepHeight - kStepSlack;
  if (highest < lowest || grounds[m_centre] < lowest) return false;
  const float allowed = m_stepHeight + kStepSlack;
  return std::all_of(m_neighbours.begin(), m_neighbours.end(), [&](const auto& pair) {
    return std::abs(grounds[pair.first] - grounds[pair.second]) <= allowed;
  });
}

int FootprintSupport::piecesBetween(glm::vec2 a, glm::vec2 b) const {
  const float spacing = 2.0f * m_ground->reach();
  const float length = glm::distance(a, b);
  // An even number, so that the point halfway is one of them.
  const int pieces = spacing > 0.0f ? int(std::ceil(length / spacing)) : 2;
  return std::clamp(pieces + pieces % 2, 2, kMaxPiecesBetween);
}

float FootprintSupport::settledPart(bool atA, glm::vec2 a, glm::vec2 b, float top, float lowest,
                                    GroundRaster::TileCache& tiles) const {
  const glm::vec2 end = atA ? a : b;
  const float nothing = atA ? 0.0f : 1.0f;
  const glm::ivec2 square = m_ground->squareOf(end);
  if (m_ground->squareCentre(square) != end) return nothing;
  uint32_t face = GroundRaster::kNoFace;
  if (!(m_ground->groundBelowCentre(square, top, tiles, face) >= lowest)) return nothing;
  const auto [first, last] = m_ground->faceSpan(face, a, b);
  // The face must hold `end` itself, and the part must reach from it.
  if (!(atA ? first == 0.0f && last >= 0.0f : last == 1.0f && first <= 1.0f)) return nothing;
  const float far = atA ? last : first;
  const float height = m_ground->faceHeight(face, glm::mix(a, b, far));
  return height >= lowest && height <= top ? far : nothing;
}

}  // namespace nav
