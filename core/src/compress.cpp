// Compression of cells into box sectors and portals.
//
// A sector is a rectangle of columns whose cells all share a surface and are
// mutually connected to their rectangle neighbours (each step works both
// ways), so the unit can go anywhere inside it, and whose grounds lie close to
// one plane (stairs and ramps are one sector; a bumpy corridor is several).
// The joined cells are first cut into the fewest rectangles their shape
// allows (rectangle_partition.h). Rectangles then grow inside those pieces from
// the lowest free cell, along +X and then row by row along +Z, stopping where
// the ground leaves the plane. Where such height splits cost more rectangles
// than growing the same way without the cuts (plain greedy growth), the
// greedy rectangles are kept there: never more sectors than greedy growth.
//
// Portals come from the cells on a sector's sides: consecutive side cells
// whose step leads into the same neighbour sector, and that agree on whether
// the neighbour steps back, form one directed portal. A two-way run therefore
// has an exact reverse portal and a one-way run has none.
#include "nav/compress.h"

#include "nav/locate.h"
#include "nav/rectangle_partition.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>

namespace nav {
namespace {

// Half a step: points on the real ground are then always within a step of the plane.
float planeTolerance(const UnitProfile& unit) {
  return std::clamp(unit.stepHeight * 0.5f, 0.05f, 0.5f);
}

// Cells of a rectangle as the plane fit reads them: rows of rowLength places,
// place i of row r at column start + i * along + r * across, with ground
// height heights[r * rowLength + i].
struct Patch {
  glm::ivec2 start, along, across;
  size_t rowLength;
  std::span<const float> heights;
};

// Sums over a patch's heights that the least-squares fit needs, kept while it grows.
struct HeightSums {
  double y = 0, iy = 0, ry = 0;
  HeightSums with(size_t i, size_t r, float height) const {
    const double h = height;
    return {y + h, iy + double(i) * h, ry + double(r) * h};
  }
};

// The least-squares plane y = a*x + b*z + c through a patch, if it stays
// within `tolerance` of every cell's ground. The fit runs over the places
// (i, r) of a full rectangle, where i and r are uncorrelated: the two slopes
// fit independently from the sums, and the check needs no positions.
std::optional<glm::vec3> fittedPlane(const CellGrid& grid, const Patch& patch,
                                     const HeightSums& sums, float tolerance) {
  const size_t length = patch.rowLength, rows = patch.heights.size() / length;
  const double n = double(patch.heights.size());
  const double meanI = double(length - 1) / 2.0, meanR = double(rows - 1) / 2.0;
  const double meanY = sums.y / n;
  const double spreadI = n * double(length * length - 1) / 12.0;
  const double spreadR = n * double(rows * rows - 1) / 12.0;
  const double slopeI = spreadI > 0 ? (sums.iy - meanI * sums.y) / spreadI : 0.0;
  const double slopeR = spreadR > 0 ? (sums.ry - meanR * sums.y) / spreadR : 0.0;
  for (size_t r = 0, k = 0; r < rows; ++r) {
    const double rowBase = meanY + slopeR * (double(r) - meanR) - slopeI * meanI;
    for (size_t i = 0; i < length; ++i, ++k) {
      if (std::abs(double(patch.heights[k]) - (rowBase + slopeI * double(i))) > tolerance)
        return std::nullopt;
    }
  }
  // Per metre along x and z, through the centre of the places.
  const double size = grid.cellSize();
  double a = 0, b = 0;
  (patch.along.x != 0 ? a : b) = slopeI / (size * double(patch.along.x + patch.along.y));
  (patch.across.x != 0 ? a : b) = slopeR / (size * double(patch.across.x + patch.across.y));
  const glm::vec3 first = grid.columnCenter(patch.start.x, patch.start.y, 0.0f);
  const double meanX = first.x + size * (meanI * patch.along.x + meanR * patch.across.x);
  const double meanZ = first.z + size * (meanI * patch.along.y + meanR * patch.across.y);
  return glm::vec3(float(a), float(b), float(meanY - a * meanX - b * meanZ));
}

// The sector's height plane, which must stay within `tolerance` of every
// cell's ground so that locating, drawing and path heights can trust it:
// level when the heights allow, else the least-squares fit; none when the
// cells are too far from any plane.
std::optional<glm::vec3> sectorPlane(const CellGrid& grid, const Patch& patch, float tolerance) {
  const auto [yMin, yMax] = std::minmax_element(patch.heights.begin(), patch.heights.end());
  if (*yMax - *yMin <= 2.0f * tolerance) return glm::vec3(0.0f, 0.0f, (*yMin + *yMax) * 0.5f);
  HeightSums sums;
  for (size_t k = 0; k < patch.heights.size(); ++k)
    sums = sums.with(k % patch.rowLength, k / patch.rowLength, patch.heights[k]);
  return fittedPlane(grid, patch, sums, tolerance);
}

glm::ivec2 offsetOf(Direction d) {
  return {kDirectionDx[int(d)], kDirectionDz[int(d)]};
}

struct HeightRange {
  float min, max;
  HeightRange with(float y) const { return {std::min(min, y), std::max(max, y)}; }
  float span() const { return max - min; }
};

// Cells a sector may join: each steps to the other and both are on one surface.
class CellJoins final : public JoinedSquares {
 public:
  CellJoins(const CellGrid& cells, const std::vector<uint16_t>& surfaceOfMaterial)
      : m_cells(cells) {
    // Each cell's surface is looked up once, unless every material is on surface 0.
    if (std::any_of(surfaceOfMaterial.begin(), surfaceOfMaterial.end(),
                    [](uint16_t s) { return s != 0; })) {
      m_surface.resize(cells.size());
      for (uint32_t c = 0; c < cells.size(); ++c) {
        const uint16_t material = cells[c].material;
        m_surface[c] = material < surfaceOfMaterial.size() ? surfaceOfMaterial[material] : 0;
      }
    }
  }

