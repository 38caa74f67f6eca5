#include "nav/cells.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "chunked_array.h"
#include "tile_index.h"

namespace nav {
namespace {

constexpr int kTileBits = 4;
constexpr int32_t kTileSize = 1 << kTileBits;  // columns per tile side
constexpr int32_t kTileMask = kTileSize - 1;

struct Tile {
  /// First cell of each column (the most recently added), kNoCell when empty.
  uint32_t head[kTileSize * kTileSize];
};

// Column packed as tile index (high bits) and position in the tile (low 8 bits).
uint32_t packColumn(uint32_t tile, int32_t localX, int32_t localZ) {
  return (tile << (2 * kTileBits)) | uint32_t(localZ << kTileBits) | uint32_t(localX);
}

}  // namespace

struct CellGrid::Storage {
  ChunkedArray<float> height;
  ChunkedArray<uint32_t> nextInColumn;
  ChunkedArray<uint16_t> material;
  ChunkedArray<uint8_t> links;
  ChunkedArray<Tile, 8> tiles;
  /// Tile origin (in columns) of each tile, for turning a packed column back into x, z.
  std::vector<glm::ivec2> tileOrigin;
  TileIndex tileIndex;
  /// Packed column of each cell; filled by indexColumns().
  std::vector<uint32_t> column;

