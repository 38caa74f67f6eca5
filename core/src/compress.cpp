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

#include "nav/locate.h"

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

struct HeightRange {
  float min, max;
  HeightRange with(float y) const { return {std::min(min, y), std::max(max, y)}; }
  float span() const { return max - min; }
};

class SectorBuilder {
 public:
  SectorBuilder(const CellGrid& cells, float planeTolerance,
                const std::vector<uint16_t>& surfaceOfMaterial)
      : m_cells(cells),
        m_planeTolerance(planeTolerance),
        m_surfaceOfMaterial(surfaceOfMaterial),
        m_sectorOf(cells.size(), kNoSector) {}

  uint16_t surface(uint32_t cell) const {
    const uint16_t material = m_cells[cell].material;
    return material < m_surfaceOfMaterial.size() ? m_surfaceOfMaterial[material] : 0;
  }

  uint32_t step(uint32_t cell, Direction d) const {
    return m_cells.neighbor(cell, d);
  }

  // The neighbour in direction d if the unit can step there and back, it is
  // free and on the same surface; kNoCell otherwise.
  uint32_t mergeable(uint32_t cell, Direction d) const {
    const uint32_t next = step(cell, d);
    if (next == kNoCell || m_sectorOf[next] != kNoSector) return kNoCell;
    if (surface(next) != surface(cell)) return kNoCell;
    if (step(next, opposite(d)) != cell) return kNoCell;
    return next;
  }

  // Grows the largest rectangle from `first` (X first, then rows along Z) and
  // returns its cells row by row.
  std::vector<uint32_t> grow(uint32_t first) const {
    // The plane check is linear in the sector's size; while the heights span
    // less than twice the tolerance it always passes, so it is skipped.
    HeightRange range{m_cells.height(first), m_cells.height(first)};
    std::vector<uint32_t> row{first};
    for (uint32_t next = mergeable(first, Direction::PlusX); next != kNoCell;
         next = mergeable(row.back(), Direction::PlusX)) {
      row.push_back(next);
      const HeightRange grown = range.with(m_cells.height(next));
      if (grown.span() > 2.0f * m_planeTolerance && !planarEnough(row)) {
        row.pop_back();
        break;
      }
      range = grown;
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
      HeightRange grown = range;
      for (uint32_t c : nextRow) grown = grown.with(m_cells.height(c));
      rect.insert(rect.end(), nextRow.begin(), nextRow.end());
      if (grown.span() > 2.0f * m_planeTolerance && !planarEnough(rect)) {
        rect.resize(rect.size() - nextRow.size());
        break;
      }
      range = grown;
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
  const std::vector<uint16_t>& m_surfaceOfMaterial;
  std::vector<uint32_t> m_sectorOf;
};

Sector makeSector(const CellGrid& grid, const std::vector<uint32_t>& cells, float tolerance,
                  uint16_t surface) {
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
  sector.surface = surface;
  sector.kind = SectorKind::Ground;
  sector.waypath = kNoWaypath;
  return sector;
}

// One side cell's crossing: which sector it leads to and whether the step back works.
struct Crossing {
  uint32_t toSector;
  bool twoWay;
  bool operator==(const Crossing&) const = default;
};

// One direction of a device: from the sectors its going-in zone covers to the
// sector of the cell the fill spawned at the centre of its coming-out zone.
void addDeviceDirection(NavGraph& graph, const CellGrid& cells, const std::vector<uint32_t>& sectorOf,
                        uint32_t device, bool reverse) {
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

void addDevicePortals(NavGraph& graph, const CellGrid& cells, const std::vector<uint32_t>& sectorOf) {
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
    for (const glm::vec3& point : waypath.points) located.push_back(locateSector(graph, point));
    Sector sector{};
    for (const glm::vec3& point : waypath.points) sector.bounds.grow(point);
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
  for (uint32_t i = 0; i < order.size(); ++i) newIndex[order[i]] = i;
  std::vector<Portal> sorted;
  sorted.reserve(order.size());
  for (uint32_t old : order) {
    Portal portal = graph.portals[old];
    if (portal.reverse != kNoPortal) portal.reverse = newIndex[portal.reverse];
    sorted.push_back(portal);
  }
  graph.portals = std::move(sorted);
  for (Sector& sector : graph.sectors) sector.portalCount = 0;
  for (const Portal& portal : graph.portals) ++graph.sectors[portal.fromSector].portalCount;
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

  SectorBuilder builder(cells, planeTolerance(unit), params.surfaceOfMaterial);
  std::vector<std::vector<uint32_t>> sectorCells;
  size_t visited = 0;
  for (uint32_t c : order) {
    if (control && (++visited & 65535u) == 0) {
      control->stageFraction.store(float(visited) / float(order.size()), std::memory_order_relaxed);
      if (control->cancelRequested.load(std::memory_order_relaxed)) return graph;
    }
    if (builder.sectorOf()[c] != kNoSector) continue;
    std::vector<uint32_t> rect = builder.grow(c);
    builder.assign(rect, uint32_t(graph.sectors.size()));
    graph.sectors.push_back(makeSector(cells, rect, planeTolerance(unit), builder.surface(c)));
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
        Portal portal{s, crossing->toSector, a, b, direction, PortalKind::Walk, 0, kNoPortal};
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

  addDevicePortals(graph, cells, sectorOf);
  // Waypath sectors come after the ground sectors the index holds: it stays valid.
  graph.index = SectorIndex(graph);
  addWaypaths(graph, warnings);
  sortPortalsBySource(graph);
  if (cellSectors) *cellSectors = sectorOf;
  return graph;
}

}  // namespace nav