  uint16_t surface(uint32_t cell) const { return m_surface.empty() ? 0 : m_surface[cell]; }
  uint32_t squareCount() const override { return uint32_t(m_cells.size()); }
  uint32_t joined(uint32_t cell, Direction d) const override {
    const uint32_t next = m_cells.neighbor(cell, d);
    if (next == kNoCell || surface(next) != surface(cell)) return kNoCell;
    return m_cells.neighbor(next, opposite(d)) == cell ? next : kNoCell;
  }

 private:
  const CellGrid& m_cells;
  std::vector<uint16_t> m_surface;
};

// Sectors' cells: rectangle r holds cells[start[r] .. start[r + 1]), in rows
// along +X stacked along +Z.
struct Rectangles {
  /// Each cell's rectangle, kNoSector until it has one.
  std::vector<uint32_t> rectangleOf;
  std::vector<uint32_t> cells;
  std::vector<uint32_t> start{0};

  explicit Rectangles(size_t cellCount) : rectangleOf(cellCount, kNoSector) {
    cells.reserve(cellCount);
  }
  size_t count() const { return start.size() - 1; }
  std::span<const uint32_t> cellsOf(size_t r) const {
    return std::span<const uint32_t>(cells).subspan(start[r], start[r + 1] - start[r]);
  }
  // The cells leave any rectangle they were in before (which is then never read).
  void add(std::span<const uint32_t> rectangle) {
    const uint32_t r = uint32_t(count());
    for (uint32_t c : rectangle) {
      cells.push_back(c);
      rectangleOf[c] = r;
    }
    start.push_back(uint32_t(cells.size()));
  }
};

// Which way a rectangle grows: cells along `along` make a row, rows stack along `across`.
struct Growth {
  Direction along, across;
};
constexpr Growth kRowsAlongX{Direction::PlusX, Direction::PlusZ};

// Puts a rectangle grown along `growth` (rows of `rowLength` cells) in rows
// along +X stacked along +Z, the order sectors and portals read.
void toRowMajor(std::vector<uint32_t>& rectangle, size_t rowLength, Growth growth,
                std::vector<uint32_t>& scratch) {
  const int ax = kDirectionDx[int(growth.along)], az = kDirectionDz[int(growth.along)];
  const int bx = kDirectionDx[int(growth.across)], bz = kDirectionDz[int(growth.across)];
  const int length = int(rowLength), rows = int(rectangle.size() / rowLength);
  const int minX = std::min(0, (length - 1) * ax) + std::min(0, (rows - 1) * bx);
  const int minZ = std::min(0, (length - 1) * az) + std::min(0, (rows - 1) * bz);
  const size_t columns = size_t(ax != 0 ? length : rows);
  scratch.resize(rectangle.size());
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < length; ++i) {
      const int x = i * ax + j * bx - minX, z = i * az + j * bz - minZ;
      scratch[size_t(z) * columns + size_t(x)] = rectangle[size_t(j) * rowLength + size_t(i)];
    }
  }
  rectangle.swap(scratch);
}

// Grows rectangles from a free cell: a row along one direction, then rows
// stacked across it, over the joins step(cell, direction) gives, while the
// cells stay close to one plane.
class RectangleGrower {
 public:
  RectangleGrower(const CellGrid& cells, float planeTolerance)
      : m_cells(cells), m_planeTolerance(planeTolerance) {}

