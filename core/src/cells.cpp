#include "nav/cells.h"

#include <cmath>

namespace nav {

glm::vec3 CellGrid::center(uint32_t i) const {
  const Cell& cell = m_cells[i];
  return columnCenter(cell.x, cell.z, cell.y);
}

glm::vec3 CellGrid::columnCenter(int32_t x, int32_t z, float y) const {
  return {m_origin.x + (float(x) + 0.5f) * m_cellSize, y, m_origin.y + (float(z) + 0.5f) * m_cellSize};
}

glm::ivec2 CellGrid::columnOf(const glm::vec3& p) const {
  return {int32_t(std::floor((p.x - m_origin.x) / m_cellSize)),
          int32_t(std::floor((p.z - m_origin.y) / m_cellSize))};
}

uint32_t CellGrid::findInColumn(int32_t x, int32_t z, float yMin, float yMax) const {
  const auto head = m_columnHead.find(key(x, z));
  if (head == m_columnHead.end()) return kNoCell;
  uint32_t best = kNoCell;
  for (uint32_t i = head->second; i != kNoCell; i = m_nextInColumn[i]) {
    const float y = m_cells[i].y;
    if (y >= yMin && y <= yMax && (best == kNoCell || y > m_cells[best].y)) best = i;
  }
  return best;
}

uint32_t CellGrid::neighbor(uint32_t cell, Direction d) const {
  const Cell& from = m_cells[cell];
  if (!from.canStep(d)) return kNoCell;
  // The step lands on the highest ground within the move's height window; no
  // other cell of that column can lie inside the window above it (see flood_fill.cpp).
  constexpr float kSlack = 1e-3f;
  return findInColumn(from.x + kDirectionDx[int(d)], from.z + kDirectionDz[int(d)],
                      from.y - m_maxDrop - kSlack, from.y + m_stepHeight + kSlack);
}

uint32_t CellGrid::add(const Cell& cell) {
  const uint32_t index = uint32_t(m_cells.size());
  m_cells.push_back(cell);
  auto [head, inserted] = m_columnHead.try_emplace(key(cell.x, cell.z), index);
  m_nextInColumn.push_back(inserted ? kNoCell : head->second);
  head->second = index;
  return index;
}

size_t CellGrid::memoryBytes() const {
  // Hash nodes hold the key, the value and a next pointer; buckets one pointer each.
  const size_t nodeBytes = sizeof(uint64_t) + sizeof(uint32_t) + 2 * sizeof(void*);
  return m_cells.capacity() * sizeof(Cell) + m_nextInColumn.capacity() * sizeof(uint32_t) +
         m_columnHead.size() * nodeBytes + m_columnHead.bucket_count() * sizeof(void*);
}

}  // namespace nav
