#pragma once
// Cells found by the flood fill: places where the unit's box can stand, on a
// regular grid in x and z, with any number of cells per column at different
// heights (floors, bridges, stairs).
//
// Stored compactly for fills of tens of millions of cells: per cell only its
// height, links, material and the next cell of its column (11 bytes), in
// blocks that never reallocate; columns are found through tiles of 16 x 16
// column heads. Once the fill is done the cells are numbered row by row and
// each cell's column is recorded (numberRowMajor, or indexColumns alone), for
// the stages that read cells by index.
#include <cstdint>
#include <memory>
#include <vector>

#include "nav/geometry.h"

namespace nav {

/// The four grid directions the unit steps in.
enum class Direction : uint8_t { PlusX = 0, PlusZ = 1, MinusX = 2, MinusZ = 3 };
constexpr int kDirectionCount = 4;
constexpr int kDirectionDx[kDirectionCount] = {1, 0, -1, 0};
constexpr int kDirectionDz[kDirectionCount] = {0, 1, 0, -1};
inline Direction opposite(Direction d) {
  return Direction((int(d) + 2) & 3);
}

constexpr uint32_t kNoCell = 0xffffffffu;

/// One cell, assembled on request from the grid's compact storage.
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

/// A fall off a ledge: stepping from `from` in `direction`, the unit walks on
/// at its height while its footprint hangs over the ledge (no cell there: it
/// cannot stand), and lands `columns` columns away, on `to`. One-way.
struct FallLink {
  uint32_t from;
  uint32_t to;
  Direction direction;
  /// Columns between the two cells' columns along `direction`. [>= 2]
  uint8_t columns;
};

class CellGrid {
 public:
  /// stepHeight and maxDrop are the unit's: they bound where a step can land.
  CellGrid(float cellSize, glm::vec2 origin, float stepHeight, float maxDrop);
  CellGrid(CellGrid&&) noexcept;
  CellGrid& operator=(CellGrid&&) noexcept;
  ~CellGrid();

  float cellSize() const { return m_cellSize; }
  /// World (x, z) of the corner of column (0, 0).
  glm::vec2 origin() const { return m_origin; }
  size_t size() const;
  /// The cell with its column; needs indexColumns().
  Cell operator[](uint32_t i) const;
  float height(uint32_t i) const;

  /// Centre of the cell's footprint on its ground; needs indexColumns().
  glm::vec3 center(uint32_t i) const;
  /// Centre of column (x, z) at height y.
  glm::vec3 columnCenter(int32_t x, int32_t z, float y) const {
    return {m_origin.x + (float(x) + 0.5f) * m_cellSize, y,
            m_origin.y + (float(z) + 0.5f) * m_cellSize};
  }
  /// Column containing the world point (x, z).
  glm::ivec2 columnOf(const glm::vec3& p) const;

  /// Highest cell of column (x, z) with a height in [yMin, yMax], or kNoCell.
  uint32_t findInColumn(int32_t x, int32_t z, float yMin, float yMax) const;
  /// The cell a step from height fromY into column (x, z) leads to: the
  /// highest within the move's height window (what neighbor() resolves a link to).
  uint32_t stepTarget(int32_t x, int32_t z, float fromY) const;
  /// Whether height y lies in the window of a step from height fromY.
  bool inStepWindow(float fromY, float y) const;
  /// The cell reached by stepping from `cell` in direction d (kNoCell when the
  /// step fails); needs indexColumns().
  uint32_t neighbor(uint32_t cell, Direction d) const;

  /// For cells [first, last): the cell its step in +X leads to when that
  /// cell's step in -X leads back to it, into plusX[c - first] (else kNoCell),
  /// and the same along +Z into plusZ. As neighbor() both ways, but a column
  /// at a time, which the stages after the fill sweep by rows. Needs numberRowMajor().
  void mutualStepsAhead(uint32_t first, uint32_t last, uint32_t* plusX, uint32_t* plusZ) const;

  /// Falls off ledges, ordered by their `from` cell, then direction.
  const std::vector<FallLink>& falls() const { return m_falls; }
  /// The fall from `cell` in direction d, if there is one.
  const FallLink* fallFrom(uint32_t cell, Direction d) const;
  /// Records a fall; falls are added in the order falls() keeps.
  void addFall(const FallLink& fall) { m_falls.push_back(fall); }

  /// Appends a cell with no links yet; returns its index.
  uint32_t add(int32_t x, int32_t z, float y, uint16_t material);
  void setLinks(uint32_t i, uint8_t links);
  /// Records every cell's column, for reading cells by index (4 bytes a cell).
  void indexColumns();
  /// Numbers the cells in rowMajorOrder (which then lists 0, 1, 2, ...) and
  /// records their columns: the stages after the fill sweep the grid row by
  /// row, and so read the cells in the order they lie in memory. Indices
  /// given out before no longer hold.
  void numberRowMajor();
  /// Every cell index ordered by row (z), then column (x), then height: a sweep
  /// over the grid without sorting the cells, or 0, 1, 2, ... once numberRowMajor ran.
  std::vector<uint32_t> rowMajorOrder() const;
  /// True from numberRowMajor until a cell is added: rowMajorOrder is then 0, 1, 2, ...
  bool numberedRowMajor() const { return m_numberedRowMajor; }

  /// Bytes held by the cells, the column index and the tiles.
  size_t memoryBytes() const;
  /// Bytes the fill itself needs: everything but the column index.
  size_t fillMemoryBytes() const;

 private:
  struct Storage;
  float m_cellSize;
  glm::vec2 m_origin;
  float m_stepHeight;
  float m_maxDrop;
  std::unique_ptr<Storage> m_storage;
  std::vector<FallLink> m_falls;
  bool m_numberedRowMajor = false;
};

}  // namespace nav