  // Grows from `first` into `rectangle` (row by row, in growth order, with
  // each cell's ground in `heights`) over the cells isFree accepts; returns the
  // row length.
  template <class Step, class IsFree>
  size_t grow(uint32_t first, Growth growth, Step step, IsFree isFree,
              std::vector<uint32_t>& rectangle, std::vector<float>& heights) const {
    auto mergeable = [&](uint32_t cell, Direction d) {
      const uint32_t next = step(cell, d);
      return next != kNoCell && isFree(next) ? next : kNoCell;
    };
    const Cell origin = m_cells[first];
    Patch patch{{origin.x, origin.z}, offsetOf(growth.along), offsetOf(growth.across), 1, {}};
    // While the heights span less than twice the tolerance the plane check
    // always passes; past that it is linear in the rectangle's size.
    auto planar = [&](size_t rowLength, const HeightSums& sums) {
      patch.rowLength = rowLength;
      patch.heights = heights;
      return fittedPlane(m_cells, patch, sums, m_planeTolerance).has_value();
    };
    HeightRange range{origin.y, origin.y};
    HeightSums sums = HeightSums{}.with(0, 0, origin.y);
    rectangle.assign(1, first);
    heights.assign(1, origin.y);
    for (uint32_t next = mergeable(first, growth.along); next != kNoCell;
         next = mergeable(rectangle.back(), growth.along)) {
      rectangle.push_back(next);
      heights.push_back(m_cells.height(next));
      const HeightRange wider = range.with(heights.back());
      const HeightSums longer = sums.with(rectangle.size() - 1, 0, heights.back());
      if (wider.span() > 2.0f * m_planeTolerance && !planar(rectangle.size(), longer)) {
        rectangle.pop_back();
        heights.pop_back();
        break;
      }
      range = wider;
      sums = longer;
    }
    const size_t length = rectangle.size();
    for (size_t row = 0;;) {
      const size_t nextRow = rectangle.size();
      for (size_t i = 0; i < length; ++i) {
        const uint32_t next = mergeable(rectangle[row + i], growth.across);
        // Within the new row each cell must be joined to the previous one.
        if (next == kNoCell || (i > 0 && step(rectangle.back(), growth.along) != next)) break;
        rectangle.push_back(next);
        heights.push_back(m_cells.height(next));
      }
      HeightRange taller = range;
      HeightSums more = sums;
      for (size_t i = nextRow; i < heights.size(); ++i) {
        taller = taller.with(heights[i]);
        more = more.with(i - nextRow, nextRow / length, heights[i]);
      }
      if (rectangle.size() - nextRow != length ||
          (taller.span() > 2.0f * m_planeTolerance && !planar(length, more))) {
        rectangle.resize(nextRow);
        heights.resize(nextRow);
        return length;
      }
      range = taller;
      sums = more;
      row = nextRow;
    }
  }

 private:
  const CellGrid& m_cells;
  float m_planeTolerance;
};

// True when no uncut join leaves a rectangle (in rows of `width` along +X
// stacked along +Z) on its +X or +Z side. Every join between two rectangles
// is on such a side of one of them.
bool whole(const RectanglePartition& partition, std::span<const uint32_t> rectangle, size_t width) {
  for (size_t i = width - 1; i < rectangle.size(); i += width) {
    if (partition.neighbor(rectangle[i], Direction::PlusX) != kNoCell) return false;
  }
  for (size_t i = rectangle.size() - width; i < rectangle.size(); ++i) {
    if (partition.neighbor(rectangle[i], Direction::PlusZ) != kNoCell) return false;
  }
  return true;
}

// Rectangles grown along +X, then +Z, from each lowest free cell, over the
// partition's uncut joins (or over all joins). With `split`, the first cells
// of rectangles that stop short of their piece's cuts go there. False when
// cancelled.
bool growAll(const RectangleGrower& grower, const RectanglePartition& partition, bool followCuts,
             const std::vector<uint32_t>& order, Rectangles& out, std::vector<uint32_t>* split,
             BuildControl* control, float firstFraction, float lastFraction) {
  auto step = [&](uint32_t cell, Direction d) {
    return followCuts ? partition.neighbor(cell, d) : partition.joined(cell, d);
  };
  auto isFree = [&](uint32_t cell) { return out.rectangleOf[cell] == kNoSector; };
  std::vector<uint32_t> rectangle;
  std::vector<float> heights;
  size_t visited = 0;
  for (uint32_t c : order) {
    if (control && (++visited & 65535u) == 0) {
      const float done = float(visited) / float(order.size());
      control->stageFraction.store(firstFraction + (lastFraction - firstFraction) * done,
                                   std::memory_order_relaxed);
      if (control->cancelRequested.load(std::memory_order_relaxed)) return false;
    }
    if (!isFree(c)) continue;
    const size_t width = grower.grow(c, kRowsAlongX, step, isFree, rectangle, heights);
    if (split && !whole(partition, rectangle, width)) split->push_back(c);
    out.add(rectangle);
  }
  return true;
}

