#pragma once
// Cells found by the flood fill: places where the unit's box can stand, on a
// regular grid in x and z, with any number of cells per column at different
// heights (floors, bridges, stairs).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "nav/geometry.h"

namespace nav {

/// The four grid directions the unit steps in.
enum class Direction : uint8_t { PlusX = 0, PlusZ = 1, MinusX = 2, MinusZ = 3 };
constexpr int kDirectionCount = 4;
constexpr int kDirectionDx[kDirectionCount] = {1, 0, -1, 0};
constexpr int kDirectionDz[kDirectionCount] = {0, 1, 0, -1};
inline Direction opposite(Direction d) { return Direction((int(d) + 2) & 3); }

constexpr uint32_t kNoCell = 0xffffffffu;

struct Cell {
  /// Grid column.
  int32_t x, z;
  /// Height of the ground the unit stands on. [metres]
  float y;
  /// Bit d set when the unit can step from here in Direction d.
  uint8_t links;
  /// Material of the triangle the unit stands on (index into Level::materials).
  uint16_t material;

  bool canStep(Direction d) const { return (links >> int(d)) & 1u; }
};

class CellGrid {
 public:
  /// stepHeight and maxDrop are the unit's: they bound where a step can land.
  CellGrid(float cellSize, glm::vec2 origin, float stepHeight, float maxDrop)
      : m_cellSize(cellSize), m_origin(origin), m_stepHeight(stepHeight), m_maxDrop(maxDrop) {}

  float cellSize() const { return m_cellSize; }
  /// World (x, z) of the corner of column (0, 0).
  glm::vec2 origin() const { return m_origin; }
  const std::vector<Cell>& cells() const { return m_cells; }
  size_t size() const { return m_cells.size(); }
  const Cell& operator[](uint32_t i) const { return m_cells[i]; }

  /// Centre of the cell's footprint on its ground.
  glm::vec3 center(uint32_t i) const;
  /// Centre of column (x, z) at height y.
  glm::vec3 columnCenter(int32_t x, int32_t z, float y) const;
  /// Column containing the world point (x, z).
  glm::ivec2 columnOf(const glm::vec3& p) const;

  /// Highest cell of column (x, z) with a height in [yMin, yMax], or kNoCell.
  uint32_t findInColumn(int32_t x, int32_t z, float yMin, float yMax) const;
  /// The cell reached by stepping from `cell` in direction d (kNoCell when the step fails).
  uint32_t neighbor(uint32_t cell, Direction d) const;

  /// Appends a cell; returns its index.
  uint32_t add(const Cell& cell);
  void setLinks(uint32_t i, uint8_t links) { m_cells[i].links = links; }
  /// Bytes held by cells and the column index.
  size_t memoryBytes() const;

 private:
  static uint64_t key(int32_t x, int32_t z) {
    return (uint64_t(uint32_t(x)) << 32) | uint32_t(z);
  }

  float m_cellSize;
  glm::vec2 m_origin;
  float m_stepHeight;
  float m_maxDrop;
  std::vector<Cell> m_cells;
  /// Next cell up or down the same column, kNoCell at the end.
  std::vector<uint32_t> m_nextInColumn;
  std::unordered_map<uint64_t, uint32_t> m_columnHead;
};

}  // namespace nav
