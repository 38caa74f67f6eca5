// Compression of cells into box sectors and portals.
//
// A sector is a rectangle of columns whose cells all share a material and are
// mutually connected to their rectangle neighbours (each step works both
// ways), so the unit can go anywhere inside it, and whose grounds lie close to
// one plane (stairs and ramps are one sector; a bumpy corridor is several). Rectangles are grown greedily
// from the lowest unassigned cell: first along +X, then row by row along +Z.
//
// Portals come from the cells on a sector's sides: consecutive side cells
// whose step leads into the same neighbour sector, and that agree on whether
// the neighbour steps back, form one directed portal. A two-way run therefore
// has an exact reverse portal and a one-way run has none.
#include "nav/compress.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

namespace nav {
namespace {

// Half a step: points on the real ground are then always within a step of the plane.
float planeTolerance(const UnitProfile& unit) { return std::clamp(unit.stepHeight * 0.5f, 0.05f, 0.5f); }

// Least-squares plane y = a*x + b*z + c over cell centres. On a full rectangle
// of columns x and z are uncorrelated, so the two slopes fit independently.
glm::vec3 fitHeightPlane(const CellGrid& grid, const std::vector<uint32_t>& cells) {
  double sx = 0, sz = 0, sy = 0;
  for (uint32_t c : cells) {
    const glm::vec3 p = grid.center(c);
    sx += p.x;
    sz += p.z;
    sy += p.y;
  }
  const double n = double(cells.size());
  const double mx = sx / n, mz = sz / n, my = sy / n;
  double xx = 0, zz = 0, xy = 0, zy = 0;
  for (uint32_t c : cells) {
    const glm::vec3 p = grid.center(c);
    xx += (p.x - mx) * (p.x - mx);
    zz += (p.z - mz) * (p.z - mz);
    xy += (p.x - mx) * (p.y - my);
    zy += (p.z - mz) * (p.y - my);
  }
  const double a = xx > 0 ? xy / xx : 0.0;
  const double b = zz > 0 ? zy / zz : 0.0;
  return glm::vec3(float(a), float(b), float(my - a * mx - b * mz));
}

// The sector's height plane, which must stay within `tolerance` of every
// cell's ground so that locating, drawing and path heights can trust it:
// level when the heights allow, else the least-squares fit; none when the
// cells are too far from any plane.
std::optional<glm::vec3> sectorPlane(const CellGrid& grid, const std::vector<uint32_t>& cells,
                                     float tolerance) {
  float yMin = grid[cells.front()].y, yMax = yMin;
  for (uint32_t c : cells) {
    yMin = std::min(yMin, grid[c].y);
    yMax = std::max(yMax, grid[c].y);
  }
  if (yMax - yMin <= 2.0f * tolerance) return glm::vec3(0.0f, 0.0f, (yMin + yMax) * 0.5f);
  const glm::vec3 plane = fitHeightPlane(grid, cells);
  for (uint32_t c : cells) {
    const glm::vec3 p = grid.center(c);
    if (std::abs(plane.x * p.x + plane.y * p.z + plane.z - p.y) > tolerance) return std::nullopt;
  }
  return plane;
}

class SectorBuilder {
 public:
  SectorBuilder(const CellGrid& cells, float planeTolerance)
      : m_cells(cells), m_planeTolerance(planeTolerance), m_sectorOf(cells.size(), kNoSector) {}

  uint32_t step(uint32_t cell, Direction d) const {
    return m_cells.neighbor(cell, d);
  }

  // The neighbour in direction d if the unit can step there and back, it is
  // free and has the same material; kNoCell otherwise.
  uint32_t mergeable(uint32_t cell, Direction d) const {
    const uint32_t next = step(cell, d);
    if (next == kNoCell || m_sectorOf[next] != kNoSector) return kNoCell;
    if (m_cells[next].material != m_cells[cell].material) return kNoCell;
    if (step(next, opposite(d)) != cell) return kNoCell;
    return next;
  }

  // Grows the largest rectangle from `first` (X first, then rows along Z) and
  // returns its cells row by row.
  std::vector<uint32_t> grow(uint32_t first) const {
    std::vector<uint32_t> row{first};
    for (uint32_t next = mergeable(first, Direction::PlusX); next != kNoCell;
         next = mergeable(row.back(), Direction::PlusX)) {
      row.push_back(next);
      if (!planarEnough(row)) {
        row.pop_back();
        break;
      }
    }
    std::vector<uint32_t> rect = row;
    for (;;) {
      std::vector<uint32_t> nextRow;
      nextRow.reserve(row.size());
      for (size_t i = 0; i < row.size(); ++i) {
        const uint32_t below = mergeable(row[i], Direction::PlusZ);
        if (below == kNoCell) break;
        // Within the new row each cell must connect both ways to the previous one.
        if (i > 0 && (step(nextRow.back(), Direction::PlusX) != below ||
                      step(below, Direction::MinusX) != nextRow.back()))
          break;
        nextRow.push_back(below);
      }
      if (nextRow.size() != row.size()) break;
      rect.insert(rect.end(), nextRow.begin(), nextRow.end());
      if (!planarEnough(rect)) {
        rect.resize(rect.size() - nextRow.size());
        break;
      }
      row = std::move(nextRow);
    }
    return rect;
  }