// Regrows each piece of the partition that a rectangle in `split` belongs to:
// those pieces' ground is not planar enough for one rectangle, and how many
// rectangles it takes depends on the way they grow (rows along a slope's
// contour lines, not up it). Rows along each of the four directions, stacked
// either way, each from the corner where it starts; the fewest rectangles win,
// the +X, +Z growth already in `rectangles` on ties.
void regrowSplitPieces(const CellGrid& cells, const RectanglePartition& partition,
                       const RectangleGrower& grower, const std::vector<uint32_t>& split,
                       Rectangles& rectangles) {
  using enum Direction;
  constexpr Growth kOtherGrowths[] = {{PlusZ, PlusX},  {PlusX, MinusZ}, {PlusZ, MinusX},
                                      {MinusX, PlusZ}, {MinusZ, PlusX}, {MinusX, MinusZ},
                                      {MinusZ, MinusX}};
  struct Placed {
    glm::ivec2 column;
    uint32_t cell;
  };
  // Each piece's cells are numbered from 0 as found; their uncut joins are read once.
  std::vector<uint32_t> indexInPiece(cells.size(), kNoCell);
  std::vector<std::array<uint32_t, kDirectionCount>> around;
  std::vector<uint32_t> takenInRun;  // per cell of the piece: the growth run that took it
  uint32_t run = 0;                  // runs count from 1: 0 is free in all of them
  std::vector<Placed> piece, byRow[2], sweep;
  std::vector<uint32_t> rectangle, scratch, counted;
  std::vector<float> heights;
  std::vector<uint32_t> candidateCells, candidateStart, bestCells, bestStart;
  auto step = [&](uint32_t cell, Direction d) { return around[indexInPiece[cell]][int(d)]; };
  auto isFree = [&](uint32_t cell) { return takenInRun[indexInPiece[cell]] != run; };
  for (uint32_t first : split) {
    if (indexInPiece[first] != kNoCell) continue;
    piece.clear();
    around.clear();
    indexInPiece[first] = 0;
    piece.push_back({{}, first});
    for (size_t k = 0; k < piece.size(); ++k) {
      const uint32_t c = piece[k].cell;
      const Cell cell = cells[c];
      piece[k].column = {cell.x, cell.z};
      std::array<uint32_t, kDirectionCount>& next = around.emplace_back();
      for (int d = 0; d < kDirectionCount; ++d) {
        next[d] = partition.neighbor(c, Direction(d));
        if (next[d] != kNoCell && indexInPiece[next[d]] == kNoCell) {
          indexInPiece[next[d]] = uint32_t(piece.size());
          piece.push_back({{}, next[d]});
        }
      }
    }
    takenInRun.assign(piece.size(), 0);
    counted.clear();
    for (const Placed& p : piece)
      counted.push_back(rectangles.rectangleOf[p.cell]);
    std::sort(counted.begin(), counted.end());
    size_t fewest = size_t(std::unique(counted.begin(), counted.end()) - counted.begin());
    // Rows of z, each along +x, and rows of x, each along +z; other sweeps reverse them.
    byRow[0] = byRow[1] = piece;
    std::sort(byRow[0].begin(), byRow[0].end(), [](const Placed& a, const Placed& b) {
      return std::pair(a.column.y, a.column.x) < std::pair(b.column.y, b.column.x);
    });
    std::sort(byRow[1].begin(), byRow[1].end(), [](const Placed& a, const Placed& b) {
      return std::pair(a.column.x, a.column.y) < std::pair(b.column.x, b.column.y);
    });
    bestStart.clear();
    for (const Growth growth : kOtherGrowths) {
      // Rows across the growth, each along it: each rectangle starts at its first cell.
      const bool rowsOfZ = kDirectionDz[int(growth.across)] != 0;
      const std::vector<Placed>& rows = byRow[rowsOfZ ? 0 : 1];
      const bool rowsBackward = int(growth.across) >= int(MinusX);
      const bool cellsBackward = int(growth.along) >= int(MinusX);
      auto rowOf = [&](const Placed& p) { return rowsOfZ ? p.column.y : p.column.x; };
      sweep.clear();
      for (size_t begin = 0; begin < rows.size();) {
        size_t end = begin + 1;
        while (end < rows.size() && rowOf(rows[end]) == rowOf(rows[begin]))
          ++end;
        const size_t at = sweep.size();
        sweep.insert(sweep.end(), rows.begin() + long(begin), rows.begin() + long(end));
        if (cellsBackward) std::reverse(sweep.begin() + long(at), sweep.end());
        if (rowsBackward) std::reverse(sweep.begin() + long(at), sweep.end());
        begin = end;
      }
      if (rowsBackward) std::reverse(sweep.begin(), sweep.end());
      ++run;
      candidateCells.clear();
      candidateStart.assign(1, 0);
      for (const Placed& p : sweep) {
        if (!isFree(p.cell)) continue;
        if (candidateStart.size() > fewest) break;  // already no better
        const size_t length = grower.grow(p.cell, growth, step, isFree, rectangle, heights);
        for (uint32_t c : rectangle)
          takenInRun[indexInPiece[c]] = run;
        toRowMajor(rectangle, length, growth, scratch);
        candidateCells.insert(candidateCells.end(), rectangle.begin(), rectangle.end());
        candidateStart.push_back(uint32_t(candidateCells.size()));
      }
      if (candidateCells.size() == piece.size() && candidateStart.size() - 1 < fewest) {
        fewest = candidateStart.size() - 1;
        bestCells.swap(candidateCells);
        bestStart.swap(candidateStart);
      }
    }
    for (size_t r = 0; r + 1 < bestStart.size(); ++r) {
      rectangles.add(std::span<const uint32_t>(bestCells).subspan(bestStart[r],
                                                                  bestStart[r + 1] - bestStart[r]));
    }
  }
}