  const Tile* findTile(int32_t x, int32_t z) const {
    const uint32_t tile = tileIndex.find(tileKey(x >> kTileBits, z >> kTileBits));
    return tile == kNoTile ? nullptr : &tiles[tile];
  }
};

CellGrid::CellGrid(float cellSize, glm::vec2 origin, float stepHeight, float maxDrop)
    : m_cellSize(cellSize),
      m_origin(origin),
      m_stepHeight(stepHeight),
      m_maxDrop(maxDrop),
      m_storage(std::make_unique<Storage>()) {}
CellGrid::CellGrid(CellGrid&&) noexcept = default;
CellGrid& CellGrid::operator=(CellGrid&&) noexcept = default;
CellGrid::~CellGrid() = default;

size_t CellGrid::size() const {
  return m_storage->height.size();
}

float CellGrid::height(uint32_t i) const {
  return m_storage->height[i];
}

Cell CellGrid::operator[](uint32_t i) const {
  const Storage& s = *m_storage;
  const uint32_t packed = s.column[i];
  const glm::ivec2 tile = s.tileOrigin[packed >> (2 * kTileBits)];
  return Cell{tile.x + int32_t(packed & kTileMask),
              tile.y + int32_t((packed >> kTileBits) & kTileMask), s.height[i], s.links[i],
              s.material[i]};
}

glm::vec3 CellGrid::center(uint32_t i) const {
  const Cell cell = (*this)[i];
  return columnCenter(cell.x, cell.z, cell.y);
}

glm::ivec2 CellGrid::columnOf(const glm::vec3& p) const {
  return {int32_t(std::floor((p.x - m_origin.x) / m_cellSize)),
          int32_t(std::floor((p.z - m_origin.y) / m_cellSize))};
}

namespace {

// Heights this far outside a step's window still count as in it.
constexpr float kStepWindowSlack = 1e-3f;

// The highest cell of a column's chain (first cell `head`) within [yMin, yMax].
uint32_t highestWithin(uint32_t head, const ChunkedArray<float>& height,
                       const ChunkedArray<uint32_t>& nextInColumn, float yMin, float yMax) {
  uint32_t best = kNoCell;
  float bestY = 0.0f;
  for (uint32_t i = head; i != kNoCell; i = nextInColumn[i]) {
    const float y = height[i];
    if (y >= yMin && y <= yMax && (best == kNoCell || y > bestY)) {
      best = i;
      bestY = y;
    }
  }
  return best;
}

// The values `array` holds for the cells `order` lists, in that order, each
// passed through `map`.
template <class Array, class Map>
Array inOrder(const Array& array, const std::vector<uint32_t>& order, Map map) {
  Array result;
  for (const uint32_t i : order)
    result.push_back(map(array[i]));
  return result;
}

}  // namespace

uint32_t CellGrid::findInColumn(int32_t x, int32_t z, float yMin, float yMax) const {
  const Storage& s = *m_storage;
  const Tile* tile = s.findTile(x, z);
  if (!tile) return kNoCell;
  return highestWithin(tile->head[((z & kTileMask) << kTileBits) | (x & kTileMask)], s.height,
                       s.nextInColumn, yMin, yMax);
}

uint32_t CellGrid::neighbor(uint32_t cell, Direction d) const {
  const Storage& s = *m_storage;
  if (!((s.links[cell] >> int(d)) & 1u)) return kNoCell;
  // Within the cell's own tile (15 steps in 16) the column is found without
  // looking the tile up.
  const uint32_t packed = s.column[cell];
  const int32_t localX = int32_t(packed & kTileMask) + kDirectionDx[int(d)];
  const int32_t localZ = int32_t((packed >> kTileBits) & kTileMask) + kDirectionDz[int(d)];
  const float y = s.height[cell];
  if (localX < 0 || localX > kTileMask || localZ < 0 || localZ > kTileMask) {
    const Cell from = (*this)[cell];
    return stepTarget(from.x + kDirectionDx[int(d)], from.z + kDirectionDz[int(d)], y);
  }
  const Tile& tile = s.tiles[packed >> (2 * kTileBits)];
  return highestWithin(tile.head[(localZ << kTileBits) | localX], s.height, s.nextInColumn,
                       y - m_maxDrop - kStepWindowSlack, y + m_stepHeight + kStepWindowSlack);
}

void CellGrid::mutualStepsAhead(uint32_t first, uint32_t last, uint32_t* plusX,
                                uint32_t* plusZ) const {
  const Storage& s = *m_storage;
  const uint32_t count = uint32_t(size());
  // Numbered row by row, a column's cells are consecutive, lowest first.
  struct Block {
    uint32_t begin = 0, end = 0;
  };
  const auto blockAround = [&](uint32_t cell) {
    Block block{cell, cell + 1};
    const uint32_t packed = s.column[cell];
    while (block.begin > 0 && s.column[block.begin - 1] == packed)
      --block.begin;
    while (block.end < count && s.column[block.end] == packed)
      ++block.end;
    return block;
  };
  // The column beside the cell's in direction d (empty when it holds no cells).
  const auto blockBeside = [&](uint32_t cell, Direction d) {
    const uint32_t packed = s.column[cell];
    int32_t localX = int32_t(packed & kTileMask) + kDirectionDx[int(d)];
    int32_t localZ = int32_t((packed >> kTileBits) & kTileMask) + kDirectionDz[int(d)];
    const Tile* tile = &s.tiles[packed >> (2 * kTileBits)];
    if (localX > kTileMask || localZ > kTileMask) {
      const Cell from = (*this)[cell];
      tile = s.findTile(from.x + kDirectionDx[int(d)], from.z + kDirectionDz[int(d)]);
      localX &= kTileMask;
      localZ &= kTileMask;
    }
    const uint32_t head = tile ? tile->head[(localZ << kTileBits) | localX] : kNoCell;
    return head == kNoCell ? Block{} : blockAround(head);
  };
  // The highest cell of the block within the window of a step from fromY, as stepTarget.
  const auto highestInWindow = [&](Block block, float fromY) {
    for (uint32_t i = block.end; i > block.begin; --i) {
      if (inStepWindow(fromY, s.height[i - 1])) return i - 1;
    }
    return kNoCell;
  };
  Block own, besideX, besideZ;
  for (uint32_t c = first; c < last; ++c) {
    if (c >= own.end) {
      own = blockAround(c);
      besideX = blockBeside(c, Direction::PlusX);
      besideZ = blockBeside(c, Direction::PlusZ);
    }
    const uint8_t links = s.links[c];
    const float y = s.height[c];
    const auto mutual = [&](Direction d, Block beside) {
      if (!((links >> int(d)) & 1u)) return kNoCell;
      const uint32_t next = highestInWindow(beside, y);
      if (next == kNoCell || !((s.links[next] >> int(opposite(d))) & 1u)) return kNoCell;
      return highestInWindow(own, s.height[next]) == c ? next : kNoCell;
    };
    plusX[c - first] = mutual(Direction::PlusX, besideX);
    plusZ[c - first] = mutual(Direction::PlusZ, besideZ);
  }
}

uint32_t CellGrid::stepTarget(int32_t x, int32_t z, float fromY) const {
  // The step lands on the highest ground within the move's height window; no
  // other cell of that column can lie inside the window above it (see flood_fill.cpp).
  return findInColumn(x, z, fromY - m_maxDrop - kStepWindowSlack,
                      fromY + m_stepHeight + kStepWindowSlack);
}

bool CellGrid::inStepWindow(float fromY, float y) const {
  return y >= fromY - m_maxDrop - kStepWindowSlack && y <= fromY + m_stepHeight + kStepWindowSlack;
}

const FallLink* CellGrid::fallFrom(uint32_t cell, Direction d) const {
  const auto at =
      std::lower_bound(m_falls.begin(), m_falls.end(), std::pair(cell, d),
                       [](const FallLink& fall, const std::pair<uint32_t, Direction>& key) {
                         return std::pair(fall.from, fall.direction) < key;
                       });
  return at != m_falls.end() && at->from == cell && at->direction == d ? &*at : nullptr;
}

uint32_t CellGrid::add(int32_t x, int32_t z, float y, uint16_t material) {
  Storage& s = *m_storage;
  const uint64_t key = tileKey(x >> kTileBits, z >> kTileBits);
  const uint32_t tileNumber = s.tileIndex.findOrAdd(key, uint32_t(s.tiles.size()));
  if (tileNumber == s.tiles.size()) {
    Tile tile;
    std::fill(std::begin(tile.head), std::end(tile.head), kNoCell);
    s.tiles.push_back(tile);
    s.tileOrigin.push_back({x & ~kTileMask, z & ~kTileMask});
  }
  uint32_t& head = s.tiles[tileNumber].head[((z & kTileMask) << kTileBits) | (x & kTileMask)];
  const uint32_t index = uint32_t(s.height.size());
  s.height.push_back(y);
  s.nextInColumn.push_back(head);
  s.material.push_back(material);
  s.links.push_back(0);
  head = index;
  if (!s.column.empty()) std::vector<uint32_t>().swap(s.column);  // stale once cells are added
  m_numberedRowMajor = false;
  return index;
}

void CellGrid::setLinks(uint32_t i, uint8_t links) {
  m_storage->links[i] = links;
}

void CellGrid::indexColumns() {
  Storage& s = *m_storage;
  s.column.assign(size(), 0);
  for (uint32_t t = 0; t < s.tiles.size(); ++t) {
    for (int32_t local = 0; local < kTileSize * kTileSize; ++local) {
      for (uint32_t i = s.tiles[t].head[local]; i != kNoCell; i = s.nextInColumn[i])
        s.column[i] = packColumn(t, local & kTileMask, local >> kTileBits);
    }
  }
}

void CellGrid::numberRowMajor() {
  Storage& s = *m_storage;
  const std::vector<uint32_t> order = rowMajorOrder();
  std::vector<uint32_t> numberOf(order.size());
  for (uint32_t k = 0; k < order.size(); ++k)
    numberOf[order[k]] = k;
  const auto same = [](auto value) { return value; };
  const auto renumbered = [&](uint32_t i) { return i == kNoCell ? kNoCell : numberOf[i]; };
  // One array at a time, so that only one is held twice.
  s.height = inOrder(s.height, order, same);
  s.nextInColumn = inOrder(s.nextInColumn, order, renumbered);
  s.material = inOrder(s.material, order, same);
  s.links = inOrder(s.links, order, same);
  for (uint32_t t = 0; t < s.tiles.size(); ++t) {
    for (uint32_t& head : s.tiles[t].head)
      head = renumbered(head);
  }
  for (FallLink& fall : m_falls) {
    fall.from = numberOf[fall.from];
    fall.to = numberOf[fall.to];
  }
  std::sort(m_falls.begin(), m_falls.end(), [](const FallLink& a, const FallLink& b) {
    return std::pair(a.from, a.direction) < std::pair(b.from, b.direction);
  });
  indexColumns();
  m_numberedRowMajor = true;
}

std::vector<uint32_t> CellGrid::rowMajorOrder() const {
  const Storage& s = *m_storage;
  if (m_numberedRowMajor) {
    std::vector<uint32_t> order(size());
    std::iota(order.begin(), order.end(), 0u);
    return order;
  }
  std::vector<uint32_t> tiles(s.tiles.size());
  for (uint32_t t = 0; t < tiles.size(); ++t)
    tiles[t] = t;
  std::sort(tiles.begin(), tiles.end(), [&](uint32_t a, uint32_t b) {
    const glm::ivec2 p = s.tileOrigin[a], q = s.tileOrigin[b];
    return p.y != q.y ? p.y < q.y : p.x < q.x;
  });
  std::vector<uint32_t> order;
  order.reserve(size());
  std::vector<uint32_t> column;
  for (size_t rowStart = 0; rowStart < tiles.size();) {
    size_t rowEnd = rowStart;
    while (rowEnd < tiles.size() &&
           s.tileOrigin[tiles[rowEnd]].y == s.tileOrigin[tiles[rowStart]].y)
      ++rowEnd;
    for (int32_t z = 0; z < kTileSize; ++z) {
      for (size_t k = rowStart; k < rowEnd; ++k) {
        const Tile& tile = s.tiles[tiles[k]];
        for (int32_t x = 0; x < kTileSize; ++x) {
          column.clear();
          for (uint32_t i = tile.head[(z << kTileBits) | x]; i != kNoCell; i = s.nextInColumn[i])
            column.push_back(i);
          std::sort(column.begin(), column.end(),
                    [&](uint32_t a, uint32_t b) { return s.height[a] < s.height[b]; });
          order.insert(order.end(), column.begin(), column.end());
        }
      }
    }
    rowStart = rowEnd;
  }
  return order;
}

size_t CellGrid::memoryBytes() const {
  return fillMemoryBytes() + m_storage->column.capacity() * sizeof(uint32_t);
}

size_t CellGrid::fillMemoryBytes() const {
  const Storage& s = *m_storage;
  return s.height.memoryBytes() + s.nextInColumn.memoryBytes() + s.material.memoryBytes() +
         s.links.memoryBytes() + s.tiles.memoryBytes() + m_falls.capacity() * sizeof(FallLink) +
         s.tileOrigin.capacity() * sizeof(glm::ivec2) + s.tileIndex.memoryBytes();
}

}  // namespace nav