  void assign(const std::vector<uint32_t>& cells, uint32_t sector) {
    for (uint32_t c : cells) m_sectorOf[c] = sector;
  }

  std::vector<uint32_t>& sectorOf() { return m_sectorOf; }

 private:
  bool planarEnough(const std::vector<uint32_t>& cells) const {
    return sectorPlane(m_cells, cells, m_planeTolerance).has_value();
  }

  const CellGrid& m_cells;
  float m_planeTolerance;
  std::vector<uint32_t> m_sectorOf;
};

Sector makeSector(const CellGrid& grid, const std::vector<uint32_t>& cells, float tolerance) {
  Sector sector{};
  const Cell& first = grid[cells.front()];
  const Cell& last = grid[cells.back()];
  sector.firstColumn = {first.x, first.z};
  sector.lastColumn = {last.x, last.z};
  const float size = grid.cellSize();
  const glm::vec2 origin = grid.origin();
  float yMin = first.y, yMax = first.y;
  for (uint32_t c : cells) {
    yMin = std::min(yMin, grid[c].y);
    yMax = std::max(yMax, grid[c].y);
  }
  sector.bounds.min = {origin.x + float(first.x) * size, yMin, origin.y + float(first.z) * size};
  sector.bounds.max = {origin.x + float(last.x + 1) * size, yMax,
                       origin.y + float(last.z + 1) * size};
  // A single cell always has a plane, and growth only accepts planar rectangles.
  sector.heightPlane = *sectorPlane(grid, cells, tolerance);
  sector.material = first.material;
  return sector;
}

// One side cell's crossing: which sector it leads to and whether the step back works.
struct Crossing {
  uint32_t toSector;
  bool twoWay;
  bool operator==(const Crossing&) const = default;
};

}  // namespace

NavGraph compressCells(const CellGrid& cells, const UnitProfile& unit,
                       const std::vector<std::string>& materials, CellSectors* cellSectors) {
  NavGraph graph;
  graph.unit = unit;
  graph.cellSize = cells.cellSize();
  graph.origin = cells.origin();
  graph.materials = materials;

  // Lowest row first, then column, then height: deterministic and independent of fill order.
  std::vector<uint32_t> order(cells.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t l, uint32_t r) {
    const Cell &a = cells[l], &b = cells[r];
    return std::tie(a.z, a.x, a.y, l) < std::tie(b.z, b.x, b.y, r);
  });

  SectorBuilder builder(cells, planeTolerance(unit));
  std::vector<std::vector<uint32_t>> sectorCells;
  for (uint32_t c : order) {
    if (builder.sectorOf()[c] != kNoSector) continue;
    std::vector<uint32_t> rect = builder.grow(c);
    builder.assign(rect, uint32_t(graph.sectors.size()));
    graph.sectors.push_back(makeSector(cells, rect, planeTolerance(unit)));
    graph.bounds.grow(graph.sectors.back().bounds);
    sectorCells.push_back(std::move(rect));
  }
  const std::vector<uint32_t>& sectorOf = builder.sectorOf();

  // Portals, sector by sector, side by side.
  const float size = cells.cellSize();
  std::map<std::tuple<uint32_t, uint32_t, int, int32_t>, uint32_t> portalByKey;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    Sector& sector = graph.sectors[s];
    sector.firstPortal = uint32_t(graph.portals.size());
    const int32_t width = sector.lastColumn.x - sector.firstColumn.x + 1;
    const int32_t depth = sector.lastColumn.y - sector.firstColumn.y + 1;
    const std::vector<uint32_t>& rect = sectorCells[s];
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
        if (next == kNoCell) return std::nullopt;
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
        while (end < sideLength && crossingOf(sideCell(end)) == crossing) ++end;
        const glm::vec3 first = cells.center(sideCell(i));
        const glm::vec3 last = cells.center(sideCell(end - 1));
        // The crossing line is the shared edge; laterally the portal spans cell centres.
        const glm::vec3 offset(kDirectionDx[d] * size * 0.5f, 0.0f, kDirectionDz[d] * size * 0.5f);
        glm::vec3 a = first + offset, b = last + offset;
        const glm::vec2 walk(float(kDirectionDx[d]), float(kDirectionDz[d]));
        if (cross2(walk, groundOf(a) - groundOf(b)) > 0.0f) std::swap(a, b);
        Portal portal{s, crossing->toSector, a, b, direction, kNoPortal};
        const int32_t lateralStart = alongX ? cells[sideCell(i)].x : cells[sideCell(i)].z;
        portalByKey[{s, crossing->toSector, d, lateralStart}] = uint32_t(graph.portals.size());
        if (crossing->twoWay) {
          // The reverse side was (or will be) grouped identically; link once both exist.
          const auto reverse = portalByKey.find(
              {crossing->toSector, s, int(opposite(direction)), lateralStart});
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

  if (cellSectors) *cellSectors = sectorOf;
  return graph;
}

}  // namespace nav