// The rectangles pick(cell) names ({partition, rectangle}), each taken once,
// numbered in the row-major order of their first cells.
template <class Pick>
Rectangles renumbered(const std::vector<uint32_t>& order, Pick pick) {
  Rectangles result(order.size());
  for (uint32_t c : order) {
    const auto [from, r] = pick(c);
    if (from->cells[from->start[r]] == c) result.add(from->cellsOf(r));
  }
  return result;
}

// Merges two partitions of the same cells, taking, for each smallest group of
// cells that both cover with whole rectangles, the one with fewer rectangles
// there (ties keep `a`).
Rectangles fewerPerGroup(const Rectangles& a, const Rectangles& b,
                         const std::vector<uint32_t>& order) {
  // Union-find over a's rectangles then b's: a cell joins its two rectangles.
  std::vector<uint32_t> parent(a.count() + b.count());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  };
  for (uint32_t c = 0; c < a.rectangleOf.size(); ++c) {
    const uint32_t x = find(a.rectangleOf[c]), y = find(uint32_t(a.count()) + b.rectangleOf[c]);
    if (x != y) parent[std::max(x, y)] = std::min(x, y);
  }
  // a's rectangles minus b's, per group; a's rectangles left without cells are alone in theirs.
  std::vector<int64_t> surplusOfA(parent.size(), 0);
  for (uint32_t r = 0; r < a.count(); ++r)
    ++surplusOfA[find(r)];
  for (uint32_t r = 0; r < b.count(); ++r)
    --surplusOfA[find(uint32_t(a.count()) + r)];
  return renumbered(order, [&](uint32_t c) {
    const bool useB = surplusOfA[find(a.rectangleOf[c])] > 0;
    return useB ? std::pair(&b, b.rectangleOf[c]) : std::pair(&a, a.rectangleOf[c]);
  });
}

// The cells covered with rectangles: the fewest the joins allow, grown inside
// the partition's pieces and split where the ground is not planar enough;
// none when cancelled.
std::optional<Rectangles> coverWithRectangles(const CellGrid& cells, const CellJoins& joins,
                                              const std::vector<uint32_t>& order, float tolerance,
                                              BuildControl* control) {
  const RectanglePartition partition(joins, order);
  if (control && control->cancelRequested.load(std::memory_order_relaxed)) return std::nullopt;
  const RectangleGrower grower(cells, tolerance);
  Rectangles rectangles(cells.size());
  std::vector<uint32_t> split;
  if (!growAll(grower, partition, true, order, rectangles, &split, control, 0.0f, 0.5f))
    return std::nullopt;
  if (split.empty() && !partition.tangled()) return rectangles;
  regrowSplitPieces(cells, partition, grower, split, rectangles);
  // Splits for height (or tangled joins) may still cost more rectangles than
  // growing without the cuts: wherever they do, that is kept instead.
  Rectangles greedy(cells.size());
  if (!growAll(grower, partition, false, order, greedy, nullptr, control, 0.5f, 1.0f))
    return std::nullopt;
  return fewerPerGroup(rectangles, greedy, order);
}

Sector makeSector(const CellGrid& grid, std::span<const uint32_t> cells, float tolerance,
                  uint16_t surface) {
  Sector sector{};
  const Cell first = grid[cells.front()];
  const Cell last = grid[cells.back()];
  sector.firstColumn = {first.x, first.z};
  sector.lastColumn = {last.x, last.z};
  std::vector<float> heights(cells.size());
  for (size_t i = 0; i < cells.size(); ++i)
    heights[i] = grid.height(cells[i]);
  const auto [yMin, yMax] = std::minmax_element(heights.begin(), heights.end());
  const float size = grid.cellSize();
  const glm::vec2 origin = grid.origin();
  sector.bounds.min = {origin.x + float(first.x) * size, *yMin, origin.y + float(first.z) * size};
  sector.bounds.max = {origin.x + float(last.x + 1) * size, *yMax,
                       origin.y + float(last.z + 1) * size};
  // A single cell always has a plane, and growth only accepts planar
  // rectangles; a hair of slack covers rounding when it fitted the cells in
  // another order.
  const Patch patch{sector.firstColumn, {1, 0}, {0, 1}, size_t(last.x - first.x + 1), heights};
  sector.heightPlane = *sectorPlane(grid, patch, tolerance + 1e-4f);
  sector.surface = surface;
  sector.kind = SectorKind::Ground;
  sector.waypath = kNoWaypath;
  return sector;
}

