#include "nav/sector_index.h"

#include <algorithm>
#include <cmath>

#include "nav/nav_graph.h"

namespace nav {

SectorIndex::SectorIndex(const NavGraph& graph) {
  Aabb bounds;
  size_t ground = 0;
  for (const Sector& sector : graph.sectors) {
    if (sector.kind != SectorKind::Ground) continue;
    bounds.grow(sector.bounds);
    ++ground;
  }
  if (ground == 0) return;
  // About one sector per grid cell, at most 1024 cells a side.
  const glm::vec2 extent(std::max(bounds.size().x, 1e-3f), std::max(bounds.size().z, 1e-3f));
  m_cellSize = std::max(std::sqrt(extent.x * extent.y / float(ground)),
                        std::max(extent.x, extent.y) / 1024.0f);
  m_origin = {bounds.min.x, bounds.min.z};
  m_size = {int32_t(std::ceil(extent.x / m_cellSize)) + 1, int32_t(std::ceil(extent.y / m_cellSize)) + 1};

  // Counting pass, then a filling pass: one flat array, no per-cell vectors.
  const size_t cells = size_t(m_size.x) * size_t(m_size.y);
  m_start.assign(cells + 1, 0);
  auto forEachCell = [&](const Sector& sector, auto&& action) {
    const glm::ivec2 lo = cellOf({sector.bounds.min.x, sector.bounds.min.z});
    const glm::ivec2 hi = cellOf({sector.bounds.max.x, sector.bounds.max.z});
    for (int32_t z = lo.y; z <= hi.y; ++z) {
      for (int32_t x = lo.x; x <= hi.x; ++x) action(size_t(z) * size_t(m_size.x) + size_t(x));
    }
  };
  for (const Sector& sector : graph.sectors) {
    if (sector.kind == SectorKind::Ground) forEachCell(sector, [&](size_t c) { ++m_start[c + 1]; });
  }
  for (size_t c = 0; c < cells; ++c) m_start[c + 1] += m_start[c];
  m_sectors.resize(m_start[cells]);
  std::vector<uint32_t> fill(m_start.begin(), m_start.end() - 1);
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    if (graph.sectors[s].kind == SectorKind::Ground)
      forEachCell(graph.sectors[s], [&](size_t c) { m_sectors[fill[c]++] = s; });
  }
}

glm::ivec2 SectorIndex::cellOf(glm::vec2 p) const {
  const glm::vec2 cell = glm::floor((p - m_origin) / m_cellSize);
  // Clamped before converting; a NaN (which every comparison fails) lands in cell 0.
  const auto along = [](float at, int32_t size) {
    return at > 0.0f ? int32_t(std::min(at, float(size - 1))) : 0;
  };
  return {along(cell.x, m_size.x), along(cell.y, m_size.y)};
}

}  // namespace nav