// One side cell's crossing: which sector it leads to and whether the step
// back works; for a fall, how many columns away it lands (else 0).
struct Crossing {
  uint32_t toSector;
  bool twoWay;
  uint8_t fallColumns = 0;
  bool operator==(const Crossing&) const = default;
};

// Side cells of a sector falling the same way into the same sector.
struct FallRun {
  uint32_t fromSector;
  Direction direction;
  /// The side cells at the run's two ends.
  uint32_t firstCell, lastCell;
  Crossing crossing;
};

// Each run of falls becomes a fall sector: the columns the unit crosses at its
// height with its footprint over the ledge, entered by a portal along the
// side it walks off and left by one down into the sector it lands in. Both
// one-way.
void addFallSectors(NavGraph& graph, const CellGrid& cells, const std::vector<FallRun>& runs) {
  const float size = cells.cellSize();
  for (const FallRun& run : runs) {
    const int d = int(run.direction);
    const glm::vec3 walk(float(kDirectionDx[d]), 0.0f, float(kDirectionDz[d]));
    const Cell first = cells[run.firstCell], last = cells[run.lastCell];
    const float top = std::max(first.y, last.y);
    // The portal off the side spans the side cells' centres, on their shared edge.
    glm::vec3 a = cells.center(run.firstCell) + walk * (0.5f * size);
    glm::vec3 b = cells.center(run.lastCell) + walk * (0.5f * size);
    if (cross2(groundOf(walk), groundOf(a) - groundOf(b)) > 0.0f) std::swap(a, b);
    const float across = float(run.crossing.fallColumns - 1) * size;
    glm::vec3 landingA = a + walk * across, landingB = b + walk * across;
    landingA.y = landingB.y = top;

    Sector fall{};
    const glm::ivec2 step(kDirectionDx[d], kDirectionDz[d]);
    const glm::ivec2 cornerA = glm::ivec2(first.x, first.z) + step;
    const glm::ivec2 cornerB =
        glm::ivec2(last.x, last.z) + step * int(run.crossing.fallColumns - 1);
    fall.firstColumn = glm::min(cornerA, cornerB);
    fall.lastColumn = glm::max(cornerA, cornerB);
    const glm::vec2 origin = cells.origin();
    const float landing = graph.sectors[run.crossing.toSector].bounds.min.y;
    fall.bounds.min = {origin.x + float(fall.firstColumn.x) * size, std::min(landing, top),
                       origin.y + float(fall.firstColumn.y) * size};
    fall.bounds.max = {origin.x + float(fall.lastColumn.x + 1) * size, top,
                       origin.y + float(fall.lastColumn.y + 1) * size};
    fall.heightPlane = {0.0f, 0.0f, top};
    fall.surface = graph.sectors[run.fromSector].surface;
    fall.kind = SectorKind::Fall;
    fall.waypath = kNoWaypath;
    const uint32_t index = uint32_t(graph.sectors.size());
    graph.sectors.push_back(fall);
    graph.bounds.grow(fall.bounds);
    graph.portals.push_back(
        {run.fromSector, index, a, b, run.direction, PortalKind::Walk, 0, kNoPortal});
    graph.portals.push_back({index, run.crossing.toSector, landingA, landingB, run.direction,
                             PortalKind::Walk, 0, kNoPortal});
  }
}

// One direction of a device: from the sectors its going-in zone covers to the
// sector of the cell the fill spawned at the centre of its coming-out zone.
void addDeviceDirection(NavGraph& graph, const CellGrid& cells,
                        const std::vector<uint32_t>& sectorOf, uint32_t device, bool reverse) {
  const DeviceSpec& spec = graph.devices[device];
  const Aabb& in = reverse ? spec.exit : spec.entry;
  const Aabb& out = reverse ? spec.entry : spec.exit;
  const glm::ivec2 column = cells.columnOf(out.center());
  const uint32_t exitCell = cells.findInColumn(column.x, column.y, out.min.y, out.max.y);
  if (exitCell == kNoCell) return;  // the fill never got there (or had no room: a build warning)
  const uint32_t target = sectorOf[exitCell];
  const size_t groundSectors = graph.sectors.size();
  for (uint32_t s = 0; s < groundSectors; ++s) {
    const Sector& sector = graph.sectors[s];
    const glm::vec3 lo = glm::max(sector.bounds.min, in.min);
    const glm::vec3 hi = glm::min(sector.bounds.max, in.max);
    // Room for at least one whole cell of the sector inside the zone.
    if (hi.x - lo.x < graph.cellSize || hi.z - lo.z < graph.cellSize || lo.y > hi.y) continue;
    const glm::vec2 middle = (glm::vec2(lo.x, lo.z) + glm::vec2(hi.x, hi.z)) * 0.5f;
    const glm::vec3 entry(middle.x, sector.heightAt(middle.x, middle.y), middle.y);
    graph.deviceLinks.push_back({device, Aabb{lo, hi}, entry, cells.center(exitCell), reverse});
    graph.portals.push_back({s, target, entry, entry, Direction::PlusX, PortalKind::Device,
                             uint32_t(graph.deviceLinks.size() - 1), kNoPortal});
  }
}

void addDevicePortals(NavGraph& graph, const CellGrid& cells,
                      const std::vector<uint32_t>& sectorOf) {
  const size_t firstDevicePortal = graph.portals.size();
  for (uint32_t d = 0; d < graph.devices.size(); ++d) {
    addDeviceDirection(graph, cells, sectorOf, d, false);
    if (graph.devices[d].twoWay) addDeviceDirection(graph, cells, sectorOf, d, true);
  }
  // A two-way device's portals pair up where one leads back to where the other started.
  for (size_t p = firstDevicePortal; p < graph.portals.size(); ++p) {
    Portal& portal = graph.portals[p];
    if (portal.reverse != kNoPortal) continue;
    const DeviceLink& link = graph.deviceLinks[portal.link];
    for (size_t q = p + 1; q < graph.portals.size(); ++q) {
      Portal& other = graph.portals[q];
      const DeviceLink& otherLink = graph.deviceLinks[other.link];
      if (other.reverse == kNoPortal && otherLink.device == link.device &&
          otherLink.reverse != link.reverse && other.fromSector == portal.toSector &&
          other.toSector == portal.fromSector) {
        portal.reverse = uint32_t(q);
        other.reverse = uint32_t(p);
        break;
      }
    }
  }
}

// Each waypath becomes a sector of its own, joined both ways to the ground
// sector under each of its points.
void addWaypaths(NavGraph& graph, std::vector<std::string>* warnings) {
  for (uint32_t w = 0; w < graph.waypaths.size(); ++w) {
    const WaypathSpec& waypath = graph.waypaths[w];
    std::vector<Location> located;
    for (const glm::vec3& point : waypath.points)
      located.push_back(locateSector(graph, point));
    Sector sector{};
    for (const glm::vec3& point : waypath.points)
      sector.bounds.grow(point);
    sector.heightPlane = {0.0f, 0.0f, sector.bounds.center().y};
    sector.kind = SectorKind::Waypath;
    sector.waypath = w;
    const uint32_t index = uint32_t(graph.sectors.size());
    graph.sectors.push_back(sector);
    graph.bounds.grow(sector.bounds);
    for (uint32_t i = 0; i < located.size(); ++i) {
      if (located[i].sector == kNoSector) {
        if (warnings) {
          warnings->push_back("waypath '" + waypath.id + "': point " + std::to_string(i) +
                              " is on no sector the unit can reach");
        }
        continue;
      }
      const glm::vec3 at = located[i].point;
      const uint32_t on = uint32_t(graph.portals.size());
      graph.portals.push_back(
          {located[i].sector, index, at, at, Direction::PlusX, PortalKind::Waypath, i, on + 1});
      graph.portals.push_back(
          {index, located[i].sector, at, at, Direction::PlusX, PortalKind::Waypath, i, on});
    }
  }
}

// Restores the order A* relies on (each sector's outgoing portals contiguous)
// after device and waypath portals were appended, keeping reverse links right.
void sortPortalsBySource(NavGraph& graph) {
  std::vector<uint32_t> order(graph.portals.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return graph.portals[a].fromSector < graph.portals[b].fromSector;
  });
  std::vector<uint32_t> newIndex(order.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    newIndex[order[i]] = i;
  std::vector<Portal> sorted;
  sorted.reserve(order.size());
  for (uint32_t old : order) {
    Portal portal = graph.portals[old];
    if (portal.reverse != kNoPortal) portal.reverse = newIndex[portal.reverse];
    sorted.push_back(portal);
  }
  graph.portals = std::move(sorted);
  for (Sector& sector : graph.sectors)
    sector.portalCount = 0;
  for (const Portal& portal : graph.portals)
    ++graph.sectors[portal.fromSector].portalCount;
  // Each sector's range starts where the previous one's ends, empty ones included.
  uint32_t next = 0;
  for (Sector& sector : graph.sectors) {
    sector.firstPortal = next;
    next += sector.portalCount;
  }
}

}  // namespace

NavGraph compressCells(const CellGrid& cells, const CompressParams& params,
                       CellSectors* cellSectors, std::vector<std::string>* warnings,
                       BuildControl* control) {
  const UnitProfile& unit = params.unit;
  NavGraph graph;
  graph.unit = unit;
  graph.cellSize = cells.cellSize();
  graph.origin = cells.origin();
  graph.surfaces = params.surfaces.empty() ? defaultSurfaces() : params.surfaces;
  graph.devices = params.devices;
  graph.waypaths = params.waypaths;

  // Lowest row first, then column, then height: deterministic and independent of fill order.
  const std::vector<uint32_t> order = cells.rowMajorOrder();

  const CellJoins joins(cells, params.surfaceOfMaterial);
  const float tolerance = planeTolerance(unit);
  const std::optional<Rectangles> covered =
      coverWithRectangles(cells, joins, order, tolerance, control);
  if (!covered) return graph;
  const Rectangles& rectangles = *covered;
  for (size_t r = 0; r < rectangles.count(); ++r) {
    const std::span<const uint32_t> rect = rectangles.cellsOf(r);
    graph.sectors.push_back(makeSector(cells, rect, tolerance, joins.surface(rect.front())));
    graph.bounds.grow(graph.sectors.back().bounds);
  }
  const std::vector<uint32_t>& sectorOf = rectangles.rectangleOf;

  // Portals, sector by sector, side by side.
  const float size = cells.cellSize();
  std::map<std::tuple<uint32_t, uint32_t, int, int32_t>, uint32_t> portalByKey;
  std::vector<FallRun> falls;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    Sector& sector = graph.sectors[s];
    sector.firstPortal = uint32_t(graph.portals.size());
    const int32_t width = sector.lastColumn.x - sector.firstColumn.x + 1;
    const int32_t depth = sector.lastColumn.y - sector.firstColumn.y + 1;
    const std::span<const uint32_t> rect = rectangles.cellsOf(s);
    for (int d = 0; d < kDirectionCount; ++d) {
      const Direction direction = Direction(d);
      const bool alongX = kDirectionDz[d] != 0;  // side runs along X when stepping in Z
      const int32_t sideLength = alongX ? width : depth;
      auto sideCell = [&](int32_t i) {
        const int32_t col = alongX ? i : (kDirectionDx[d] > 0 ? width - 1 : 0);
        const int32_t row = alongX ? (kDirectionDz[d] > 0 ? depth - 1 : 0) : i;
        return rect[size_t(row) * size_t(width) + size_t(col)];
      };
      auto crossingOf = [&](uint32_t cell) -> std::optional<Crossing> {
        const uint32_t next = cells.neighbor(cell, direction);
        if (next == kNoCell) {
          const FallLink* fall = cells.fallFrom(cell, direction);
          if (!fall) return std::nullopt;
          return Crossing{sectorOf[fall->to], false, fall->columns};
        }
        const bool back = cells.neighbor(next, opposite(direction)) == cell;
        return Crossing{sectorOf[next], back};
      };
      int32_t i = 0;
      while (i < sideLength) {
        const std::optional<Crossing> crossing = crossingOf(sideCell(i));
        if (!crossing) {
          ++i;
          continue;
        }
        int32_t end = i + 1;
        while (end < sideLength && crossingOf(sideCell(end)) == crossing)
          ++end;
        if (crossing->fallColumns > 0) {
          falls.push_back({s, direction, sideCell(i), sideCell(end - 1), *crossing});
          i = end;
          continue;
        }
        const glm::vec3 first = cells.center(sideCell(i));
        const glm::vec3 last = cells.center(sideCell(end - 1));
        // The crossing line is the shared edge; laterally the portal spans cell centres.
        const glm::vec3 offset(kDirectionDx[d] * size * 0.5f, 0.0f, kDirectionDz[d] * size * 0.5f);
        glm::vec3 a = first + offset, b = last + offset;
        const glm::vec2 walk(float(kDirectionDx[d]), float(kDirectionDz[d]));
        if (cross2(walk, groundOf(a) - groundOf(b)) > 0.0f) std::swap(a, b);
        Portal portal{s, crossing->toSector, a, b, direction, PortalKind::Walk, 0, kNoPortal};
        const int32_t lateralStart = alongX ? cells[sideCell(i)].x : cells[sideCell(i)].z;
        portalByKey[{s, crossing->toSector, d, lateralStart}] = uint32_t(graph.portals.size());
        if (crossing->twoWay) {
          // The reverse side was (or will be) grouped identically; link once both exist.
          const auto reverse =
              portalByKey.find({crossing->toSector, s, int(opposite(direction)), lateralStart});
          if (reverse != portalByKey.end()) {
            portal.reverse = reverse->second;
            graph.portals[reverse->second].reverse = uint32_t(graph.portals.size());
          }
        }
        graph.portals.push_back(portal);
        i = end;
      }
    }
    sector.portalCount = uint32_t(graph.portals.size()) - sector.firstPortal;
  }

  addDevicePortals(graph, cells, sectorOf);
  addFallSectors(graph, cells, falls);
  // Waypath sectors come after the ground sectors the index holds: it stays valid.
  graph.index = SectorIndex(graph);
  addWaypaths(graph, warnings);
  sortPortalsBySource(graph);
  if (cellSectors) *cellSectors = sectorOf;
  return graph;
}

}  // namespace nav
